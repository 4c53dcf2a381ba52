r"""Regular expressions in a convention: every pattern ECMA-262 reads is accepted, and
`zomgen build` warns about each pattern some run time cannot read as written.

JSON Schema's regex dialect is ECMA-262. The engines of a generated package read three:
python-jsonschema uses Python's `re` (which cannot read `\p{Letter}`), jsonschema-rs Rust's
regex crates, validate.ts JavaScript's `RegExp` with the `u` flag, then without it (which cannot
read Python's `(?P<name>...)` or `(?i)`). zomgen.schema.patterns says which engines read a
pattern; a pattern no run time reads is refused. Warnings name the file and the JSON pointer of
the pattern, and which run time cannot read it. The run times' own behaviour is in
tests/runtime/test_patterns.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_zomgen
from tests.support.paths import SHARED
from zomgen.runtime import check_document
from zomgen.runtime.pointers import escape as escape_pointer
from zomgen.schema.atoms import Expander
from zomgen.schema.bundle import bundle_with_places
from zomgen.schema.patterns import matches, readers
from zomgen.schema.registry import load_schema_set

SUITE = SHARED / "corpus" / "json-schema-test-suite" / "tests"
ECMA_ONLY = [
    r"^\p{Letter}+$",  # Unicode property escape (`u` flag)
    r"^\p{Lu}",
    r"(?<n>a)\k<n>",  # ECMA-262 named group and back reference
    r"[^]",  # any character
    r"\cA",  # control escape
    r"\u{1F600}",  # code point escape (`u` flag)
]
PYTHON_ONLY = [r"^(?P<year>[0-9]{4})$", r"(?i)abc", r"^abc\Z"]
NEITHER = ["(", r"(?P<n>x)\p{L}", "a{2,1}"]


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


@pytest.mark.parametrize("pattern", ECMA_ONLY + PYTHON_ONLY)
def test_a_pattern_python_or_ecma262_reads_is_accepted(pattern: str) -> None:
    assert readers(pattern).accepted


@pytest.mark.parametrize("pattern", ECMA_ONLY)
def test_ecma262_patterns_python_cannot_read(pattern: str) -> None:
    found = readers(pattern)
    assert found.ecma and not found.python


@pytest.mark.parametrize("pattern", NEITHER)
def test_a_pattern_no_run_time_reads_is_refused_with_its_pointer(
    pattern: str, tmp_path: Path
) -> None:
    path = write(
        tmp_path, convention({"properties": {"x": {"type": "string", "pattern": pattern}}})
    )
    result = run_zomgen("build", str(path), "-o", str(tmp_path / "pkg"))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert f"{path}:/properties/attributes/properties/x/pattern: not valid JSON Schema" in (
        result.stderr
    )
    assert not (tmp_path / "pkg").exists()


def test_build_warns_about_a_pattern_python_cannot_read(tmp_path: Path) -> None:
    path = write(
        tmp_path, convention({"properties": {"x": {"type": "string", "pattern": r"^\p{Letter}+$"}}})
    )
    result = run_zomgen("build", str(path), "-o", str(tmp_path / "pkg"))
    assert result.returncode == 0, result.stderr
    [warning] = warnings_of(result.stderr)
    assert warning.startswith(
        rf"zomgen: warning: {path}:/properties/attributes/properties/x/pattern: "
        r"pattern '^\\p{Letter}+$': Python's `re` cannot read it: the Python run time matches "
        "it as ECMA-262 with `regress`"
    )
    assert "validate.ts" not in warning  # JavaScript reads it
    bundled = json.loads((tmp_path / "pkg" / "schema.json").read_text("utf-8"))
    assert r"^\p{Letter}+$" in json.dumps(bundled, ensure_ascii=False).replace("\\\\", "\\")


@pytest.mark.parametrize(
    ("pattern", "says"),
    [
        (r"^(?P<year>[0-9]{4})$", "validate.ts cannot read it (not ECMA-262)"),
        (r"(?i)abc", "validate.ts cannot read it (not ECMA-262)"),
        (r"^abc\Z", "validate.ts reads it only without the `u` flag"),
    ],
)
def test_build_warns_about_a_pattern_javascript_cannot_read(
    pattern: str, says: str, tmp_path: Path
) -> None:
    path = write(
        tmp_path, convention({"properties": {"x": {"type": "string", "pattern": pattern}}})
    )
    result = run_zomgen("build", str(path), "-o", str(tmp_path / "pkg"))
    assert result.returncode == 0, result.stderr
    [warning] = warnings_of(result.stderr)
    assert warning.startswith(
        f"zomgen: warning: {path}:/properties/attributes/properties/x/pattern: "
        f"pattern {pattern!r}: "
    )
    assert says in warning
    assert "Python's `re` cannot" not in warning


def test_a_pattern_jsonschema_rs_cannot_read_is_named_too(tmp_path: Path) -> None:
    path = write(
        tmp_path, convention({"properties": {"x": {"type": "string", "pattern": r"^abc\Z"}}})
    )
    result = run_zomgen("build", str(path), "-o", str(tmp_path / "pkg"))
    [warning] = warnings_of(result.stderr)
    assert "jsonschema-rs cannot read it: the Python run time checks documents with " in warning


def test_warnings_name_the_pattern_properties_key_and_the_file_it_is_in(tmp_path: Path) -> None:
    """A pattern in another file (reached through `$ref`) is named in that file; a
    `patternProperties` key by its escaped pointer token."""
    key = r"^\p{Lu}/(?P<x>y)"
    (tmp_path / "attrs.json").write_text(
        json.dumps({"type": "object", "patternProperties": {key: {"type": "integer"}}}),
        encoding="utf-8",
    )
    path = write(tmp_path, convention({"$ref": "attrs.json"}))
    result = run_zomgen("build", str(path), "-o", str(tmp_path / "pkg"))
    assert result.returncode == 2  # neither Python nor ECMA-262 reads it
    key = r"^\p{Lu}"
    (tmp_path / "attrs.json").write_text(
        json.dumps({"type": "object", "patternProperties": {key: {"type": "integer"}}}),
        encoding="utf-8",
    )
    result = run_zomgen("build", str(path), "-o", str(tmp_path / "pkg"))
    assert result.returncode == 0, result.stderr
    [warning] = warnings_of(result.stderr)
    pointer = f"/patternProperties/{escape_pointer(key)}"
    assert warning.startswith(f"zomgen: warning: {tmp_path / 'attrs.json'}:{pointer}: ")


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
    """JSON-Schema-Test-Suite: compiled (once refused: "is not a 'regex'") and checked by the
    Python run time with the suite's verdicts (python-jsonschema alone cannot read them)."""
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
    assert len(bundled.warnings) == 1
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
