"""`overwrite=True` replaces the node it names, members included, as zarr does.

Before (issue 53): the old members' metadata stayed, so a valid xarray dataset written over a
store that held a group read back with the group's members beside its own, and was invalid.
Now the metadata below the node written over goes in the same whole-or-nothing write (chunk
files stay, as before: no node reads them any more). Folder, zip and in-memory stores alike.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import read_document, validate_store, write_document

from tests.support.runtime import convention, xarray_dataset


def _group(attributes: dict[str, Any], members: dict[str, Any]) -> dict[str, Any]:
    return {"zarr_format": 3, "node_type": "group", "attributes": attributes, "members": members}


OLD = _group({"old": True}, {"a": _group({}, {"b": _group({}, {})}), "c": _group({}, {})})


@pytest.mark.parametrize("kind", ["folder", "zip", "memory"])
def test_a_dataset_written_over_a_group_reads_back_as_itself(tmp_path: Path, kind: str) -> None:
    source = tmp_path / "ds.zarr"
    xarray_dataset().to_zarr(source, zarr_format=3, consolidated=False)
    dataset, problems = read_document(source)
    assert problems == [] and dataset is not None
    memory: dict[str, bytes] = {}
    store: Any = {
        "folder": str(tmp_path / "s.zarr"),
        "zip": str(tmp_path / "s.zip"),
        "memory": memory,
    }[kind]
    assert write_document(OLD, store) == []
    assert write_document(dataset, store, overwrite=True) == []
    assert read_document(store)[0] == dataset
    assert validate_store(store, convention("xarray-v3")) == []


def test_a_member_written_over_loses_its_own_members_only(tmp_path: Path) -> None:
    store = str(tmp_path / "s.zarr")
    assert write_document(OLD, store) == []
    assert write_document(_group({"new": 1}, {}), store, "a", overwrite=True) == []
    expected = _group({"old": True}, {"a": _group({"new": 1}, {}), "c": _group({}, {})})
    assert read_document(store)[0] == expected
    assert (tmp_path / "s.zarr" / "c" / "zarr.json").is_file()
