"""catalog/predicates.py: a catalog entry's `declared_when` or `used_when` gives the schema
engine's verdict on every document, although the engine runs only where the conditions read
off the schema let a document pass.

Tried on every test of the bundled catalog against the attributes of every OME-Zarr example and
conformance case of the corpus (as v2 and v3 groups) and against documents Hypothesis builds
from the keys and values those tests name."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.paths import SHARED
from zomgen.catalog.entries import load_catalogs
from zomgen.catalog.predicates import Predicate

TESTS = [
    (f"{entry.name} {which}", schema)
    for entry in load_catalogs([])
    for which, schema in (("declared_when", entry.declared_when), ("used_when", entry.used_when))
    if schema is not None
]


def _engine(schema: dict[str, Any]) -> Any:
    return jsonschema_rs.validator_for(schema).is_valid


def _corpus_attributes() -> Iterator[dict[str, Any]]:
    for path in sorted((SHARED / "corpus" / "ome-ngff").rglob("*.json")):
        try:
            value = json.loads(path.read_text("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            continue
        if isinstance(value, dict):
            yield value.get("attributes", value)


def _as_nodes(attributes: Any) -> list[dict[str, Any]]:
    array = {"zarr_format": 3, "node_type": "array", "dimension_names": ["y", "x"]}
    return [
        {"zarr_format": 2, "attributes": attributes},
        {"zarr_format": 3, "node_type": "group", "attributes": attributes},
        {"zarr_format": 3, "node_type": "group", "attributes": attributes, "members": {}},
        {"zarr_format": 3, "node_type": "group", "attributes": attributes, "members": {"0": array}},
    ]


CORPUS = [node for attributes in _corpus_attributes() for node in _as_nodes(attributes)]


@pytest.mark.parametrize(("name", "schema"), TESTS, ids=[name for name, _ in TESTS])
def test_each_catalog_test_agrees_with_the_engine_on_the_corpus(
    name: str, schema: dict[str, Any]
) -> None:
    assert len(CORPUS) > 1000  # the corpus was found
    engine, predicate = _engine(schema), Predicate(schema, shortcut_calls=len(CORPUS))
    differ = [node for node in CORPUS if predicate(node) != engine(node)]
    assert differ == []


def _named(value: Any, keys: set[str], scalars: list[Any]) -> None:
    """The property names and scalar constants a schema mentions."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("properties", "patternProperties", "required"):
                keys.update(item)
            elif key == "const" and not isinstance(item, (dict, list)):
                scalars.append(item)
            _named(item, keys, scalars)
    elif isinstance(value, list):
        for item in value:
            _named(item, keys, scalars)


_KEYS: set[str] = set()
_SCALARS: list[Any] = []
for _, _schema in TESTS:
    _named(_schema, _KEYS, _SCALARS)
_SCALAR = st.sampled_from([*_SCALARS, None, True, False, 0, 1, 1.0, 2, 3.0, "", "x"])
_VALUE = st.recursive(
    _SCALAR,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(sorted(_KEYS)), inner, max_size=4)
    ),
    max_leaves=12,
)
_DOCUMENT = st.fixed_dictionaries(
    {"zarr_format": st.sampled_from([2, 3, 3.0, "3"])},
    optional={
        "node_type": st.sampled_from(["group", "array", 1]),
        "attributes": _VALUE,
        "members": st.dictionaries(st.sampled_from(["0", "x", "labels"]), _VALUE, max_size=3),
        "dimension_names": _VALUE,
    },
)
_PREDICATES = [(Predicate(schema, shortcut_calls=10**9), _engine(schema)) for _, schema in TESTS]


def test_the_corpus_passes_most_catalog_tests() -> None:
    """Else the comparison above would be of "no" with "no" (the bf2raw, AnnData and
    SpatialData tests are passed by the built documents below and the stores of their tests)."""
    passed = [name for name, schema in TESTS if any(map(_engine(schema), CORPUS))]
    assert len(passed) >= 20, passed


@settings(max_examples=400, deadline=None)
@given(document=_DOCUMENT)
def test_every_catalog_test_agrees_with_the_engine_on_built_documents(
    document: dict[str, Any],
) -> None:
    for predicate, engine in _PREDICATES:
        assert predicate(document) == engine(document), predicate.schema


@pytest.mark.parametrize(
    ("schema", "document", "holds"),
    [
        ({"const": 1}, 1.0, True),  # one number
        ({"const": 1}, True, False),  # a boolean is no number
        ({"const": True}, 1, False),
        ({"const": None}, None, True),
        ({"required": ["a"]}, ["a"], True),  # `required` says nothing of a list
        ({"properties": {"a": {"const": 2}}}, {}, True),  # nor `properties` of an absent key
        ({"minProperties": 1, "additionalProperties": {"required": ["b"]}}, {}, False),
        ({"additionalProperties": {"required": ["b"]}}, {"x": {"b": 1}, "y": {}}, False),
        # beside `properties`, additionalProperties is the engine's alone
        ({"properties": {"x": {}}, "additionalProperties": {"required": ["b"]}}, {"x": {}}, True),
        ({"allOf": [{"type": "string"}, {"const": "a"}]}, "a", True),
        ({"allOf": [{"type": "string"}, {"const": "a"}]}, "b", False),
    ],
)
def test_the_conditions_follow_json_schema(
    schema: dict[str, Any], document: Any, holds: bool
) -> None:
    assert Predicate(schema)(document) is holds
    assert _engine(schema)(document) is holds


def test_past_the_shortcut_calls_the_engine_decides_alone() -> None:
    predicate = Predicate({"required": ["ome"]}, shortcut_calls=2)
    assert [predicate({}), predicate({}), predicate._engine] == [False, False, None]
    assert predicate({}) is False
    assert predicate._engine is not None  # the third call: compiled


def test_a_document_no_condition_admits_never_reaches_the_engine() -> None:
    predicate = Predicate({"required": ["ome"], "properties": {"ome": {"const": "x"}}})
    assert predicate({"ome": "y"}) is False
    assert predicate._engine is None  # nothing compiled
    assert predicate({"ome": "x"}) is True
    assert predicate._engine is not None
