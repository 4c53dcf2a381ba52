"""`zomgen cases` over every bundled convention and every good compiler case folder: the derived
cases are written into one folder (each convention under its own package name) and the runner
they come with, `check_cases.py`, runs each checker once over all of them and checks the
run-time twins (parse and validate.ts). The number of cases per convention is pinned, so a lost
case is noticed. docs/derived-cases.md describes the whole.
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
BIN = Path(PYTHON).parent


def package_name(folder: str) -> str:
    return re.sub(r"\W", "_", folder)


def conventions() -> dict[str, Path]:
    found = {
        package_name(folder.name): folder / "schema.json"
        for folder in sorted(ROOT.glob("schemas/*"))
        if (folder / "schema.json").is_file()
    }
    for folder in sorted(CASES.iterdir()):
        if not folder.name.startswith("bad-") and (folder / "schema.json").is_file():
            found[package_name(folder.name)] = folder / "schema.json"
    return found


# Derived cases per convention (document mutations and frozen-model assignments).
EXPECTED_CASES = {
    "xarray_v2": 8,
    "xarray_v3": 9,
    "draft07_definitions": 14,
    "hostile_descriptions": 10,
    "named_members": 26,
    "ome_ngff_04_image": 75,
    "ome_ngff_05_image": 97,
    "nested_id_refs": 22,
    "oneof_tagged_union": 14,
    "open_closed_attributes": 15,
    "pattern_members": 10,
    "prefix_items_tuple": 21,
    "recursive_group": 8,
    "weird_keys": 31,
}


# Conventions whose valid hierarchy the synthesiser cannot build, and the constraint named.
EXPECTED_REFUSED: dict[str, str] = {}


def zomgen(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-m", "zomgen", *args], capture_output=True, text=True, check=False
    )


def runner(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(
        [PYTHON, str(folder / "check_cases.py"), *args],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


@pytest.fixture(scope="module")
def derived(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("derived")
    for package, schema in conventions().items():
        result = zomgen("cases", str(schema), "-o", str(out), "--package", package)
        assert "Traceback" not in result.stderr
        if package in EXPECTED_REFUSED:
            assert result.returncode == 2, result.stderr
            assert f":{EXPECTED_REFUSED[package]}: " in result.stderr
            shutil.rmtree(out / package)
        else:
            assert result.returncode == 0, result.stderr
    (out / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    return out


def counts(folder: Path) -> dict[str, int]:
    found = {}
    for path in sorted(folder.glob("*_cases/cases.json")):
        suite = json.loads(path.read_text("utf-8"))
        found[suite["package"]] = len(suite["cases"])
    return found


def test_every_convention_is_derived_and_counted(derived: Path) -> None:
    assert set(conventions()) == set(EXPECTED_CASES) | set(EXPECTED_REFUSED)
    assert counts(derived) == EXPECTED_CASES


def test_the_runner_agrees_with_every_checker_and_both_run_times(derived: Path) -> None:
    result = runner(derived)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "check_cases: ok" in result.stdout
    for line in (
        "mypy",
        "pyright",
        "pyrefly",
        "ty",
        "tsc",
        "python run time",
        "typescript run time",
    ):
        assert f"  {line}: as expected" in result.stdout, result.stdout


def test_every_case_file_passes_ruff(derived: Path) -> None:
    files = [str(p) for p in derived.glob("*_cases/*.py")] + [str(derived / "check_cases.py")]
    result = subprocess.run(
        [str(BIN / "ruff"), "check", "--no-cache", "--isolated", *files],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout


def test_the_runner_fails_when_it_should(derived: Path, tmp_path: Path) -> None:
    """On a copy: a wrong mypy code, a wrong run-time pointer and a missing checker each fail."""
    copy = tmp_path / "copy"
    shutil.copytree(derived, copy, symlinks=True, ignore=shutil.ignore_patterns("_twins"))
    path = copy / "xarray_v3_cases" / "cases.json"
    suite = json.loads(path.read_text("utf-8"))
    compared = next(c for c in suite["cases"] if c["expect"]["mypy"] and c["document"])
    compared["expect"]["mypy"] = ["arg-type"]
    compared["runtime"]["pointer"] = "/nowhere"
    path.write_text(json.dumps(suite), encoding="utf-8")
    for other in copy.glob("*_cases"):
        if other.name != "xarray_v3_cases":
            shutil.rmtree(other)
    result = runner(copy, "--checkers", "mypy", "--tsc", str(tmp_path / "no-tsc"))
    assert result.returncode == 1
    assert "mypy: missing xarray_v3_cases/documents_cases.py" in result.stdout
    assert "[arg-type]" in result.stdout
    assert f"{compared['name']} " in result.stdout
    assert "not at '/nowhere'" in result.stdout
    assert "typescript run time: tsc not installed" in result.stdout


def test_no_valid_hierarchy_is_exit_2_naming_the_blocking_constraint(tmp_path: Path) -> None:
    schema = {
        "title": "Blocked",
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "properties": {
            "attributes": {
                "type": "object",
                "properties": {"id": {"type": "string", "pattern": "^ID-[0-9]{4}$"}},
                "required": ["id"],
            }
        },
    }
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    result = zomgen("cases", str(path), "-o", str(tmp_path / "out"))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "/properties/attributes/properties/id/pattern" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1

    schema["properties"]["attributes"]["properties"]["id"]["examples"] = ["ID-0001"]  # type: ignore[index]
    path.write_text(json.dumps(schema), encoding="utf-8")
    result = zomgen("cases", str(path), "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
