"""Building many packages at once and checking them all with one run of each tool: mypy
--strict, pyright strict, pyrefly, ty (as tests/support/checkers.py runs them), ruff check and
ruff format --check, and tsc --strict with each validate.js run under Node; the findings come
back per package. corpus/test_compile.py checks the corpus packages with it,
corpus/test_soundness.py and the fuzz tests their own.

The packages import the run time (zomgen-runtime, installed in the environment; its own tests
check it: tests/runtime/test_runtime_library.py), so each checker is given the packages' own
modules alone."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.checkers import (
    PyreflyTimeout,
    pyrefly_diagnostics,
    run_pyrefly,
    run_ty,
    ty_diagnostics,
)
from tests.support.cli import run_zomgen
from tests.support.node import check_typescript

PYTHON = sys.executable
WORKERS = max(2, min(8, os.cpu_count() or 2))


def zomgen(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return run_zomgen(*args, cwd=cwd, errors="backslashreplace")


def build(
    schema: Path, out: Path, includes: Iterable[Path] = ()
) -> subprocess.CompletedProcess[str]:
    args = ["build", str(schema), "-o", str(out)]
    for folder in includes:
        args += ["-I", str(folder)]
    return zomgen(*args)


def build_many(
    jobs: Mapping[str, tuple[Path, Sequence[Path]]], out: Path
) -> dict[str, subprocess.CompletedProcess[str]]:
    """Build every `name -> (schema, include dirs)` into `out/name`, a few at a time."""

    def one(item: tuple[str, tuple[Path, Sequence[Path]]]) -> tuple[str, Any]:
        name, (schema, includes) = item
        return name, build(schema, out / name, includes)

    with ThreadPoolExecutor(WORKERS) as pool:
        return dict(pool.map(one, sorted(jobs.items())))


@dataclass
class Findings:
    """Diagnostics of one run of each tool, by package (the first path component)."""

    mypy: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    pyright: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    pyrefly: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    ty: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    ruff: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    # tsc --strict over every .ts file, and validate.js run under Node (tests/support/node.py)
    typescript: dict[str, list[str]] = field(default_factory=dict)


def _package_of(path: str, folder: Path) -> str:
    relative = Path(path)
    if relative.is_absolute():
        relative = relative.relative_to(folder)
    return relative.parts[0]


def check_packages(
    folder: Path,
    packages: Sequence[str],
    extra: Sequence[str] = (),
    pyrefly_alone: Collection[str] = (),
) -> Findings:
    """mypy --strict, pyright strict, pyrefly, ty, ruff check and ruff format --check over
    `packages` (folders of `folder`), once each, and tsc --strict over their TypeScript with each
    validate.js run once under Node. `extra` files (relative to `folder`) go to pyright only.
    `pyrefly_alone` packages go to pyrefly one by one, with a short time limit, a timeout being
    their finding (tests/support/checkers.py: pyrefly's time is exponential in the depth of a
    nested generic)."""
    findings = Findings()
    if not packages:
        return findings
    (folder / "pyrightconfig.json").write_text(
        json.dumps({"typeCheckingMode": "strict", "pythonVersion": "3.11"}), encoding="utf-8"
    )
    targets = python_targets(folder, packages)

    # mypy and then tsc run in a thread beside pyright, pyrefly and ty: mypy, pyright and tsc
    # each use one core, and the machines have two.
    with ThreadPoolExecutor(max_workers=1) as beside:
        mypy_run = beside.submit(
            subprocess.run,
            [PYTHON, "-m", "mypy", "--strict", "--no-incremental", *packages],
            cwd=folder,
            capture_output=True,
            text=True,
            check=False,
        )
        typescript = beside.submit(check_typescript, folder, packages)
        _python_checkers(findings, folder, packages, targets, extra, pyrefly_alone)
        mypy = mypy_run.result()
        findings.typescript = typescript.result()
    summary = mypy.stdout.strip().splitlines()[-1:] or [""]
    assert mypy.returncode in (0, 1) and re.match(r"(Success|Found \d+ error)", summary[0]), (
        mypy.stdout + mypy.stderr
    )
    for line in mypy.stdout.splitlines():
        match = re.match(r"([^:\s]+\.py):\d+: (error|note): ", line)
        if match:
            findings.mypy[_package_of(match.group(1), folder)].append(line)
    return findings


def python_targets(folder: Path, packages: Sequence[str]) -> list[str]:
    """Each package's own modules."""
    return [f"{p}/{module.name}" for p in packages for module in sorted((folder / p).glob("*.py"))]


def _python_checkers(
    findings: Findings,
    folder: Path,
    packages: Sequence[str],
    targets: Sequence[str],
    extra: Sequence[str],
    pyrefly_alone: Collection[str],
) -> None:
    """pyright, pyrefly, ty and ruff over the packages, their findings added to `findings`."""
    pyright = subprocess.run(
        [PYTHON, "-m", "pyright", "--pythonpath", PYTHON, "--outputjson", *targets, *extra],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(pyright.stdout)
    assert report["summary"]["filesAnalyzed"] >= len(targets), pyright.stdout[-2000:]
    for diagnostic in report["generalDiagnostics"]:
        if diagnostic["severity"] == "error":
            line = diagnostic["range"]["start"]["line"] + 1
            where = f"{Path(diagnostic['file']).relative_to(folder)}:{line}"
            findings.pyright[_package_of(diagnostic["file"], folder)].append(
                f"{where}: {diagnostic['message']}"
            )

    together = [t for t in targets if Path(t).parts[0] not in pyrefly_alone]
    for diagnostic in pyrefly_diagnostics(run_pyrefly(together, folder)) if together else []:
        findings.pyrefly[_package_of(diagnostic.path, folder)].append(str(diagnostic))
    for package in sorted(set(packages) & set(pyrefly_alone)):
        mine = [t for t in targets if Path(t).parts[0] == package]
        try:
            result = run_pyrefly(mine, folder, timeout=30)
        except PyreflyTimeout as exc:
            findings.pyrefly[package].append(f"{package}: {exc}")
            continue
        for diagnostic in pyrefly_diagnostics(result):
            findings.pyrefly[package].append(str(diagnostic))
    for diagnostic in ty_diagnostics(run_ty(targets, folder)):
        findings.ty[_package_of(diagnostic.path, folder)].append(str(diagnostic))

    check = subprocess.run(
        [PYTHON, "-m", "ruff", "check", "--isolated", "--output-format", "json", *packages],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    for problem in json.loads(check.stdout or "[]"):
        file = Path(problem["filename"]).relative_to(folder)
        findings.ruff[file.parts[0]].append(f"{file}: {problem['code']} {problem['message']}")
    fmt = subprocess.run(
        [
            PYTHON,
            "-m",
            "ruff",
            "format",
            "--isolated",
            "--line-length",
            "100",
            "--check",
            *packages,
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    for line in fmt.stdout.splitlines():
        if line.startswith("Would reformat: "):
            findings.ruff[_package_of(line.removeprefix("Would reformat: "), folder)].append(line)
