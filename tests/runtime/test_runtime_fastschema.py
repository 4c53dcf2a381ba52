"""The verdict schema (zomgen/runtime/fastschema.py): `x-zomgen-ndim-length` written as plain
JSON Schema gives jsonschema-rs exactly the verdict of the keyword itself, on every length of
`shape` around the cut-over to the Python keyword, and wherever the keyword sits."""

from __future__ import annotations

import json
from typing import Any

import jsonschema_rs
import pytest

from zomgen.runtime import check_document
from zomgen.runtime.checks import NDIM_LENGTH
from zomgen.runtime.fastschema import MAX_NDIM, verdict_schema
from zomgen.runtime.validation import _fast_validator

NDIM = {NDIM_LENGTH: ["/dimension_names", "/chunk_grid/configuration/chunk_shape", "/a~1b"]}


def _array(ndim: int, names: Any, chunks: Any = None) -> dict[str, Any]:
    document: dict[str, Any] = {"shape": [1] * ndim}
    if names is not None:
        document["dimension_names"] = names
    if chunks is not None:
        document["chunk_grid"] = {"configuration": {"chunk_shape": chunks}}
    return document


def _cases() -> list[Any]:
    cases: list[Any] = []
    for ndim in (0, 1, 2, 3, MAX_NDIM - 1, MAX_NDIM, MAX_NDIM + 3):
        for names in (ndim, ndim + 1, ndim - 1):
            if names >= 0:
                cases.append(_array(ndim, ["d"] * names))
        cases.append(_array(ndim, ["d"] * ndim, [1] * (ndim + 1)))  # the nested pointer
        cases.append(_array(ndim, ["d"] * ndim, [1] * ndim) | {"a/b": [0] * (ndim + 2)})
        cases.append(_array(ndim, None))  # absent: nothing to check
        cases.append(_array(ndim, "not a list"))
    cases += [{"dimension_names": ["x"]}, {"shape": "2", "dimension_names": []}, ["a"], 3]
    return cases


CASES = _cases()
SCHEMAS = {
    "top": NDIM,
    "under anyOf": {"anyOf": [{"required": ["nothing"]}, NDIM]},
    "under not": {"not": NDIM},
    "in a $ref'd $defs": {"$defs": {"A": NDIM}, "properties": {"x": {"$ref": "#/$defs/A"}}},
    "beside allOf": {"allOf": [{"type": ["object", "array", "integer"]}], **NDIM},
}


@pytest.mark.parametrize("label", list(SCHEMAS))
def test_the_verdict_schema_agrees_with_the_keyword(label: str) -> None:
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **SCHEMAS[label]}
    rewritten = verdict_schema(schema)
    assert rewritten is not schema
    fast = _fast_validator(schema)
    for case in CASES:
        document = {"x": case} if label == "in a $ref'd $defs" else case
        expected = check_document(document, schema, fast=False) == []
        assert bool(fast.is_valid(document)) == expected, (label, document)


def test_the_python_keyword_stays_only_for_long_shapes() -> None:
    rewritten = json.dumps(verdict_schema(dict(NDIM)))
    assert rewritten.count(f'"{NDIM_LENGTH}"') == 1  # the leaf for MAX_NDIM dimensions or more
    plain = jsonschema_rs.validator_for(json.loads(rewritten.replace(NDIM_LENGTH, "x-unknown")))
    # below MAX_NDIM the plain JSON Schema alone decides
    assert not plain.is_valid(_array(MAX_NDIM - 1, ["d"] * MAX_NDIM))
    assert plain.is_valid(_array(MAX_NDIM + 1, ["d"]))


@pytest.mark.parametrize(
    "schema",
    [
        {NDIM_LENGTH: ["/dimension_names/*"]},  # a wildcard
        {NDIM_LENGTH: ["/codecs/0/configuration"]},  # an array index
        {NDIM_LENGTH: "/dimension_names"},  # malformed
        {**NDIM, "unevaluatedProperties": False},  # `properties` would count as evaluated
        {"properties": {"dimension_names": True}},  # no keyword at all
    ],
)
def test_what_is_not_exact_as_json_schema_is_left_as_written(schema: dict[str, Any]) -> None:
    if "unevaluatedProperties" in schema or NDIM_LENGTH not in schema:
        assert verdict_schema(schema) is schema
    else:
        assert verdict_schema(schema) == schema
