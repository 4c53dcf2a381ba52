"""Stores with latency: plain HTTP (no listing) and a zarr store with 20 ms per request.

The HTTP server binds 127.0.0.1 only, answers GET for files and 404 for folders (no listing,
like a static file host or an object store without ListBucket), and lives for one test module
at most (a timer shuts it down after 120 s whatever happens).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import threading
import warnings
from collections.abc import AsyncIterator, Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pytest
import xarray as xr
import zarr
import zarr.storage
from zarr.abc.store import ByteRequest
from zarr.core.buffer import Buffer, BufferPrototype
from zomgen_runtime import (
    NotFullyChecked,
    named_member_tree,
    read_document,
    validate_store,
    write_document,
)

from tests.support.runtime import STORES, V3_GROUP, convention, snapshot, v3_array, write_json

warnings.filterwarnings("ignore", category=UserWarning)


class _NoListing(SimpleHTTPRequestHandler):
    requests: list[tuple[str, str]]

    def list_directory(self, path: str | Any) -> None:
        self.send_error(404, "no listing here")

    def parse_request(self) -> bool:
        # every request, whatever its method, is recorded (only GET may ever be seen)
        parsed = super().parse_request()
        if parsed:
            type(self).requests.append((self.command, self.path))
        return parsed

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def http_root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, list[Any]]]:
    root = tmp_path_factory.mktemp("served")
    requests: list[tuple[str, str]] = []
    handler = type("Handler", (_NoListing,), {"requests": requests, "timeout": 10})
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    watchdog = threading.Timer(120, server.shutdown)
    watchdog.daemon = True
    watchdog.start()
    try:
        yield root, f"http://127.0.0.1:{server.server_address[1]}", requests
    finally:
        watchdog.cancel()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _experiment(root: Path) -> None:
    """A store for the named-members convention, plus one member nobody names."""
    write_json(root, "zarr.json", V3_GROUP)
    write_json(root, "raw/zarr.json", v3_array([4, 5], dimension_names=["y", "x"]))
    write_json(root, "labels/zarr.json", V3_GROUP)
    write_json(root, "labels/cells/zarr.json", v3_array([4, 5], dimension_names=["y", "x"]))
    write_json(root, "extra/zarr.json", v3_array([3], dimension_names=["t"]))


def test_http_store_loads_the_members_the_convention_names(http_root: Any) -> None:
    root, url, requests = http_root
    _experiment(root / "exp.zarr")
    schema = convention("named-members")
    # "extra" is a member no one names: without a listing the check cannot say valid
    with pytest.raises(NotFullyChecked) as raised:
        validate_store(f"{url}/exp.zarr", schema)
    assert [u.node_path for u in raised.value.unchecked] == ["/", "/labels"]
    assert validate_store(f"{url}/exp.zarr", schema, named_members_only=True) == []
    document, problems = read_document(f"{url}/exp.zarr", expected=named_member_tree(schema))
    assert problems == [] and document is not None
    # without a listing, "extra" cannot be found: only the named members are loaded
    assert set(document["members"]) == {"raw", "labels"}
    assert set(document["members"]["labels"]["members"]) == {"cells"}
    local, _ = read_document(root / "exp.zarr")
    assert local is not None and set(local["members"]) == {"raw", "labels", "extra"}
    assert {method for method, _path in requests} == {"GET"}
    # the root's HTML index is asked for (refused by this server), then no other folder's
    listed = {path for _m, path in requests if path.endswith("/")}
    assert listed == {"/exp.zarr/"}


def test_http_store_missing_named_member_is_reported(http_root: Any) -> None:
    root, url, _requests = http_root
    _experiment(root / "partial.zarr")
    shutil.rmtree(root / "partial.zarr" / "labels" / "cells")
    problems = validate_store(f"{url}/partial.zarr", convention("named-members"))
    assert [(p.node_path, p.pointer, p.keyword) for p in problems] == [
        ("/labels", "/members", "required")
    ]
    assert "'cells' is a required property" in problems[0].message


def test_http_ome_image_finds_its_datasets_through_the_attributes(http_root: Any) -> None:
    root, url, requests = http_root
    shutil.copytree(STORES / "ome2024-ngff-challenge" / "2d.zarr", root / "2d.zarr")
    schema = convention("ome-0.4-image")
    requests.clear()
    assert validate_store(f"{url}/2d.zarr", schema, named_members_only=True) == []
    document, _ = read_document(f"{url}/2d.zarr", expected=named_member_tree(schema))
    assert document is not None and set(document["members"]) == {"0"}
    assert ("GET", "/2d.zarr/0/.zarray") in requests


def test_http_consolidated_store_loads_whole(http_root: Any) -> None:
    root, url, requests = http_root
    ds = xr.Dataset({"t": (("y", "x"), np.zeros((2, 3)))}, coords={"y": [1, 2]})
    ds.to_zarr(root / "ds.zarr", zarr_format=2, consolidated=True, mode="w")
    requests.clear()
    remote, problems = read_document(f"{url}/ds.zarr", check_consolidated=False)
    assert problems == []
    assert remote == read_document(root / "ds.zarr")[0]
    assert remote is not None and set(remote["members"]) == {"t", "y"}
    assert len(requests) <= 5  # trusted: the root's files and .zmetadata, nothing per node
    requests.clear()
    # by default each node's own files are read too, to compare (the server cannot list)
    assert read_document(f"{url}/ds.zarr") == (remote, [])
    assert ("GET", "/ds.zarr/t/.zarray") in requests
    assert validate_store(f"{url}/ds.zarr", convention("xarray-v2")) == []


class _Listing(_NoListing):
    """Lists folders as `python -m http.server` does (an HTML index)."""

    def list_directory(self, path: str | Any) -> Any:
        return SimpleHTTPRequestHandler.list_directory(self, path)


def test_http_store_with_an_html_index_is_walked_like_a_folder(tmp_path: Path) -> None:
    """An unconsolidated store on a server that lists folders: one index per group, then
    each member's metadata; the same document as reading the folder, and arrays never listed."""
    root = tmp_path / "served"
    ds = xr.Dataset(
        {"t": (("y", "x"), np.zeros((2, 3))), "u v": (("x",), np.ones(3))},
        coords={"y": [1, 2]},
    )
    ds.to_zarr(root / "ds.zarr", zarr_format=3, consolidated=False, mode="w")
    requests: list[tuple[str, str]] = []
    handler = type("Handler", (_Listing,), {"requests": requests, "timeout": 10})
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/ds.zarr"
        remote, problems = read_document(url)
        assert problems == []
        assert remote == read_document(root / "ds.zarr")[0]
        assert remote is not None and set(remote["members"]) == {"t", "u v", "y"}
        listed = [path for _method, path in requests if path.endswith("/")]
        assert listed == ["/ds.zarr/"]  # the group's index alone: no array folder is listed
        assert validate_store(url, convention("xarray-v3")) == []
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_a_chained_fsspec_url_is_read(tmp_path: Path) -> None:
    """`simplecache::http://...` (fsspec's chained URLs) failed with a RuntimeError from
    aiohttp for every file (issue 53): it is read as the folder is."""
    root = tmp_path / "served"
    xr.Dataset({"t": (("x",), np.zeros(3))}).to_zarr(
        root / "ds.zarr", zarr_format=2, consolidated=False, mode="w"
    )
    handler = type("Handler", (_Listing,), {"requests": [], "timeout": 10})
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        url = f"simplecache::http://127.0.0.1:{server.server_address[1]}/ds.zarr"
        remote, problems = read_document(url)
        assert problems == []
        assert remote == read_document(root / "ds.zarr")[0]
        assert validate_store(url, convention("xarray-v2")) == []
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_http_missing_store_is_a_store_error(http_root: Any) -> None:
    _root, url, _requests = http_root
    from zomgen_runtime import StoreError

    with pytest.raises(StoreError) as caught:
        validate_store(f"{url}/nothing.zarr", convention("xarray-v3"))
    assert caught.value.problems[0].node_path == "/"
    with pytest.raises(StoreError):
        validate_store("http://127.0.0.1:9/x.zarr", convention("xarray-v3"))  # nothing listens


