"""pyrefly and ty as the tests run them over generated packages: one configuration each, shared
by test_strict_output, test_corpus_compile and test_hostile_schemas, and the parsing of their
machine-readable output into (path, line, code, message) diagnostics.

The configurations (a package must be clean under each checker's defaults and under what a
strict user turns on, so the tests run the stricter side, which contains the defaults):

- pyrefly `--preset strict`: the default error kinds plus the `implicit-any-*` ones (an empty
  container or a generic class whose type argument cannot be inferred; mypy --strict's
  `disallow_any_generics`). Without a configuration file pyrefly runs its `basic` preset, and
  with a `[tool.mypy]` section in a pyproject.toml its `legacy` preset; `strict` holds both.
  Warnings (`unnecessary-type-conversion`, ...) count as failures too. Not `--preset all`: it
  adds `explicit-any` (the JSON side of a package is `Any` by design), `implicit-bool`,
  `unused-call-result` and `unused-type-ignore`, which flags the mypy-only `# type:
  ignore[call-arg]` that PEP 728 `extra_items` needs (mypy 2.4.1 lacks it).
- ty with every rule at error (so every default warning fails too, as `--error-on-warning` would,
  and the rules off by default, `possibly-unresolved-reference`, `possibly-missing-attribute`,
  `missing-type-argument`, `division-by-zero`, ..., are on), except six rules that are about
  style or about `Any` rather than about mistakes: `missing-override-decorator` (needs
  `typing_extensions.override` on Python 3.11; pyright strict does not ask for it either),
  `redundant-condition-strict` (flags `if MYPY:` on the `MYPY = False` constant, mypy's own
  idiom, with which `zomgen_runtime.mypy_view` and the hand-written typecheck cases give mypy,
  which lacks PEP 728, a view of its own),
  `truthiness-test-of-none-union` (`if name:` on a `str | None`), and `unsound-assignment`,
  `unsound-return`, `unsound-yield` (a value typed `Any` flowing into a declared type, which
  `json.loads` output does everywhere; pyright strict reports only *unknown* types).

Both are given the interpreter of the running tests so they see its site-packages, and are run
from a folder without a pyproject.toml: pyrefly would import its `[tool.mypy]` section.

pyrefly (1.4.1, and 1.5.1 still) takes time exponential in the nesting depth of a generic type in a type alias
(`A: TypeAlias = list[list[...[str]...]]`: 16 levels ~2 s, 20 ~7 s, 22 ~23 s, so 50 never
ends), which a convention with arrays of arrays 50 deep makes; `run_pyrefly` therefore has a
time limit, and `PyreflyTimeout` says a run hit it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

PYTHON = sys.executable
BIN = Path(PYTHON).parent
PYREFLY = str(BIN / "pyrefly")
TY = str(BIN / "ty")

# What the packages' README asks of mypy users: mypy has no PEP 728, so a package gives it each
# object that allows other keys as its listed keys, and mypy accepts the other keys only with
# this code off (zomgen/targets/python/open_dicts.py).
MYPY_AS_USERS_RUN_IT = ["--disable-error-code", "typeddict-unknown-key"]
PYREFLY_ARGS = ["--preset", "strict", "--min-severity", "warn"]
# ty rules left off: style, or `Any` meeting a declared type (see the module docstring).
TY_RULES_OFF = (
    "missing-override-decorator",
    "redundant-condition-strict",
    "truthiness-test-of-none-union",
    "unsound-assignment",
    "unsound-return",
    "unsound-yield",
)
TY_RULES = (
    "rules = {" + ", ".join(['all = "error"', *(f'{r} = "ignore"' for r in TY_RULES_OFF)]) + "}"
)
TY_ARGS = ["-c", TY_RULES]


@dataclass(frozen=True)
class Diagnostic:
    path: str  # as the checker printed it (relative to its working folder)
    line: int  # 1-based
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: [{self.code}] {self.message}"


PYREFLY_TIME_LIMIT = 120.0  # seconds; a package takes well under one


class PyreflyTimeout(Exception):
    """pyrefly did not finish within its time limit."""


def run_pyrefly(
    targets: Sequence[str],
    cwd: Path,
    extra: Sequence[str] = (),
    timeout: float = PYREFLY_TIME_LIMIT,
) -> subprocess.CompletedProcess[str]:
    """pyrefly over `targets` (relative to `cwd`), with `extra` options after the configuration
    above; PyreflyTimeout after `timeout` seconds."""
    try:
        return _run_pyrefly(targets, cwd, extra, timeout)
    except subprocess.TimeoutExpired as exc:
        raise PyreflyTimeout(f"pyrefly did not finish within {timeout:g} s") from exc


def _run_pyrefly(
    targets: Sequence[str], cwd: Path, extra: Sequence[str], timeout: float
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            PYREFLY,
            "check",
            "--python-interpreter-path",
            PYTHON,
            "--output-format",
            "json",
            "--summary=none",
            "--progress-bar",
            "no",
            *PYREFLY_ARGS,
            *extra,
            *targets,
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


def pyrefly_diagnostics(result: subprocess.CompletedProcess[str]) -> list[Diagnostic]:
    """Every diagnostic pyrefly printed; fails the test when it printed no report at all."""
    assert result.returncode in (0, 1), result.stdout + result.stderr
    report = json.loads(result.stdout)
    return [
        Diagnostic(Path(e["path"]).as_posix(), e["line"], e["name"], e["concise_description"])
        for e in report["errors"]
    ]


def run_ty(
    targets: Sequence[str], cwd: Path, extra: Sequence[str] = ()
) -> subprocess.CompletedProcess[str]:
    """ty over `targets` (relative to `cwd`), with the rules above plus `extra`."""
    return subprocess.run(
        [TY, "check", "--python", PYTHON, "--output-format", "gitlab", "--no-progress"]
        + [*TY_ARGS, *extra, *targets],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def ty_diagnostics(result: subprocess.CompletedProcess[str]) -> list[Diagnostic]:
    """Every diagnostic ty printed; fails the test when ty could not run (exit code 2)."""
    assert result.returncode in (0, 1), result.stdout + result.stderr
    return [
        Diagnostic(
            Path(d["location"]["path"]).as_posix(),
            d["location"]["positions"]["begin"]["line"],
            d["check_name"],
            d["description"].removeprefix(d["check_name"] + ": "),
        )
        for d in json.loads(result.stdout or "[]")
    ]
