"""`create` takes a local store (folder or zip) for itself: of several processes writing one
store at once, one wins and the others are told so, with nothing mixed; a lock left by a killed
`create` is reported by the next one instead of its leftovers being adopted.

Before the lock, 4 to 5 of 5 races ended with both processes succeeding: one root replaced the
other and the members merged, or v2 and v3 root files stood side by side."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import StoreError, read_document, write_document
from zomgen_runtime.store_lock import LOCK_NAME

from tests.support.paths import ROOT

pytestmark = pytest.mark.slow

RACERS = 4
RACES = 5
MEMBERS = 150

_RACER = """
import json, sys, time
from zomgen_runtime import StoreError, write_document
store, version, name, start = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
node = {"zarr_format": version, "node_type": "group", "attributes": {"by": name}}
if version == 2:
    node = {"zarr_format": 2, "attributes": {"by": name}}
members = {f"{name}_{i}": dict(node) for i in range(int(sys.argv[5]))}
while time.time() < start:
    pass
try:
    problems = write_document({**node, "members": members}, store)
    print(json.dumps({"won": not problems, "why": [p.message for p in problems]}))
except StoreError as error:
    print(json.dumps({"won": False, "why": [str(error)]}))
"""

_HOLDER = """
import sys
from zomgen_runtime.store_lock import CreateLock
lock = CreateLock(sys.argv[1])
lock.take(overwrite=False)
print("held", flush=True)
sys.stdin.read()
lock.release()
"""


def _python(code: str, *args: str, **kwargs: Any) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", code, *args]
    return subprocess.Popen(command, text=True, stdout=subprocess.PIPE, env=env, **kwargs)


@pytest.mark.parametrize("kind", ["folder", "zip"])
def test_of_racing_creates_one_wins_and_the_store_is_its_hierarchy(
    tmp_path: Path, kind: str
) -> None:
    for race in range(RACES):
        store = str(tmp_path / (f"race{race}.zip" if kind == "zip" else f"race{race}"))
        start = time.time() + 1.5  # every racer has imported zomgen by then
        racers = [
            _python(_RACER, store, str(2 + i % 2), f"p{i}", str(start), str(MEMBERS))
            for i in range(RACERS)
        ]
        outcomes = [json.loads(r.communicate(timeout=120)[0]) for r in racers]
        winners = [i for i, outcome in enumerate(outcomes) if outcome["won"]]
        assert len(winners) == 1, outcomes
        for i, outcome in enumerate(outcomes):
            if i != winners[0]:
                (why,) = outcome["why"][:1]
                assert "another create is writing this store" in why or "already exists" in why
        document, problems = read_document(store, use_consolidated=False)
        assert not problems
        winner = f"p{winners[0]}"
        assert document["attributes"] == {"by": winner}
        assert sorted(document["members"]) == sorted(f"{winner}_{i}" for i in range(MEMBERS))
        assert all(m["attributes"] == {"by": winner} for m in document["members"].values())
        lock = Path(store + LOCK_NAME if kind == "zip" else os.path.join(store, LOCK_NAME))
        assert not lock.exists()


@pytest.mark.parametrize("kind", ["folder", "zip"])
def test_the_loser_is_told_who_holds_the_store(tmp_path: Path, kind: str) -> None:
    store = tmp_path / ("s.zip" if kind == "zip" else "s")
    if kind == "folder":
        store.mkdir()
    lock = str(store) + LOCK_NAME if kind == "zip" else str(store / LOCK_NAME)
    holder = _python(_HOLDER, lock, stdin=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(
            StoreError, match=rf"another create is writing this store .*pid {holder.pid}"
        ):
            write_document({"zarr_format": 3, "node_type": "group", "attributes": {}}, str(store))
    finally:
        holder.communicate("")
    assert not store.exists() if kind == "zip" else list(store.iterdir()) == []


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_what_a_killed_create_left_is_reported_not_adopted(tmp_path: Path) -> None:
    store = tmp_path / "store"
    writer = _python(
        "import sys\n"
        "from zomgen_runtime import write_document\n"
        "g = {'zarr_format': 3, 'node_type': 'group', 'attributes': {}}\n"
        "write_document({**g, 'members': {f'm{i}': dict(g) for i in range(20000)}}, sys.argv[1])\n",
        str(store),
    )
    deadline = time.time() + 60
    while len(list(store.glob("m*/zarr.json"))) < 50 and time.time() < deadline:
        time.sleep(0.005)
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    assert (store / LOCK_NAME).exists() and not (store / "zarr.json").exists()
    left = _files(store)

    other = {"zarr_format": 3, "node_type": "group", "attributes": {"next": True}}
    with pytest.raises(StoreError, match=rf"did not finish \(zomgen create pid {writer.pid}"):
        write_document({**other, "members": {"new": dict(other)}}, str(store))
    assert _files(store) == left  # reported, nothing adopted, nothing changed

    assert write_document(other, str(store), overwrite=True) == []  # the user says: write over
    assert not (store / LOCK_NAME).exists()
    assert json.loads((store / "zarr.json").read_bytes())["attributes"] == {"next": True}


def test_a_create_leaves_no_lock_and_no_folder_it_made(tmp_path: Path) -> None:
    group = {"zarr_format": 3, "node_type": "group", "attributes": {}}
    store = tmp_path / "store"
    assert write_document(group, str(store)) == []
    assert sorted(os.listdir(store)) == ["zarr.json"]
    assert write_document(group, str(store))  # exists: a problem, and still no lock file
    assert sorted(os.listdir(store)) == ["zarr.json"]
    zip_store = tmp_path / "s.zip"
    assert write_document(group, str(zip_store)) == []
    assert sorted(os.listdir(tmp_path)) == ["s.zip", "store"]
