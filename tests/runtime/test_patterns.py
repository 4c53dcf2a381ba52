r"""Patterns are matched by RE2 in both run times, in linear time, as ECMA-262 means them.

A backtracking engine (Python's `re` under python-jsonschema, JavaScript's RegExp under Ajv) is
held for hours by a 31-character value against `^(a+)+$` (issue 53). Both run times spell each
pattern for RE2 (runtime/linear_patterns.py, runtime_ts/patterns.ts) and match it with google-re2
or re2js: the spellings must be the same word for word, the verdicts the same, the time linear.
A pattern RE2 cannot match (a back reference, a lookbehind) is a problem, never a hang.
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import check_document, is_valid, patterns
from zomgen_runtime.engines import engines_for
from zomgen_runtime.linear_patterns import Unreadable, linear_parts

from tests.support.node import run_node
from tests.support.paths import ROOT, SHARED

DIALECT = "https://json-schema.org/draft/2020-12/schema"
GROUP: dict[str, Any] = {"zarr_format": 3, "node_type": "group", "members": {}}
# Hostile (nested and overlapping repeats), every ECMA-262 spelling the translation changes, and
# what it refuses.
PATTERNS = [
    r"^(a+)+$", r"^(a|a)*$", r"^(a|aa)+$", r"^([a-z]+)*[0-9]$", r"(x+x+)+y",
    r"^.$", r"^\s$", r"^\S$", r"^[\s\S]$", r"^[^\s]$", r"^[\sa]$", r"^\d$", r"^\w+$", r"\bfoo\b",
    r"^\u00e9$", r"^\uD83D\uDE00$", r"^\u{1F600}$", r"^\x41$", r"^\cA$", r"^\0$", r"^[\b]$",
    r"^\p{Letter}+$", r"^\p{Lu}", r"^\P{L}$", r"^\p{gc=Nd}$", r"^\p{Script=Greek}+$", r"[^]",
    r"[]", r"^[\[\]]$", r"^[[]$", r"^[-a]$", r"^[^-a]$", r"^\/\-\.$", r"(?<year>[0-9]{4})",
    r"(?P<year>[0-9]{4})", r"(?i)abc", r"(?:ab)+", r"a{2,3}?", "é+", "\\é",
    r"^(?!/)(?!.*(\.\.))([^/]+(/[^/]+)*)$", r"^(?=a)(?!ab)a.*$",
    r"(a)\1", r"(?<n>a)\k<n>", r"a(?=b)", r"(?<=a)b", r"(?<!a)b", r"^(?!a)b|c", r"^abc\Z",
    r"\q", r"\x4", r"\u12", r"\u{110000}", r"\p{Script_Extensions=Greek}", r"\p{Nope}", "(?U)a",
    "(", "[a", "a{2,1}", "x{1001}", "\\", "\ud800", r"\ud800", "a\x00",
]  # fmt: skip


def schema_of(attributes: dict[str, Any]) -> dict[str, Any]:
    """A bundled-like schema: a group node whose attributes follow `attributes`."""
    return {
        "$schema": DIALECT,
        "type": "object",
        "properties": {"zarr_format": {"const": 3}, "attributes": {"type": "object", **attributes}},
    }


def node(attributes: dict[str, Any]) -> dict[str, Any]:
    return {**GROUP, "attributes": attributes}


def corpus_patterns() -> list[str]:
    """Every `pattern` and `patternProperties` key of the bundled schemas and the corpus."""
    found: set[str] = set()
    stack: list[Any] = []
    for root in (ROOT / "schemas", SHARED / "corpus"):
        for path in sorted(root.rglob("*.json")):
            try:
                stack.append(json.loads(path.read_text("utf-8")))
            except (UnicodeDecodeError, ValueError):
                continue
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if isinstance(value.get("pattern"), str):
                found.add(value["pattern"])
            if isinstance(value.get("patternProperties"), dict):
                found.update(value["patternProperties"])
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return sorted(found)


def python_parts(pattern: str) -> dict[str, Any]:
    try:
        return {"parts": [[p.source, p.must_match] for p in linear_parts(pattern)]}
    except Unreadable as exc:
        return {"unreadable": str(exc)}


def test_every_pattern_of_the_corpus_is_matched_by_re2() -> None:
    found = corpus_patterns()
    assert len(found) > 40
    assert {p: patterns.unreadable(p) for p in found if patterns.unreadable(p)} == {}


@pytest.mark.node
def test_both_run_times_spell_each_pattern_for_re2_alike(runtime: Path) -> None:
    every = [*PATTERNS, *corpus_patterns()]
    typescript = run_node(runtime / "harness" / "pattern_parts.mjs", every)
    assert typescript == [python_parts(p) for p in every]


# (pattern, text, matched as ECMA-262 means it)
ECMA_MEANING = [
    (r"^.$", "\u2028", False), (r"^.$", "\r", False), (r"^.$", "😀", True),
    (r"^\s$", "\u00a0", True), (r"^\s$", "\ufeff", True), (r"^\S$", "\u3000", False),
    (r"^[\s\S]$", "\n", True), (r"^[^\s]$", "\u2029", False), (r"^\d$", "\u0661", False),
    (r"^a$", "a\n", False), (r"^\w+$", "é", False), (r"\bfoo\b", "a foo.", True),
    (r"^\uD83D\uDE00$", "😀", True), (r"^\u{1F600}$", "😀", True), (r"^\cA$", "\x01", True),
    (r"^\0$", "\x00", True), (r"^[\b]$", "\x08", True), (r"^\p{Letter}+$", "Ωé", True),
    (r"^\p{Script=Greek}+$", "Ω", True), (r"^\p{Script=Greek}+$", "é", False), (r"[^]", "\n", True),
    (r"[]", "a", False), (r"^[[]$", "[", True), (r"^[-a]$", "-", True), (r"^[^-a]$", "-", False),
    (r"^(?!/)(?!.*(\.\.))([^/]+(/[^/]+)*)$", "a/b", True),
    (r"^(?!/)(?!.*(\.\.))([^/]+(/[^/]+)*)$", "/a", False),
    (r"^(?!/)(?!.*(\.\.))([^/]+(/[^/]+)*)$", "a/../b", False),
    (r"^(?=a)(?!ab)a.*$", "ac", True), (r"^(?=a)(?!ab)a.*$", "ab", False),
    (r"(?P<year>[0-9]{4})", "in 2026", True), (r"(?i)abc", "xABC", True),
]  # fmt: skip


@pytest.mark.node
def test_both_run_times_match_as_ecma262_means(runtime: Path) -> None:
    schema = schema_of(
        {"properties": {str(i): {"pattern": p} for i, (p, _, _) in enumerate(ECMA_MEANING)}}
    )
    documents = [node({str(i): text}) for i, (_, text, _) in enumerate(ECMA_MEANING)]
    expected = [meant for _, _, meant in ECMA_MEANING]
    python = [check_document(d, schema, fast=False) == [] for d in documents]
    [typescript] = run_node(
        runtime / "harness" / "verdicts.mjs",
        [{"schema": json.dumps(schema), "documents": documents}],
    )
    assert python == expected
    assert [r["valid"] for r in typescript] == expected


HOSTILE_VALUE = "a" * 5000 + "!"
HOSTILE_SCHEMAS = {
    "pattern": {"properties": {"x": {"type": "string", "pattern": r"^(a+)+$"}}},
    "patternProperties": {"patternProperties": {r"^(a|a)*$": {"type": "integer"}}},
    "additionalProperties": {
        "patternProperties": {r"^(a|aa)+$": {"type": "integer"}},
        "additionalProperties": False,
    },
    "unevaluatedProperties": {
        "patternProperties": {r"^([a-z]+)*[0-9]$": {"type": "integer"}},
        "unevaluatedProperties": False,
    },
    "propertyNames": {"propertyNames": {"pattern": r"(x+x+)+y"}},
}


@pytest.mark.node
@pytest.mark.parametrize("keyword", sorted(HOSTILE_SCHEMAS))
def test_a_hostile_pattern_and_value_end_at_once_in_both_run_times(
    keyword: str, runtime: Path
) -> None:
    # `required` fails too: a value that matches no pattern may leave nothing else to fail
    schema = schema_of({**HOSTILE_SCHEMAS[keyword], "required": ["absent"]})
    document = node({"x": HOSTILE_VALUE, HOSTILE_VALUE: HOSTILE_VALUE})
    started = time.perf_counter()
    python = (is_valid(document, schema), check_document(document, schema, fast=False))
    [[typescript]] = run_node(
        runtime / "harness" / "verdicts.mjs",
        [{"schema": json.dumps(schema), "documents": [document]}],
    )
    elapsed = time.perf_counter() - started
    # a backtracking engine takes longer than the age of the universe on this value
    assert elapsed < 20, f"{elapsed:.1f} s"
    assert python[0] is False and python[1] != []
    assert typescript["valid"] is False
    assert sorted((p["pointer"], p["keyword"]) for p in typescript["problems"]) == sorted(
        (p.pointer, p.keyword) for p in python[1]
    )


def test_a_pattern_re2_cannot_match_is_a_problem_not_a_verdict() -> None:
    schema = schema_of({"properties": {"x": {"type": "string", "pattern": r"(a)\1"}}})
    [problem] = check_document(node({"x": "aa"}), schema, fast=False)
    assert problem.pointer == "/attributes/x"
    assert problem.message == (
        r"the schema's pattern '(a)\\1' cannot be matched: a back reference, which only a "
        "backtracking engine matches"
    )
    assert not is_valid(node({"x": "aa"}), schema)


@pytest.fixture
def without_re2(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The package installed without google-re2."""
    real = importlib.import_module

    def import_module(name: str, package: str | None = None) -> Any:
        if name == "re2":
            raise ImportError(name)
        return real(name, package)

    patterns.search.cache_clear()
    patterns.unreadable.cache_clear()
    monkeypatch.setattr(importlib, "import_module", import_module)
    yield
    patterns.search.cache_clear()
    patterns.unreadable.cache_clear()


