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

import netCDF4
import numpy as np
import pytest
import zarr
from zomgen_runtime import validate_store
from zomgen_runtime.api import check_hierarchy
from zomgen_runtime.pointers import resolve_local_ref

from tests.support.cli import run_zomgen
from tests.support.node import HARNESS, require_toolchain, run_node
from tests.support.paths import ROOT
from zomgen.pipeline import Options, generate_package
from zomgen.targets.typescript.npm import NpmPackage
from zomgen.write import write_package

SCHEMA = ROOT / "tests" / "runtime" / "conventions" / "nczarr.json"
RULE = "x-zomgen-rules"
ATTRIBUTES = f"/$defs/TypedAttributes/{RULE}"


def _write_netcdf(path: Path) -> None:
    """A dataset as a netCDF user writes one: an unlimited and a fixed dimension at the root, a
    dimension declared two groups down, arrays that use dimensions of their own group and of
    the root, a scalar, and text, numeric and string-list attributes."""
    ds = netCDF4.Dataset(f"file://{path}#mode=nczarr,file", "w")
    ds.createDimension("time", None)
    ds.createDimension("lat", 3)
    ds.title = "rules in CEL"
    temperature = ds.createVariable("t", "f8", ("time", "lat"))
    temperature.units = "K"
    temperature.valid_range = np.array([150.0, 350.0])
    temperature[0:4, :] = np.full((4, 3), 280.0)
    counts = ds.createVariable("n", "i2", ("time",))
    counts.flag = np.int8(3)
    counts.names = ["a", "bb"]
    ds.createVariable("s", "i4", ()).assignValue(7)
    levels = ds.createGroup("forecast").createGroup("member1")
    levels.createDimension("lev", 2)
    pressure = levels.createVariable("p", "f4", ("lev", "lat"))
    pressure.long_name = "pressure"
    pressure[:] = np.ones((2, 3))
    ds.close()


def _attribute_without_type(root: zarr.Group) -> None:
    root["t"].attrs["comment"] = "added by another tool"


def _text_attribute_made_a_number(root: zarr.Group) -> None:
    root["t"].attrs["units"] = 273


def _axis_resized(root: zarr.Group) -> None:
    root["forecast/member1/p"].resize((2, 5))


def _dimension_dropped(root: zarr.Group) -> None:
    group = root["forecast/member1"]
    declared = dict(group.attrs["_nczarr_group"])
    declared["dimensions"] = {}
    group.attrs["_nczarr_group"] = declared


def _dimension_renamed_for_xarray(root: zarr.Group) -> None:
    root["t"].attrs["_ARRAY_DIMENSIONS"] = ["time", "latitude"]


def _array_added(root: zarr.Group) -> None:
    extra = root["forecast"].create_array("extra", shape=(3,), dtype="int8")
    extra.attrs.update(
        {
            "_nczarr_array": {"dimension_references": ["/lat"]},
            "_nczarr_attr": {"types": {"_nczarr_array": "|J0", "_nczarr_attr": "|J0"}},
        }
    )


def _scalar_given_an_axis(root: zarr.Group) -> None:
    root["s"].resize((2,))


def _reference_dropped(root: zarr.Group) -> None:
    array = dict(root["t"].attrs["_nczarr_array"])
    array["dimension_references"] = ["/time"]
    root["t"].attrs["_nczarr_array"] = array


GROUP_LISTS = f"/$defs/Group/{RULE}/0"
VARIABLE = f"/$defs/Variable/{RULE}"
# (what changed the store, its problems: node, pointer, schema path, message)
STORES: dict[str, tuple[Callable[[zarr.Group], None] | None, list[tuple[str, str, str, str]]]] = {
    "as netCDF wrote it": (None, []),
    "an attribute another tool added": (
        _attribute_without_type,
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
        _text_attribute_made_a_number,
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
        _axis_resized,
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
        _dimension_dropped,
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
        _dimension_renamed_for_xarray,
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
        _array_added,
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
        _scalar_given_an_axis,
        [("/s", "/shape", f"{VARIABLE}/1", "a scalar is stored as one value")],
    ),
    "a dimension reference dropped": (
        _reference_dropped,
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
        _write_netcdf(path)
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
