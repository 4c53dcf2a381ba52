"""The walk of a remote store does not wait for a whole level (runtime/streamed.py), and its
result does not depend on the order the store answers in.

A server on 127.0.0.1 lists folders as HTML indexes (as `python -m http.server` does) and
answers each request after a delay of its own: random (seeded), or longer for names that sort
first, so that answers arrive in an order unlike the order they were asked in. Each server
lives for one test (a timer shuts it down after 120 s whatever happens).
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import xarray as xr
from zomgen_runtime import read_document
from zomgen_runtime.httpget import UrllibClient, client_for
from zomgen_runtime.inflight import LoopRequests
from zomgen_runtime.members import named_member_tree
from zomgen_runtime.origins import RedirectPolicy
from zomgen_runtime.sources import Fetched, Job, Listing

from tests.support.runtime import (
    V3_GROUP,
    convention,
    ome_image_with_labels,
    v3_array,
    write_json,
)


class _Delayed(SimpleHTTPRequestHandler):
    """Every request answered after `delay(path)` seconds; paths holding `boom` answer 500.
    Counts the requests in flight and records when each path was asked for."""

    delay: Any
    stats: dict[str, Any]

    def parse_request(self) -> bool:
        parsed = super().parse_request()
        if self.path.startswith("http://"):  # the absolute form a client sends to a proxy
            self.path = "/" + self.path.split("/", 3)[3]
        stats = type(self).stats
        with stats["lock"]:
            stats["in_flight"] += 1
            stats["max_in_flight"] = max(stats["max_in_flight"], stats["in_flight"])
            stats["asked"][self.path] = time.monotonic()
            stats["counts"][self.path] = stats["counts"].get(self.path, 0) + 1
        try:
            time.sleep(type(self).delay(self.path))
        finally:
            with stats["lock"]:
                stats["in_flight"] -= 1
        return parsed

    def send_head(self) -> Any:
        if "boom" in self.path:
            self.send_error(500, "it broke")
            return None
        return super().send_head()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def _serving(
    root: Path, delay: Any, base: type[_Delayed] | None = None
) -> Iterator[tuple[str, dict[str, Any]]]:
    stats: dict[str, Any] = {
        "lock": threading.Lock(),
        "in_flight": 0,
        "max_in_flight": 0,
        "asked": {},
        "counts": {},
    }
    attributes = {"delay": staticmethod(delay), "stats": stats, "timeout": 10}
    handler = type("Handler", (base or _Delayed,), attributes)
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
    server.daemon_threads = True
    server.socket.listen(256)  # the default backlog of 5 refuses 64 connections at once
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    watchdog = threading.Timer(120, server.shutdown)
    watchdog.daemon = True
    watchdog.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", stats
    finally:
        watchdog.cancel()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _troubled(root: Path) -> Path:
    """A v3 hierarchy with a problem in many groups at several depths, and 12 good arrays in
    each group, so that answers can come in many orders."""
    store = root / "t.zarr"
    write_json(store, "zarr.json", V3_GROUP)
    for group in ("a", "b", "b/c", "z", "z/e"):
        write_json(store, f"{group}/zarr.json", V3_GROUP)
        for i in range(12):
            write_json(store, f"{group}/v{i:02}/zarr.json", v3_array([2]))
    (store / "a" / "bad").mkdir()
    (store / "a" / "bad" / "zarr.json").write_text("not json", "utf-8")
    (store / "a" / "nan").mkdir()
    (store / "a" / "nan" / "zarr.json").write_text('{"zarr_format": 3, "x": NaN}', "utf-8")
    write_json(store, "b/__reserved/zarr.json", V3_GROUP)
    write_json(store, "b/old/.zgroup", {"zarr_format": 2})
    write_json(store, "b/c/boom/zarr.json", v3_array([1]))
    write_json(store, "z/members_key/zarr.json", {**V3_GROUP, "members": {}})
    (store / "z" / "e" / "deeper").mkdir()  # no metadata: not a node, skipped in silence
    return store


# The problems, in the order the level-by-level walk gave them: by depth, a level's listings
# before its members' reads, and in the order of each listing.
_EXPECTED = [
    ("/a/bad", "zarr.json is not JSON"),
    ("/a/nan", "zarr.json"),
    ("/b/__reserved", "forbidden node name '__reserved'"),
    ("/b/old", "a Zarr v2 node in a Zarr v3 hierarchy"),
    ("/z/members_key", "the metadata holds a 'members' key"),
    ("/b/c/boom", "zarr.json: HTTP 500"),
]


def _summary(problems: list[Any]) -> list[tuple[str, str]]:
    return [(p.node_path, p.message) for p in problems]


def _matches(found: list[tuple[str, str]]) -> bool:
    return len(found) == len(_EXPECTED) and all(
        path == want_path and message.startswith(want)
        for (path, message), (want_path, want) in zip(found, _EXPECTED)
    )


def _late_first(path: str) -> float:
    """Names that sort first answer last: the answers come in about the reverse order."""
    name = path.rstrip("/").rsplit("/", 2)[-2 if path.endswith("zarr.json") else -1]
    return 0.001 + 0.03 * max(0, 1 - sum(ord(c) for c in name[:3]) / 400)


def test_problems_and_members_do_not_depend_on_the_order_of_answers(tmp_path: Path) -> None:
    _troubled(tmp_path)
    results = []
    delays: list[Any] = [_late_first]
    for seed in (1, 2, 3):
        generator = random.Random(seed)
        lock = threading.Lock()

        def delay(_path: str, generator: random.Random = generator, lock: Any = lock) -> float:
            with lock:
                return generator.uniform(0.0, 0.03)

        delays.append(delay)
    for delay in delays:
        with _serving(tmp_path, delay) as (url, _stats):
            document, problems = read_document(f"{url}/t.zarr")
        found = _summary(problems)
        assert _matches(found), found
        # json.dumps keeps the order of the members: each group's, sorted by name
        results.append((json.dumps(document), found))
    assert all(result == results[0] for result in results)
    document = json.loads(results[0][0])
    assert list(document["members"]) == ["a", "b", "z"]
    assert list(document["members"]["a"]["members"]) == [f"v{i:02}" for i in range(12)]
    assert "deeper" not in document["members"]["z"]["members"]["e"]["members"]


def test_the_same_document_as_the_folder_gives(tmp_path: Path) -> None:
    store = tmp_path / "ds.zarr"
    xr.Dataset({f"v{i}": (("x",), [1.0, 2.0]) for i in range(30)}).to_zarr(
        store, zarr_format=3, consolidated=False
    )
    with _serving(tmp_path, lambda _path: random.uniform(0.0, 0.02)) as (url, stats):
        remote = read_document(f"{url}/ds.zarr")
    local = read_document(store)
    assert json.dumps(remote[0]) == json.dumps(local[0]) and remote[1] == local[1] == []
    assert 1 < stats["max_in_flight"] <= 64


def test_a_group_is_listed_before_a_slow_member_of_its_level_answers(tmp_path: Path) -> None:
    """No barrier between levels: `fast`'s members are read while `slow/zarr.json`, a member
    of the same level, is still on its way."""
    store = tmp_path / "s.zarr"
    write_json(store, "zarr.json", V3_GROUP)
    write_json(store, "slow/zarr.json", V3_GROUP)
    write_json(store, "fast/zarr.json", V3_GROUP)
    write_json(store, "fast/deep/zarr.json", v3_array([1]))

    def delay(path: str) -> float:
        return 0.5 if path == "/s.zarr/slow/zarr.json" else 0.0

    with _serving(tmp_path, delay) as (url, stats):
        document, problems = read_document(f"{url}/s.zarr")
    assert problems == [] and document is not None
    assert set(document["members"]) == {"slow", "fast"}
    asked = stats["asked"]
    assert asked["/s.zarr/fast/deep/zarr.json"] < asked["/s.zarr/slow/zarr.json"] + 0.4


def test_the_members_a_convention_names_are_read_while_their_group_is_listed(
    tmp_path: Path,
) -> None:
    """Listings answer slowly here. The levels an OME-Zarr image's `datasets` name, and the
    label its `labels` group lists, are asked for together with their group's listing, and each
    file once. A level the image names but the store lacks is asked for too; the listing does
    not show it, so its answer is dropped: the document and problems are the folder's."""
    store = tmp_path / "img.zarr"
    ome_image_with_labels(store, "0.5")
    metadata = json.loads((store / "zarr.json").read_text("utf-8"))
    datasets = metadata["attributes"]["ome"]["multiscales"][0]["datasets"]
    datasets.append({**datasets[-1], "path": "missing"})
    (store / "zarr.json").write_text(json.dumps(metadata), "utf-8")
    tree = named_member_tree(convention("ome-ngff-05-image"))

    def delay(path: str) -> float:
        return 0.4 if path.endswith("/") else 0.0

    with _serving(tmp_path, delay) as (url, stats):
        remote = read_document(f"{url}/img.zarr", expected=tree)
    local = read_document(store, expected=tree)
    assert remote[0] is not None and json.dumps(remote[0]) == json.dumps(local[0])
    assert _summary(remote[1]) == _summary(local[1]) == []
    assert "missing" not in remote[0]["members"] and "labels" in remote[0]["members"]
    asked, counts = stats["asked"], stats["counts"]
    for level in ("s0", "s1", "missing"):  # while the image's listing (0.4 s) is on its way
        assert asked[f"/img.zarr/{level}/zarr.json"] < asked["/img.zarr/"] + 0.3
    labels_listed = asked["/img.zarr/labels/"]
    assert asked["/img.zarr/labels/cells/zarr.json"] < labels_listed + 0.3
    assert set(counts.values()) == {1}, {k: n for k, n in counts.items() if n > 1}


