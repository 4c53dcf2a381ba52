"""`write_document` (what every package's `create` calls) and `zomgen build` refuse, before
writing a byte, what would lose a user's files or write outside the folder they named: existing
metadata without `overwrite`, symlinks that lead out, names the file system cannot hold, a file
that is not a zip. Every refusal is a problem or a StoreError, never a raw OSError."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
import zarr
from zomgen_runtime import StoreError, read_document, write_document, writing

from tests.support.cli import run_zomgen
from tests.support.paths import ROOT

GROUP: dict[str, Any] = {"zarr_format": 3, "node_type": "group", "attributes": {}}


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file below `folder` (symlinks not followed) with its bytes."""
    found: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            found[path.relative_to(folder).as_posix()] = path.read_bytes()
    return found


def _with_member(name: str) -> dict[str, Any]:
    return {**GROUP, "members": {name: dict(GROUP)}}


def test_a_store_holding_only_consolidated_metadata_is_not_overwritten(tmp_path: Path) -> None:
    """GDAL writes v2 stores whose hierarchy lives only in `.zmetadata`; zomgen's reader sees it
    there, so `create` must too. (Written by zarr-python, then the per-node files removed as
    GDAL leaves them.)"""
    store = tmp_path / "gdal.zarr"
    root = zarr.open_group(store, mode="w", zarr_format=2, attributes={"title": "gdal"})
    root.create_array("band", shape=(2,), dtype="f4")
    zarr.consolidate_metadata(store)
    for name in (".zgroup", ".zattrs", "band/.zarray", "band/.zattrs"):
        (store / name).unlink(missing_ok=True)
    before = snapshot(store)
    v2_group = {"zarr_format": 2, "attributes": {}}
    problems = write_document(v2_group, str(store))
    assert [p.node_path for p in problems] == ["/"]
    assert ".zmetadata" in problems[0].message and "overwrite=True" in problems[0].message
    assert snapshot(store) == before
    assert write_document(v2_group, str(store), overwrite=True) == []
    assert not (store / ".zmetadata").exists()


def test_a_stray_attributes_file_counts_as_existing(tmp_path: Path) -> None:
    store = tmp_path / "store"
    (store / "a").mkdir(parents=True)
    (store / "a" / ".zattrs").write_text('{"mine": 1}')
    before = snapshot(store)
    problems = write_document(_with_member("a"), str(store))
    assert [p.node_path for p in problems] == ["/a"]
    assert snapshot(store) == before


@pytest.mark.parametrize("overwrite", [False, True])
@pytest.mark.parametrize("link", ["member folder", "metadata file", "folder above"])
def test_writing_through_a_symlink_out_of_the_store_is_refused(
    tmp_path: Path, link: str, overwrite: bool
) -> None:
    home, store = tmp_path / "home", tmp_path / "store"
    (home / "x").mkdir(parents=True)
    (home / "x" / "zarr.json").write_text('{"mine": true}')
    store.mkdir()
    document = _with_member("m")
    if link == "member folder":
        os.symlink(home / "x", store / "m")
    elif link == "metadata file":
        (store / "m").mkdir()
        os.symlink(home / "x" / "zarr.json", store / "m" / "zarr.json")
    else:
        os.symlink(home, store / "up")
        document = {**GROUP, "members": {"up": {**GROUP, "members": {"new": dict(GROUP)}}}}
    before_home, before_store = snapshot(home), snapshot(store)
    for opened in (str(store), zarr.storage.LocalStore(store)):
        problems = write_document(document, opened, overwrite=overwrite)
        assert problems and all("leads out of the store" in p.message for p in problems)
        assert snapshot(home) == before_home and snapshot(store) == before_store


@pytest.mark.parametrize(
    "name, why",
    [
        ("a" * 300, "300 bytes long"),
        ("nul\x00name", "NUL"),
        ("bad\udcffbytes", "not UTF-8"),
    ],
)
def test_names_the_file_system_cannot_hold_are_problems(
    tmp_path: Path, name: str, why: str
) -> None:
    store = tmp_path / "store"
    problems = write_document(_with_member(name), str(store))
    assert len(problems) == 1 and why in problems[0].message
    assert not store.exists() or snapshot(store) == {}


