"""Fixtures shared by the run-time tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.node import compiled_runtime


@pytest.fixture(scope="session")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """zomgen's TypeScript run time, compiled once, with the harness scripts beside it (the
    tests that compare validate.ts with the Python run time only read it)."""
    out: Path = compiled_runtime(tmp_path_factory.mktemp("runtime_ts"))
    return out
