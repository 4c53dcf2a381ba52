"""Rules in CEL on a format zomgen bundles no convention for, as the finding of issue 56 was
made: NCZarr, the Zarr encoding of the netCDF-C library (tests/runtime/conventions/nczarr.json).
Its rules need the tree (a dimension reference is a path from the root), positions (axis i and
reference i), types (a dimension is an integer or {size, unlimited}; an attribute's value is of
its netCDF type), strings (paths split into group and name) and arithmetic (a scalar's one axis).

The stores are written by netCDF4-python, over the netCDF-C library, as netCDF users write them;
each broken one is such a store changed afterwards by zarr-python, as another tool would change
it. The Python loader and load.ts under Node give the same problems, each at its node."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import zarr
from zomgen_runtime import validate_store
from zomgen_runtime.api import check_hierarchy
from zomgen_runtime.pointers import resolve_local_ref

from tests.support.cli import run_zomgen
from tests.support.nczarr_stores import (
    array_added,
    attribute_without_type,
    axis_resized,
    dimension_dropped,
    dimension_renamed_for_xarray,
    reference_dropped,
    scalar_given_an_axis,
    text_attribute_made_a_number,
    write_netcdf,
)
from tests.support.node import HARNESS, require_toolchain, run_node
from tests.support.paths import ROOT
from zomgen.pipeline import Options, generate_package
from zomgen.targets.typescript.npm import NpmPackage
from zomgen.write import write_package

SCHEMA = ROOT / "tests" / "runtime" / "conventions" / "nczarr.json"
RULE = "x-zomgen-rules"
ATTRIBUTES = f"/$defs/TypedAttributes/{RULE}"


GROUP_LISTS = f"/$defs/Group/{RULE}/0"
VARIABLE = f"/$defs/Variable/{RULE}"
# (what changed the store, its problems: node, pointer, schema path, message)
STORES: dict[str, tuple[Callable[[zarr.Group], None] | None, list[tuple[str, str, str, str]]]] = {
    "as netCDF wrote it": (None, []),
    "an attribute another tool added": (
        attribute_without_type,
        [
            (
                "/t",
                "/attributes",
                f"{ATTRIBUTES}/0",
                "attributes without a type in _nczarr_attr.types: comment",
            )
        ],
    ),
    "a text attribute made a number": (
        text_attribute_made_a_number,
        [
            (
                "/t",
                "/attributes",
                f"{ATTRIBUTES}/1",
                "attributes whose value is not of their type: units (>S1)",
            )
        ],
    ),
    "an axis resized": (
        axis_resized,
        [
            (
                "/",
                "",
                f"/{RULE}/1",
                "axes of another length than their dimension: /forecast/member1/p",
            )
        ],
    ),
    "a dimension no longer declared": (
        dimension_dropped,
        [
            (
                "/",
                "",
                f"/{RULE}/0",
                "dimension references to no declared dimension: /forecast/member1/p -> /forecast/member1/lev",
            )
        ],
    ),
    "a dimension renamed for xarray": (
        dimension_renamed_for_xarray,
        [
            (
                "/t",
                "/attributes/_ARRAY_DIMENSIONS",
                f"{VARIABLE}/2",
                "_ARRAY_DIMENSIONS time, latitude names other dimensions than /time, /lat",
            )
        ],
    ),
    "an array the group does not list": (
        array_added,
        [
            (
                "/forecast",
                "/attributes/_nczarr_group",
                GROUP_LISTS,
                "arrays and groups not as _nczarr_group lists them: extra (not listed)",
            )
        ],
    ),
    "a scalar given a length": (
        scalar_given_an_axis,
        [("/s", "/shape", f"{VARIABLE}/1", "a scalar is stored as one value")],
    ),
    "a dimension reference dropped": (
        reference_dropped,
        [
            (
                "/t",
                "/attributes/_nczarr_array/dimension_references",
                f"{VARIABLE}/0",
                "one dimension reference per axis (a scalar has one axis and none)",
            ),
            (
                "/t",
                "/attributes/_ARRAY_DIMENSIONS",
                f"{VARIABLE}/2",
                "_ARRAY_DIMENSIONS time, lat names other dimensions than /time",
            ),
        ],
    ),
}


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("nczarr")
    found = {}
    for number, (name, (change, _problems)) in enumerate(STORES.items()):
        path = folder / f"{number}.zarr"
        write_netcdf(path)
        if change is not None:
            change(zarr.open_group(path, mode="r+", zarr_format=2))
        found[name] = path
    return found


def _rows(problems: list[Any]) -> list[tuple[str, str, str, str]]:
    return sorted(
        (p["node_path"], p["pointer"], p["schema_path"], p["message"])
        if isinstance(p, dict)
        else (p.node_path, p.pointer, p.schema_path, p.message)
        for p in problems
    )


def _wanted() -> dict[str, list[tuple[str, str, str, str]]]:
    return {name: sorted(problems) for name, (_change, problems) in STORES.items()}


def test_netcdf_writes_what_the_rules_read(stores: dict[str, Path]) -> None:
    """The valid store holds what each rule is about, as the C library wrote it: an unlimited
    dimension ({size, unlimited}), a reference two groups down, a scalar, typed attributes."""
    store = stores["as netCDF wrote it"]
    root = json.loads((store / ".zattrs").read_text("utf-8"))
    assert root["_nczarr_group"]["dimensions"] == {"time": {"size": 4, "unlimited": 1}, "lat": 3}
    pressure = json.loads((store / "forecast" / "member1" / "p" / ".zattrs").read_text("utf-8"))
    assert pressure["_nczarr_array"]["dimension_references"] == ["/forecast/member1/lev", "/lat"]
    scalar = json.loads((store / "s" / ".zattrs").read_text("utf-8"))
    assert scalar["_ARRAY_DIMENSIONS"] == ["_scalar_"] and scalar["_nczarr_array"]["scalar"] == 1
    counts = json.loads((store / "n" / ".zattrs").read_text("utf-8"))
    assert counts["_nczarr_attr"]["types"]["flag"] == "<i1"
    assert counts["_nczarr_attr"]["types"]["names"].startswith("|S")


def _bundled() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(
        generate_package(Options(SCHEMA, (), python=False)).files["schema.json"]
    )
    return schema


def test_the_python_loader_gives_each_stores_problems(stores: dict[str, Path]) -> None:
    schema = _bundled()
    problems = {name: validate_store(store, schema) for name, store in stores.items()}
    assert {name: _rows(found) for name, found in problems.items()} == _wanted()
    for problem in (p for found in problems.values() for p in found):
        # JSON output names the rule: its text as the bundled schema holds it
        entry = resolve_local_ref(schema, "#" + problem.schema_path)
        assert problem.to_json()["rule"] == entry["rule"]


@pytest.mark.node
def test_load_ts_gives_the_same_problems(stores: dict[str, Path], tmp_path: Path) -> None:
    require_toolchain()
    package = tmp_path / "packages" / "nczarr"
    generated = generate_package(Options(SCHEMA, (), npm=NpmPackage("nczarr"), python=False))
    write_package(generated.files, package)
    (tmp_path / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    shutil.copy(HARNESS / "loader_twins.mjs", tmp_path / "loader_twins.mjs")
    jobs = [
        {"package": str(package), "store": str(store), "kind": "path", "options": {}}
        for store in stores.values()
    ]
    results = run_node(tmp_path / "loader_twins.mjs", jobs)
    found = {name: _rows(r["problems"]) for name, r in zip(stores, results, strict=True)}
    assert found == _wanted()
    schema = _bundled()
    for problem in (p for r in results for p in r["problems"]):
        assert problem["rule"] == resolve_local_ref(schema, "#" + problem["schema_path"])["rule"]


def test_zomgen_cases_names_the_rule_it_cannot_satisfy(tmp_path: Path) -> None:
    """The synthesiser reads no CEL: without an example, `zomgen cases` stops at the first rule
    its smallest hierarchy breaks, naming it by its text, and writes nothing."""
    out = tmp_path / "cases"
    result = run_zomgen("cases", str(SCHEMA), "-o", str(out))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    rule = json.loads(SCHEMA.read_text("utf-8"))[RULE][0]["rule"]
    assert result.stderr.startswith(
        f"zomgen: {SCHEMA}:/{RULE}/0: no valid hierarchy can be synthesised: the rule {rule} "
        "refuses the synthesised value at document pointer /"
    ), result.stderr
    assert not out.exists()


def test_zomgen_cases_starts_from_a_store_netcdf_wrote(
    stores: dict[str, Path], tmp_path: Path
) -> None:
    """With the valid store's document as the schema's example, `zomgen cases` derives its
    cases; the report lists every place with rules as checked at run time only, and names a
    union option no hierarchy holding it could be built for, with the rule that refused it."""
    document = check_hierarchy(stores["as netCDF wrote it"], {}).document
    schema = json.loads(SCHEMA.read_text("utf-8")) | {"examples": [document]}
    path = tmp_path / "nczarr.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    result = run_zomgen("cases", str(path), "-o", str(tmp_path / "cases"), "--report")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("agreement report: convention (NCZarrDataset, examples)")
    listed = result.stdout.split("checked only at run time (Python and TypeScript):\n")[1]
    run_time_only = listed.split("\n\n")[0].splitlines()
    places = ("#", "#/$defs/Group", "#/$defs/Variable", "#/$defs/TypedAttributes")
    for place in places:
        assert f"  {place}/{RULE}  {RULE}" in run_time_only
    assert "no valid hierarchy with it: the rule nodes.all(" in result.stdout


def test_zomgen_validate_names_the_rule_in_json(stores: dict[str, Path]) -> None:
    valid = run_zomgen("validate", str(stores["as netCDF wrote it"]), "--schema", str(SCHEMA))
    assert valid.returncode == 0, valid.stdout + valid.stderr
    store = stores["an attribute another tool added"]
    result = run_zomgen("validate", str(store), "--schema", str(SCHEMA), "--format", "json")
    assert result.returncode == 1, result.stderr
    (problem,) = json.loads(result.stdout)["problems"]
    rule = json.loads(SCHEMA.read_text("utf-8"))["$defs"]["TypedAttributes"][RULE][0]["rule"]
    assert problem == {
        "node_path": "/t",
        "pointer": "/attributes",
        "message": "attributes without a type in _nczarr_attr.types: comment",
        "keyword": RULE,
        "schema_path": f"{ATTRIBUTES}/0",
        "rule": rule,
    }
