"""Relation paths that leave the straight line down a document: `..` in a `->` (a label image's
`source.image`, `../../`, names the image above it), `**` (a value and everything below it:
OME-Zarr 0.6's transformations wrapped in a `sequence`, a `byDimension` or a `bijection`, at any
depth) and `[last]` (a list's last item: a sequence's last step). Each case runs in the reference engine, jsonschema-rs and the TypeScript run time, which
give the same verdicts and the same problems, at the same node and key."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import Problem, check_document, is_valid

from tests.support.node import run_node
from tests.support.runtime import V3_GROUP, v3_array

REACHES = "x-zomgen-reaches"
LENGTH = "x-zomgen-equal-length"
INDEX_OF = "x-zomgen-index-of"

# (node path, pointer, keyword, schema path)
Row = tuple[str, str, str, str]

# OME-Zarr's label image names its source image by a path relative to itself; the image holding
# the labels checks that each listed label's source, where given, is a multiscale image.
SOURCE = "/members/labels/attributes/ome/labels/*/->/attributes/ome/image-label/source/image"
SOURCE_RULE: dict[str, Any] = {REACHES: [[SOURCE, f"{SOURCE}/->/attributes/ome/multiscales"]]}


def _group(attributes: dict[str, Any], members: dict[str, Any]) -> dict[str, Any]:
    return {**V3_GROUP, "attributes": attributes, "members": members}


def _image(attributes: dict[str, Any] | None = None) -> dict[str, Any]:
    ome = {"multiscales": [{"datasets": [{"path": "s0"}]}], **(attributes or {})}
    return _group({"ome": ome}, {"s0": v3_array([8, 8])})


def _labelled(source: str | None, label: str = "cells") -> dict[str, Any]:
    """An image whose `labels` group lists one label image (`label` may name it through an
    intermediate group: `a/cells`), whose source is `source` (absent when None)."""
    image_label: dict[str, Any] = {} if source is None else {"source": {"image": source}}
    node = _image({"image-label": image_label})
    for name in reversed(label.split("/")[1:]):
        node = _group({}, {name: node})
    labels = _group({"ome": {"labels": [label]}}, {label.split("/")[0]: node})
    image = _image()
    image["members"]["labels"] = labels
    return image


def _source_fault(label: str = "cells") -> list[Row]:
    node = "/labels/" + label
    return [(node, "/attributes/ome/image-label/source/image", REACHES, f"/{REACHES}/0")]


SOURCE_CASES: list[tuple[str, dict[str, Any], dict[str, Any], list[Row]]] = [
    ("the spec's default, ../../", SOURCE_RULE, _labelled("../../"), []),
    ("without the last slash", SOURCE_RULE, _labelled("../.."), []),
    ("no source: nothing judged", SOURCE_RULE, _labelled(None), []),
    ("through an intermediate group", SOURCE_RULE, _labelled("../../../", "a/cells"), []),
    ("an image above this one: not seen, not judged", SOURCE_RULE, _labelled("../../../x"), []),
    ("the labels group, no image", SOURCE_RULE, _labelled("../"), _source_fault()),
    ("a level, an array", SOURCE_RULE, _labelled("../../s0"), _source_fault()),
    ("a member that is not there", SOURCE_RULE, _labelled("../../raw"), _source_fault()),
    (
        "one level short of the image",
        SOURCE_RULE,
        _labelled("../../", "a/cells"),
        _source_fault("a/cells"),
    ),
    ("a trailing slash without ..", SOURCE_RULE, _labelled("../../s0/"), _source_fault()),
    ("an absolute path", SOURCE_RULE, _labelled("/"), _source_fault()),
]

# OME-Zarr 0.6's rules that hold inside any transformation: a mapAxis's indices are its own
# (a permutation), an affine's rows are equally long, a byDimension child's parameters have one
# item per axis it names. `**` finds them at any depth, and binds: each rule compares a
# transformation with itself.
T = "/attributes/t/**"
DESCENT_RULES: dict[str, Any] = {
    REACHES: [[f"{T}/mapAxis/*", f"{T}/mapAxis/{{{T}/mapAxis/*}}"]],
    LENGTH: [
        [f"{T}/affine/0", f"{T}/affine/*"],
        [f"{T}/transformations/*/transformation/scale", f"{T}/transformations/*/inputAxes"],
    ],
    INDEX_OF: [[f"{T}/transformations/*/inputAxes/*", "/attributes/axes"]],
}


def _transformed(*transformations: Any) -> dict[str, Any]:
    return _group({"axes": ["z", "y", "x"], "t": list(transformations)}, {})


def _sequence(*steps: Any) -> dict[str, Any]:
    return {"type": "sequence", "transformations": list(steps)}


def _by_dimension(*children: tuple[dict[str, Any], list[int]]) -> dict[str, Any]:
    return {
        "type": "byDimension",
        "transformations": [
            {"transformation": t, "inputAxes": axes, "outputAxes": axes} for t, axes in children
        ],
    }


def _fault(keyword: str, pointer: str, entry: int = 0) -> Row:
    return ("/", pointer, keyword, f"/{keyword}/{entry}")


MAP = {"type": "mapAxis", "mapAxis": [1, 0]}
AFFINE = {"type": "affine", "affine": [[1, 0, 0], [0, 1, 0]]}
SCALE = {"type": "scale", "scale": [2, 2]}
DESCENT_CASES: list[tuple[str, dict[str, Any], dict[str, Any], list[Row]]] = [
    ("at the top", DESCENT_RULES, _transformed(MAP, AFFINE), []),
    ("in a sequence", DESCENT_RULES, _transformed(_sequence(MAP, AFFINE)), []),
    (
        "in a byDimension in a sequence",
        DESCENT_RULES,
        _transformed(_sequence(_by_dimension((MAP, [0, 1]), (SCALE, [2, 1])))),
        [],
    ),
    (
        "a mapAxis index past its end, in a sequence",
        DESCENT_RULES,
        _transformed(_sequence(SCALE, {"mapAxis": [0, 2]})),
        [_fault(REACHES, "/attributes/t/0/transformations/1/mapAxis/1")],
    ),
    (
        "each mapAxis is its own: a short one beside a long one",
        DESCENT_RULES,
        _transformed({"mapAxis": [0, 2, 1]}, _sequence({"mapAxis": [1]})),
        [_fault(REACHES, "/attributes/t/1/transformations/0/mapAxis/0")],
    ),
    (
        "an affine's rows unequal, in a bijection",
        DESCENT_RULES,
        _transformed(
            {"type": "bijection", "forward": AFFINE, "inverse": {"affine": [[1], [0, 1]]}}
        ),
        [_fault(LENGTH, "/attributes/t/0/inverse/affine/1")],
    ),
    (
        "a byDimension child's scale longer than its axes, two levels down",
        DESCENT_RULES,
        _transformed(_sequence(_sequence(_by_dimension(({"scale": [1, 2, 3]}, [0, 1]))))),
        [
            _fault(
                LENGTH,
                "/attributes/t/0/transformations/0/transformations/0/transformations/0/inputAxes",
                1,
            )
        ],
    ),
    (
        "a byDimension child's axis that names no axis, in a sequence",
        DESCENT_RULES,
        _transformed(_sequence(_by_dimension((SCALE, [0, 3])))),
        [_fault(INDEX_OF, "/attributes/t/0/transformations/0/transformations/0/inputAxes/1")],
    ),
    ("values that are not transformations", DESCENT_RULES, _transformed("mapAxis", 3, None), []),
]

# A sequence's last step maps to the sequence's output system: `[last]` is a list's last item.
LAST_RULE: dict[str, Any] = {
    LENGTH: [["/attributes/t/*/transformations/[last]/scale", "/attributes/axes"]]
}
LAST_CASES: list[tuple[str, dict[str, Any], dict[str, Any], list[Row]]] = [
    ("the last step fits", LAST_RULE, _transformed(_sequence(MAP, {"scale": [1, 2, 3]})), []),
    (
        "the last step does not",
        LAST_RULE,
        _transformed(_sequence({"scale": [1, 2, 3]}, SCALE)),
        [_fault(LENGTH, "/attributes/axes")],
    ),
    (
        "one step is first and last",
        LAST_RULE,
        _transformed(_sequence(SCALE)),
        [_fault(LENGTH, "/attributes/axes")],
    ),
    ("no steps: no last one", LAST_RULE, _transformed(_sequence()), []),
    ("not a list: no last item", LAST_RULE, _transformed({"transformations": {"scale": [1]}}), []),
]

CASES = SOURCE_CASES + DESCENT_CASES + LAST_CASES


def _rows(problems: list[Problem]) -> list[Row]:
    return sorted((p.node_path, p.pointer, p.keyword, p.schema_path) for p in problems)


@pytest.mark.parametrize(
    ("name", "schema", "document", "expected"), CASES, ids=[c[0] for c in CASES]
)
def test_paths_climb_and_descend(
    name: str, schema: dict[str, Any], document: dict[str, Any], expected: list[Row]
) -> None:
    assert _rows(check_document(document, schema, fast=False)) == sorted(expected)
    assert _rows(check_document(document, schema)) == sorted(expected)
    assert is_valid(document, schema) is (not expected)  # jsonschema-rs's verdict


def test_a_source_that_is_no_image_says_so() -> None:
    (problem,) = check_document(_labelled("../"), SOURCE_RULE)
    assert problem.message == f"'../': {SOURCE}/->/attributes/ome/multiscales reaches nothing"


def test_a_deep_document_is_descended_without_recursion() -> None:
    deep: Any = {"mapAxis": [0, 1]}
    for _ in range(1_500):  # past Python's default recursion limit
        deep = _sequence(deep)
    assert check_document(_transformed(deep), DESCENT_RULES) == []


@pytest.mark.node
def test_typescript_gives_the_same_verdicts_and_problems(runtime: Path) -> None:
    payload = [{"schema": json.dumps(s), "documents": [d]} for _n, s, d, _e in CASES]
    results = run_node(runtime / "harness" / "verdicts.mjs", payload)
    for (name, schema, document, _e), (result,) in zip(CASES, results, strict=True):
        python = _rows(check_document(copy.deepcopy(document), schema))
        typescript = sorted(
            (p["node_path"], p["pointer"], p["keyword"], p["schema_path"])
            for p in result["problems"]
        )
        assert (result["valid"], typescript) == (not python, python), name
        assert [p["message"] for p in result["problems"]] == [
            p.message for p in check_document(copy.deepcopy(document), schema)
        ], name
