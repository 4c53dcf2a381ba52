"""The verdict schema (zomgen/runtime/fastschema.py): `x-zomgen-ndim-length` written as plain
JSON Schema gives jsonschema-rs exactly the verdict of the keyword itself, on every length of
`shape` around the cut-over to the Python keyword, and wherever the keyword sits."""

from __future__ import annotations

import json
from pathlib import Path
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


# --- members checked once (the base group's Node check, implied by the convention's) --------

BUNDLED = Path(__file__).resolve().parents[2] / "generated" / "xarray_v3" / "schema.json"


def _variable(**changes: Any) -> dict[str, Any]:
    array: dict[str, Any] = {
        "zarr_format": 3,
        "node_type": "array",
        "attributes": {"units": "m"},
        "shape": [2, 3],
        "data_type": "float64",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 3]}},
        "chunk_key_encoding": {"name": "default"},
        "fill_value": 0.0,
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
        "dimension_names": ["y", "x"],
    }
    array.update(changes)
    return {key: value for key, value in array.items() if value is not None}


def _dataset(members: Any) -> dict[str, Any]:
    return {"zarr_format": 3, "node_type": "group", "attributes": {}, "members": members}


GROUP = _dataset({})
MEMBER_CASES = [
    _dataset({"t": _variable()}),
    _dataset({"t": _variable(), "u": _variable(shape=[4], dimension_names=["z"], chunk_grid="x")}),
    _dataset({"t": GROUP}),  # a group where the convention wants a variable
    _dataset({"t": _variable(node_type="group")}),
    _dataset({"t": _variable(data_type=None)}),
    _dataset({"t": _variable(dimension_names=None)}),
    _dataset({"t": _variable(dimension_names=["y"])}),
    _dataset({"t": _variable(codecs=[])}),
    _dataset({"t": _variable(extra={"must_understand": True})}),
    _dataset({"t": _variable(extra={"must_understand": False})}),
    _dataset({"__t": _variable()}),  # a reserved name
    _dataset({"t": 3}),
    _dataset([]),
    _dataset({}),
    {k: v for k, v in GROUP.items() if k != "members"},
    [],
]


def test_members_are_checked_once_with_the_same_verdicts() -> None:
    schema = json.loads(BUNDLED.read_text("utf-8"))
    rewritten = verdict_schema(schema)
    copies = [name for name in rewritten["$defs"] if name.startswith("zomgen-verdict-group-")]
    assert (
        copies
        and "additionalProperties" not in rewritten["$defs"][copies[0]]["properties"]["members"]
    )
    fast = _fast_validator(schema)
    verdicts = []
    for document in MEMBER_CASES:
        expected = check_document(document, schema, fast=False) == []
        assert bool(fast.is_valid(document)) == expected, document
        verdicts.append(expected)
    # both kinds are tested: the reference engine's verdicts, pinned
    assert [i for i, valid in enumerate(verdicts) if valid] == [0, 1, 9, 13]


@pytest.mark.parametrize(
    "change",
    [
        # a named member escapes `additionalProperties`: the base group's check is not implied
        lambda s: s["properties"]["members"].update({"properties": {"g": {}}}),
        # the convention's member schema no longer requires a node schema
        lambda s: s["$defs"]["Variable"].update({"allOf": [{"required": ["shape"]}]}),
        # the base group's node check says more than "a group or an array"
        lambda s: s["$defs"]["zomgen:v3.schema.json"]["$defs"]["Node"].update({"minProperties": 3}),
        # an `$id` could change what the references mean
        lambda s: s["$defs"]["Variable"].update({"$id": "urn:x"}),
    ],
    ids=["named member", "no node schema", "node check says more", "$id"],
)
def test_the_member_check_stays_where_it_is_not_implied(change: Any) -> None:
    schema = json.loads(BUNDLED.read_text("utf-8"))
    change(schema)
    assert not any(name.startswith("zomgen-verdict-") for name in verdict_schema(schema)["$defs"])