class SlowStore(zarr.storage.WrapperStore[zarr.storage.MemoryStore]):
    """A store that answers every request after 20 ms, counting requests in flight."""

    def __init__(self, store: zarr.storage.MemoryStore) -> None:
        super().__init__(store)
        self.in_flight = 0
        self.max_in_flight = 0
        self.requests = 0

    async def _slow(self) -> None:
        self.requests += 1
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await asyncio.sleep(0.02)
        finally:
            self.in_flight -= 1

    async def get(
        self, key: str, prototype: BufferPrototype, byte_range: ByteRequest | None = None
    ) -> Buffer | None:
        await self._slow()
        return await self._store.get(key, prototype, byte_range)

    async def exists(self, key: str) -> bool:
        await self._slow()
        return await self._store.exists(key)

    async def set(self, key: str, value: Buffer) -> None:
        await self._slow()
        await self._store.set(key, value)

    async def list_dir(self, prefix: str) -> AsyncIterator[str]:
        await self._slow()
        async for name in self._store.list_dir(prefix):
            yield name


def _hierarchy(zarr_format: Literal[2, 3]) -> zarr.storage.MemoryStore:
    memory = zarr.storage.MemoryStore()
    group = zarr.open_group(memory, mode="w", zarr_format=zarr_format)
    for g in range(3):
        sub = group.create_group(f"g{g}")
        for a in range(10):
            sub.create_array(f"a{a}", shape=(2,), dtype="int8")
    return memory


@pytest.mark.parametrize("zarr_format", [2, 3])
def test_slow_store_is_read_with_many_requests_in_flight(zarr_format: Literal[2, 3]) -> None:
    memory = _hierarchy(zarr_format)
    expected, _ = read_document(memory)
    slow = SlowStore(memory)
    document, problems = read_document(slow)
    assert problems == [] and document == expected
    assert document is not None and len(document["members"]["g0"]["members"]) == 10
    assert slow.max_in_flight > 1, "the walk sent one request at a time"


def test_slow_store_consolidated_needs_a_handful_of_requests() -> None:
    memory = _hierarchy(3)
    zarr.consolidate_metadata(memory)
    slow = SlowStore(memory)
    document, problems = read_document(slow, check_consolidated=False)
    assert problems == [] and document is not None
    assert slow.requests <= 5
    assert len(document["members"]) == 3


def test_slow_store_is_written_with_many_requests_in_flight() -> None:
    document, _ = read_document(_hierarchy(3))
    assert document is not None
    slow = SlowStore(zarr.storage.MemoryStore())
    assert write_document(document, slow) == []
    assert slow.max_in_flight > 1
    assert read_document(slow) == (document, [])


def test_reading_a_served_store_changes_nothing(http_root: Any) -> None:
    root, url, _requests = http_root
    before = snapshot(root)
    for name in ("exp.zarr", "2d.zarr", "ds.zarr"):
        if (root / name).exists():
            read_document(f"{url}/{name}")
    assert snapshot(root) == before
    assert json.loads((root / "exp.zarr" / "zarr.json").read_text()) == V3_GROUP
