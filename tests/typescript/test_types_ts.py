"""The TypeScript of every package under tsc --strict --exactOptionalPropertyTypes: every file
compiles, and the TypeScript type-check cases reject exactly the mistakes they name.

A negative is `// @ts-expect-error TSxxxx why` above the line that must fail. tsc alone only
says that *some* error happened there (facts.md), so the checker runs tsc twice: as written (no
error may remain, and a directive whose line stops failing is TS2578), and with the directives
disabled, where every error must stand on a directive's line with the directive's code, and
every directive's line must fail.

The cases mirror typecheck_cases/python file for file (docs/typecheck-cases.md): each Python
`neg_*.py` has its `neg_*.ts` twin making the same document mistakes under the same names, and
each of those is also refused at run time by the package's validate.ts at the same (node path,
pointer) the Python twin names (`DOCUMENT_TWINS` of tests/support/typecheck_cases.py); mutations of
what `parse` returns throw TypeError.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.cli import build_package
from tests.support.node import HARNESS, compile_typescript, link_node_modules, run_node
from tests.support.paths import CASES, ROOT
from tests.support.typecheck_cases import DOCUMENT_TWINS

pytestmark = [pytest.mark.checkers, pytest.mark.node, pytest.mark.slow]

TSC = ROOT / "node_modules" / ".bin" / "tsc"
TS_CASES = ROOT / "typecheck_cases" / "typescript"
BUILT = {"named_members": "named-members", "tagged_union": "oneof-tagged-union"}
DIRECTIVE = re.compile(r"//\s*@ts-expect-error\s+(TS\d+)\b")
ERROR = re.compile(r"^(?P<file>.+?)\((?P<line>\d+),\d+\): error (?P<code>TS\d+):")
# Directives per case file, so that a deleted case is noticed.
EXPECTED_NEGATIVES = {
    "named_members_cases/neg_frozen_model.ts": 3,
    "named_members_cases/neg_group_where_array_must_be.ts": 2,
    "named_members_cases/neg_missing_named_member.ts": 2,
    "named_members_cases/neg_missing_required_attribute.ts": 1,
    "named_members_cases/neg_unknown_key_on_closed_object.ts": 2,
    "named_members_cases/neg_wrong_const_or_enum_literal.ts": 2,
    "named_members_cases/neg_wrong_data_type.ts": 1,
    "tagged_union_cases/neg_frozen_model.ts": 3,
    "tagged_union_cases/neg_missing_required_attribute.ts": 1,
    "tagged_union_cases/neg_unknown_key_on_closed_object.ts": 2,
    "tagged_union_cases/neg_wrong_tag_literal.ts": 1,
    "xarray_v2_cases/neg_frozen_model.ts": 3,
    "xarray_v2_cases/neg_group_where_array_must_be.ts": 1,
    "xarray_v2_cases/neg_missing_required_attribute.ts": 1,
    "xarray_v2_cases/neg_mutate_members_mapping.ts": 1,
    "xarray_v2_cases/neg_unknown_key_on_closed_object.ts": 1,
    "xarray_v2_cases/neg_wrong_const_or_enum_literal.ts": 2,
    "xarray_v3_cases/neg_frozen_model.ts": 2,
    "xarray_v3_cases/neg_group_where_array_must_be.ts": 2,
    "xarray_v3_cases/neg_missing_dimension_names.ts": 1,
    "xarray_v3_cases/neg_mutate_members_mapping.ts": 2,
    "xarray_v3_cases/neg_null_dimension_name.ts": 1,
    "xarray_v3_cases/neg_unknown_key_on_closed_object.ts": 2,
    "xarray_v3_cases/neg_wrong_const_or_enum_literal.ts": 2,
}


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


def _project(folder: Path, include: list[str]) -> Path:
    config = folder / "tsconfig.json"
    settings = {"extends": (ROOT / "tsconfig.json").as_posix(), "include": include}
    config.write_text(json.dumps(settings), encoding="utf-8")
    return config


def test_every_package_typescript_compiles(tmp_path: Path) -> None:
    schemas = sorted((ROOT / "schemas").glob("*/schema.json")) + sorted(
        case / "schema.json"
        for case in CASES.iterdir()
        if not case.name.startswith("bad-") and (case / "schema.json").exists()
    )
    for schema in schemas:
        build_package(schema, tmp_path / schema.parent.name.replace("-", "_"))
    link_node_modules(tmp_path)  # validate.ts imports ajv, as in an app that installed it
    result = _tsc(_project(tmp_path, ["*/*.ts", "*/_runtime_ts/*.ts"]))
    assert result.returncode == 0, result.stdout + result.stderr
    assert len(list(tmp_path.glob("*/validate.ts"))) == len(schemas)


@pytest.fixture(scope="module")
def ts_cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("ts_cases")
    shutil.copytree(TS_CASES, work, dirs_exist_ok=True)
    packages = work / "packages"
    for name in ("xarray_v2", "xarray_v3"):
        shutil.copytree(ROOT / "generated" / name, packages / name)
    for name, case in BUILT.items():
        build_package(CASES / case / "schema.json", packages / name)
    link_node_modules(work)
    _project(work, ["*_cases/*.ts", "_expect.ts"])
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
    shutil.copytree(ts_cases, tmp_path / "w", symlinks=True)
    work = tmp_path / "w"
    expected = _directives(work)
    counts: dict[str, int] = {}
    for file, _line in expected:
        name = Path(file).relative_to(work.resolve()).as_posix()
        counts[name] = counts.get(name, 0) + 1
    assert counts == EXPECTED_NEGATIVES  # a deleted case is noticed
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
    shutil.copytree(ts_cases, tmp_path / "w", symlinks=True)
    case = tmp_path / "w" / "tagged_union_cases" / "neg_unknown_key_on_closed_object.ts"
    case.write_text(case.read_text("utf-8").replace("TS2353", "TS2322"))
    work = tmp_path / "w"
    expected = _directives(work)
    for path in work.glob("*_cases/*.ts"):
        path.write_text(path.read_text("utf-8").replace("@ts-expect-error", "expect-error"))
    errors = _errors(_tsc(work / "tsconfig.json").stdout, work)
    assert any(code not in errors.get(where, set()) for where, code in expected.items())


# ---------------------------------------------------------------- twins of the Python cases

PY_CASES = ROOT / "typecheck_cases" / "python"
ROOT_TYPES = {
    "xarray_v2": "XarrayDataset",
    "xarray_v3": "XarrayDataset",
    "named_members": "Image",
    "tagged_union": "Transformed",
}
ROOT_DOCUMENT = re.compile(r"^export const (\w+): (\w+) =")
FUNCTION = re.compile(r"^export function (\w+)\(\)")
MUTATIONS = ("neg_frozen_", "neg_mutate_")


def _package(path: Path) -> str:
    return path.parent.name.removesuffix("_cases")


def _root_documents(path: Path, *, negative: bool) -> list[str]:
    """The exports annotated with the package's root type: the negatives (right below a
    directive) or the positives (every other one)."""
    found: list[str] = []
    previous = ""
    for line in path.read_text("utf-8").splitlines():
        match = ROOT_DOCUMENT.match(line)
        is_root = match is not None and match[2] == ROOT_TYPES[_package(path)]
        if match and is_root and ("@ts-expect-error" in previous) == negative:
            found.append(match[1])
        previous = line
    return found


def _functions(path: Path) -> list[str]:
    return [m[1] for line in path.read_text("utf-8").splitlines() if (m := FUNCTION.match(line))]


def _case_files(prefix: str) -> list[Path]:
    return sorted(TS_CASES.glob(f"*_cases/{prefix}*.ts"))


def test_every_python_negative_has_its_typescript_twin() -> None:
    python = {
        p.relative_to(PY_CASES).with_suffix("").as_posix() for p in PY_CASES.glob("*/neg_*.py")
    }
    typescript = {p.relative_to(TS_CASES).with_suffix("").as_posix() for p in _case_files("neg_")}
    assert python == typescript
    documents = {
        (p.relative_to(TS_CASES).with_suffix(".py").as_posix(), name)
        for p in _case_files("neg_")
        for name in _root_documents(p, negative=True)
    }
    assert documents == set(DOCUMENT_TWINS)  # the same mistakes, under the same names
    for path in _case_files("neg_"):
        count = EXPECTED_NEGATIVES[path.relative_to(TS_CASES).as_posix()]
        if path.name.startswith(MUTATIONS):  # one mutation per function, run by the twin test
            assert len(_functions(path)) == count, path.name
        else:
            assert len(_root_documents(path, negative=True)) == count, path.name


def test_typescript_cases_have_run_time_twins(ts_cases: Path, tmp_path: Path) -> None:
    work = tmp_path / "w"
    shutil.copytree(ts_cases, work, symlinks=True)
    out = compile_typescript(work, ["*_cases/*.ts", "_expect.ts"])
    jobs: list[dict[str, object]] = []
    for path in sorted(TS_CASES.glob("*_cases/*.ts")):
        rel = path.relative_to(TS_CASES)
        negative = path.name.startswith("neg_")
        jobs.append(
            {
                "module": str(out / rel.with_suffix(".js")),
                "package": str(out / "packages" / _package(path) / "validate.js"),
                "documents": _root_documents(path, negative=negative),
                "functions": _functions(path) if path.name.startswith(MUTATIONS) else [],
                "rel": rel.with_suffix(".py").as_posix(),
                "negative": negative,
            }
        )
    results = run_node(HARNESS / "twins.mjs", jobs)
    checked = 0
    for job, result in zip(jobs, results, strict=True):
        for name, problems in result["documents"].items():
            where = [(p["node_path"], p["pointer"]) for p in problems]
            if job["negative"]:
                assert DOCUMENT_TWINS[str(job["rel"]), name] in where, (job["rel"], name, where)
            else:
                assert where == [], (job["rel"], name, where)
            checked += 1
        for name, thrown in result["functions"].items():
            assert thrown is not None and thrown["isTypeError"], (job["rel"], name, thrown)
            checked += 1
    assert checked >= len(DOCUMENT_TWINS) + sum(
        EXPECTED_NEGATIVES[p.relative_to(TS_CASES).as_posix()]
        for p in _case_files("neg_")
        if p.name.startswith(MUTATIONS)
    )


# ---------------------------------------------------------------- in an app's own project

APP_SETTINGS = [
    ("nodenext", "nodenext", "module"),  # Node, ES modules
    ("nodenext", "nodenext", "commonjs"),  # Node, CommonJS
    ("preserve", "bundler", "module"),  # a bundler
]


@pytest.mark.parametrize(("module", "resolution", "kind"), APP_SETTINGS)
def test_a_package_compiles_and_runs_under_an_apps_module_settings(
    tmp_path: Path, module: str, resolution: str, kind: str
) -> None:
    """An app's own tsconfig, not the project's: the package's TypeScript compiles under the
    module settings apps use, and the emitted validate.js runs under Node."""
    shutil.copytree(ROOT / "generated" / "xarray_v3", tmp_path / "xarray_v3")
    link_node_modules(tmp_path)
    (tmp_path / "package.json").write_text(json.dumps({"type": kind}), encoding="utf-8")
    options = {
        "strict": True,
        "exactOptionalPropertyTypes": True,
        "noUncheckedIndexedAccess": True,
        "types": [],
        "skipLibCheck": True,
        "module": module,
        "moduleResolution": resolution,
        "target": "es2022",
        "outDir": "out",
        "rootDir": ".",
    }
    config = {
        "compilerOptions": options,
        "include": ["xarray_v3/*.ts", "xarray_v3/_runtime_ts/*.ts"],
    }
    (tmp_path / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    result = _tsc(tmp_path / "tsconfig.json")
    assert result.returncode == 0, result.stdout + result.stderr
    shutil.copyfile(tmp_path / "package.json", tmp_path / "out" / "package.json")
    script = (
        "import(process.argv[1]).then((m) => console.log(JSON.stringify("
        "[m.validate({}).length > 0, m.isXarrayDataset({zarr_format: 3, node_type: 'group',"
        " attributes: {}, members: {}})])))"
    )
    run = subprocess.run(
        ["node", "-e", script, (tmp_path / "out" / "xarray_v3" / "validate.js").as_uri()],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [True, True]
