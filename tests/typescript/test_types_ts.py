"""types.ts under tsc --strict --exactOptionalPropertyTypes: every package's types compile, and
the TypeScript type-check cases reject exactly the mistakes they name.

A negative is `// @ts-expect-error TSxxxx why` above the line that must fail. tsc alone only
says that *some* error happened there (facts.md), so the checker runs tsc twice: as written (no
error may remain, and a directive whose line stops failing is TS2578), and with the directives
disabled, where every error must stand on a directive's line with the directive's code, and
every directive's line must fail.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CASES, ROOT

TSC = ROOT / "node_modules" / ".bin" / "tsc"
TS_CASES = ROOT / "typecheck_cases" / "typescript"
BUILT = {"named_members": "named-members", "tagged_union": "oneof-tagged-union"}
DIRECTIVE = re.compile(r"//\s*@ts-expect-error\s+(TS\d+)\b")
ERROR = re.compile(r"^(?P<file>.+?)\((?P<line>\d+),\d+\): error (?P<code>TS\d+):")
EXPECTED_NEGATIVES = 13


def _tsc(project: Path) -> subprocess.CompletedProcess[str]:
    if not TSC.exists():
        pytest.fail("TypeScript is not installed: run `bash scripts/setup.sh` (npm ci)")
    return subprocess.run(
        [str(TSC), "-p", str(project), "--pretty", "false"],
        cwd=project.parent,  # tsc reports file names relative to its working folder
        capture_output=True,
        text=True,
        check=False,
    )


def _build(schema: Path, out: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "zomgen", "build", str(schema), "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def _project(folder: Path, include: list[str]) -> Path:
    config = folder / "tsconfig.json"
    settings = {"extends": (ROOT / "tsconfig.json").as_posix(), "include": include}
    config.write_text(json.dumps(settings), encoding="utf-8")
    return config


def test_every_package_types_ts_compiles(tmp_path: Path) -> None:
    schemas = sorted((ROOT / "schemas").glob("*/schema.json")) + sorted(
        case / "schema.json"
        for case in CASES.iterdir()
        if not case.name.startswith("bad-") and (case / "schema.json").exists()
    )
    for schema in schemas:
        _build(schema, tmp_path / schema.parent.name.replace("-", "_"))
    result = _tsc(_project(tmp_path, ["*/types.ts"]))
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def ts_cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("ts_cases")
    shutil.copytree(TS_CASES, work, dirs_exist_ok=True)
    packages = work / "packages"
    for name in ("xarray_v2", "xarray_v3"):
        shutil.copytree(ROOT / "generated" / name, packages / name)
    for name, case in BUILT.items():
        _build(CASES / case / "schema.json", packages / name)
    _project(work, ["*_cases/*.ts"])
    return work


def _directives(folder: Path) -> dict[tuple[str, int], str]:
    """(file, line of the code that must fail) -> expected code."""
    found: dict[tuple[str, int], str] = {}
    for path in sorted(folder.glob("*_cases/*.ts")):
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            match = DIRECTIVE.search(line)
            if match:
                found[(path.resolve().as_posix(), number + 1)] = match.group(1)
            elif "@ts-expect-error" in line:
                pytest.fail(f"{path.name}:{number}: a directive must name its error code")
    return found


def _errors(output: str, folder: Path) -> dict[tuple[str, int], set[str]]:
    errors: dict[tuple[str, int], set[str]] = {}
    for line in output.splitlines():
        match = ERROR.match(line)
        if match:
            file = (folder / match["file"]).resolve().as_posix()
            errors.setdefault((file, int(match["line"])), set()).add(match["code"])
    return errors


def test_positives_pass_and_every_directive_is_used(ts_cases: Path) -> None:
    result = _tsc(ts_cases / "tsconfig.json")
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_negative_fails_for_the_reason_it_names(ts_cases: Path, tmp_path: Path) -> None:
    shutil.copytree(ts_cases, tmp_path / "w")
    work = tmp_path / "w"
    expected = _directives(work)
    assert len(expected) == EXPECTED_NEGATIVES  # a deleted case is noticed
    for path in work.glob("*_cases/*.ts"):
        path.write_text(path.read_text("utf-8").replace("@ts-expect-error", "expect-error"))
    result = _tsc(work / "tsconfig.json")
    errors = _errors(result.stdout, work)
    wrong = {
        where: (code, sorted(errors.get(where, set())))
        for where, code in expected.items()
        if code not in errors.get(where, set())
    }
    assert not wrong, f"negatives that fail for another reason or not at all: {wrong}"
    stray = {where: codes for where, codes in errors.items() if where not in expected}
    assert not stray, f"errors outside the negatives: {stray}\n{result.stdout}"


def test_the_checker_notices_a_wrong_code(ts_cases: Path, tmp_path: Path) -> None:
    shutil.copytree(ts_cases, tmp_path / "w")
    case = tmp_path / "w" / "tagged_union_cases" / "cases.ts"
    case.write_text(case.read_text("utf-8").replace("TS2353", "TS2322"))
    work = tmp_path / "w"
    expected = _directives(work)
    for path in work.glob("*_cases/*.ts"):
        path.write_text(path.read_text("utf-8").replace("@ts-expect-error", "expect-error"))
    errors = _errors(_tsc(work / "tsconfig.json").stdout, work)
    assert any(code not in errors.get(where, set()) for where, code in expected.items())
