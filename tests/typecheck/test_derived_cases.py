"""The derived cases of every bundled convention and every good compiler case folder, in one
folder (each convention under its own package name): the runner they come with,
`check_cases.py`, runs each checker once over all of them and checks the run-time twins (parse
and validate.ts). The compiler cases are derived here by `zomgen cases`; the bundled
conventions' packages are generated/'s, their cases derived and compared by
tests/targets/test_generated.py. The number of cases per convention is pinned, so a lost
case is noticed. docs/derived-cases.md describes the whole.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_zomgen
from tests.support.paths import ROOT
from tests.support.scripts import load_script
from zomgen.cases import report as agreement

pytestmark = [
    pytest.mark.checkers,
    pytest.mark.node,
    pytest.mark.slow,
]

PYTHON = sys.executable
BIN = Path(PYTHON).parent


derive_cases = load_script("derive_cases")  # scripts/ is not a package
DERIVED = derive_cases.DERIVED
case_files, conventions, differences = (
    derive_cases.case_files,
    derive_cases.conventions,
    derive_cases.differences,
)

# Derived cases per convention (document mutations and frozen-model assignments). The valid
# hierarchy keeps the optional keys a repair makes right (cases/derive.py), so the OME images
# (a label's `source.image`), GeoZarr and spatial have more than before (123, 135, 128, 23).
# A v2 node has no "unknown node key" case: the v2 base accepts a writer's own keys
# (docs/base-schemas.md), so the v2 conventions have one case fewer per node type.
EXPECTED_CASES = {
    "xarray_v2": 6,
    "xarray_v3": 9,
    "draft07_definitions": 12,
    "hostile_descriptions": 11,
    "named_members": 26,
    "ome_ngff_04_image": 126,
    "ome_ngff_05_image": 145,
    "ome_ngff_04_bf2raw": 41,
    "ome_ngff_04_plate": 68,
    "ome_ngff_04_well": 42,
    "ome_ngff_05_bf2raw": 62,
    "ome_ngff_05_plate": 89,
    "ome_ngff_05_well": 55,
    "ome_ngff_06_bf2raw": 81,
    "ome_ngff_06_image": 134,
    "ome_ngff_06_plate": 108,
    "ome_ngff_06_scene": 106,
    "ome_ngff_06_well": 74,
    "ome_ngff_09dev1_bf2raw": 83,
    "ome_ngff_09dev1_image": 138,
    "ome_ngff_09dev1_plate": 110,
    "ome_ngff_09dev1_scene": 110,
    "ome_ngff_09dev1_well": 76,
    "cf_grid_v2": 111,
    "cf_grid_v3": 114,
    "geozarr_dataset": 150,
    "zarr_conventions_cf": 62,
    "zarr_conventions_geo_proj": 12,
    "zarr_conventions_multiscales": 22,
    "zarr_conventions_spatial": 25,
    "nested_id_refs": 22,
    "oneof_tagged_union": 14,
    "open_closed_attributes": 16,
    "pattern_members": 10,
    "prefix_items_tuple": 21,
    "recursive_group": 14,
    "root_union": 18,
    "weird_keys": 31,
    "writer_keys": 17,
}


# Conventions whose valid hierarchy the synthesiser cannot build, and the constraint named.
EXPECTED_REFUSED: dict[str, str] = {}


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


# The bundled conventions: their packages are generated/'s, and their derived cases are
# compared with typecheck_cases/derived/ by tests/targets/test_generated.py, which derives them
# anyway (deriving is most of this suite's time); here only the compiler cases are derived.
BUNDLED = {out.name for _schema, out in load_script("regenerate").conventions()}


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every compiler case derived by `zomgen cases` into one folder, beside the bundled
    conventions' packages of generated/."""
    out = tmp_path_factory.mktemp("derived")
    for package, schema in conventions().items():
        if package in BUNDLED:
            ignore = shutil.ignore_patterns("__pycache__")
            shutil.copytree(ROOT / "generated" / package, out / package, ignore=ignore)
            continue
        result = run_zomgen("cases", str(schema), "-o", str(out), "--package", package)
        assert "Traceback" not in result.stderr
        if package in EXPECTED_REFUSED:
            assert result.returncode == 2, result.stderr
            assert f":{EXPECTED_REFUSED[package]}: " in result.stderr
            shutil.rmtree(out / package)
        else:
            assert result.returncode == 0, result.stderr
    (out / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    return out


@pytest.fixture(scope="module")
def derived(fresh: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fresh packages with the checked-in cases of typecheck_cases/derived/ (identical to
    the fresh ones when test_checked_in_cases_are_current and test_generated pass): what the
    runner runs."""
    out = tmp_path_factory.mktemp("checked_in")
    shutil.copytree(fresh, out, symlinks=True, dirs_exist_ok=True)
    for name, text in case_files(DERIVED).items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text, encoding="utf-8")
    return out


def _of_compiler_cases(files: dict[str, str]) -> dict[str, str]:
    """The runner and configurations, and the case files of the compiler cases."""
    return {k: v for k, v in files.items() if k.split("_cases/")[0] not in BUNDLED}


def test_checked_in_cases_are_current(fresh: Path) -> None:
    diffs = differences(case_files(fresh), _of_compiler_cases(case_files(DERIVED)))
    assert not diffs, (
        "typecheck_cases/derived/ drifted; run `python scripts/derive_cases.py`:\n" + "".join(diffs)
    )


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
    result = runner(derived, "--exact")
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
    assert "static claims of the report not held" not in result.stdout


def test_the_report_calls_static_exactly_what_the_cases_expect(derived: Path) -> None:
    """The static claims of every report come from the cases' expectations (and the runner,
    above, fails when a checker accepts a case of a constraint the report calls static); every
    case mypy does not compare carries mypy's reason, and the report lists each such row with
    its reasons under "Not compared by mypy"."""
    for path in sorted(derived.glob("*_cases/report.json")):
        report = json.loads(path.read_text("utf-8"))
        suite = json.loads((path.parent / "cases.json").read_text("utf-8"))
        named = [c["name"] for row in report["constraints"] for c in row["cases"]]
        assert sorted(named) == sorted(c["name"] for c in suite["cases"]), path
        reasons = {}
        for case in suite["cases"]:
            if case["expect"]["mypy"] is None:
                assert case["mypy_not_compared"].strip(), (path, case["name"])
                reasons[case["name"]] = case["mypy_not_compared"]
            else:
                assert "mypy_not_compared" not in case, (path, case["name"])
        markdown = (path.parent / "REPORT.md").read_text("utf-8")
        assert markdown.startswith("# Agreement report")
        section = markdown.split("\n## Not compared by mypy\n", 1)[1].split("\n## ", 1)[0]
        for row in report["constraints"]:
            for checker, state in row["checkers"].items():
                codes = [c["expect"][checker] for c in row["cases"]]
                if state == "static":
                    assert all(codes), (path, row["pointer"], checker)
                elif state == "run time only":
                    assert not any(codes) and None not in codes, (path, row["pointer"], checker)
            gaps = Counter(reasons[c["name"]] for c in row["cases"] if c["name"] in reasons)
            assert row.get("mypy_not_compared", {}) == dict(sorted(gaps.items())), path
            mypy = row["checkers"]["mypy"]
            assert ("n/c" in mypy or mypy == "not compared") == bool(gaps), (path, row["pointer"])
            listed = f"| {agreement._md(row['pointer'])} | {agreement._md(row['keyword'])} | "
            assert (listed in section) == bool(gaps), (path, row["pointer"])
            for reason in gaps:
                assert reason in section, (path, row["pointer"], reason)
        if not reasons:
            assert "None: mypy compares every case of this convention." in section, path


def _suite(*cases: tuple[str, list[str] | None, str]) -> dict[str, Any]:
    """A cases.json of document cases (pointer, mypy's codes, mypy's reason when None)."""
    made = []
    for number, (pointer, mypy, reason) in enumerate(cases, start=1):
        expect = {"mypy": mypy, **{c: ["code"] for c in agreement.CHECKERS if c != "mypy"}}
        case: dict[str, Any] = {"name": f"case_{number}", "kind": "wrong-json-type"}
        case |= {"pointer": "/a", "expect": expect}
        case["runtime"] = {"keyword": "type", "schema_path": f"/properties/{pointer}/type"}
        made.append(case | ({"mypy_not_compared": reason} if mypy is None else {}))
    return {"package": "p", "root": "Root", "source": "synthesised", "cases": made}


def test_the_report_lists_each_mypy_gap_with_its_reason() -> None:
    """Each row with cases mypy does not compare counts them by mypy's reason, sorted; the text
    and Markdown list each such row, its share of cases and its reasons (each counted when the
    row has several), and say so when there is none."""
    union, beside = "below the union `U`, which ...", "a member beside named ones: ..."
    suite = _suite(
        ("a", None, union),
        ("a", ["typeddict-item"], ""),
        ("a", None, beside),
        ("a", None, union),
        ("b", ["typeddict-item"], ""),
    )
    report = agreement.build(suite, [])
    rows = {row["pointer"]: row for row in report["constraints"]}
    assert rows["#/properties/a/type"]["checkers"]["mypy"] == "static 1/4, 3 n/c"
    assert rows["#/properties/a/type"]["mypy_not_compared"] == {beside: 1, union: 2}
    assert list(rows["#/properties/a/type"]["mypy_not_compared"]) == [beside, union]
    assert "mypy_not_compared" not in rows["#/properties/b/type"]
    text = agreement.text(report)
    section = text.split("\nnot compared by mypy:\n", 1)[1].split("\n\n", 1)[0]
    assert "  #/properties/a/type  type  3 of 4 cases\n" in section
    assert f"    - {beside} (1)\n    - {union} (2)" in section
    assert "#/properties/b/type" not in section
    assert '"not compared by mypy"' in agreement.LEGEND
    markdown = agreement.markdown(report)
    assert f"| `#/properties/a/type` | `type` | 3 of 4 | {beside} (1)<br>{union} (2) |" in markdown
    clean = agreement.build(_suite(("a", ["typeddict-item"], "")), [])
    assert "\nnot compared by mypy:\n  none: mypy compares every case\n" in agreement.text(clean)
    assert "None: mypy compares every case of this convention." in agreement.markdown(clean)


def test_report_command_text_and_json(tmp_path: Path) -> None:
    schema = conventions()["xarray_v3"]
    result = run_zomgen("cases", str(schema), "-o", str(tmp_path), "--report", "--format", "json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    shown = run_zomgen("ir", str(schema))
    checks = json.loads(shown.stdout)["runtime_checks"]
    assert [(r["pointer"], r["keyword"]) for r in report["runtime_only"]] == [
        (c["pointer"], c["keyword"]) for c in checks
    ]
    assert {row["keyword"] for row in report["constraints"]} >= {"type", "const", "frozen"}
    text = run_zomgen("cases", str(schema), "-o", str(tmp_path), "--report")
    assert text.returncode == 0
    assert text.stdout.startswith("agreement report: convention (XarrayDataset")
    assert "checked only at run time" in text.stdout


def test_a_checker_accepting_a_static_case_fails_the_report(derived: Path, tmp_path: Path) -> None:
    """On a copy: a case the report calls static for pyright, moved to a line pyright accepts."""
    copy = tmp_path / "copy"
    shutil.copytree(derived, copy, symlinks=True, ignore=shutil.ignore_patterns("_twins"))
    for other in copy.glob("*_cases"):
        if other.name != "xarray_v3_cases":
            shutil.rmtree(other)
    path = copy / "xarray_v3_cases" / "cases.json"
    suite = json.loads(path.read_text("utf-8"))
    report = json.loads((path.parent / "report.json").read_text("utf-8"))
    row = next(r for r in report["constraints"] if r["checkers"]["pyright"] == "static")
    case = next(c for c in suite["cases"] if c["name"] == row["cases"][0]["name"])
    case["lines"]["python"][1] = 1  # the header comment: nothing to report there
    path.write_text(json.dumps(suite), encoding="utf-8")
    result = runner(copy, "--checkers", "pyright", "--no-runtime")
    assert result.returncode == 1
    assert f"report: pyright accepts xarray_v3 {case['name']} " in result.stdout, result.stdout


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
    result = runner(copy, "--checkers", "mypy", "--tsc", str(tmp_path / "no-tsc"), "--exact")
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
                # A lookahead the string maker (zomgen/cases/strings.py) does not satisfy.
                "properties": {"id": {"type": "string", "pattern": "^(?=.*[0-9])[a-z0-9]{4}$"}},
                "required": ["id"],
            }
        },
    }
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    result = run_zomgen("cases", str(path), "-o", str(tmp_path / "out"))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "/properties/attributes/properties/id/pattern" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1

    schema["properties"]["attributes"]["properties"]["id"]["examples"] = ["abc1"]  # type: ignore[index]
    path.write_text(json.dumps(schema), encoding="utf-8")
    result = run_zomgen("cases", str(path), "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr


def test_build_with_cases_puts_the_report_in_the_package_readme(tmp_path: Path) -> None:
    """`zomgen build -o PKG --cases DIR`: the package at PKG is the one DIR's cases check (a
    copy when DIR is not PKG's parent), its README carries REPORT.md's table, `--check` passes
    on what it wrote and fails on a stale case file or README; a plain build says how."""
    schema = str(conventions()["xarray_v3"])
    package, cases = tmp_path / "pkg" / "xv3", tmp_path / "cases"
    built = run_zomgen("build", schema, "-o", str(package), "--cases", str(cases))
    assert built.returncode == 0, built.stderr
    readme = (package / "README.md").read_text("utf-8")
    assert (cases / "xv3" / "README.md").read_text("utf-8") == readme
    table = (cases / "xv3_cases" / "REPORT.md").read_text("utf-8").split("\n| ", 1)[1]
    assert "\n## Agreement report\n" in readme
    assert readme.endswith(table.replace("\n## ", "\n### "))
    assert "| `models.attributes` | `frozen` | 1 | yes |" in readme
    check = ["build", schema, "-o", str(package), "--cases", str(cases), "--check"]
    assert run_zomgen(*check).returncode == 0
    report = cases / "xv3_cases" / "REPORT.md"
    report.write_text(report.read_text("utf-8") + "edited\n", encoding="utf-8")
    stale = run_zomgen(*check)
    assert stale.returncode == 1
    assert "-edited" in stale.stdout
    assert "is stale: run `zomgen build" in stale.stderr
    plain = tmp_path / "plain" / "xv3"
    assert run_zomgen("build", schema, "-o", str(plain)).returncode == 0
    plain_readme = (plain / "README.md").read_text("utf-8")
    assert "Not derived for this build. `zomgen build SCHEMA -o PKG --cases DIR`" in plain_readme
    assert (
        run_zomgen(*check[:4], "--check").returncode == 1
    )  # the README differs from a plain build
    in_place = run_zomgen(
        "build", schema, "-o", str(tmp_path / "one" / "xv3"), "--cases", str(tmp_path / "one")
    )
    assert in_place.returncode == 0, in_place.stderr
    assert sorted(p.name for p in (tmp_path / "one").iterdir()) == [
        "check_cases.py", "mypy.ini", "pyrightconfig.json", "tsconfig.json", "xv3", "xv3_cases",
    ]  # fmt: skip


def test_the_default_comparison_fails_on_acceptance_and_notes_other_codes(
    derived: Path, tmp_path: Path
) -> None:
    """Without --exact: a case rejected with another code than expected is a note; a case
    the checker accepts (its line moved to one with no mistake) is a failure."""
    copy = tmp_path / "copy"
    shutil.copytree(derived, copy, symlinks=True, ignore=shutil.ignore_patterns("_twins"))
    for other in copy.glob("*_cases"):
        if other.name != "xarray_v3_cases":
            shutil.rmtree(other)
    path = copy / "xarray_v3_cases" / "cases.json"
    suite = json.loads(path.read_text("utf-8"))
    recoded, accepted = [c for c in suite["cases"] if c["expect"]["pyright"]][:2]
    recoded["expect"]["pyright"] = ["reportArgumentType"]
    path.write_text(json.dumps(suite), encoding="utf-8")
    noted = runner(copy, "--checkers", "pyright", "--no-runtime")
    assert noted.returncode == 0, noted.stdout
    assert "note: pyright: rejects with [reportAssignmentType] " in noted.stdout
    assert f"{recoded['name']} " in noted.stdout
    accepted["lines"]["python"][1] = 1  # the header comment: nothing to report there
    path.write_text(json.dumps(suite), encoding="utf-8")
    failed = runner(copy, "--checkers", "pyright", "--no-runtime")
    assert failed.returncode == 1
    assert "pyright: accepts xarray_v3_cases/documents_cases.py:1 " in failed.stdout
    # the mistake's own line, now no case's: named by its text, with pyright's own words
    unexpected = next(x for x in failed.stdout.splitlines() if "pyright: unexpected " in x)
    assert "[reportAssignmentType] not a case line: '" in unexpected, failed.stdout
    assert "    the checker says [reportAssignmentType]: " in failed.stdout
