"""typecheck_cases/python under mypy, pyright, pyrefly and ty: positives must pass, negatives must
fail on exactly the line and for exactly the reason written on it.

Each negative line ends with `# type: ignore[<mypy codes>]  # pyright: ignore[<pyright rule>]
# pyrefly: ignore[<pyrefly codes>]  # ty: ignore[<ty rules>]`. mypy runs with
`warn_unused_ignores` and `ignore-without-code` (mypy.ini); pyright strict with
`enableTypeIgnoreComments: false` and `reportUnnecessaryTypeIgnoreComment` (pyrightconfig.json);
pyrefly and ty as tests/support/checkers.py configures them for generated packages, plus: pyrefly
reads `# pyrefly: ignore` only (`--enabled-ignores pyrefly`) and reports an unused one, or an
unused code in one (`unused-ignore`, an error); ty reads `# ty: ignore` only
(`respect-type-ignore-comments = false`) and reports an unused one, or an unused rule in one
(`unused-ignore-comment`, made an error). So each checker exits 0 only if every negative still
errors, with its own codes (facts.md, "Type checkers"). A negative a checker does not reject (a
gap of that checker) carries no comment of it and is listed in MYPY_GAPS, PYREFLY_GAPS or
TY_GAPS; pyright rejects every negative. `diff_*.py` lines carry a mypy ignore only: pyright,
pyrefly and ty must accept them as they stand (where the checkers differ: reading an extra key,
PEP 728). One run of each checker covers every package; a second run of each, over a copy with
the ignore comments removed, shows the harness fails when it should.

The packages: generated/xarray_v2 and xarray_v3 (built here if generated/ lacks them), and two
compiler cases built here (`named_members`, `tagged_union`). The run-time twins are in
test_runtime_twins.py; docs/typecheck-cases.md describes the whole.
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

from tests.support.checkers import (
    Diagnostic,
    pyrefly_diagnostics,
    run_pyrefly,
    run_ty,
    ty_diagnostics,
)
from tests.support.paths import GENERATED
from tests.support.typecheck_cases import (
    CASES_DIR,
    CODES,
    IGNORES,
    MUTATION_CASES,
    ROOTS,
    Negative,
    build_packages,
    case_files,
    document_root,
    ignore_codes,
    negative_lines,
    negatives,
    statements,
)

pytestmark = pytest.mark.checkers

PYTHON = sys.executable
# Every negative line, counted per file: a deleted case or line changes these numbers.
EXPECTED_NEGATIVES = {
    "named_members_cases/neg_frozen_model.py": 3,
    "named_members_cases/neg_group_where_array_must_be.py": 3,
    "named_members_cases/neg_missing_named_member.py": 4,
    "named_members_cases/neg_missing_required_attribute.py": 2,
    "named_members_cases/neg_unknown_key_on_closed_object.py": 3,
    "named_members_cases/neg_wrong_const_or_enum_literal.py": 4,
    "named_members_cases/neg_wrong_data_type.py": 2,
    "tagged_union_cases/neg_frozen_model.py": 3,
    "tagged_union_cases/neg_missing_required_attribute.py": 2,
    "tagged_union_cases/neg_unknown_key_on_closed_object.py": 4,
    "tagged_union_cases/neg_wrong_tag_literal.py": 3,
    "xarray_v2_cases/neg_frozen_model.py": 3,
    "xarray_v2_cases/neg_group_where_array_must_be.py": 2,
    "xarray_v2_cases/neg_missing_required_attribute.py": 2,
    "xarray_v2_cases/neg_mutate_members_mapping.py": 1,
    "xarray_v2_cases/neg_unknown_key_on_closed_object.py": 2,
    "xarray_v2_cases/neg_wrong_const_or_enum_literal.py": 4,
    "xarray_v3_cases/neg_frozen_model.py": 2,
    "xarray_v3_cases/neg_group_where_array_must_be.py": 3,
    "xarray_v3_cases/neg_missing_dimension_names.py": 2,
    "xarray_v3_cases/neg_mutate_members_mapping.py": 2,
    "xarray_v3_cases/neg_null_dimension_name.py": 2,
    "xarray_v3_cases/neg_unknown_key_on_closed_object.py": 4,
    "xarray_v3_cases/neg_wrong_const_or_enum_literal.py": 4,
}
TOTAL_NEGATIVES = 66
# Lines of `diff_*.py` files: valid for pyright, pyrefly, ty and at run time, rejected by mypy
# only (it has no PEP 728 `extra_items`: it rejects reading an extra key), counted per file like
# the negatives.
EXPECTED_MYPY_ONLY = {
    "named_members_cases/diff_pep728_extra_items.py": 2,
    "xarray_v2_cases/diff_pep728_extra_items.py": 1,
}

# Negatives a checker does not reject: the line carries no comment of that checker (so a gap
# that closes leaves an error with no ignore, and the checker's run fails), and with the
# comments removed the checker reports nothing there. (file, line) -> why.
# mypy has no PEP 728: it reads an object that allows other keys as its listed keys or a dict of
# any of its value types (docs/exact-types.md), so a mistake inside such an object that a dict of
# those values can hold goes unseen.
_MYPY_UNKNOWN_KEYS = (
    "mypy runs with `typeddict-unknown-key` off (mypy.ini), as the packages' README asks: it "
    "has no PEP 728, and reads an open object as its listed keys"
)
MYPY_GAPS: dict[tuple[str, int], str] = {
    **{
        (path, line): f"an unknown key on a closed object: {_MYPY_UNKNOWN_KEYS}"
        for path, line in (
            ("named_members_cases/neg_unknown_key_on_closed_object.py", 9),
            ("named_members_cases/neg_unknown_key_on_closed_object.py", 10),
            ("tagged_union_cases/neg_unknown_key_on_closed_object.py", 7),
            ("xarray_v2_cases/neg_unknown_key_on_closed_object.py", 7),
            ("xarray_v3_cases/neg_unknown_key_on_closed_object.py", 9),
            ("xarray_v3_cases/neg_unknown_key_on_closed_object.py", 10),
        )
    },
}
PYREFLY_GAPS: dict[tuple[str, int], str] = {}  # pyrefly rejects every negative
TY_GAPS: dict[tuple[str, int], str] = {
    (
        "xarray_v3_cases/neg_frozen_model.py",
        9,
    ): "ty narrows `dataset.members` to the `dict[str, Unknown]` assigned on the line before "
    "(which it reports as read-only), so the member and its field are Unknown there",
}

# A `diff_*.py` line: mypy's ignore only (pyright, pyrefly and ty accept every such line).
MYPY_ONLY_IGNORE = re.compile(rf"  # type: ignore\[(?P<mypy>{CODES})\]$")
ANY_IGNORE = re.compile(r"#\s*(type|pyright|pyrefly|ty):\s*ignore")


def mypy_only(root: Path) -> list[Negative]:
    """The lines of `diff_*.py` files that carry a mypy ignore (the other checkers' codes are
    empty: they accept these lines)."""
    found = []
    for path in case_files(root, "diff_"):
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            match = MYPY_ONLY_IGNORE.search(line)
            if match:
                rel = path.relative_to(root).as_posix()
                none: frozenset[str] = frozenset()
                found.append(Negative(rel, number, ignore_codes(match["mypy"]), "", none, none))
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_packages(tmp_path_factory.mktemp("typecheck_packages"))


def run_mypy(cases: Path, built: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    """mypy once over every package's cases (generated/ comes from mypy.ini's mypy_path)."""
    return subprocess.run(
        [
            PYTHON,
            "-m",
            "mypy",
            "--config-file",
            str(CASES_DIR / "mypy.ini"),
            "--cache-dir",
            str(cache),
            ".",
        ],
        cwd=cases,
        env={**os.environ, "MYPYPATH": str(built)},
        capture_output=True,
        text=True,
        check=False,
    )


def run_pyright(cases: Path, built: Path, config_dir: Path) -> subprocess.CompletedProcess[str]:
    """pyright once over every package's cases, with the checked-in configuration extended by
    the folder to check and the packages' paths (pyright wants them relative to the config)."""
    config = {
        "extends": str(CASES_DIR / "pyrightconfig.json"),
        "include": [os.path.relpath(cases, config_dir)],
        "extraPaths": [os.path.relpath(GENERATED, config_dir), os.path.relpath(built, config_dir)],
    }
    (config_dir / "pyrightconfig.json").write_text(json.dumps(config), encoding="utf-8")
    return subprocess.run(
        [
            PYTHON,
            "-m",
            "pyright",
            "--outputjson",
            "-p",
            str(config_dir / "pyrightconfig.json"),
            "--pythonpath",
            PYTHON,
        ],
        capture_output=True,
        text=True,
        check=False,
    )


