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


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT
