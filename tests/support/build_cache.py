"""One build per schema per test run.

Many test modules build the same package: the bundled conventions, the compiler cases and the
corpus wrappers are each built by several of them (their checkers, tsc, the npm package, the
soundness and union tests). While the suite runs neither the compiler nor those schemas change,
so the first `zomgen build SCHEMA -o OUT [-I DIR ...]` of a schema is kept here, and a later
one of the same schema, folders and package name is a copy of its files, with the output
folder's name in what it printed changed to the new one.

Only what cannot change in a run is kept: schemas inside the project or ../shared (never one a
test wrote), built into a folder that does not exist yet (a build over an existing package,
which keeps or removes its files, always runs), and only builds that succeeded. The folder
lives for one run (conftest.py makes it, in the controller, for both workers, and removes it),
so no later run can meet a package of an older compiler: a cache kept between runs would have
to know every file a schema's `$ref`s reach. The key still holds the compiler's own hash (its
sources, templates and run time) and the schema's bytes, so a copy is always of this compiler's
build of this schema. `test_build_is_deterministic`
(tests/cli/test_build.py) builds twice without it (`cached=False`) and compares the bytes.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from tests.support.paths import ROOT, SHARED

ENVIRONMENT = "ZOMGEN_TEST_BUILD_CACHE"  # the run's folder; unset: every build runs
# What the compiler is made of: a change to any of these is another compiler.
COMPILER = ("zomgen", "templates", "runtime/python/zomgen_runtime", "runtime/typescript/src")


@functools.cache
def compiler_hash() -> str:
    digest = hashlib.sha256()
    for folder in COMPILER:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_key(args: Sequence[str], cwd: Path | None) -> tuple[str, str] | None:
    """(key, output folder as given) of `build SCHEMA -o OUT [-I DIR ...]` of a schema the
    project or ../shared holds into a folder, named by its absolute path (what the build
    prints names it, and is changed to the next one's), that does not exist; None for
    anything else."""
    if len(args) < 4 or args[0] != "build" or args[2] != "-o" or len(args) % 2:
        return None
    pairs = list(zip(args[4::2], args[5::2], strict=True))
    if any(flag != "-I" for flag, _ in pairs):
        return None
    base = cwd or Path.cwd()
    schema = (base / args[1]).resolve()
    folders = [(base / folder).resolve() for _, folder in pairs]
    out = Path(args[3])
    if not out.is_absolute() or out.exists() or not schema.is_file():
        return None
    if not all(_static(p) for p in (schema, *folders)):
        return None
    digest = hashlib.sha256()
    for part in (compiler_hash(), str(schema), *map(str, folders), out.name):
        digest.update(part.encode() + b"\0")
    digest.update(schema.read_bytes())
    return digest.hexdigest(), args[3]


def _static(path: Path) -> bool:
    """Inside the project (not a test's output) or ../shared."""
    for root in (ROOT, SHARED):
        if path.is_relative_to(root.resolve()):
            return True
    return False


def cached_build(
    args: Sequence[str], cwd: Path | None, build: Callable[[], subprocess.CompletedProcess[str]]
) -> subprocess.CompletedProcess[str]:
    """The build `args` describe: a copy of this run's first one where there is one, else
    `build()`, kept for the next."""
    folder = os.environ.get(ENVIRONMENT)
    found = None if folder is None else cache_key(args, cwd)
    if folder is None or found is None:
        return build()
    key, out_arg = found
    out = Path(out_arg)
    kept = Path(folder) / key
    if (kept / "result.json").is_file():
        result = json.loads((kept / "result.json").read_text(encoding="utf-8"))
        shutil.copytree(kept / "package", out, symlinks=True)
        return subprocess.CompletedProcess(
            [sys.executable, "-m", "zomgen", *args],
            0,
            result["stdout"].replace(result["out"], out_arg),
            result["stderr"].replace(result["out"], out_arg),
        )
    completed = build()
    if completed.returncode == 0 and out.is_dir():
        _keep(kept, out, out_arg, completed)
    return completed


def _keep(kept: Path, out: Path, out_arg: str, completed: subprocess.CompletedProcess[str]) -> None:
    """Copy the build in beside `kept`, then rename it there: of two workers building the same
    schema at once, the first rename wins and the other copy is dropped."""
    staging = kept.with_name(f"{kept.name}.{os.getpid()}")
    shutil.copytree(out, staging / "package", symlinks=True)
    record = {"out": out_arg, "stdout": completed.stdout, "stderr": completed.stderr}
    (staging / "result.json").write_text(json.dumps(record), encoding="utf-8")
    try:
        staging.rename(kept)
    except OSError:  # the other worker kept it first
        shutil.rmtree(staging, ignore_errors=True)
