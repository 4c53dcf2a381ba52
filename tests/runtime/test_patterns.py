r"""Patterns one engine cannot read: checked by an engine that can, never an exception.

JSON Schema's patterns are ECMA-262. python-jsonschema (the reference engine, which gives the
details) reads them with Python's `re`, which cannot read `\p{Letter}`; jsonschema-rs (the fast
engine, which gives the verdict) cannot read `\Z` or `[^]`, and then the whole schema is checked
by the reference alone. runtime/patterns.py matches a pattern `re` cannot read with regress
(ECMA-262), else jsonschema-rs, in `pattern`, `patternProperties` and `additionalProperties`;
any other keyword that meets such a pattern leaves the details to jsonschema-rs. validate.ts
(Ajv) reads `\p{Letter}` itself, and gives the same verdicts.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.node import HARNESS, compile_typescript, run_node
from zomgen.pipeline import Options, generate
from zomgen.runtime import check_document, is_valid, patterns
from zomgen.runtime.engines import engines_for
from zomgen.write import write_package

DIALECT = "https://json-schema.org/draft/2020-12/schema"
GROUP: dict[str, Any] = {"zarr_format": 3, "node_type": "group", "members": {}}


def schema_of(attributes: dict[str, Any], *extra: tuple[str, Any]) -> dict[str, Any]:
    """A bundled-like schema: a group node whose attributes follow `attributes`."""
    return {
        "$schema": DIALECT,
        "type": "object",
        "properties": {
            "zarr_format": {"const": 3},
            "attributes": {"type": "object", **attributes},
        },
        **dict(extra),
    }


def node(attributes: dict[str, Any]) -> dict[str, Any]:
    return {**GROUP, "attributes": attributes}


def verdicts(document: Any, schema: dict[str, Any]) -> tuple[bool, bool, list[Any]]:
    """(is_valid, no problems without the fast verdict, the problems)."""
    problems = check_document(document, schema, fast=False)
    return is_valid(document, schema), problems == [], problems


@pytest.fixture
def without_regress(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The package installed without regress: jsonschema-rs matches what `re` cannot read."""
    real = importlib.import_module

    def import_module(name: str, package: str | None = None) -> Any:
        if name == "regress":
            raise ImportError(name)
        return real(name, package)

    patterns.search.cache_clear()
    monkeypatch.setattr(importlib, "import_module", import_module)
    yield
    patterns.search.cache_clear()


LETTERS = schema_of({"properties": {"x": {"type": "string", "pattern": r"^\p{Letter}+$"}}})


def test_a_pattern_python_cannot_read_is_checked_as_ecma262() -> None:
    assert engines_for(LETTERS).fast is not None  # jsonschema-rs reads it: the fast verdict
    assert verdicts(node({"x": "olé"}), LETTERS) == (True, True, [])
    fast, reference, [problem] = verdicts(node({"x": "olé1"}), LETTERS)
    assert (fast, reference) == (False, False)
    assert (problem.node_path, problem.pointer, problem.keyword) == (
        "/",
        "/attributes/x",
        "pattern",
    )
    assert problem.message == r"'olé1' does not match '^\\p{Letter}+$'"
    assert problem.schema_path == "/properties/attributes/properties/x/pattern"


def test_without_regress_jsonschema_rs_matches_it(without_regress: None) -> None:
    assert verdicts(node({"x": "olé"}), LETTERS)[:2] == (True, True)
    assert verdicts(node({"x": "olé1"}), LETTERS)[:2] == (False, False)


def test_lone_surrogates_in_a_value_are_no_exception() -> None:
    assert verdicts(node({"x": "a\ud800"}), LETTERS)[:2] == (False, False)


def test_pattern_properties_and_additional_properties() -> None:
    schema = schema_of(
        {
            "properties": {"known": {"type": "boolean"}},
            "patternProperties": {r"^\p{Lu}": {"type": "integer"}},
            "additionalProperties": False,
        }
    )
    assert verdicts(node({"Émile": 1, "known": True}), schema)[:2] == (True, True)
    _, _, [wrong_type] = verdicts(node({"Émile": "x"}), schema)
    assert (wrong_type.pointer, wrong_type.keyword) == ("/attributes/Émile", "type")
    assert wrong_type.schema_path == (
        r"/properties/attributes/patternProperties/^\p{Lu}/type".replace("~", "~0")
    )
    fast, reference, [extra] = verdicts(node({"émile": 1, "Ok": 2}), schema)
    assert (fast, reference) == (False, False)
    assert (extra.pointer, extra.keyword) == ("/attributes", "additionalProperties")
    assert extra.message == r"'émile' does not match any of the regexes: '^\\p{Lu}'"


