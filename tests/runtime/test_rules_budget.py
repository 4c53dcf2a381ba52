"""A rule that iterates past the Python CEL engine's budget: cel-expr-python stops a program
after 10,000 iterations of its comprehensions (nested ones count together) and lets no caller
raise that. Python cannot say whether such a rule holds, so the place is not checked: never
"valid", never a problem of the hierarchy. The TypeScript engine has no such budget and
evaluates it (docs/extra-checks.md, "Rules in CEL": the budget)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import zarr
from zomgen_runtime import NotFullyChecked, validate_store
from zomgen_runtime.api import check_hierarchy
from zomgen_runtime.rules import OVER_BUDGET

from tests.support.cli import run_zomgen
from tests.support.node import HARNESS, require_toolchain, run_node
from tests.support.paths import ROOT
from zomgen.pipeline import Options, generate_package
from zomgen.targets.typescript.npm import NpmPackage
from zomgen.write import write_package

# Quadratic, as a real rule may be: names that differ only in case clash on macOS and Windows.
RULE = "self.members.all(a, self.members.all(b, a == b || a.lowerAscii() != b.lowerAscii()))"
MESSAGE = "no two members whose names differ only in case"
WORDS = (
    f"the rule {RULE} was not evaluated: it iterates more than 10,000 times, the most the "
    "Python run time's CEL engine allows"
)


def _convention(folder: Path) -> Path:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "CaseSafeGroup",
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "x-zomgen-rules": [{"rule": RULE, "message": MESSAGE}],
    }
    path = folder / "case-safe.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    return path


def _store(path: Path, members: int, clash: bool = False) -> Path:
    root = zarr.open_group(path, mode="w", zarr_format=3)
    for index in range(members):
        root.create_group(f"g{index}")
    if clash:
        root.create_group("G0")
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("budget")


def test_under_the_budget_the_rule_is_evaluated(folder: Path) -> None:
    """99 members: 9,801 iterations. Valid, then a clash found."""
    schema = json.loads(generate_package(Options(_convention(folder), ())).files["schema.json"])
    assert validate_store(_store(folder / "small.zarr", 99), schema) == []
    (problem,) = validate_store(_store(folder / "clash.zarr", 98, clash=True), schema)
    assert (problem.node_path, problem.message, problem.rule) == ("/", MESSAGE, RULE)


def test_past_the_budget_the_place_is_not_checked(folder: Path) -> None:
    """101 members: 10,201 iterations. Not valid and not invalid: not fully checked, in the
    Python API and in `zomgen validate` (exit 3, the rule named)."""
    convention = _convention(folder)
    schema = json.loads(generate_package(Options(convention, ())).files["schema.json"])
    store = _store(folder / "large.zarr", 101)
    checked = check_hierarchy(store, schema)
    assert checked.problems == []
    assert [(u.node_path, u.message, u.reason) for u in checked.unchecked] == [
        ("/", WORDS, OVER_BUDGET)
    ]
    with pytest.raises(NotFullyChecked) as raised:
        validate_store(store, schema)
    assert raised.value.unchecked == checked.unchecked
    # accepting groups that cannot be listed does not accept a rule left unevaluated
    with pytest.raises(NotFullyChecked):
        validate_store(store, schema, named_members_only=True)
    result = run_zomgen("validate", str(store), "--schema", str(convention), "--format", "json")
    assert result.returncode == 3, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["status"] == "not fully checked" and report["problems"] == []
    assert [u["reason"] for u in report["unchecked"]] == [OVER_BUDGET]


@pytest.mark.node
def test_load_ts_evaluates_what_python_cannot(folder: Path, tmp_path: Path) -> None:
    require_toolchain()
    convention = _convention(folder)
    package = tmp_path / "packages" / "case_safe"
    write_package(
        generate_package(Options(convention, (), npm=NpmPackage("case-safe"), python=False)).files,
        package,
    )
    (tmp_path / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    shutil.copy(HARNESS / "loader_twins.mjs", tmp_path / "loader_twins.mjs")
    stores = [_store(tmp_path / "large.zarr", 101), _store(tmp_path / "clash.zarr", 101, True)]
    jobs = [
        {"package": str(package), "store": str(s), "kind": "path", "options": {}} for s in stores
    ]
    large, clash = run_node(tmp_path / "loader_twins.mjs", jobs)
    assert large["problems"] == []
    assert [(p["node_path"], p["message"], p["rule"]) for p in clash["problems"]] == [
        ("/", MESSAGE, RULE)
    ]