def run_pyrefly_cases(cases: Path, built: Path) -> subprocess.CompletedProcess[str]:
    """pyrefly once over every package's cases: `# pyrefly: ignore` comments only, an unused one
    (or an unused code in one) an error, generated/ and the built packages on the search path."""
    folders = [path for path in (GENERATED, built) if path.is_dir()]
    paths = [arg for path in folders for arg in ("--search-path", str(path))]
    extra = ["--enabled-ignores", "pyrefly", "--error", "unused-ignore", *paths]
    return run_pyrefly(["--python-version", "3.11", *extra, "."], cases)


def run_ty_cases(cases: Path, built: Path) -> subprocess.CompletedProcess[str]:
    """ty once over every package's cases: `# ty: ignore` comments only (every rule is an error,
    `unused-ignore-comment` too), generated/ and the built packages as extra search paths."""
    folders = [path for path in (GENERATED, built) if path.is_dir()]
    paths = [arg for path in folders for arg in ("--extra-search-path", str(path))]
    options = ["-c", "analysis.respect-type-ignore-comments = false"]
    return run_ty(["--python-version", "3.11", *options, *paths, "."], cases)


def found(diagnostics: list[Diagnostic], cases: Path) -> set[tuple[str, int, str]]:
    """(file relative to `cases`, line, code) of every diagnostic."""
    where = set()
    for d in diagnostics:
        path = Path(d.path)
        rel = path.relative_to(cases) if path.is_absolute() else path
        where.add((rel.as_posix(), d.line, d.code))
    return where


