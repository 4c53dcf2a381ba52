"""A write below the root of a consolidated store keeps its consolidated metadata true.

Before (issue 53): `create(..., path="m", overwrite=True)` into a store xarray had consolidated
(v2 or v3) wrote `m`'s files and left the root's consolidated metadata as it was, so `load`
(which reads the consolidated metadata) returned the old attributes and missed new members.
Now the root's `.zmetadata` or `zarr.json` `consolidated_metadata` is updated in the same
write, whole or nothing; zarr-python's consolidated reader and zomgen's walk of the folder then
agree with what was written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import zarr
from zomgen_runtime import read_document, write_document

from tests.support.runtime import xarray_dataset


def _store(tmp_path: Path, zarr_format: int) -> Path:
    store = tmp_path / "ds.zarr"
    xarray_dataset().to_zarr(store, zarr_format=zarr_format, consolidated=True, mode="w")
    return store


def _group(zarr_format: int, attributes: dict[str, Any]) -> dict[str, Any]:
    head: dict[str, Any] = {"zarr_format": zarr_format}
    if zarr_format == 3:
        head["node_type"] = "group"
    return head | {"attributes": attributes, "members": {}}


def _both_reads(store: Path) -> tuple[Any, Any]:
    consolidated, problems = read_document(store)
    assert problems == []
    walked, problems = read_document(store, use_consolidated=False)
    assert problems == []
    return consolidated, walked


@pytest.mark.parametrize("zarr_format", [2, 3])
def test_a_new_member_is_in_the_consolidated_metadata(tmp_path: Path, zarr_format: int) -> None:
    store = _store(tmp_path, zarr_format)
    assert write_document(_group(zarr_format, {"note": "new"}), str(store), "extra") == []
    consolidated, walked = _both_reads(store)
    assert consolidated == walked
    assert consolidated["members"]["extra"]["attributes"] == {"note": "new"}
    opened = zarr.open_consolidated(store, zarr_format=zarr_format)
    assert dict(opened["extra"].attrs) == {"note": "new"}


@pytest.mark.parametrize("zarr_format", [2, 3])
def test_a_member_written_over_is_replaced_in_the_consolidated_metadata(
    tmp_path: Path, zarr_format: int
) -> None:
    store = _store(tmp_path, zarr_format)
    first = _group(zarr_format, {"v": 1})
    first["members"] = {"inner": _group(zarr_format, {"deep": True})}
    assert write_document(first, str(store), "g") == []
    again = _group(zarr_format, {"v": 2})
    assert write_document(again, str(store), "g") != []  # exists: refused, nothing written
    assert write_document(again, str(store), "g", overwrite=True) == []
    consolidated, _walked = _both_reads(store)
    assert consolidated["members"]["g"] == again  # its old member is gone from the view too
    opened = zarr.open_consolidated(store, zarr_format=zarr_format)
    assert dict(opened["g"].attrs) == {"v": 2}


def test_a_node_only_the_consolidated_metadata_lists_counts_as_existing(tmp_path: Path) -> None:
    """GDAL writes v2 stores whose hierarchy is only in .zmetadata."""
    store = _store(tmp_path, 2)
    (store / "time" / ".zarray").unlink()
    (store / "time" / ".zattrs").unlink()
    before = (store / ".zmetadata").read_bytes()
    array = read_document(store)[0]["members"]["time"]
    problems = write_document(array, str(store), "time")
    assert [(p.node_path, "in the root's .zmetadata" in p.message) for p in problems] == [
        ("/time", True)
    ]
    assert (store / ".zmetadata").read_bytes() == before


@pytest.mark.parametrize("zarr_format", [2, 3])
def test_consolidated_metadata_that_cannot_be_read_stops_the_write(
    tmp_path: Path, zarr_format: int
) -> None:
    store = _store(tmp_path, zarr_format)
    root = store / (".zmetadata" if zarr_format == 2 else "zarr.json")
    data = json.loads(root.read_text("utf-8"))
    if zarr_format == 2:
        data["metadata"] = []
    else:
        data["consolidated_metadata"]["metadata"] = "broken"
    root.write_text(json.dumps(data), "utf-8")
    problems = write_document(_group(zarr_format, {}), str(store), "extra")
    assert [p.node_path for p in problems] == ["/"] and "cannot be read" in problems[0].message
    assert not (store / "extra").exists()