def test_additional_properties_as_a_schema_beside_such_a_pattern() -> None:
    schema = schema_of(
        {
            "patternProperties": {r"^\p{Lu}": {"type": "integer"}},
            "additionalProperties": {"type": "string"},
        }
    )
    assert verdicts(node({"A": 1, "b": "s"}), schema)[:2] == (True, True)
    _, _, [problem] = verdicts(node({"A": 1, "b": 2}), schema)
    assert (problem.pointer, problem.keyword) == ("/attributes/b", "type")


def test_other_keywords_that_meet_such_a_pattern_get_jsonschema_rs_details() -> None:
    """python-jsonschema's `unevaluatedProperties` matches `patternProperties` itself."""
    schema = schema_of(
        {"patternProperties": {r"^\p{Lu}": {"type": "integer"}}, "unevaluatedProperties": False}
    )
    assert verdicts(node({"A": 1}), schema)[:2] == (True, True)
    fast, reference, problems = verdicts(node({"A": 1, "b": 2}), schema)
    assert (fast, reference) == (False, False)
    assert [p.pointer for p in problems] == ["/attributes"]


def test_a_schema_jsonschema_rs_cannot_compile_is_checked_by_the_reference_alone() -> None:
    r"""`\Z` (Python) and `[^]` (ECMA-262): jsonschema-rs reads neither, `re` only the first."""
    schema = schema_of(
        {
            "properties": {
                "end": {"type": "string", "pattern": r"^abc\Z"},
                "any": {"type": "string", "pattern": r"^[^]$"},
                "letters": {"type": "string", "pattern": r"^\p{Letter}+$"},
            }
        }
    )
    assert engines_for(schema).fast is None
    good = {"end": "abc", "any": "\n", "letters": "olé"}
    assert verdicts(node(good), schema) == (True, True, [])
    for key, wrong in [("end", "abcd"), ("any", "ab"), ("letters", "1")]:
        fast, reference, [problem] = verdicts(node({**good, key: wrong}), schema)
        assert (fast, reference, problem.pointer) == (False, False, f"/attributes/{key}")


def test_a_pattern_no_engine_reads_is_a_problem_not_an_exception() -> None:
    schema = schema_of({"properties": {"x": {"type": "string", "pattern": "("}}})
    fast, reference, [problem] = verdicts(node({"x": "("}), schema)
    assert (fast, reference) == (False, False)
    assert "cannot be read by any regular-expression engine" in problem.message
    schema = schema_of({"patternProperties": {"(": {"type": "integer"}}})
    assert not verdicts(node({"x": 1}), schema)[1]


@pytest.mark.node
def test_validate_ts_reads_unicode_property_escapes_and_agrees(tmp_path: Path) -> None:
    source = tmp_path / "letters.json"
    source.write_text(
        json.dumps(
            {
                "title": "Letters",
                "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
                "properties": {
                    "attributes": {
                        "type": "object",
                        "properties": {
                            "x": {"type": "string", "pattern": r"^\p{Letter}+$"},
                            "counts": {
                                "type": "object",
                                "patternProperties": {r"^\p{Lu}": {"type": "integer"}},
                            },
                        },
                    }
                },
            }
        ),
        encoding="utf-8",
    )
    write_package(generate(Options(source, (), "letters")), tmp_path / "letters")
    out = compile_typescript(tmp_path, ["letters/*.ts", "letters/_runtime_ts/*.ts"])
    schema = json.loads((tmp_path / "letters" / "schema.json").read_text("utf-8"))
    documents = [
        node({"x": "olé"}),
        node({"x": "olé1"}),
        node({"counts": {"Émile": 1}}),
        node({"counts": {"Émile": "x"}}),
        node({"counts": {"émile": "x"}}),
    ]
    payload = [{"package": str(out / "letters" / "validate.js"), "documents": documents}]
    [results] = run_node(HARNESS / "package_verdicts.mjs", payload)
    typescript = [not r["problems"] for r in results]
    python = [check_document(d, schema) == [] for d in documents]
    assert typescript == python == [True, False, True, False, True]
