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


@pytest.fixture(scope="session")
def suite(tmp_path_factory: pytest.TempPathFactory) -> object:
    """Every JSON-Schema-Test-Suite group built into a package (tests/suite/suite_build.py)."""
    import sys

    sys.path.insert(0, str(ROOT / "tests" / "suite"))
    from suite_build import build_suite

    return build_suite(tmp_path_factory.mktemp("suite"))
