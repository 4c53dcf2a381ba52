"""`x-zomgen-rules` on a convention of a format the bundled ones do not cover: netCDF-style
variables with named, declared dimensions (tests/runtime/conventions/netcdf-dimensions.json),
whose rules need member names as values, membership, positions (`indices`) and strings. Stores written by
zarr-python, valid and broken each way, checked by the Python loader and by load.ts under Node:
the same problems, each at its node with its message. A rule that is not CEL is refused when
the convention is built, at its file and pointer, with the place in the rule. The cases both
run times share are runtime/cases/rules.json (tests/runtime/test_shared_cases.py)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import zarr
from zomgen_runtime import validate_store

from tests.support.cli import run_zomgen
from tests.support.node import HARNESS, require_toolchain, run_node
from tests.support.paths import ROOT
from zomgen.pipeline import Options, generate_package
from zomgen.targets.typescript.npm import NpmPackage
from zomgen.write import write_package

SCHEMA = ROOT / "tests" / "runtime" / "conventions" / "netcdf-dimensions.json"
RULE = "x-zomgen-rules"


def _store(path: Path, change: Callable[[zarr.Group], None] | None = None) -> Path:
    root = zarr.open_group(path, mode="w", zarr_format=3)
    root.attrs["dimensions"] = {"time": 2, "lat": 3}
    t = root.create_array("t", shape=(2,), dtype="float64")
    t[:] = np.arange(2.0)
    t.attrs["dims"] = ["time"]
    v = root.create_array("v", shape=(2, 3), dtype="int16")
    v.attrs.update({"dims": ["time", "lat"], "refers_to": "/t"})
    if change is not None:
        change(root)
    return path


def _undeclared(root: zarr.Group) -> None:
    root["v"].attrs["dims"] = ["time", "lev"]


def _wrong_length(root: zarr.Group) -> None:
    root.create_array("w", shape=(5,), dtype="int8").attrs["dims"] = ["lat"]


def _axes_swapped(root: zarr.Group) -> None:
    """Both dimensions declared and used, each axis as long as the other's: only a rule that
    pairs `shape[i]` with `dims[i]` sees it."""
    del root["v"]
    root.create_array("v", shape=(3, 2), dtype="int16").attrs["dims"] = ["time", "lat"]


def _one_name_short(root: zarr.Group) -> None:
    root["v"].attrs["dims"] = ["time"]


def _dangling(root: zarr.Group) -> None:
    root["v"].attrs["refers_to"] = "/nothing"


# (store, its problems: node, pointer, schema path, message)
STORES: dict[str, tuple[Callable[[zarr.Group], None] | None, list[tuple[str, str, str, str]]]] = {
    "valid": (None, []),
    "an undeclared dimension": (
        _undeclared,
        [("/", "", f"/{RULE}/0", "undeclared dimensions: lev")],
    ),
    "an axis of another length": (
        _wrong_length,
        [("/", "", f"/{RULE}/1", "each axis has the length its dimension declares")],
    ),
    "axes of each other's lengths": (
        _axes_swapped,
        [("/", "", f"/{RULE}/1", "each axis has the length its dimension declares")],
    ),
    "a dimension name short": (
        _one_name_short,
        [("/v", "/attributes/dims", f"/$defs/Variable/{RULE}/0", "one dimension name per axis")],
    ),
    "a reference to no member": (
        _dangling,
        [("/", "", f"/{RULE}/2", "refers_to names a member of this group, as /name")],
    ),
}


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("rule_stores")
    return {
        name: _store(root / f"{number}.zarr", change)
        for number, (name, (change, _problems)) in enumerate(STORES.items())
    }


def _rows(problems: list[Any]) -> list[tuple[str, str, str, str]]:
    return sorted(
        (p["node_path"], p["pointer"], p["schema_path"], p["message"])
        if isinstance(p, dict)
        else (p.node_path, p.pointer, p.schema_path, p.message)
        for p in problems
    )


def test_the_python_loader_gives_each_stores_problems(stores: dict[str, Path]) -> None:
    schema = json.loads(generate_package(Options(SCHEMA, (), python=False)).files["schema.json"])
    found = {name: _rows(validate_store(store, schema)) for name, store in stores.items()}
    assert found == {name: sorted(problems) for name, (_change, problems) in STORES.items()}
    for problems in found.values():
        assert all(p[2].endswith(tuple(f"/{RULE}/{i}" for i in range(3))) for p in problems)


@pytest.mark.node
def test_load_ts_gives_the_same_problems(stores: dict[str, Path], tmp_path: Path) -> None:
    require_toolchain()
    package = tmp_path / "packages" / "netcdf"
    generated = generate_package(Options(SCHEMA, (), npm=NpmPackage("netcdf"), python=False))
    write_package(generated.files, package)
    (tmp_path / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    shutil.copy(HARNESS / "loader_twins.mjs", tmp_path / "loader_twins.mjs")
    jobs = [
        {"package": str(package), "store": str(store), "kind": "path", "options": {}}
        for store in stores.values()
    ]
    results = run_node(tmp_path / "loader_twins.mjs", jobs)
    found = {name: _rows(r["problems"]) for name, r in zip(stores, results, strict=True)}
    assert found == {name: sorted(problems) for name, (_change, problems) in STORES.items()}
    assert all(p["keyword"] == RULE for r in results for p in r["problems"])


def test_the_readme_lists_the_rules_as_run_time_checks() -> None:
    readme = generate_package(Options(SCHEMA, (), python=True)).files["README.md"]
    for place in (f"`#/{RULE}`", f"`#/$defs/Variable/{RULE}`"):
        assert f"| {place} | `{RULE}` |" in readme


def test_a_rule_that_is_not_cel_is_refused_where_it_stands(tmp_path: Path) -> None:
    schema = json.loads(SCHEMA.read_text("utf-8"))
    schema[RULE][0]["rule"] = "self.members.all(v, "
    schema[RULE][1]["messageExpression"] = "nope(self)"
    variable = schema["$defs"]["Variable"]
    variable[RULE][0]["severity"] = "warning"
    # a property named like the keyword is a property, not rules
    variable["properties"]["attributes"]["properties"][RULE] = {"type": "integer"}
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    out = tmp_path / "out"
    result = run_zomgen("build", str(path), "-o", str(out))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and not out.exists()
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 3, result.stderr
    assert lines[0].startswith(f"zomgen: {path}:/{RULE}/0/rule: {RULE}: the rule ")
    assert "is not CEL that compiles: 1:21: Syntax error" in lines[0]
    assert lines[1].startswith(f"zomgen: {path}:/{RULE}/1/messageExpression: {RULE}: ")
    assert "1:5: undeclared reference to 'nope'" in lines[1]
    assert lines[2] == (
        f"zomgen: {path}:/$defs/Variable/{RULE}/0: {RULE}: unknown key 'severity' (a rule has "
        "fieldPath, message, messageExpression, reason, rule)"
    )


def test_a_rule_only_the_python_engine_reads_is_refused(tmp_path: Path) -> None:
    """What cel-expr-python compiles and @marcbachmann/cel-js refuses would pass in Python and
    be malformed in TypeScript: the build refuses it, so a package's rules run in both. The
    same text inside a string literal is no code, and passes."""
    schema = json.loads(SCHEMA.read_text("utf-8"))
    schema[RULE] = [
        {"rule": "self.members.all(v, !has(self.members[v].attributes.refers_to))"},
        {"rule": "self.attributes.name.replace('-', '_') != ''"},
        {"rule": "'has(a[0]).replace(' != ''"},
    ]
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    result = run_zomgen("build", str(path), "-o", str(tmp_path / "out"))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert [line.split(": ", 3)[1] for line in lines] == [
        f"{path}:/{RULE}/0/rule",
        f"{path}:/{RULE}/1/rule",
    ], result.stderr
    assert lines[0].endswith(
        "uses has() of a selection below an index, which the TypeScript run time's CEL cannot "
        "read: write 'key' in map"
    )
    assert lines[1].endswith("uses replace(), which the TypeScript run time's CEL does not have")


def test_a_rule_is_type_checked_against_what_its_schema_says_of_self(tmp_path: Path) -> None:
    """Where the subschema pins `self`'s type, the build type-checks each rule and message with
    it; where it does not (a node's schema), `self` is dyn and nothing more is refused."""
    dims: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
    lengths: dict[str, Any] = {"type": "object", "additionalProperties": {"type": "integer"}}
    dims[RULE] = [{"rule": "self.all(d, d > 0)"}, {"rule": "self.all(d, d.size() > 0)"}]
    lengths[RULE] = [
        {"rule": "self.all(k, self[k] >= 1)", "messageExpression": "self.size()"},
        {
            "rule": "self.all(k, self[k] >= 1)",
            "messageExpression": "'lengths: ' + keys(self).join(', ')",
        },
    ]
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Typed",
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "properties": {"attributes": {"properties": {"dims": dims, "lengths": lengths}}},
        RULE: [{"rule": "self.attributes.dims.size() > 0 || self.size() > 2"}],
    }
    path = tmp_path / "typed.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    result = run_zomgen("build", str(path), "-o", str(tmp_path / "out"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    attributes = "/properties/attributes/properties"
    assert result.stderr.splitlines() == [
        (
            f"zomgen: {path}:{attributes}/dims/{RULE}/0/rule: {RULE}: the rule "
            "'self.all(d, d > 0)' does not type-check with `self` a list(string), as the schema "
            "here says: 1:15: found no matching overload for '_>_' applied to '(string, int)'"
        ),
        (
            f"zomgen: {path}:{attributes}/lengths/{RULE}/0/messageExpression: {RULE}: the "
            "messageExpression 'self.size()' gives a value of type int, not string"
        ),
    ]