def test_through_a_proxy_the_walk_is_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """urllib's pool of threads (where a proxy is configured) hands answers over in the
    caller's thread: the same problems, in the same order."""
    store = _troubled(tmp_path)
    with _serving(tmp_path, lambda _path: random.uniform(0.0, 0.01)) as (url, _stats):
        direct = read_document(f"{url}/t.zarr")
        monkeypatch.setenv("http_proxy", url)  # the test server serves the proxy form too
        monkeypatch.delenv("no_proxy", raising=False)
        monkeypatch.delenv("NO_PROXY", raising=False)
        proxied_url = f"{url}/t.zarr"
        assert isinstance(
            client_for(proxied_url, 10.0, 4, RedirectPolicy(proxied_url)), UrllibClient
        )
        proxied = read_document(proxied_url)
    assert store.exists()
    assert json.dumps(proxied[0]) == json.dumps(direct[0])
    assert _summary(proxied[1]) == _summary(direct[1]) and _matches(_summary(direct[1]))


def test_a_failing_step_stops_every_request_before_it_is_raised() -> None:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    running = 0

    async def one(job: Job) -> Fetched | Listing:
        nonlocal running
        running += 1
        try:
            await asyncio.sleep(0.01 if job.tag == 1 else 5)
        finally:
            running -= 1
        return b"{}"

    def answered(tag: int, answer: Fetched | Listing) -> list[Job]:
        raise RuntimeError(f"step {tag} failed")

    try:
        requests = LoopRequests(loop, one, 8)
        with pytest.raises(RuntimeError, match="step 1 failed"):
            requests.run([Job(tag, f"k{tag}", 10) for tag in range(1, 9)], answered)
        assert running == 0  # the other seven were cancelled, not left running
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)
        loop.close()


