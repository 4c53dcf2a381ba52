"""Consolidated metadata that disagrees with the nodes' own files is a problem at each place,
for v3 and v2 stores written by zarr-python and changed behind the consolidated copy's back, on
local folders and over HTTP; `check_consolidated=False` trusts it and says so."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import zarr
from zomgen_runtime import read_hierarchy, validate_store

from tests.support.http_stores import serve
from tests.support.runtime import base

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # zarr: consolidated v3


def _consolidated(root: Path, zarr_format: int) -> Path:
    """zarr-python's hierarchy: a group `sub` holding an array, an array `top`; consolidated."""
    group = zarr.open_group(root, mode="w", zarr_format=zarr_format)
    group.attrs["title"] = "t"
    sub = group.create_group("sub")
    sub.attrs["y"] = 2
    sub.create_array("arr", shape=(4,), dtype="int32", chunks=(2,))
    group.create_array("top", shape=(3,), dtype="float64")[:] = np.arange(3.0)
    zarr.consolidate_metadata(str(root))
    return root


def _rows(problems: list[Any]) -> list[tuple[str, str, str, str]]:
    return [(p.node_path, p.pointer, p.keyword, p.message) for p in problems]


def _attributes_file(node: Path, zarr_format: int) -> Path:
    return node / ("zarr.json" if zarr_format == 3 else ".zattrs")


def _set_attributes(node: Path, zarr_format: int, **changes: Any) -> None:
    file = _attributes_file(node, zarr_format)
    content = json.loads(file.read_text("utf-8"))
    attributes = content["attributes"] if zarr_format == 3 else content
    attributes.update(changes)
    for key in [k for k, v in changes.items() if v is None]:
        del attributes[key]
    file.write_text(json.dumps(content), "utf-8")


@pytest.mark.parametrize("zarr_format", [3, 2])
def test_a_consolidated_store_as_written_agrees(zarr_format: int, tmp_path: Path) -> None:
    root = _consolidated(tmp_path / "s.zarr", zarr_format)
    read = read_hierarchy(root)
    assert read.problems == [] and not read.trusted
    assert read.document is not None and set(read.document["members"]) == {"sub", "top"}


@pytest.mark.parametrize("zarr_format", [3, 2])
def test_every_kind_of_disagreement_at_its_node_and_pointer(
    zarr_format: int, tmp_path: Path
) -> None:
    root = _consolidated(tmp_path / "s.zarr", zarr_format)
    # behind the consolidated copy's back: a value changed, a key added and one removed, an
    # array deleted, a group made
    _set_attributes(root / "sub", zarr_format, y=3, new="n")
    _set_attributes(root, zarr_format, title=None)
    shutil.rmtree(root / "top")
    zarr.open_group(root / "extra", mode="w", zarr_format=zarr_format)
    read = read_hierarchy(root)
    own = "the node's own metadata file"
    # v3: the root's attributes are in the zarr.json that holds the consolidated metadata
    root_said = (
        []
        if zarr_format == 3
        else [
            (
                "/",
                "/attributes/title",
                "consolidated",
                f'the consolidated metadata has "t", {own} nothing',
            ),
        ]
    )
    assert _rows(read.problems) == root_said + [
        ("/sub", "/attributes/y", "consolidated", f"the consolidated metadata says 2, {own} says 3"),
        ("/sub", "/attributes/new", "consolidated", f'{own} has "n", the consolidated metadata nothing'),
        ("/top", "", "consolidated", "the consolidated metadata lists this node, but the store holds no such node"),
        ("/extra", "", "consolidated", "the store holds this node, but the consolidated metadata does not list it"),
    ]  # fmt: skip
    # the document is what a reader of the consolidated metadata sees
    assert read.document is not None and set(read.document["members"]) == {"sub", "top"}
    assert validate_store(root, base(zarr_format)) == read.problems


def test_a_v2_root_as_its_own_files_say_is_compared_too(tmp_path: Path) -> None:
    root = _consolidated(tmp_path / "s.zarr", 2)
    _set_attributes(root, 2, title="changed")
    assert _rows(read_hierarchy(root).problems) == [
        (
            "/",
            "/attributes/title",
            "consolidated",
            'the consolidated metadata says "t", the node\'s own metadata file says "changed"',
        )
    ]


def test_a_node_file_that_cannot_be_read_is_its_own_problem_not_a_disagreement(
    tmp_path: Path,
) -> None:
    root = _consolidated(tmp_path / "s.zarr", 3)
    (root / "sub" / "zarr.json").write_text("{", "utf-8")
    problems = read_hierarchy(root).problems
    assert [(p.node_path, p.keyword) for p in problems] == [("/sub", "read")]
    assert "not JSON" in problems[0].message


@pytest.mark.parametrize("zarr_format", [3, 2])
def test_trusted_consolidated_metadata_reads_no_node_file_and_says_so(
    zarr_format: int, tmp_path: Path
) -> None:
    root = _consolidated(tmp_path / "s.zarr", zarr_format)
    shutil.rmtree(root / "top")
    read = read_hierarchy(root, check_consolidated=False)
    assert read.problems == [] and read.trusted
    assert [(u.node_path, u.reason) for u in read.unchecked()] == [("/", "trusted")]
    # the caller asked for it: accepted, not "not fully checked"
    assert validate_store(root, base(zarr_format), check_consolidated=False) == []
    # not consolidated at all: nothing trusted, nothing said
    assert not read_hierarchy(root, use_consolidated=False).trusted


@pytest.mark.parametrize("zarr_format", [3, 2])
def test_over_http_without_listing_the_listed_nodes_are_probed(
    zarr_format: int, tmp_path: Path
) -> None:
    root = _consolidated(tmp_path / "s.zarr", zarr_format)
    _set_attributes(root / "sub" / "arr", zarr_format, units="m")
    shutil.rmtree(root / "top")
    with serve(tmp_path, listing=False) as server:
        read = read_hierarchy(f"{server.url}/s.zarr")
        requests = list(server.requests)
    assert [(p.node_path, p.pointer) for p in read.problems] == [
        ("/sub/arr", "/attributes/units"),
        ("/top", ""),
    ]
    # the consolidated metadata lists the members: nothing is left unlisted
    assert read.unchecked() == []
    own = "zarr.json" if zarr_format == 3 else ".zarray"
    assert ("GET", f"/s.zarr/sub/arr/{own}") in requests


def test_a_diff_of_trusted_consolidated_metadata_is_complete(tmp_path: Path) -> None:
    from zomgen_runtime.comparison import compare, complete_differences, read_side

    stale = _consolidated(tmp_path / "stale.zarr", 3)
    fresh = _consolidated(tmp_path / "fresh.zarr", 3)
    _set_attributes(stale / "sub", 3, y=3)  # the files now differ from the consolidated copy
    checked = compare(read_side(stale), read_side(fresh))
    assert not checked.complete  # the disagreement is a place not compared
    trusted = compare(read_side(stale, check_consolidated=False), read_side(fresh))
    assert trusted.complete and trusted.differences == []  # the copies say the same
    assert complete_differences(trusted, named_members_only=False) == []
    assert [u.reason for u in trusted.before.unchecked()] == ["trusted"]
