"""Fixtures for the whole suite. Helpers live in tests/support/ (imported as `tests.support.*`),
the markers in pyproject.toml; tests/README.md describes the layout."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.support.build_cache import ENVIRONMENT
from tests.support.paths import ROOT

# The modules that take minutes, longest first (seconds of one worker, tests/README.md "Time").
# They run before all others so that, on the two workers of scripts/test.sh (each takes whole
# modules in this order: it passes `--no-loadscope-reorder`), the short modules fill in beside
# them instead of one long module starting last and running alone.
LONG_MODULES = (
    "tests/typecheck/test_derived_cases.py",  # 302
    "tests/targets/test_generated.py",  # 211
    "tests/corpus/test_compile.py",  # 206
    "tests/fuzz/test_hostile_schemas.py",  # 150
    "tests/suite/test_suite_static.py",  # 135
    "tests/targets/test_strict_output.py",  # 113
    "tests/browser/test_large_stores.py",  # 83
    "tests/suite/test_suite_build.py",  # 60
)


_CACHE_OWNER = pytest.StashKey[str]()  # the folder, in the process that made it


def pytest_configure(config: pytest.Config) -> None:
    """The run's build cache (tests/support/build_cache.py), made once by the process that
    starts the workers, which inherit it."""
    if ENVIRONMENT not in os.environ:
        os.environ[ENVIRONMENT] = tempfile.mkdtemp(prefix="zomgen-test-builds-")
        config.stash[_CACHE_OWNER] = os.environ[ENVIRONMENT]


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_CACHE_OWNER, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
        del os.environ[ENVIRONMENT]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        module = item.nodeid.split("::", 1)[0]
        return LONG_MODULES.index(module) if module in LONG_MODULES else len(LONG_MODULES)

    items.sort(key=rank)  # stable: the order within a module and among the others is kept


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT
