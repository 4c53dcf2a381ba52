"""write_document: what it writes, read_document reads back equal; existing nodes are never
clobbered unless asked; nothing is written when anything would be."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import xarray as xr
import zarr
import zarr.storage
from zomgen_runtime import StoreError, read_document, validate_store, write_document

from tests.support.runtime import V3_GROUP, convention, snapshot, v2_array, v3_array

warnings.filterwarnings("ignore", category=UserWarning)


def _v3_document() -> dict[str, Any]:
    return {
        **V3_GROUP,
        "attributes": {"title": "written", "nested": {"a": [1, 2.5, None, True]}},
        "members": {
            "raw": v3_array([4, 5], dimension_names=["y", "x"], fill_value="NaN"),
            "labels": {
                **V3_GROUP,
                "members": {"cells": v3_array([4, 5], attributes={"units": "m"})},
            },
            "extension": v3_array([1], my_ext={"must_understand": False, "v": 1}),
        },
    }


def _v2_document() -> dict[str, Any]:
    return {
        "zarr_format": 2,
        "attributes": {},
        "members": {
            "t": {**v2_array([2, 3]), "attributes": {"_ARRAY_DIMENSIONS": ["y", "x"]}},
            "g": {"zarr_format": 2, "attributes": {"k": "v"}, "members": {}},
        },
    }


@pytest.mark.parametrize("make", [_v3_document, _v2_document])
def test_round_trip_through_every_kind_of_store(tmp_path: Path, make: Any) -> None:
    document = make()
    targets: list[tuple[object, object]] = [
        (tmp_path / "folder.zarr", tmp_path / "folder.zarr"),
        (str(tmp_path / "s.zip"), str(tmp_path / "s.zip")),
        (zarr.storage.MemoryStore(), None),
        ("memory://zomgen-write-" + str(document["zarr_format"]), None),
    ]
    for target, reread in targets:
        assert write_document(document, target) == [], target
        assert read_document(reread if reread is not None else target) == (document, []), target


def test_written_metadata_is_what_zarr_reads(tmp_path: Path) -> None:
    store = tmp_path / "w.zarr"
    assert write_document(_v3_document(), store) == []
    group = zarr.open_group(store, mode="r")
    assert group.attrs["title"] == "written"
    raw = group["raw"]
    assert isinstance(raw, zarr.Array) and raw.shape == (4, 5)
    assert np.isnan(raw.fill_value)
    assert np.all(np.isnan(raw[:]))  # empty arrays: no chunks written, fill value read
    assert not list((store / "raw").glob("c/*"))
    assert json.loads((store / "labels" / "cells" / "zarr.json").read_text())["attributes"] == {
        "units": "m"
    }


def test_existing_nodes_are_reported_and_nothing_is_written(tmp_path: Path) -> None:
    store = tmp_path / "w.zarr"
    xr.Dataset({"t": (("y",), np.zeros(3))}).to_zarr(store, zarr_format=3, consolidated=False)
    before = snapshot(store)
    document = _v3_document()
    problems = write_document(document, store)
    assert [(p.node_path, p.keyword) for p in problems] == [("/", "write")]
    assert "already exists here (zarr.json)" in problems[0].message
    assert snapshot(store) == before  # not even the new members


def test_overwrite_replaces_metadata_and_removes_the_other_kind(tmp_path: Path) -> None:
    store = tmp_path / "w.zarr"
    ds = xr.Dataset({"t": (("y",), np.zeros(3))}, coords={"y": [1, 2, 3]})
    ds.to_zarr(store, zarr_format=2, consolidated=True)
    document = _v2_document()
    document["members"]["t"] = {"zarr_format": 2, "attributes": {}, "members": {}}  # now a group
    assert write_document(document, store, overwrite=True) == []
    assert not (store / "t" / ".zarray").exists()
    assert not (store / ".zmetadata").exists()  # it described the old hierarchy
    found, problems = read_document(store)
    assert problems == [] and found is not None
    assert found["members"]["t"] == {"zarr_format": 2, "attributes": {}, "members": {}}
    # The root written over is replaced members included, as zarr replaces it (issue 53):
    # xarray's y is gone from the hierarchy; its chunk files stay on disk.
    assert set(found["members"]) == {"t", "g"}
    assert not (store / "y" / ".zarray").exists() and (store / "y" / "0").exists()


def test_write_below_a_path_and_into_a_group(tmp_path: Path) -> None:
    store = tmp_path / "w.zarr"
    group = zarr.open_group(store, mode="w", zarr_format=3)
    group.create_group("outer")
    sub = _v3_document()["members"]["labels"]
    assert write_document(sub, store, "outer/labels") == []
    assert write_document(sub, zarr.open_group(store, mode="a")["outer"], "again") == []
    assert read_document(store, "outer/labels") == (sub, [])
    assert read_document(store, "outer/again") == (sub, [])


def test_documents_that_cannot_be_written(tmp_path: Path) -> None:
    store = tmp_path / "w.zarr"
    bad_names = {**V3_GROUP, "members": {"a/b": v3_array([1]), "..": v3_array([1])}}
    problems = write_document(bad_names, store)
    assert sorted(p.node_path for p in problems) == ["/..", "/a/b"]
    nan = {**V3_GROUP, "attributes": {"x": float("nan")}, "members": {}}
    (problem,) = write_document(nan, store)
    assert problem.pointer == "/attributes/x" and "cannot be written as JSON" in problem.message
    assert "zarr_format must be 2 or 3" in write_document({"members": {}}, store)[0].message
    assert not store.exists()  # nothing was written for any of them


def test_read_only_store_is_a_store_error(tmp_path: Path) -> None:
    zarr.open_group(tmp_path / "r.zarr", mode="w")
    with pytest.raises(StoreError):
        write_document(_v3_document(), zarr.storage.LocalStore(tmp_path / "r.zarr", read_only=True))


def test_what_create_writes_follows_the_convention(tmp_path: Path) -> None:
    document = {
        **V3_GROUP,
        "members": {"t": v3_array([2, 3], dimension_names=["y", "x"], fill_value="NaN")},
    }
    assert write_document(document, tmp_path / "x.zarr") == []
    assert validate_store(tmp_path / "x.zarr", convention("xarray-v3")) == []
    ds = xr.open_zarr(tmp_path / "x.zarr", consolidated=False)
    assert ds["t"].dims == ("y", "x")


class _FailingMapping(dict[str, Any]):
    """A mapping store whose `fail_at`-th write raises (a full disk, a dropped connection)."""

    def __init__(self, fail_at: int, *args: Any) -> None:
        super().__init__(*args)
        self.fail_at = fail_at
        self.writes = 0

    def __setitem__(self, key: str, value: Any) -> None:
        self.writes += 1
        if self.writes == self.fail_at:
            raise OSError("no space left on device")
        super().__setitem__(key, value)


@pytest.mark.parametrize("overwrite", [False, True])
def test_a_create_interrupted_half_way_leaves_the_store_as_it_was(overwrite: bool) -> None:
    """The store fails on the third file: what was written is undone (with overwrite=True, the
    old metadata comes back), and the caller gets a StoreError, not half a hierarchy."""
    existing: dict[str, Any] = {}
    if overwrite:
        assert write_document(_v3_document(), existing) == []
    store = _FailingMapping(3, existing)
    before = dict(store)
    document = _v3_document()
    document["attributes"] = {"title": "new"}
    with pytest.raises(StoreError, match="undone"):
        write_document(document, store, overwrite=overwrite)
    assert dict(store) == before
    store.fail_at = 0  # the store works again: the same create now succeeds whole
    assert write_document(document, store, overwrite=overwrite) == []
    read, problems = read_document(dict(store))
    assert problems == [] and read is not None and read["attributes"] == {"title": "new"}


def test_a_refused_create_writes_nothing_even_deep_down(tmp_path: Path) -> None:
    """One bad member name deep in the document: the whole create is refused before any write."""
    store = tmp_path / "s.zarr"
    document = _v3_document()
    document["members"]["labels"]["members"]["../escape"] = v3_array([1])
    problems = write_document(document, store)
    assert problems and not store.exists()
