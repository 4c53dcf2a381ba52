"""The relation keywords (docs/extra-checks.md, "Relations"): x-zomgen-equal, -equal-length,
-count-equal, -reaches, -in, -unique-by, -index-of, -partition, and x-zomgen-member-kind over the
same paths (`*`, `[*]`, `->`, `{path}`). Their cases, each problem at the faulty node and key
with its message, are the shared cases of runtime/cases/ (relations.json, malformed.json), which
both run times run (tests/runtime/test_shared_cases.py); what is left here is Python's own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from zomgen_runtime import check_document
from zomgen_runtime.paths import canonical, same

from tests.support.runtime import V3_GROUP, v3_array

EQUAL = "x-zomgen-equal"
LENGTH = "x-zomgen-equal-length"
UNIQUE = "x-zomgen-unique-by"
KIND = "x-zomgen-member-kind"

# The OME-NGFF 0.5 rules, one keyword use each (the bundled conventions say the same).
MS = "/attributes/ome/multiscales/*"
LEVEL = f"{MS}/datasets/*/path/->"
LABEL_DATASETS = "/members/labels/attributes/ome/labels/*/->/attributes/ome/multiscales/*/datasets"
OME_RULES: dict[str, Any] = {
    KIND: {f"{MS}/datasets/*/path": "array"},
    LENGTH: [
        [
            f"{MS}/axes",
            f"{LEVEL}/shape",
            f"{MS}/datasets/*/coordinateTransformations/*/scale",
            f"{MS}/datasets/*/coordinateTransformations/*/translation",
        ],
        [f"{MS}/datasets", LABEL_DATASETS],
    ],
    EQUAL: [[f"{MS}/axes/[*]/name", f"{LEVEL}/dimension_names"]],
    UNIQUE: {f"{MS}/axes": "/name"},
}
SCHEMA: dict[str, Any] = {
    **OME_RULES,
    "properties": {
        "members": {"properties": {"labels": {KIND: {"/attributes/ome/labels/*": "group"}}}}
    },
}


def _group(attributes: dict[str, Any], members: dict[str, Any]) -> dict[str, Any]:
    return {**V3_GROUP, "attributes": attributes, "members": members}


def _image(levels: int = 2, names: tuple[str, ...] = ("y", "x")) -> dict[str, Any]:
    datasets = [
        {"path": f"s{i}", "coordinateTransformations": [{"type": "scale", "scale": [2.0**i] * 2}]}
        for i in range(levels)
    ]
    axes = [{"name": n, "type": "space"} for n in names]
    members = {
        f"s{i}": v3_array([64 >> i, 64 >> i], dimension_names=list(names)) for i in range(levels)
    }
    ome = {"version": "0.5", "multiscales": [{"axes": axes, "datasets": datasets}]}
    return _group({"ome": ome}, members)


def _labelled(levels: int = 2) -> dict[str, Any]:
    image = _image()
    image["members"]["labels"] = _group({"ome": {"labels": ["cells"]}}, {"cells": _image(levels)})
    return image


def _broken(mutate: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    document = _labelled()
    mutate(document)
    return document


def _three_dims(document: dict[str, Any]) -> None:
    document["members"]["s1"]["shape"] = [1, 32, 32]


def test_problems_name_the_faulty_node_and_key() -> None:
    document = _broken(_three_dims)
    (problem,) = check_document(document, SCHEMA)
    assert (problem.node_path, problem.pointer) == ("/s1", "/shape")
    assert (
        "3 dimensions" in problem.message
        and "/attributes/ome/multiscales/0/axes" in problem.message
    )


def test_values_compare_as_their_canonical_texts() -> None:
    """Relations compare values with `same`, which must agree with comparing `canonical` texts
    (the TypeScript run time's way) on every pair: numbers of both kinds, NaN, huge integers,
    booleans against integers, nested lists and objects in any key order."""
    values: list[Any] = [0, 1, 1.0, -0.0, 0.5, True, False, None, "1", "a", float("nan")]
    values += [float("inf"), 2**60, float(2**60), 1e300, 10**300, 10**400]
    values += [[], {}, [1, 2], [1.0, 2], [True, 2], [[1]], [[1.0]], ["1"]]
    values += [{"a": 1}, {"a": 1.0}, {"b": 1}, {"a": 1, "b": 2}, {"b": 2, "a": 1}]
    for a in values:
        for b in values:
            assert same(a, b) is (canonical(a) == canonical(b)), (a, b)


def test_other_validators_ignore_the_keywords() -> None:
    jsonschema: Any = pytest.importorskip("jsonschema")
    document = _broken(_three_dims)
    assert jsonschema.Draft202012Validator(SCHEMA).is_valid(document)
