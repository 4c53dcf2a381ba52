"""Compiler cases as folders (tests/cases/<feature>/): a schema and what compiling it must give.

- `expected_ir.json`: the IR `zomgen ir` prints (the compiler's understanding of the schema);
- `expected/`: in a few small feature folders, the output itself: the `models.py`,
  `documents.py` and `types.ts` that `zomgen build` writes (the package named after the folder),
  so that a change to the output shows as a diff a reviewer reads;
- `expected_error.txt`: for bad input, the exact stderr lines (the case folder shown as `.`),
  with exit code 2, no traceback and nothing written.

Set ZOMGEN_UPDATE_CASES=1 to rewrite the expected files after a deliberate change, then review
the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support.cli import build_package, run_zomgen
from tests.support.paths import CASES

UPDATE = os.environ.get("ZOMGEN_UPDATE_CASES") == "1"


def _schema(case: Path) -> Path:
    (schema,) = [p for p in case.iterdir() if p.name.startswith("schema.")]
    return schema


GOOD = sorted(p for p in CASES.iterdir() if p.is_dir() and not p.name.startswith("bad-"))
BAD = sorted(p for p in CASES.iterdir() if p.is_dir() and p.name.startswith("bad-"))
WITH_OUTPUT = [p for p in GOOD if (p / "expected").is_dir()]
OUTPUTS = ("models.py", "documents.py", "types.ts")


@pytest.mark.parametrize("case", GOOD, ids=[p.name for p in GOOD])
def test_ir_is_what_the_case_expects(case: Path) -> None:
    result = run_zomgen("ir", _schema(case).name, cwd=case)
    assert result.returncode == 0, result.stderr
    expected = case / "expected_ir.json"
    if UPDATE:
        expected.write_text(result.stdout, encoding="utf-8")
    assert json.loads(result.stdout) == json.loads(expected.read_text("utf-8"))


@pytest.mark.parametrize("case", WITH_OUTPUT, ids=[p.name for p in WITH_OUTPUT])
def test_output_is_what_the_case_expects(case: Path, tmp_path: Path) -> None:
    out = tmp_path / case.name.replace("-", "_")
    build_package(_schema(case).name, out, cwd=case)
    for name in OUTPUTS:
        written = (out / name).read_text("utf-8")
        expected = case / "expected" / name
        if UPDATE:
            expected.write_text(written, encoding="utf-8")
        assert written == expected.read_text("utf-8"), f"{name} differs from {expected}"


def test_some_cases_pin_their_output() -> None:
    assert {p.name for p in WITH_OUTPUT} >= {
        "named-members",
        "oneof-tagged-union",
        "prefix-items-tuple",
        "root-union",
        "weird-keys",
    }


@pytest.mark.parametrize("case", BAD, ids=[p.name for p in BAD])
def test_bad_input_is_refused_cleanly(case: Path, tmp_path: Path) -> None:
    out = tmp_path / "pkg"
    result = run_zomgen("build", _schema(case).name, "-o", str(out), cwd=case)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert not out.exists(), "nothing may be written for bad input"
    shown = result.stderr.replace(str(case.resolve()), ".")
    expected = case / "expected_error.txt"
    if UPDATE:
        expected.write_text(shown, encoding="utf-8")
    assert shown == expected.read_text("utf-8")
    for line in shown.splitlines():
        assert line.startswith("zomgen: ./schema."), line  # file:pointer: message
