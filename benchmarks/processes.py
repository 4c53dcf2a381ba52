"""New Python processes as users' installs run them, for the benchmarks that time commands
(bench_startup.py, bench_plate.py) and imports (suite.py)."""

from __future__ import annotations

import os
from pathlib import Path


def compiled_env(pycache: Path) -> dict[str, str]:
    """The environment of a new Python process that runs as an installed package does: with
    its modules' byte code compiled (pip compiles it at install time), kept in `pycache`.
    Where the environment says PYTHONDONTWRITEBYTECODE (this project's machine does), each new
    process would otherwise compile every module it imports again: for `zomgen validate`, 90 ms
    that no user pays. Run once untimed first, to write the byte code."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env