MYPY_ERROR = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+): error: .*  \[(?P<code>[a-z-]+)\]$")


def mypy_errors(result: subprocess.CompletedProcess[str]) -> set[tuple[str, int, str]]:
    errors = set()
    for line in result.stdout.splitlines():
        match = MYPY_ERROR.match(line)
        if match:
            errors.add((Path(match["path"]).as_posix(), int(match["line"]), match["code"]))
    return errors


def pyright_errors(
    result: subprocess.CompletedProcess[str], cases: Path
) -> tuple[set[tuple[str, int, str]], int]:
    report = json.loads(result.stdout)
    errors = {
        (
            Path(d["file"]).relative_to(cases).as_posix(),
            d["range"]["start"]["line"] + 1,
            d.get("rule", ""),
        )
        for d in report["generalDiagnostics"]
        if d["severity"] == "error"
    }
    return errors, report["summary"]["filesAnalyzed"]


def test_mypy_accepts_positives_and_finds_every_negative(built: Path, tmp_path: Path) -> None:
    result = run_mypy(CASES_DIR, built, tmp_path / "mypy_cache")
    assert result.returncode == 0, result.stdout + result.stderr
    files = len(list(CASES_DIR.glob("*_cases/*.py")))
    assert f"no issues found in {files} source files" in result.stdout


def test_pyright_accepts_positives_and_finds_every_negative(built: Path, tmp_path: Path) -> None:
    result = run_pyright(CASES_DIR, built, tmp_path)
    errors, analyzed = pyright_errors(result, CASES_DIR)
    assert result.returncode == 0 and not errors, result.stdout + result.stderr
    assert analyzed == len(list(CASES_DIR.glob("*_cases/*.py")))


def test_pyrefly_accepts_positives_and_finds_every_negative(built: Path) -> None:
    result = run_pyrefly_cases(CASES_DIR, built)
    diagnostics = pyrefly_diagnostics(result)
    listing = "\n".join(map(str, diagnostics)) + result.stderr
    assert result.returncode == 0 and not diagnostics, listing


def test_ty_accepts_positives_and_finds_every_negative(built: Path) -> None:
    result = run_ty_cases(CASES_DIR, built)
    diagnostics = ty_diagnostics(result)
    listing = "\n".join(map(str, diagnostics)) + result.stderr
    assert result.returncode == 0 and not diagnostics, listing


def test_checker_gaps_are_exactly_the_negatives_without_their_comment() -> None:
    every = negatives(CASES_DIR)
    assert {(n.path, n.line) for n in every if not n.mypy} == set(MYPY_GAPS)
    assert {(n.path, n.line) for n in every if not n.pyrefly} == set(PYREFLY_GAPS)
    assert {(n.path, n.line) for n in every if not n.ty} == set(TY_GAPS)


def test_every_negative_is_counted() -> None:
    found: dict[str, int] = {}
    for negative in negatives(CASES_DIR):
        found[negative.path] = found.get(negative.path, 0) + 1
    assert found == EXPECTED_NEGATIVES
    assert sum(EXPECTED_NEGATIVES.values()) == TOTAL_NEGATIVES