def test_without_google_re2_a_pattern_is_a_problem_never_valid(without_re2: None) -> None:
    schema = schema_of({"properties": {"x": {"type": "string", "pattern": "^a+$"}}})
    [problem] = check_document(node({"x": "aaa"}), schema, fast=False)
    assert "google-re2 is not installed" in problem.message


def test_lone_surrogates_in_a_value_are_no_exception() -> None:
    schema = schema_of({"properties": {"x": {"pattern": r"^\p{Letter}+$"}}})
    assert check_document(node({"x": "a\ud800"}), schema, fast=False) != []


def test_the_fast_engine_still_gives_verdicts_for_a_patterned_schema() -> None:
    schema = schema_of({"properties": {"x": {"type": "string", "pattern": r"^\p{Letter}+$"}}})
    assert engines_for(schema).fast is not None
    assert is_valid(node({"x": "olé"}), schema)
    [problem] = check_document(node({"x": "olé1"}), schema)
    assert problem.message == r"'olé1' does not match '^\\p{Letter}+$'"
    assert problem.schema_path == "/properties/attributes/properties/x/pattern"


def test_pattern_properties_and_additional_properties_in_python_jsonschemas_words() -> None:
    schema = schema_of(
        {
            "properties": {"known": {"type": "boolean"}},
            "patternProperties": {r"^\p{Lu}": {"type": "integer"}},
            "additionalProperties": False,
        }
    )
    assert check_document(node({"Émile": 1, "known": True}), schema, fast=False) == []
    [wrong_type] = check_document(node({"Émile": "x"}), schema, fast=False)
    assert (wrong_type.pointer, wrong_type.keyword) == ("/attributes/Émile", "type")
    assert wrong_type.schema_path == r"/properties/attributes/patternProperties/^\p{Lu}/type"
    [extra] = check_document(node({"émile": 1, "Ok": 2}), schema, fast=False)
    assert (extra.pointer, extra.keyword) == ("/attributes", "additionalProperties")
    assert extra.message == r"'émile' does not match any of the regexes: '^\\p{Lu}'"


@pytest.mark.node
def test_typescript_reports_a_pattern_re2_cannot_match_as_python_does(runtime: Path) -> None:
    schema = schema_of({"properties": {"x": {"type": "string", "pattern": r"(a)\1"}}})
    document = node({"x": "aa"})
    [python] = check_document(document, schema)
    [[typescript]] = run_node(
        runtime / "harness" / "verdicts.mjs",
        [{"schema": json.dumps(schema), "documents": [document]}],
    )
    assert typescript["valid"] is False
    [problem] = typescript["problems"]
    assert (problem["pointer"], problem["keyword"], problem["message"]) == (
        python.pointer,
        python.keyword,
        python.message,
    )
