"""Fixtures for the whole suite. Helpers live in tests/support/ (imported as `tests.support.*`),
the markers in pyproject.toml; tests/README.md describes the layout."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.paths import ROOT


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT
