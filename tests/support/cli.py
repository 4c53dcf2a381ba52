"""`python -m zomgen ...` in a fresh process, as a user runs it: the one way the tests run the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from tests.support.build_cache import cached_build


def run_zomgen(
    *args: str | os.PathLike[str],
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = None,
    errors: str = "strict",
    cached: bool = True,
) -> subprocess.CompletedProcess[str]:
    """Run zomgen with this interpreter; output captured as text (`errors`: how undecodable
    output is decoded, strictly unless asked), never raising on a non-zero exit. `env` adds to
    (or overrides) this process's environment. A build of a schema of the project or ../shared
    is run once per test run and copied after (tests/support/build_cache.py), unless `cached`
    is False."""
    words = [str(a) for a in args]

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "zomgen", *words],
            cwd=cwd,
            env=None if env is None else {**os.environ, **env},
            capture_output=True,
            text=True,
            errors=errors,
            check=False,
            timeout=timeout,
        )

    if env is not None or not cached:  # another environment may build otherwise
        return run()
    return cached_build(words, cwd, run)


def build_package(
    schema: str | os.PathLike[str], out: str | os.PathLike[str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """`zomgen build SCHEMA -o OUT`, which must succeed; the finished process (for its
    warnings)."""
    result = run_zomgen("build", schema, "-o", out, cwd=cwd)
    assert result.returncode == 0, result.stderr
    return result