def test_every_mypy_only_line_is_counted() -> None:
    found: dict[str, int] = {}
    for line in mypy_only(CASES_DIR):
        found[line.path] = found.get(line.path, 0) + 1
    assert found == EXPECTED_MYPY_ONLY


@pytest.mark.parametrize(
    "path", case_files(CASES_DIR, "diff_"), ids=lambda p: p.relative_to(CASES_DIR).as_posix()
)
def test_checker_difference_case_shape(path: Path) -> None:
    """A `diff_*.py` line carries a mypy ignore only: pyright must accept it as it stands."""
    for line in path.read_text("utf-8").splitlines():
        if ANY_IGNORE.search(line):
            assert MYPY_ONLY_IGNORE.search(line) and "pyright:" not in line, line


def test_every_package_has_cases() -> None:
    folders = {p.name for p in CASES_DIR.iterdir() if p.is_dir() and p.name.endswith("_cases")}
    assert folders == {f"{package}_cases" for package in ROOTS}
    for folder in folders:
        assert case_files(CASES_DIR / folder, "pos_") == [], "cases sit one level down"
        assert case_files(CASES_DIR, "pos_"), folder
        assert list((CASES_DIR / folder).glob("pos_*.py")), f"{folder}: no positive case"


def test_positives_carry_no_ignore_comment() -> None:
    for path in [*case_files(CASES_DIR, "pos_"), *CASES_DIR.glob("*_cases/_*.py")]:
        assert not ANY_IGNORE.search(path.read_text("utf-8")), path


@pytest.mark.parametrize(
    "path", case_files(CASES_DIR, "neg_"), ids=lambda p: p.relative_to(CASES_DIR).as_posix()
)
def test_negative_case_shape(path: Path) -> None:
    """Every ignore comment carries the codes of pyright, and of mypy, pyrefly and ty unless
    the line is a gap of theirs (test_checker_gaps_are_exactly_the_negatives_without_their_comment);
    one negative per statement (every checker reports a statement's mistake on that line);
    document mistakes are made in the package's
    root TypedDict, and every non-mutation case makes its mistake in a document and a model."""
    text = path.read_text("utf-8")
    for line in text.splitlines():
        if ANY_IGNORE.search(line):
            assert IGNORES.search(line), line
    package = path.parent.name.removesuffix("_cases")
    rel = path.relative_to(CASES_DIR).as_posix()
    lines = {n.line for n in negatives(CASES_DIR) if n.path == rel}
    kinds = set()
    for stmt in statements(path):
        hits = negative_lines(stmt, lines)
        assert len(hits) <= 1, f"{path.name}:{stmt.lineno}: one negative per statement"
        if hits:
            root = document_root(stmt)
            assert root in (None, ROOTS[package]), f"{path.name}:{stmt.lineno}: {root}"
            kinds.add("document" if root else "model")
    if path.name.startswith(MUTATION_CASES):
        assert kinds == {"model"}
    else:
        assert kinds == {"document", "model"}, path.name


