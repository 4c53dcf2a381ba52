"""A disk that fills during `create` loses nothing: an existing zip store is still the zip it was
(it is rewritten into a new file and swapped in), a folder store is as it was (what was written
is undone), and the caller gets a StoreError, not a raw OSError.

The disk is a 2 MiB tmpfs mounted in a user namespace (`unshare -rm`) where the machine allows
it, and in every case also a stand-in: a file-size limit (RLIMIT_FSIZE), under which a write
past the limit fails with EFBIG as a full disk fails with ENOSPC. Before the fix, the zip store
of 21 nodes written by zarr-python could no longer be read at all."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import ROOT

_SCENARIO = r"""
import json, os, resource, signal, sys
import numpy as np
import zarr
from zomgen_runtime import StoreError, read_document, write_document

folder, disk = sys.argv[1], sys.argv[2]
zip_path = os.path.join(folder, "store.zip")
with zarr.storage.ZipStore(zip_path, mode="w") as zip_store:  # 21 nodes, written by zarr
    group = zarr.create_group(zip_store, attributes={"lab": "x"})
    for i in range(20):
        group.create_array(f"a{i}", shape=(200,), chunks=(50,), dtype="f8")[:] = np.arange(200.0)
dir_path = os.path.join(folder, "dir")
small = {"zarr_format": 3, "node_type": "group", "attributes": {"kept": True}}
assert write_document({**small, "members": {f"m{i}": dict(small) for i in range(20)}}, dir_path) == []

def files(top):  # every file with its bytes, and every folder (None): no empty folder left
    found = {os.path.relpath(os.path.join(d, n), folder): open(os.path.join(d, n), "rb").read()
             for d, _, names in os.walk(top) for n in names if n != "filler"}
    found.update({os.path.relpath(d, folder): None for d, _, _ in os.walk(top)})
    return found

before = files(folder)
zip_document = read_document(zip_path)[0]
dir_document = read_document(dir_path)[0]

big = {"zarr_format": 3, "node_type": "group", "attributes": {"blob": "x" * 300_000}}
new = {**small, "members": {**{f"n{i}": dict(small) for i in range(30)}, "big": big}}

if disk == "tmpfs":  # fill the disk but 16 KiB: the writes start, then fail part way
    with open(os.path.join(folder, "filler"), "wb", buffering=0) as filler:
        try:
            while True:
                filler.write(b"\0" * 4096)
        except OSError:
            pass
    with open(os.path.join(folder, "filler"), "r+b") as filler:
        filler.truncate(max(0, os.path.getsize(filler.name) - 16384))
else:  # no file may grow past the zip's size + 16 KiB
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    limit = os.path.getsize(zip_path) + 16384
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))

outcome = {}
for name, store, path in [("zip", zip_path, "added"), ("dir", dir_path, "")]:
    try:
        problems = write_document(new, store, path, overwrite=True)
        outcome[name] = "written" if not problems else [p.message for p in problems]
    except StoreError as error:
        outcome[name] = "StoreError: " + str(error)
    except BaseException as error:
        outcome[name] = f"raw {type(error).__name__}: {error}"
outcome["unchanged"] = files(folder) == before
outcome["left over"] = sorted(set(files(folder)) - set(before))
outcome["zip reads the same"] = read_document(zip_path) == (zip_document, [])
outcome["dir reads the same"] = read_document(dir_path) == (dir_document, [])
print(json.dumps(outcome))
"""


def _can_mount_tmpfs() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /tmp"],
        check=False,
        capture_output=True,
    )
    return probe.returncode == 0


_DISKS = ["file-size limit", *(["2 MiB tmpfs"] if _can_mount_tmpfs() else [])]


@pytest.mark.parametrize("disk", _DISKS)
def test_a_full_disk_during_create_loses_nothing(tmp_path: Path, disk: str) -> None:
    folder = tmp_path / "disk"
    folder.mkdir()
    script = tmp_path / "scenario.py"
    script.write_text(_SCENARIO)
    run = [sys.executable, str(script), str(folder)]
    if disk == "2 MiB tmpfs":
        mount = f'mount -t tmpfs -o size=2m tmpfs {folder} && exec "$@"'
        command = ["unshare", "-rm", "sh", "-c", mount, "sh", *run, "tmpfs"]
    else:
        command = [*run, "rlimit"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        command, check=False, capture_output=True, text=True, env=env, timeout=300
    )
    assert result.returncode == 0, result.stderr
    outcome: dict[str, Any] = json.loads(result.stdout)
    assert outcome["zip"].startswith("StoreError: "), outcome
    assert "the zip is as it was" in outcome["zip"]
    assert outcome["dir"].startswith("StoreError: "), outcome
    assert "what was written was undone" in outcome["dir"]
    assert outcome["left over"] == []
    assert outcome["unchanged"], outcome
    assert outcome["zip reads the same"] and outcome["dir reads the same"]
