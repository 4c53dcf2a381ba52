"""Shared paths for the test suite."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "cases"
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT
