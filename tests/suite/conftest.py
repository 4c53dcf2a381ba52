"""The JSON-Schema-Test-Suite, built once per run for the tests of this folder.

Four modules use it, and on two workers (scripts/test.sh) they may land on both, so the build
(about a minute) is made by the first worker that asks, in the run's folder of builds
(tests/support/build_cache.py), under a lock the other waits on, and read back by the other.
Each module writes only into a subfolder of its own (`static/`, `out/`).
"""

from __future__ import annotations

import fcntl
import os
import pickle
from pathlib import Path

import pytest

from tests.support.build_cache import ENVIRONMENT
from tests.support.suite_build import Suite, build_suite


@pytest.fixture(scope="session")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Suite:
    """Every JSON-Schema-Test-Suite group built into a package (tests/support/suite_build.py)."""
    run = os.environ.get(ENVIRONMENT)
    if run is None:
        return build_suite(tmp_path_factory.mktemp("suite"))
    kept = Path(run) / "suite.pickle"
    with (Path(run) / "suite.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if kept.is_file():
            built: Suite = pickle.loads(kept.read_bytes())
            return built
        built = build_suite(Path(run) / "suite")
        kept.write_bytes(pickle.dumps(built))
        return built
