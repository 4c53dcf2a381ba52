"""Reading stays inside the store it was given: a symlink that leads out of it (a colleague's
store linking to their home) is a problem at its node and nothing of the file reached is read or
printed; names the OS hands over that are not UTF-8 are problems, and reports stay printable."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import zarr.storage
from zomgen_runtime import StoreError, validate_store
from zomgen_runtime.sources import LEAVES_STORE

from tests.support.cli import run_zomgen
from tests.support.paths import ROOT

SECRET = "hunter2-do-not-print"
V3_SCHEMA = ROOT / "schemas" / "zom" / "v3.schema.json"
V2_SCHEMA = ROOT / "schemas" / "zom" / "v2.schema.json"
GROUP = {"zarr_format": 3, "node_type": "group", "attributes": {}}


def _schema(path: Path) -> dict[str, Any]:
    from zomgen.schema.bundle import bundle
    from zomgen.schema.registry import load_schema_set

    return bundle(load_schema_set(path, []))


def _write(path: Path, content: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content))


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """Someone's private files, outside every store."""
    home = tmp_path / "home"
    _write(home / "secret" / "zarr.json", {**GROUP, "password": SECRET})
    _write(home / "secret.json", {"password": SECRET})
    return home


def _messages(problems: list[Any]) -> str:
    return "\n".join(str(p) for p in problems)


def test_v3_links_out_are_problems_at_their_node_and_links_inside_are_read(
    tmp_path: Path, home: Path
) -> None:
    store = tmp_path / "store"
    _write(store / "zarr.json", GROUP)
    _write(store / "inside" / "zarr.json", {**GROUP, "attributes": {"here": 1}})
    os.symlink(home / "secret", store / "folder_out")  # a member folder that leaves
    (store / "file_out").mkdir()
    os.symlink(home / "secret.json", store / "file_out" / "zarr.json")  # a metadata file
    (store / "file_in").mkdir()
    os.symlink(store / "inside" / "zarr.json", store / "file_in" / "zarr.json")
    (store / "deep").mkdir()
    _write(store / "deep" / "zarr.json", GROUP)
    os.symlink(home, store / "deep" / "via")  # below it: home/secret is a group
    for opened in (str(store), zarr.storage.LocalStore(store, read_only=True)):
        problems = validate_store(opened, _schema(V3_SCHEMA))
        messages = _messages(problems)
        assert SECRET not in messages
        left = {p.node_path for p in problems if LEAVES_STORE in p.message}
        assert left == {"/folder_out", "/file_out", "/deep/via"}, messages
        assert "/file_in" not in {p.node_path for p in problems}, messages


def test_v2_attributes_linked_out_are_not_read(tmp_path: Path, home: Path) -> None:
    store = tmp_path / "store"
    _write(store / ".zgroup", {"zarr_format": 2})
    _write(store / "a" / ".zgroup", {"zarr_format": 2})
    os.symlink(home / "secret.json", store / "a" / ".zattrs")
    problems = validate_store(str(store), _schema(V2_SCHEMA))
    assert SECRET not in _messages(problems)
    assert [p.node_path for p in problems if LEAVES_STORE in p.message] == ["/a"]


def _zomgen(*args: str) -> subprocess.CompletedProcess[str]:
    # PYTHONIOENCODING=utf-8: a strict UTF-8 stdout, as on most desktops and CI machines; read
    # back strictly, so output that is not valid UTF-8 raises
    return run_zomgen(*args, env={"PYTHONIOENCODING": "utf-8"})


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS file systems refuse non-UTF-8 names")
def test_a_folder_name_that_is_not_utf8_is_a_problem_and_reports_stay_printable(
    tmp_path: Path,
) -> None:
    store = tmp_path / "store"
    _write(store / "zarr.json", GROUP)
    bad = os.fsencode(store) + b"/bad\xff"
    os.mkdir(bad)
    with open(bad + b"/zarr.json", "w") as handle:
        json.dump(GROUP, handle)
    text = _zomgen("validate", str(store), "--schema", str(V3_SCHEMA))
    assert text.returncode == 1, text.stderr
    report = text.stdout  # valid UTF-8, or run_zomgen raised
    assert "/bad\\udcff: forbidden node name" in report
    assert "not UTF-8" in report
    as_json = _zomgen("validate", str(store), "--schema", str(V3_SCHEMA), "--format", "json")
    assert as_json.returncode == 1
    problems = json.loads(as_json.stdout)["problems"]
    assert [p["node_path"] for p in problems] == ["/bad\udcff"]


@pytest.mark.parametrize("store, path", [("NUL", ""), ("ok", "a\x00b")])
def test_a_nul_in_a_path_is_a_store_error(tmp_path: Path, store: str, path: str) -> None:
    folder = tmp_path / "store"
    _write(folder / "zarr.json", GROUP)
    argument = f"{folder}\x00x" if store == "NUL" else str(folder)
    with pytest.raises(StoreError, match="NUL"):
        validate_store(argument, _schema(V3_SCHEMA), path)