@pytest.mark.parametrize(
    ("attributes", "pointer", "why"),
    [
        ({"note": "bad\udcffbytes"}, "/attributes/note", "lone surrogate"),
        ({"bad\ud800key": 1}, "/attributes/bad\ud800key", "lone surrogate"),
        ({"scale": [1.0, float("inf")]}, "/attributes/scale/1", "'Infinity'"),
        ({"offset": float("nan")}, "/attributes/offset", "'NaN'"),
        ({"when": {1, 2}}, "/attributes/when", "a set cannot be written"),
    ],
)
def test_values_json_cannot_hold_are_refused_before_anything_is_written(
    tmp_path: Path, attributes: dict[str, Any], pointer: str, why: str
) -> None:
    """Before (issue 53), a lone surrogate raised a raw UnicodeEncodeError from `create`."""
    store = tmp_path / "store"
    document = {**GROUP, "members": {"a": dict(GROUP), "b": {**GROUP, "attributes": attributes}}}
    problems = write_document(document, str(store))
    assert [(p.node_path, p.pointer) for p in problems] == [("/b", pointer)]
    assert why in problems[0].message
    assert not store.exists() or snapshot(store) == {}


def test_a_number_no_float_holds_is_a_problem_where_it_is_read(tmp_path: Path) -> None:
    """`1e400` read as infinity, validated, and only `create` refused it (issue 53): now the
    file that holds it is a problem when it is read."""
    store = tmp_path / "store"
    store.mkdir()
    (store / "zarr.json").write_text(
        '{"zarr_format": 3, "node_type": "group", "attributes": {"scale": 1e400}}', "utf-8"
    )
    document, problems = read_document(str(store))
    assert document is None
    assert problems[0].message == (
        "zarr.json holds a number beyond what a 64-bit float holds (it would read as an infinity)"
    )


def test_a_file_that_is_not_a_zip_is_never_written_into(tmp_path: Path) -> None:
    notes = tmp_path / "notes.zip"
    notes.write_text("my notes, not a zip")
    with pytest.raises(StoreError, match="is not a zip file"):
        write_document(GROUP, str(notes))
    assert notes.read_text() == "my notes, not a zip"
    with pytest.raises(StoreError, match="no such folder"):
        write_document(GROUP, str(tmp_path / "missing" / "store.zip"))
    with pytest.raises(StoreError, match="NUL"):
        write_document(GROUP, str(tmp_path / "a\x00.zip"))


def test_build_never_writes_through_a_symlinked_folder_of_the_package(tmp_path: Path) -> None:
    schema = ROOT / "schemas" / "xarray-v3" / "schema.json"
    out, mine = tmp_path / "pkg", tmp_path / "my_runtime"

    def build() -> subprocess.CompletedProcess[str]:
        return run_zomgen("build", schema, "-o", out, "--vendor-runtime")

    assert build().returncode == 0
    mine.mkdir()
    (mine / "api.py").write_text("# my own api.py\n")
    for path in sorted((out / "_runtime").rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    (out / "_runtime").rmdir()
    os.symlink(mine, out / "_runtime")
    result = build()
    assert result.returncode == 2
    assert result.stderr.count("is a symlink") == 1 and "Traceback" not in result.stderr
    assert snapshot(mine) == {"api.py": b"# my own api.py\n"}
    assert json.loads((out / "schema.json").read_text())  # the package is as it was


def test_a_folder_swapped_for_a_symlink_during_the_write_is_not_written_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before (issue 53), confinement was checked before the write only: a process that
    swapped a member folder for a symlink to another place between the check and the write
    got zarr.json written there, and create reported success. The write now opens each folder
    without following a link: the swap, made at the worst moment, makes the write fail whole."""
    home, store = tmp_path / "home", tmp_path / "store"
    (home / "x").mkdir(parents=True)
    (home / "x" / "zarr.json").write_text('{"mine": true}')
    (store / "m").mkdir(parents=True)
    before_home = snapshot(home)
    checked = writing._existing

    def swap_then_look(*args: Any) -> Any:  # after the confinement check, before the write
        (store / "m").rmdir()
        os.symlink(home / "x", store / "m")
        return checked(*args)

    monkeypatch.setattr(writing, "_existing", swap_then_look)
    with pytest.raises(StoreError, match="leading out of the store appeared"):
        write_document(_with_member("m"), str(store), overwrite=True)
    assert snapshot(home) == before_home
    assert not (store / "zarr.json").exists()  # undone whole
