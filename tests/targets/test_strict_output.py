"""Every generated package passes mypy --strict, pyright strict, pyrefly, ty, ruff check and ruff
format --check, and imports without side effects: the bundled conventions and every good compiler
case (tests/cases), built fresh into one folder and checked in one run per tool.

pyrefly and ty run as tests/support/checkers.py configures them, the stricter side of each
checker, which holds its defaults: pyrefly `--preset strict` with warnings counted as failures
(no configuration file means its `basic` preset, a pyproject.toml with `[tool.mypy]` its `legacy`
one, both inside `strict`); ty with every rule at error (its default errors, its default warnings
as `--error-on-warning` would make them, and the rules off by default such as
`possibly-unresolved-reference` and `missing-type-argument`) except six about style or `Any`
(`missing-override-decorator`, `redundant-condition-strict`, `truthiness-test-of-none-union`,
`unsound-assignment`, `unsound-return`, `unsound-yield`). Both run from the packages' folder, which holds no
pyproject.toml (pyrefly would import its `[tool.mypy]` section)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.checkers import pyrefly_diagnostics, run_pyrefly, run_ty, ty_diagnostics
from tests.support.cli import build_package
from tests.support.package_checks import python_targets
from tests.support.paths import CASES, ROOT

pytestmark = [
    pytest.mark.checkers,
    pytest.mark.slow,
]

PYTHON = sys.executable


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("packages")
    schemas = sorted((ROOT / "schemas").glob("*/schema.json")) + sorted(
        next(p for p in case.iterdir() if p.name.startswith("schema."))
        for case in CASES.iterdir()
        if case.is_dir() and not case.name.startswith("bad-")
    )
    for schema in schemas:
        name = schema.parent.name.replace("-", "_")
        build_package(schema, out / name)
    (out / "pyrightconfig.json").write_text(
        json.dumps({"typeCheckingMode": "strict", "pythonVersion": "3.11"}), encoding="utf-8"
    )
    return out


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False)


def _names(packages: Path) -> list[str]:
    return sorted(p.name for p in packages.iterdir() if p.is_dir() and (p / "__init__.py").exists())


def test_mypy_strict(packages: Path) -> None:
    result = _run(
        [PYTHON, "-m", "mypy", "--strict", "--no-incremental", *_names(packages)], packages
    )
    assert result.returncode == 0, result.stdout + result.stderr


# pyright, pyrefly and ty read each package's own modules (python_targets), mypy each package
# whole; all of them type the run time the packages import from the installed zomgen-runtime,
# which tests/runtime/test_runtime_library.py checks with the same checkers.
def test_pyright_strict(packages: Path) -> None:
    targets = python_targets(packages, _names(packages))
    result = _run([PYTHON, "-m", "pyright", "--pythonpath", PYTHON, *targets], packages)
    assert result.returncode == 0, result.stdout + result.stderr


def test_pyrefly(packages: Path) -> None:
    result = run_pyrefly(python_targets(packages, _names(packages)), packages)
    found = pyrefly_diagnostics(result)
    assert result.returncode == 0 and not found, "\n".join(map(str, found)) + result.stderr


def test_ty(packages: Path) -> None:
    result = run_ty(python_targets(packages, _names(packages)), packages)
    found = ty_diagnostics(result)
    assert result.returncode == 0 and not found, "\n".join(map(str, found)) + result.stderr


def test_ruff_check_and_format(packages: Path) -> None:
    check = _run(
        [PYTHON, "-m", "ruff", "check", "--isolated", "--target-version", "py311", "."], packages
    )
    assert check.returncode == 0, check.stdout + check.stderr
    fmt = _run(
        [PYTHON, "-m", "ruff", "format", "--isolated", "--line-length", "100", "--check", "."],
        packages,
    )
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr


def test_packages_import_without_side_effects(packages: Path) -> None:
    # Importing must not read the store, the schema or the network: schema.json is read on
    # first use. Check that no module outside the standard library and typing_extensions is
    # imported as a side effect of `import <package>`, beyond the package itself.
    script = (
        "import sys, importlib\n"
        "before = set(sys.modules)\n"
        "for name in sys.argv[1:]:\n"
        "    importlib.import_module(name)\n"
        "heavy = sorted(m for m in set(sys.modules) - before if m.split('.')[0] in ('zarr', 'numpy', 'fsspec', 'jsonschema', 'jsonschema_rs'))\n"
        "print(heavy)\n"
        "assert not heavy, heavy\n"
    )
    result = _run([PYTHON, "-c", script, *_names(packages)], packages)
    assert result.returncode == 0, result.stdout + result.stderr
