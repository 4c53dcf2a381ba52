"""zomgen's own code holds the standard it asks of generated code: mypy --strict, ruff check and
ruff format --check (project configuration in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.paths import ROOT

PYTHON = sys.executable


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


@pytest.mark.checkers
def test_mypy_strict_on_zomgen() -> None:
    result = _run("mypy", "--strict", "--no-incremental", "zomgen")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_check_and_format() -> None:
    paths = ["zomgen", "runtime/python", "scripts", "tests", "benchmarks"]
    check = _run("ruff", "check", *paths)
    assert check.returncode == 0, check.stdout + check.stderr
    fmt = _run("ruff", "format", "--check", *paths)
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr
