"""A rule that iterates past the budget of a rule's evaluation: Google's CEL engine (the
Python run time) stops a program at the 10,000th step of its macros' loops, nested ones counted
together, and lets no caller change that; the TypeScript run time counts the same steps and
stops there too (iterations.ts). Neither can say whether such a rule holds, so the place is not
checked: never "valid", never a problem of the hierarchy, in Python, `zomgen validate` and
load.ts alike (docs/extra-checks.md, "Rules in CEL": the budget)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import zarr
from zomgen_runtime import NotFullyChecked, validate_store
from zomgen_runtime.api import check_hierarchy
from zomgen_runtime.rules import RULE_BUDGET

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
    f"the rule {RULE} was not evaluated: it takes 10,000 iterations or more, the budget of a "
    "rule's evaluation"
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
        ("/", WORDS, RULE_BUDGET)
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
    assert [u["reason"] for u in report["unchecked"]] == [RULE_BUDGET]


@pytest.mark.node
def test_load_ts_stops_at_the_same_budget(folder: Path, tmp_path: Path) -> None:
    """load.ts counts the steps Google's engine counts: 99 members (9,801 steps and the outer
    99) are evaluated, a clash found; 101 are not, and the place is not checked, in the same
    words; `namedMembersOnly` does not accept it."""
    require_toolchain()
    convention = _convention(folder)
    package = tmp_path / "packages" / "case_safe"
    write_package(
        generate_package(Options(convention, (), npm=NpmPackage("case-safe"), python=False)).files,
        package,
    )
    (tmp_path / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    shutil.copy(HARNESS / "loader_twins.mjs", tmp_path / "loader_twins.mjs")
    small, clash, large = (
        _store(tmp_path / "small.zarr", 99),
        _store(tmp_path / "clash.zarr", 98, clash=True),
        _store(tmp_path / "large.zarr", 101),
    )
    jobs = [
        {"package": str(package), "store": str(store), "kind": "path", "options": options}
        for store, options in (
            (small, {}),
            (clash, {}),
            (large, {}),
            (large, {"namedMembersOnly": True}),
        )
    ]
    found = run_node(tmp_path / "loader_twins.mjs", jobs)
    assert found[0]["problems"] == []
    assert [(p["node_path"], p["message"], p["rule"]) for p in found[1]["problems"]] == [
        ("/", MESSAGE, RULE)
    ]
    for result in found[2:]:
        error = result["storeError"]
        assert error["name"] == "NotFullyChecked" and error["problems"] == []
        assert [(u["node_path"], u["message"], u["reason"]) for u in error["unchecked"]] == [
            ("/", WORDS, RULE_BUDGET)
        ]
