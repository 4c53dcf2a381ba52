"""zomgen_runtime.diff on ZOM documents: each kind of difference at its node path and pointer,
members matched by name, lists by position, values compared as JSON, and the include and
exclude patterns (docs/diff.md)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from zomgen_runtime import Difference, diff, like
from zomgen_runtime.diffs import ABSENT


def _array(shape: list[int], **attributes: Any) -> dict[str, Any]:
    return {
        "zarr_format": 3,
        "node_type": "array",
        "shape": shape,
        "data_type": "float32",
        "fill_value": 0.0,
        "attributes": attributes,
    }


def _group(members: dict[str, Any], **attributes: Any) -> dict[str, Any]:
    return {"zarr_format": 3, "node_type": "group", "attributes": attributes, "members": members}


BEFORE = _group(
    {
        "temperature": _array([3, 4], units="K", history="made", flags=[1, 2]),
        "old": _group({}),
        "mask": _array([3]),
    },
    title="run 1",
    history="written",
)


def _found(before: Any, after: Any, **patterns: Any) -> list[tuple[str, str, str, Any, Any]]:
    return [(d.kind, d.node, d.pointer, d.before, d.after) for d in diff(before, after, **patterns)]


def test_the_same_document_has_no_difference() -> None:
    assert diff(BEFORE, copy.deepcopy(BEFORE)) == []
    assert like(BEFORE, copy.deepcopy(BEFORE))


def test_each_kind_at_its_node_and_pointer_in_document_order() -> None:
    after = copy.deepcopy(BEFORE)
    after["attributes"]["title"] = "run 2"  # changed, at the root
    del after["attributes"]["history"]  # removed
    temperature = after["members"]["temperature"]
    temperature["shape"] = [3, 5]  # changed inside a list
    temperature["attributes"]["flags"] = [1]  # a list that shrank
    temperature["attributes"]["valid_range"] = [0, 1]  # added: a whole value
    del after["members"]["old"]  # a member removed: one difference, the whole node
    after["members"]["new"] = _array([2])  # and one added
    assert _found(BEFORE, after) == [
        ("changed", "/", "/attributes/title", "run 1", "run 2"),
        ("removed", "/", "/attributes/history", "written", ABSENT),
        ("changed", "/temperature", "/shape/1", 4, 5),
        ("removed", "/temperature", "/attributes/flags/1", 2, ABSENT),
        ("added", "/temperature", "/attributes/valid_range", ABSENT, [0, 1]),
        ("removed", "/old", "", BEFORE["members"]["old"], ABSENT),
        ("added", "/new", "", ABSENT, _array([2])),
    ]
    assert not like(BEFORE, after)


def test_members_are_matched_by_name_not_by_order() -> None:
    after = copy.deepcopy(BEFORE)
    after["members"] = dict(reversed(after["members"].items()))
    assert diff(BEFORE, after) == []


def test_deep_members_have_their_own_node_paths() -> None:
    before = _group({"a": _group({"b": _array([1], units="m")})})
    after = _group({"a": _group({"b": _array([1], units="km")})})
    assert _found(before, after) == [("changed", "/a/b", "/attributes/units", "m", "km")]


def test_values_are_compared_as_json() -> None:
    # 1 and 1.0 are the same JSON number; true is not 1; null is a value, unlike a missing key
    before = _group({}, n=1, flag=True, fill=None)
    assert diff(before, _group({}, n=1.0, flag=True, fill=None)) == []
    assert _found(before, _group({}, n=1, flag=1, fill=None)) == [
        ("changed", "/", "/attributes/flag", True, 1)
    ]
    assert _found(before, _group({}, n=1, flag=True)) == [
        ("removed", "/", "/attributes/fill", None, ABSENT)
    ]


def test_a_value_of_another_type_is_one_change() -> None:
    before = _group({}, axes=["x", "y"])
    after = _group({}, axes={"x": 0})
    assert _found(before, after) == [("changed", "/", "/attributes/axes", ["x", "y"], {"x": 0})]


def test_a_group_turned_array_loses_its_members_as_nodes() -> None:
    before = _group({"a": _group({"b": _array([1])})})
    after = _group({"a": _array([1])})
    kinds = [(d.kind, d.node, d.pointer) for d in diff(before, after)]
    assert ("changed", "/a", "/node_type") in kinds
    assert ("removed", "/a/b", "") in kinds


def test_a_key_name_is_excluded_at_any_depth_and_a_pointer_from_each_nodes_top() -> None:
    after = copy.deepcopy(BEFORE)
    after["attributes"]["history"] = "again"
    after["members"]["temperature"]["attributes"]["history"] = "again"
    after["members"]["temperature"]["attributes"]["units"] = "degC"
    after["members"]["mask"]["fill_value"] = 1.0
    assert [d.pointer for d in diff(BEFORE, after, exclude=["history"])] == [
        "/attributes/units",
        "/fill_value",
    ]
    assert [d.pointer for d in diff(BEFORE, after, exclude=["/attributes"])] == ["/fill_value"]
    assert [d.pointer for d in diff(BEFORE, after, exclude=["/attributes/*"])] == ["/fill_value"]
    assert [d.pointer for d in diff(BEFORE, after, exclude=["hist*", "fill_*"])] == [
        "/attributes/units"
    ]


def test_include_compares_only_the_places_named_and_finds_them_on_one_side() -> None:
    after = copy.deepcopy(BEFORE)
    after["members"]["temperature"]["attributes"]["units"] = "degC"
    after["members"]["temperature"]["shape"] = [9, 9]
    after["members"]["mask"]["attributes"]["units"] = "1"  # only after has it
    del after["members"]["old"]
    assert _found(BEFORE, after, include=["/attributes/units"]) == [
        ("changed", "/temperature", "/attributes/units", "K", "degC"),
        # whether a node is there is no place inside a document: always reported
        ("removed", "/old", "", BEFORE["members"]["old"], ABSENT),
        ("added", "/mask", "/attributes/units", ABSENT, "1"),
    ]
    assert [d.pointer for d in diff(BEFORE, after, include=["units"])] == [
        "/attributes/units",
        "",
        "/attributes/units",
    ]
    # an exclude inside an include wins
    assert [d.node for d in diff(BEFORE, after, include=["/shape"], exclude=["/shape/0"])] == [
        "/temperature",
        "/old",
    ]


@pytest.mark.parametrize("pattern", ["", "a/b", "/attributes//units", "/"])
def test_a_malformed_pattern_is_refused_by_name(pattern: str) -> None:
    with pytest.raises(ValueError, match="pattern|segment"):
        diff(BEFORE, BEFORE, exclude=[pattern])


def test_a_difference_reads_as_one_line_and_as_json() -> None:
    changed = Difference("changed", "/t", "/attributes/units", "K", "de\ngC")
    assert str(changed) == '/t: /attributes/units: changed from "K" to "de\\ngC"'
    assert changed.to_json() == {
        "kind": "changed",
        "node": "/t",
        "pointer": "/attributes/units",
        "before": "K",
        "after": "de\ngC",
    }
    added = Difference("added", "/new", "", after=_array([2]))
    assert str(added) == "/new: added array"
    assert added.to_json() == {"kind": "added", "node": "/new", "pointer": "", "after": _array([2])}
    removed = Difference("removed", "/", "/attributes/fill", before=None)
    assert str(removed) == "/: /attributes/fill: removed null"
    assert removed.to_json() == {
        "kind": "removed",
        "node": "/",
        "pointer": "/attributes/fill",
        "before": None,
    }


def test_a_document_as_deep_as_a_reader_allows_is_compared_without_recursion() -> None:
    deep: Any = []
    here = deep
    for _ in range(5_000):
        here.append([])
        here = here[0]
    other: Any = []  # (built again: deepcopy recurses)
    here = other
    for _ in range(5_000):
        here.append([])
        here = here[0]
    here.append(1)
    found = diff(_group({}, deep=deep), _group({}, deep=other))
    assert [(d.kind, d.pointer.count("/")) for d in found] == [
        ("added", 5_003)
    ]  # /attributes/deep, 5,000 items deep, /0
