"""The verdict schema (runtime/python/zomgen_runtime/fastschema.py): `x-zomgen-ndim-length` written as plain
JSON Schema gives jsonschema-rs exactly the verdict of the keyword itself, on every length of
`shape` around the cut-over to the Python keyword, and wherever the keyword sits."""

from __future__ import annotations

import json
from typing import Any

import jsonschema_rs
import pytest
from zomgen_runtime import check_document, is_valid
from zomgen_runtime.checks import NDIM_LENGTH
from zomgen_runtime.engines import _verdict_validator, engines_for, fast_verdict
from zomgen_runtime.fastschema import MAX_NDIM, verdict_schema

from tests.support.paths import ROOT

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
    assert verdict_schema(schema).schema is not schema
    engines = engines_for(schema)
    for case in CASES:
        document = {"x": case} if label == "in a $ref'd $defs" else case
        expected = check_document(document, schema, fast=False) == []
        assert fast_verdict(engines, document) == expected, (label, document)
        if engines.fast.is_valid(document):  # the verdict engine's "valid" is always final
            assert expected, (label, document)


def test_long_shapes_are_left_to_the_schema_as_written_where_that_is_exact() -> None:
    """Where every ndim keyword only ever makes the schema stricter, shapes of MAX_NDIM items or
    more get `{"not": {}}`: no custom keyword is left, and "invalid" is not final. Under `not`
    that would turn "invalid" into "valid": the Python keyword stays there."""
    strict = verdict_schema(dict(NDIM))
    assert NDIM_LENGTH not in json.dumps(strict.schema) and not strict.invalid_is_final
    plain = jsonschema_rs.validator_for(strict.schema)
    # below MAX_NDIM the plain JSON Schema alone decides
    assert not plain.is_valid(_array(MAX_NDIM - 1, ["d"] * MAX_NDIM))
    assert plain.is_valid(_array(MAX_NDIM - 1, ["d"] * (MAX_NDIM - 1)))
    assert not plain.is_valid(_array(MAX_NDIM, ["d"] * MAX_NDIM))  # undecided: not final
    kept = verdict_schema({"not": dict(NDIM)})
    assert json.dumps(kept.schema).count(f'"{NDIM_LENGTH}"') == 1 and kept.invalid_is_final


REF_TO_NDIM = {"$defs": {"A": NDIM}}
EITHER_WAY = {
    "not through a $ref": {**REF_TO_NDIM, "not": {"$ref": "#/$defs/A"}},
    "if": {"if": NDIM, "then": {"required": ["shape"]}},
    "oneOf": {"oneOf": [NDIM, {"required": ["nothing"]}]},
    "contains with maxContains": {"properties": {"x": {"contains": NDIM, "maxContains": 1}}},
    # B reaches the keyword only through A, which is being looked at when B is reached
    "not through a cycle": {
        "$defs": {"A": {"allOf": [{"$ref": "#/$defs/B"}, NDIM]}, "B": {"$ref": "#/$defs/A"}},
        "not": {"$ref": "#/$defs/B"},
    },
    "a reference not followed": {**NDIM, "properties": {"x": {"$ref": "other.json"}}},
    # a wildcard pointer keeps its Python keyword: registered anyway, the stand-in gains nothing
    "another check keyword left": {**NDIM, "properties": {"x": {NDIM_LENGTH: ["/a/*"]}}},
}


@pytest.mark.parametrize("label", list(EITHER_WAY))
def test_the_keyword_stays_where_a_stand_in_could_loosen_the_schema_or_gains_nothing(
    label: str,
) -> None:
    assert verdict_schema(EITHER_WAY[label]).invalid_is_final


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
        assert verdict_schema(schema).schema is schema
    else:
        assert verdict_schema(schema).schema == schema


# --- members checked once (the base group's Node check, implied by the convention's) --------

BUNDLED = ROOT / "generated" / "xarray_v3" / "schema.json"


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
    rewritten = verdict_schema(schema).schema
    copies = [name for name in rewritten["$defs"] if name.startswith("zomgen-verdict-group-")]
    assert (
        copies
        and "additionalProperties" not in rewritten["$defs"][copies[0]]["properties"]["members"]
    )
    fast, _ = _verdict_validator(schema)
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
    assert not any(
        name.startswith("zomgen-verdict-") for name in verdict_schema(schema).schema["$defs"]
    )


@pytest.mark.parametrize("ndim", [MAX_NDIM, MAX_NDIM + 8])
def test_many_dimensions_get_the_verdict_of_the_schema_as_written(ndim: int) -> None:
    schema = json.loads(BUNDLED.read_text("utf-8"))
    assert not engines_for(schema).fast_invalid_is_final
    shape = [1] * ndim
    chunk_grid = {"name": "regular", "configuration": {"chunk_shape": shape}}
    valid = _dataset(
        {"t": _variable(shape=shape, chunk_grid=chunk_grid, dimension_names=["d"] * ndim)}
    )
    invalid = _dataset({"t": _variable(shape=shape, chunk_grid=chunk_grid, dimension_names=["d"])})
    assert check_document(valid, schema) == [] and is_valid(valid, schema)
    assert check_document(invalid, schema) != [] and not is_valid(invalid, schema)
