"""A package's `consolidate` (generated/xarray_v3, generated/xarray_v2): consolidated metadata
written for stores xarray wrote, opened by zarr-python and xarray as theirs; the same JSON as
zarr-python's own `consolidate_metadata`; nothing written for a hierarchy that is not valid,
a store another write holds, or an array."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import xarray as xr
import zarr
from zomgen_runtime import StoreError, ZomError, read_hierarchy

from tests.support.packages import import_package
from tests.support.paths import GENERATED
from tests.support.runtime import snapshot

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # zarr: consolidated v3


def _package(zarr_format: int) -> Any:
    return import_package(GENERATED, f"xarray_v{zarr_format}")


def _dataset() -> xr.Dataset:
    temperature = np.arange(6, dtype="f4").reshape(2, 3)
    return xr.Dataset(
        {"temperature": (("y", "x"), temperature, {"units": "K"})},
        coords={"y": [10, 20], "x": [1, 2, 3]},
        attrs={"title": "grid"},
    )


def _written(folder: Path, zarr_format: int) -> Path:
    _dataset().to_zarr(folder, zarr_format=zarr_format, consolidated=False)
    return folder


def _consolidated_json(store: Path, zarr_format: int) -> Any:
    if zarr_format == 3:
        return json.loads((store / "zarr.json").read_text("utf-8"))["consolidated_metadata"]
    return json.loads((store / ".zmetadata").read_text("utf-8"))


@pytest.mark.parametrize("zarr_format", [3, 2])
def test_xarray_and_zarr_read_it_as_their_own(zarr_format: int, tmp_path: Path) -> None:
    store = _written(tmp_path / "ds.zarr", zarr_format)
    before = snapshot(store)
    _package(zarr_format).consolidate(store)
    after = snapshot(store)
    changed = {k for k in after.keys() | before.keys() if after.get(k) != before.get(k)}
    assert changed == {"zarr.json" if zarr_format == 3 else ".zmetadata"}  # nothing else touched
    opened = xr.open_zarr(store, consolidated=True)
    xr.testing.assert_identical(opened.load(), _dataset())
    group = zarr.open_consolidated(store, zarr_format=zarr_format)
    assert sorted(group.keys()) == ["temperature", "x", "y"]
    # and zomgen reads it back, the files agreeing with it
    read = read_hierarchy(store)
    files = read_hierarchy(store, use_consolidated=False)
    assert read.problems == [] and read.document == files.document


@pytest.mark.parametrize("zarr_format", [3, 2])
def test_the_same_json_as_zarr_python_writes(zarr_format: int, tmp_path: Path) -> None:
    ours = _written(tmp_path / "ours.zarr", zarr_format)
    theirs = tmp_path / "theirs.zarr"
    shutil.copytree(ours, theirs)
    _package(zarr_format).consolidate(ours)
    zarr.consolidate_metadata(str(theirs), zarr_format=zarr_format)
    assert _consolidated_json(ours, zarr_format) == _consolidated_json(theirs, zarr_format)


def test_nested_groups_as_zarr_python_writes_them(tmp_path: Path) -> None:
    # a DataTree: groups within groups, each group's entry with its own empty envelope
    tree = xr.DataTree.from_dict({"/": _dataset(), "/a": _dataset(), "/a/b": _dataset()})
    ours, theirs = tmp_path / "ours.zarr", tmp_path / "theirs.zarr"
    for store in (ours, theirs):
        tree.to_zarr(store, zarr_format=3, consolidated=False)
    from zomgen_runtime import check_hierarchy, consolidate_store

    from tests.support.runtime import base

    done = consolidate_store(
        ours, check=lambda: check_hierarchy(ours, base(3), use_consolidated=False)
    )
    # the root and its three arrays, then a group and its one array twice (x and y inherited)
    assert done.written == "zarr.json" and done.nodes == 8
    zarr.consolidate_metadata(str(theirs))
    assert _consolidated_json(ours, 3) == _consolidated_json(theirs, 3)
    xr.testing.assert_identical(xr.open_datatree(ours, engine="zarr", consolidated=True), tree)


@pytest.mark.parametrize("zarr_format", [3, 2])
def test_stale_consolidated_metadata_is_written_again_from_the_files(
    zarr_format: int, tmp_path: Path
) -> None:
    store = _written(tmp_path / "ds.zarr", zarr_format)
    zarr.consolidate_metadata(str(store), zarr_format=zarr_format)
    zarr.open_array(store / "temperature", mode="r+").attrs["units"] = "degC"  # not consolidated
    assert [p.keyword for p in read_hierarchy(store).problems] == ["consolidated"]
    _package(zarr_format).consolidate(store)
    assert read_hierarchy(store).problems == []
    assert xr.open_zarr(store, consolidated=True).temperature.attrs["units"] == "degC"


def test_an_invalid_hierarchy_is_refused_and_nothing_written(tmp_path: Path) -> None:
    store = _written(tmp_path / "ds.zarr", 3)
    array = json.loads((store / "temperature" / "zarr.json").read_text("utf-8"))
    array["dimension_names"] = ["y"]  # one name for two dimensions
    (store / "temperature" / "zarr.json").write_text(json.dumps(array), "utf-8")
    before = snapshot(store)
    with pytest.raises(ZomError) as raised:
        _package(3).consolidate(store)
    assert [(p.node_path, p.pointer) for p in raised.value.problems] == [
        ("/temperature", "/dimension_names")
    ]
    assert snapshot(store) == before


def test_a_zip_store_is_rewritten_whole(tmp_path: Path) -> None:
    folder = _written(tmp_path / "ds.zarr", 3)
    archive = tmp_path / "ds.zarr.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for file in sorted(folder.rglob("*")):
            if file.is_file():
                out.write(file, file.relative_to(folder).as_posix())
    _package(3).consolidate(archive)
    with zipfile.ZipFile(archive) as written:
        root = json.loads(written.read("zarr.json"))
    assert set(root["consolidated_metadata"]["metadata"]) == {"temperature", "x", "y"}
    assert read_hierarchy(archive).problems == []


def test_refused_where_it_cannot_be_done(tmp_path: Path) -> None:
    store = _written(tmp_path / "ds.zarr", 3)
    (store / ".zomgen-lock").write_text("another write", "utf-8")
    before = snapshot(store)
    with pytest.raises(StoreError):  # another write holds the store (or one failed there)
        _package(3).consolidate(store)
    assert snapshot(store) == before
    (store / ".zomgen-lock").unlink()
    with pytest.raises(ZomError):  # an array is not a dataset, so it is not valid here
        _package(3).consolidate(store, "temperature")
    with pytest.raises(StoreError):  # nothing there
        _package(3).consolidate(tmp_path / "missing.zarr")
    assert not (tmp_path / "missing.zarr").exists()