def strip_ignores(path: Path, keep: set[int], pattern: re.Pattern[str] = IGNORES) -> None:
    lines = path.read_text("utf-8").splitlines()
    for index, line in enumerate(lines):
        if index + 1 not in keep:
            lines[index] = pattern.sub("", line)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_the_harness_fails_when_it_should(built: Path, tmp_path: Path) -> None:
    """On a copy of the cases: with every ignore comment removed, each checker reports exactly
    the negatives (file, line, code) and nothing else, so each negative fails on its own line
    for its own reason; a negative whose mistake is corrected reports its now unused ignore;
    a negative carrying the wrong codes reports both the real error and the unused ignore.
    The mypy-only lines of `diff_*.py`, stripped too, are reported by mypy alone; the gaps of
    mypy, pyrefly and ty are reported by none of them."""
    cases = tmp_path / "cases"
    shutil.copytree(CASES_DIR, cases, ignore=shutil.ignore_patterns("__pycache__", ".*"))
    expected = negatives(cases)
    expected_mypy_only = mypy_only(cases)
    assert expected_mypy_only

    corrected = "xarray_v2_cases/neg_wrong_const_or_enum_literal.py"
    mistake = '{**DATASET, "zarr_format": 3}  # type: ignore'
    text = (cases / corrected).read_text("utf-8")
    assert text.count(mistake) == 1
    (cases / corrected).write_text(text.replace(mistake, mistake.replace("3", "2")))
    corrected_line = next(n for n in expected if n.path == corrected)
    assert corrected_line.mypy == {"typeddict-item"}

    miscoded = "xarray_v2_cases/neg_frozen_model.py"
    miscoded_line = next(n for n in expected if n.path == miscoded)
    assert miscoded_line.mypy == {"misc"}
    assert miscoded_line.pyright == "reportAttributeAccessIssue"
    assert miscoded_line.pyrefly == {"read-only"}
    assert miscoded_line.ty == {"invalid-assignment"}
    source = (cases / miscoded).read_text("utf-8").splitlines()
    source[miscoded_line.line - 1] = (
        source[miscoded_line.line - 1]
        .replace("ignore[misc]", "ignore[arg-type]")
        .replace("ignore[reportAttributeAccessIssue]", "ignore[reportArgumentType]")
        .replace("pyrefly: ignore[read-only]", "pyrefly: ignore[bad-argument-type]")
        .replace("ty: ignore[invalid-assignment]", "ty: ignore[invalid-argument-type]")
    )
    (cases / miscoded).write_text("\n".join(source) + "\n")

    kept = {corrected_line, miscoded_line}
    for path in case_files(cases, "neg_"):
        rel = path.relative_to(cases).as_posix()
        strip_ignores(path, {n.line for n in kept if n.path == rel})
    for path in case_files(cases, "diff_"):
        strip_ignores(path, set(), MYPY_ONLY_IGNORE)

    mypy = run_mypy(cases, built, tmp_path / "mypy_cache")
    assert mypy.returncode != 0
    want_mypy: dict[tuple[str, int], frozenset[str]] = {
        (n.path, n.line): n.mypy
        for n in [*expected, *expected_mypy_only]
        if n not in kept and n.mypy
    } | {
        (corrected, corrected_line.line): frozenset({"unused-ignore"}),
        (miscoded, miscoded_line.line): frozenset({"misc", "unused-ignore"}),
    }
    got_mypy: dict[tuple[str, int], set[str]] = {}
    for file, line, code in mypy_errors(mypy):
        got_mypy.setdefault((file, line), set()).add(code)
    # Exactly the codes written on each line: an ignore of a parent code also silences its
    # sub-codes (`typeddict-item` covers `typeddict-unknown-key`), so only this run, with the
    # ignores removed, tells a line written with the parent code apart.
    differ = {
        where: (got_mypy.get(where), want_mypy.get(where))
        for where in got_mypy.keys() | want_mypy.keys()
        if got_mypy.get(where) != want_mypy.get(where)
    }
    assert not differ, f"(got, want): {differ}\n{mypy.stdout}"

    config_dir = tmp_path / "pyright"
    config_dir.mkdir()
    pyright = run_pyright(cases, built, config_dir)
    assert pyright.returncode != 0
    got_pyright, _ = pyright_errors(pyright, cases)
    want_pyright = {(n.path, n.line, n.pyright) for n in expected if n not in kept} | {
        (corrected, corrected_line.line, "reportUnnecessaryTypeIgnoreComment"),
        (miscoded, miscoded_line.line, "reportAttributeAccessIssue"),
        (miscoded, miscoded_line.line, "reportUnnecessaryTypeIgnoreComment"),
    }
    assert got_pyright == want_pyright, pyright.stdout

    pyrefly = run_pyrefly_cases(cases, built)
    assert pyrefly.returncode != 0
    got_pyrefly = found(pyrefly_diagnostics(pyrefly), cases)
    want_pyrefly = {
        (n.path, n.line, code) for n in expected if n not in kept for code in n.pyrefly
    } | {
        (corrected, corrected_line.line, "unused-ignore"),
        (miscoded, miscoded_line.line, "read-only"),
        (miscoded, miscoded_line.line, "unused-ignore"),
    }
    assert got_pyrefly == want_pyrefly, (got_pyrefly ^ want_pyrefly, pyrefly.stdout)

    ty = run_ty_cases(cases, built)
    assert ty.returncode != 0
    got_ty = found(ty_diagnostics(ty), cases)
    want_ty = {(n.path, n.line, code) for n in expected if n not in kept for code in n.ty} | {
        (corrected, corrected_line.line, "unused-ignore-comment"),
        (miscoded, miscoded_line.line, "invalid-assignment"),
        (miscoded, miscoded_line.line, "unused-ignore-comment"),
    }
    assert got_ty == want_ty, (got_ty ^ want_ty, ty.stdout)