class _NoIndexes(_Delayed):
    """A server that lists no folder: every folder URL answers 404."""

    def list_directory(self, path: Any) -> Any:
        self.send_error(404, "no index")
        return None


def test_a_server_without_indexes_is_asked_for_the_root_index_only(tmp_path: Path) -> None:
    """After the root's index answers 404, no other folder is asked for one: the members the
    convention names are probed. A named member the store lacks (the labels group's `nuclei`)
    costs its v3 file and v2's two node files, not `.zattrs`; a v2 node where a v3 one is
    named is still reported. The document and problems are the folder's."""
    store = tmp_path / "img.zarr"
    ome_image_with_labels(store, "0.5")
    labels = json.loads((store / "labels" / "zarr.json").read_text("utf-8"))
    labels["attributes"]["ome"]["labels"] += ["nuclei", "old"]
    write_json(store, "labels/zarr.json", labels)
    write_json(store, "labels/old/.zgroup", {"zarr_format": 2})
    tree = named_member_tree(convention("ome-ngff-05-image"))
    with _serving(tmp_path, lambda _path: 0.0, _NoIndexes) as (url, stats):
        remote = read_document(f"{url}/img.zarr", expected=tree)
    local = read_document(store, expected=tree)
    assert remote[0] is not None and json.dumps(remote[0]) == json.dumps(local[0])
    assert _summary(remote[1]) == _summary(local[1])
    assert ("/labels/old", "a Zarr v2 node in a Zarr v3 hierarchy") in _summary(remote[1])
    counts = stats["counts"]
    assert [path for path in counts if path.endswith("/")] == ["/img.zarr/"]
    nuclei = sorted(path for path in counts if "/nuclei/" in path)
    assert nuclei == [f"/img.zarr/labels/nuclei/{f}" for f in (".zarray", ".zgroup", "zarr.json")]
    assert set(counts.values()) == {1}
