"""typecheck_cases/python under mypy and pyright: positives must pass, negatives must fail on
exactly the line and for exactly the reason written on it.

Each negative line carries `# type: ignore[<mypy code>]  # pyright: ignore[<pyright rule>]`.
mypy runs with `warn_unused_ignores` and `ignore-without-code`; pyright with
`enableTypeIgnoreComments: false` and `reportUnnecessaryTypeIgnoreComment`. So both checkers
exit 0 only if every negative still errors, with its own code (facts.md, "Type checkers").
The packages: generated/xarray_v2 and xarray_v3, and two compiler cases built here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CASES, ROOT

PYTHON = sys.executable
CASES_DIR = ROOT / "typecheck_cases" / "python"
BUILT = {"named_members": "named-members", "tagged_union": "oneof-tagged-union"}
# Every negative line, counted: a deleted or merged case changes this number.
EXPECTED_NEGATIVES = 21
NEGATIVE = re.compile(r"# type: ignore\[[a-z-]+\]  # pyright: ignore\[report[A-Za-z]+\]$")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("typecheck_packages")
    for package, case in BUILT.items():
        result = subprocess.run(
            [
                PYTHON,
                "-m",
                "zomgen",
                "build",
                str(CASES / case / "schema.json"),
                "-o",
                str(out / package),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr
    return out


def run_mypy(cases: Path, built: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MYPYPATH": os.pathsep.join([str(ROOT / "generated"), str(built)])}
    return subprocess.run(
        [
            PYTHON,
            "-m",
            "mypy",
            "--config-file",
            str(CASES_DIR / "mypy.ini"),
            "--no-incremental",
            ".",
        ],
        cwd=cases,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def run_pyright(cases: Path, built: Path, config_dir: Path) -> subprocess.CompletedProcess[str]:
    config = {
        "include": [os.path.relpath(cases, config_dir)],
        "extraPaths": [
            os.path.relpath(ROOT / "generated", config_dir),
            os.path.relpath(built, config_dir),
        ],
        "typeCheckingMode": "strict",
        "pythonVersion": "3.11",
        "enableTypeIgnoreComments": False,
        "reportUnnecessaryTypeIgnoreComment": "error",
    }
    (config_dir / "pyrightconfig.json").write_text(json.dumps(config), encoding="utf-8")
    return subprocess.run(
        [
            PYTHON,
            "-m",
            "pyright",
            "-p",
            str(config_dir / "pyrightconfig.json"),
            "--pythonpath",
            PYTHON,
        ],
        capture_output=True,
        text=True,
        check=False,
    )


def test_mypy_accepts_positives_and_finds_every_negative(built: Path) -> None:
    result = run_mypy(CASES_DIR, built)
    assert result.returncode == 0, result.stdout + result.stderr


def test_pyright_accepts_positives_and_finds_every_negative(built: Path, tmp_path: Path) -> None:
    result = run_pyright(CASES_DIR, built, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 errors" in result.stdout


def test_every_negative_is_counted_and_carries_both_codes() -> None:
    lines = [
        (path, line)
        for path in sorted(CASES_DIR.glob("*/neg_*.py"))
        for line in path.read_text("utf-8").splitlines()
        if "# type: ignore[" in line
    ]
    assert len(lines) == EXPECTED_NEGATIVES
    for path, line in lines:
        assert NEGATIVE.search(line), f"{path.name}: {line}"
    positives = [
        p for p in CASES_DIR.glob("*/pos_*.py") if "# type: ignore" in p.read_text("utf-8")
    ]
    assert not positives, positives


def test_the_harness_fails_when_a_negative_stops_failing(built: Path, tmp_path: Path) -> None:
    """Remove the mistake from one negative (keep its ignore comment): both checkers object."""
    cases = tmp_path / "cases"
    shutil.copytree(CASES_DIR, cases)
    target = cases / "xarray_v2_cases" / "neg_wrong_const.py"
    text = target.read_text("utf-8")
    assert '"zarr_format": 3,  # type: ignore' in text
    target.write_text(
        text.replace('"zarr_format": 3,  # type: ignore', '"zarr_format": 2,  # type: ignore')
    )
    mypy = run_mypy(cases, built)
    assert mypy.returncode != 0 and "unused-ignore" in mypy.stdout, mypy.stdout
    config_dir = tmp_path / "pyright"
    config_dir.mkdir()
    pyright = run_pyright(cases, built, config_dir)
    assert pyright.returncode != 0 and "Unnecessary" in pyright.stdout, pyright.stdout


def test_the_harness_fails_when_a_negative_errors_for_another_reason(
    built: Path, tmp_path: Path
) -> None:
    cases = tmp_path / "cases"
    shutil.copytree(CASES_DIR, cases)
    target = cases / "xarray_v2_cases" / "neg_frozen_model.py"
    text = target.read_text("utf-8")
    wrong = text.replace("# type: ignore[misc]", "# type: ignore[arg-type]").replace(
        "pyright: ignore[reportAttributeAccessIssue]", "pyright: ignore[reportArgumentType]"
    )
    assert wrong != text
    target.write_text(wrong)
    assert run_mypy(cases, built).returncode != 0
    config_dir = tmp_path / "pyright"
    config_dir.mkdir()
    assert run_pyright(cases, built, config_dir).returncode != 0
