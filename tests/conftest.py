"""Shared paths for the test suite."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "cases"
SHARED = ROOT.parent / "shared"


# The modules that take minutes each: they run the five checkers over many packages (every
# corpus convention, every hostile schema, every bundled package) or derive and check cases.
# `pytest -m "not slow"` leaves them out: the developers' fast subset (README); CI runs all.
SLOW_MODULES = frozenset(
    {
        "test_corpus_compile",
        "test_derived_cases",
        "test_derived_corpus",
        "test_hostile_schemas",
        "test_generated",
        "test_strict_output",
        "test_fuzz_campaign",
        "test_fuzz_mutations",
        "test_union_options_corpus",
    }
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.stem in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)


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
