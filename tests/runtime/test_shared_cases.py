"""The shared cases of runtime/cases/ (runtime/cases/README.md) hold in both run times: every
case's document, checked against its schema, gives exactly its problems (node path, pointer,
keyword, schema path, message, and for a rule in CEL its text) in the Python run time, by its reference engine and by
jsonschema-rs with zomgen's checks, and in the TypeScript one, whose own runner
(`npm test` in runtime/typescript: test/cases.mjs) reads the same files."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import Problem, check_document, is_valid

from tests.support.paths import ROOT

CASES = ROOT / "runtime" / "cases"
RUNNER = ROOT / "runtime" / "typescript" / "test" / "cases.mjs"
FIELDS = ("node_path", "pointer", "keyword", "schema_path", "message", "rule")
# How many cases each file holds: a case lost in an edit is noticed.
EXPECTED_COUNTS = {"malformed.json": 29, "relations.json": 54, "rules.json": 47}


def _cases() -> list[tuple[str, dict[str, Any]]]:
    return [
        (path.name, case)
        for path in sorted(CASES.glob("*.json"))
        for case in json.loads(path.read_text("utf-8"))["cases"]
    ]


def _rows(problems: list[Problem]) -> list[tuple[str, ...]]:
    return sorted(tuple(getattr(p, field) for field in FIELDS) for p in problems)


def test_every_file_holds_its_cases_under_distinct_names() -> None:
    counts: dict[str, int] = {}
    for file, case in _cases():
        counts[file] = counts.get(file, 0) + 1
        assert set(case) == {"name", "schema", "document", "problems"}, (file, case.get("name"))
    assert counts == EXPECTED_COUNTS
    names = [(file, case["name"]) for file, case in _cases()]
    assert len(names) == len(set(names))


@pytest.mark.parametrize(("file", "case"), _cases(), ids=[f"{f}: {c['name']}" for f, c in _cases()])
def test_the_python_run_time_gives_each_cases_problems(file: str, case: dict[str, Any]) -> None:
    schema, document = case["schema"], case["document"]
    wanted = sorted(tuple(p.get(field, "") for field in FIELDS) for p in case["problems"])
    assert _rows(check_document(document, schema, fast=False)) == wanted
    assert _rows(check_document(document, schema)) == wanted
    assert is_valid(document, schema) is (not wanted)  # jsonschema-rs's verdict
    if file == "malformed.json":
        assert [p[2] for p in wanted] == [next(iter(schema))]
        assert "malformed" in wanted[0][4]
    elif file == "relations.json":
        assert all("malformed" not in p[4] for p in wanted)


@pytest.mark.node
def test_the_typescript_run_time_gives_each_cases_problems() -> None:
    result = subprocess.run(
        ["node", str(RUNNER)], capture_output=True, text=True, check=False, timeout=120
    )
    total = sum(EXPECTED_COUNTS.values())
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1] == f"shared cases: {total} of {total} as expected"


@pytest.mark.node
def test_the_typescript_runner_fails_on_a_wrong_case(tmp_path: Path) -> None:
    """A folder of one case whose message is edited: the runner fails and names the case."""
    cases = json.loads((CASES / "relations.json").read_text("utf-8"))
    broken = next(c for c in cases["cases"] if c["problems"])
    broken["problems"][0]["message"] += " (edited)"
    cases["cases"] = [broken]
    (tmp_path / "relations.json").write_text(json.dumps(cases), encoding="utf-8")
    result = subprocess.run(
        ["node", str(RUNNER), str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 1
    assert f"relations.json: {broken['name']}" in result.stdout
    assert result.stdout.splitlines()[-1] == "shared cases: 0 of 1 as expected"
