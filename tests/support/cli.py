"""`python -m zomgen ...` in a fresh process, as a user runs it: the one way the tests run the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def run_zomgen(
    *args: str | os.PathLike[str],
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = None,
    errors: str = "strict",
) -> subprocess.CompletedProcess[str]:
    """Run zomgen with this interpreter; output captured as text (`errors`: how undecodable
    output is decoded, strictly unless asked), never raising on a non-zero exit. `env` adds to
    (or overrides) this process's environment."""
    return subprocess.run(
        [sys.executable, "-m", "zomgen", *map(str, args)],
        cwd=cwd,
        env=None if env is None else {**os.environ, **env},
        capture_output=True,
        text=True,
        errors=errors,
        check=False,
        timeout=timeout,
    )


def build_package(
    schema: str | os.PathLike[str], out: str | os.PathLike[str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """`zomgen build SCHEMA -o OUT`, which must succeed; the finished process (for its
    warnings)."""
    result = run_zomgen("build", schema, "-o", out, cwd=cwd)
    assert result.returncode == 0, result.stderr
    return result
