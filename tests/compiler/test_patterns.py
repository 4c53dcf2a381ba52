r"""Regular expressions in a convention: every pattern RE2 can match as ECMA-262 means it is
accepted; any other is refused with its pointer and the reason.

JSON Schema's regex dialect is ECMA-262. Both run times match patterns with RE2, in linear time
(tests/runtime/test_patterns.py), so `zomgen build` refuses what RE2 cannot match (a back
reference, a lookbehind, a lookahead that does not follow a leading `^`) instead of shipping a
package a 31-character value can hold for hours. The one warning left is for a pattern
jsonschema-rs (the fast engine) cannot read, which the Python run time then checks slower.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import check_document
from zomgen_runtime.pointers import escape as escape_pointer

from tests.support.cli import run_zomgen
from tests.support.paths import SHARED
from zomgen.schema.atoms import Expander
from zomgen.schema.bundle import bundle_with_places
from zomgen.schema.patterns import matches, refused
from zomgen.schema.registry import load_schema_set

SUITE = SHARED / "corpus" / "json-schema-test-suite" / "tests"
ACCEPTED = [
    r"^\p{Letter}+$",  # Unicode property escape (`u` flag)
    r"^\p{Lu}",
    r"[^]",  # any character
    r"\cA",  # control escape
    r"\u{1F600}",  # code point escape (`u` flag)
    r"^(?P<year>[0-9]{4})$",  # Python's spelling of a named group: RE2 reads it too
    r"(?i)abc",
    r"^(?!/)(?!.*(\.\.))([^/]+(/[^/]+)*)$",  # lookaheads after `^`: zarr-conventions' paths
    r"^(a+)+$",  # hostile to a backtracking engine, linear in RE2
]
AROUND = (
    "a lookaround other than a lookahead right after a leading `^`, which only a backtracking "
    "engine matches"
)
# (pattern, the reason given)
REFUSED = [
    (r"(?<n>a)\k<n>", "a back reference, which only a backtracking engine matches"),
    (r"(a)\1", "a back reference, which only a backtracking engine matches"),
    (r"(?<=a)b", AROUND),
    (r"a(?!b)", AROUND),
    (r"^abc\Z", r"`\Z` is not an escape of ECMA-262 (JSON Schema's dialect)"),
    ("(", "RE2 cannot read it: missing ): ("),
    (r"(?P<n>x)\p{Nope}", r"RE2 cannot read it: invalid character class range: \p{Nope}"),
    ("a{2,1}", "RE2 cannot read it: invalid repetition size: {2,1}"),
]


def convention(attributes: dict[str, Any]) -> dict[str, Any]:
    return {
        "title": "Patterned",
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "properties": {"attributes": {"type": "object", **attributes}},
    }


def write(folder: Path, schema: dict[str, Any]) -> Path:
    path = folder / "schema.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    return path


def warnings_of(stderr: str) -> list[str]:
    """The warnings about patterns (the compiler warns about other things too)."""
    return [
        line
        for line in stderr.splitlines()
        if line.startswith("zomgen: warning: ") and ": pattern " in line
    ]


@pytest.mark.parametrize("pattern", ACCEPTED)
def test_a_pattern_re2_matches_is_accepted(pattern: str) -> None:
    assert refused(pattern) is None


@pytest.mark.parametrize(("pattern", "reason"), REFUSED)
def test_a_pattern_re2_cannot_match_is_refused_with_its_pointer_and_why(
    pattern: str, reason: str, tmp_path: Path
) -> None:
    path = write(
        tmp_path, convention({"properties": {"x": {"type": "string", "pattern": pattern}}})
    )
    result = run_zomgen("build", str(path), "-o", str(tmp_path / "pkg"))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    expected = (
        f"zomgen: {path}:/properties/attributes/properties/x/pattern: not valid JSON Schema "
        f"(2020-12): the pattern {pattern!r} is refused: {refused(pattern)}"
    )
    assert result.stderr.splitlines() == [expected]
    assert refused(pattern) == reason
    assert not (tmp_path / "pkg").exists()


def test_a_hostile_pattern_builds_with_no_warning(tmp_path: Path) -> None:
    path = write(
        tmp_path, convention({"properties": {"x": {"type": "string", "pattern": r"^(a+)+$"}}})
    )
    result = run_zomgen("build", str(path), "-o", str(tmp_path / "pkg"))
    assert result.returncode == 0, result.stderr
    assert warnings_of(result.stderr) == []


def test_a_pattern_jsonschema_rs_cannot_read_is_warned_about(tmp_path: Path) -> None:
    path = write(tmp_path, convention({"properties": {"x": {"type": "string", "pattern": "[^]"}}}))
    result = run_zomgen("build", str(path), "-o", str(tmp_path / "pkg"))
    assert result.returncode == 0, result.stderr
    [warning] = warnings_of(result.stderr)
    assert warning == (
        f"zomgen: warning: {path}:/properties/attributes/properties/x/pattern: pattern '[^]': "
        "jsonschema-rs cannot read it: the Python run time checks documents with "
        "python-jsonschema alone (slower)"
    )


def test_refusals_and_warnings_name_the_pattern_properties_key_and_its_file(
    tmp_path: Path,
) -> None:
    """A pattern in another file (reached through `$ref`) is named in that file; a
    `patternProperties` key by its escaped pointer token."""
    path = write(tmp_path, convention({"$ref": "attrs.json"}))
    for key, code in [(r"(?<=a)/b", 2), (r"[^]/b", 0)]:
        (tmp_path / "attrs.json").write_text(
            json.dumps({"type": "object", "patternProperties": {key: {"type": "integer"}}}),
            encoding="utf-8",
        )
        result = run_zomgen("build", str(path), "-o", str(tmp_path / "pkg"))
        assert result.returncode == code, result.stderr
        where = f"{tmp_path / 'attrs.json'}:/patternProperties/{escape_pointer(key)}: "
        said = warnings_of(result.stderr) if code == 0 else result.stderr.splitlines()
        assert len(said) == 1 and where in said[0], result.stderr


def test_patterns_every_engine_reads_give_no_warning(tmp_path: Path) -> None:
    schema = convention(
        {
            "properties": {"x": {"type": "string", "pattern": "^[a-z][a-z0-9_-]*$"}},
            "patternProperties": {"^[0-9]+$": {"type": "integer"}},
        }
    )
    result = run_zomgen("build", str(write(tmp_path, schema)), "-o", str(tmp_path / "pkg"))
    assert result.returncode == 0, result.stderr
    assert warnings_of(result.stderr) == []


def test_a_pattern_beside_a_draft07_ref_is_not_in_the_bundle_nor_warned_about(
    tmp_path: Path,
) -> None:
    (tmp_path / "attrs.json").write_text(
        json.dumps(
            {
                "$schema": "http://json-schema.org/draft-07/schema#",
                "definitions": {"s": {"type": "string"}},
                "properties": {"x": {"$ref": "#/definitions/s", "pattern": r"^\p{L}$"}},
            }
        ),
        encoding="utf-8",
    )
    path = write(tmp_path, convention({"$ref": "attrs.json"}))
    result = run_zomgen("build", str(path), "-o", str(tmp_path / "pkg"))
    assert result.returncode == 0, result.stderr
    assert warnings_of(result.stderr) == []


@pytest.mark.parametrize(
    ("file", "description"),
    [
        ("draft2020-12/pattern.json", "pattern with Unicode property escape requires unicode mode"),
        ("draft2020-12/patternProperties.json", "patternProperties with Unicode property escape"),
    ],
)
def test_suite_groups_with_unicode_property_escapes(
    file: str, description: str, tmp_path: Path
) -> None:
    """JSON-Schema-Test-Suite: compiled (once refused: "is not a 'regex'") with no warning, and
    checked by the Python run time with the suite's verdicts (Python's `re` cannot read them;
    RE2 reads them as spelled for it)."""
    groups = json.loads((SUITE / file).read_text("utf-8"))
    (group,) = [g for g in groups if g["description"] == description]
    (tmp_path / "case.json").write_text(json.dumps(group["schema"]), encoding="utf-8")
    schema = {
        "title": "Case",
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "properties": {"attributes": {"properties": {"value": {"$ref": "case.json"}}}},
    }
    schema_set = load_schema_set(write(tmp_path, schema), [])
    bundled = bundle_with_places(schema_set, Expander(schema_set))
    document = bundled.schema
    assert bundled.warnings == ()
    node = {"zarr_format": 3, "node_type": "group", "members": {}}
    for test in group["tests"]:
        problems = check_document({**node, "attributes": {"value": test["data"]}}, document)
        assert (problems == []) == test["valid"], (test["description"], problems)


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        (r"^\p{Letter}+$", "olé", True),
        (r"^\p{Letter}+$", "olé1", False),
        (r"^[0-9]+$", "12", True),
        (r"(?P<y>a)", "ba", True),
        (r"\cA", "\x01", True),
        ("(", "(", False),
    ],
)
def test_matches_decides_as_the_python_run_time(pattern: str, text: str, expected: bool) -> None:
    assert matches(pattern, text) is expected


def test_named_keys_beside_an_ecma262_pattern_properties_key_compile(tmp_path: Path) -> None:
    schema = convention(
        {
            "properties": {"a": {"type": "string"}},
            "patternProperties": {r"^\p{Ll}+$": {"type": "string"}},
        }
    )
    result = run_zomgen("build", str(write(tmp_path, schema)), "-o", str(tmp_path / "pkg"))
    assert "Traceback" not in result.stderr
    assert result.returncode == 0
