"""The CF grid conventions (schemas/cf-grid-v2, schemas/cf-grid-v3) on stores xarray writes with
`to_zarr` (Zarr v2 and v3, consolidated or not), through the checked-in generated packages:
valid stores load, and each store broken on purpose the way CF forbids (a `grid_mapping`
naming a variable that does not exist, `coordinates` naming nothing, a `bounds` variable that
is missing, a bad `axis`, a malformed `standard_name`...) gives exactly the expected problems,
each at the faulty variable and attribute. Python and the TypeScript runtime agree on each."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import check_document, read_document

from tests.support.node import run_node
from tests.support.packages import import_package
from tests.support.runtime import ROOT, bundled

FORMATS = [(2, True), (2, False), (3, True), (3, False)]
# zarr-python warns that consolidated metadata is not part of the v3 spec (xarray writes it)
pytestmark = pytest.mark.filterwarnings("ignore:Consolidated metadata")
KIND = "x-zomgen-member-kind"


def _package(version: int) -> Any:
    return import_package(ROOT / "generated", f"cf_grid_v{version}")


def _dataset() -> Any:
    """A CF grid: air temperature on a projected (y, x) grid over time, with 2-d latitude and
    longitude as auxiliary coordinates, x bounds and a grid-mapping variable `crs`."""
    np = pytest.importorskip("numpy")
    xr = pytest.importorskip("xarray")
    temperature = {
        "units": "K",
        "standard_name": "air_temperature",
        "long_name": "Air temperature",
        "grid_mapping": "crs",
        "cell_methods": "time: mean",
    }
    return xr.Dataset(
        {
            "temp": (("time", "y", "x"), np.zeros((2, 3, 4), "float32"), temperature),
            "crs": ((), np.int32(0), {"grid_mapping_name": "transverse_mercator"}),
            "x_bnds": (("x", "nv"), np.zeros((4, 2))),
        },
        coords={
            "time": ("time", [0, 1], {"units": "hours since 2000-01-01", "axis": "T"}),
            "y": ("y", [10.0, 20.0, 30.0], {"units": "m", "axis": "Y"}),
            "x": (
                "x",
                np.arange(4.0),
                {"units": "m", "standard_name": "projection_x_coordinate", "bounds": "x_bnds"},
            ),
            "lat": (("y", "x"), np.zeros((3, 4)), {"units": "degrees_north"}),
            "lon": (("y", "x"), np.zeros((3, 4)), {"units": "degrees_east"}),
        },
        attrs={"Conventions": "CF-1.11", "title": "a CF grid written by xarray"},
    )


def _write(path: Path, version: int, consolidated: bool) -> Path:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zarr's warnings about v3 string and consolidation
        _dataset().to_zarr(path, zarr_format=version, consolidated=consolidated, mode="w")
    return path


def _set_attribute(store: Path, consolidated: bool, variable: str, key: str, value: Any) -> None:
    """Change one attribute with zarr-python, as another tool would, then consolidate again."""
    zarr = pytest.importorskip("zarr")
    group = zarr.open_group(str(store), mode="r+", use_consolidated=False)
    node = group if variable == "" else group[variable]
    node.attrs[key] = value
    if consolidated:
        zarr.consolidate_metadata(str(store))


def test_xarray_writes_the_expected_attributes(tmp_path: Path) -> None:
    store = _write(tmp_path / "cf.zarr", 2, True)
    attributes = json.loads((store / "temp" / ".zattrs").read_text("utf-8"))
    # xarray moves auxiliary coordinates into `coordinates`: the check has something to read
    assert attributes["coordinates"] == "lat lon" and attributes["grid_mapping"] == "crs"


@pytest.mark.parametrize(("version", "consolidated"), FORMATS)
def test_a_store_written_by_xarray_loads(tmp_path: Path, version: int, consolidated: bool) -> None:
    store = _write(tmp_path / "cf.zarr", version, consolidated)
    package = _package(version)
    assert package.validate(store) == []
    dataset = package.load(store)
    assert sorted(dataset.members) == ["crs", "lat", "lon", "temp", "time", "x", "x_bnds", "y"]
    temp = dataset.members["temp"]
    assert temp.attributes.grid_mapping == "crs" and temp.attributes.units == "K"
    assert temp.attributes.standard_name == "air_temperature"
    assert dataset.attributes.Conventions == "CF-1.11"


Break = Callable[[Path, bool], None]


def _attr(variable: str, key: str, value: Any) -> Break:
    return lambda store, consolidated: _set_attribute(store, consolidated, variable, key, value)


# (name, how the store is broken, the expected (node, pointer, keyword) of each problem)
BROKEN: list[tuple[str, Break, set[tuple[str, str, str]]]] = [
    (
        "grid_mapping names a variable that does not exist",
        _attr("temp", "grid_mapping", "crs_utm"),
        {("/temp", "/attributes/grid_mapping", KIND)},
    ),
    (
        "coordinates names nothing",
        _attr("temp", "coordinates", "lat height"),
        {("/temp", "/attributes/coordinates", KIND)},
    ),
    (
        "bounds names a missing variable",
        _attr("x", "bounds", "x_bounds"),
        {("/x", "/attributes/bounds", KIND)},
    ),
    (
        "ancillary_variables names nothing",
        _attr("temp", "ancillary_variables", "temp_error"),
        {("/temp", "/attributes/ancillary_variables", KIND)},
    ),
    ("an axis CF does not know", _attr("y", "axis", "Q"), {("/y", "/attributes/axis", "enum")}),
    (
        "a standard name with characters CF forbids",
        _attr("temp", "standard_name", "air-temperature!"),
        {("/temp", "/attributes/standard_name", "pattern")},
    ),
    (
        "units that are not a string",
        _attr("temp", "units", 1),
        {("/temp", "/attributes/units", "type")},
    ),
    (
        "a Conventions attribute without CF-<version>",
        _attr("", "Conventions", "CF1.11"),
        {("/", "/attributes/Conventions", "pattern")},
    ),
    (
        # not supported: refused by the pattern, and its text names no variable
        "the extended grid_mapping form",
        _attr("temp", "grid_mapping", "crs: x y"),
        {
            ("/temp", "/attributes/grid_mapping", "pattern"),
            ("/temp", "/attributes/grid_mapping", KIND),
        },
    ),
    (
        "a calendar CF does not know",
        _attr("time", "calendar", "martian"),
        {("/time", "/attributes/calendar", "enum")},
    ),
]


@pytest.mark.parametrize(("version", "consolidated"), FORMATS)
@pytest.mark.parametrize(("name", "breaking", "expected"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_store_names_the_variable_and_attribute(
    tmp_path: Path,
    version: int,
    consolidated: bool,
    name: str,
    breaking: Break,
    expected: set[tuple[str, str, str]],
) -> None:
    store = _write(tmp_path / "cf.zarr", version, consolidated)
    breaking(store, consolidated)
    problems = _package(version).validate(store)
    assert {(p.node_path, p.pointer, p.keyword) for p in problems} == expected, name
    assert len(problems) == len(expected)


def test_the_messages_name_what_is_missing(tmp_path: Path) -> None:
    store = _write(tmp_path / "cf.zarr", 3, False)
    _set_attribute(store, False, "temp", "coordinates", "lat height")
    (problem,) = _package(3).validate(store)
    assert problem.message == "'height' names no member of the group that holds this array"


def test_dimension_names_must_match_the_dimensions(tmp_path: Path) -> None:
    """xarray's own rule, kept by the CF conventions: one dimension name per axis."""
    for version in (2, 3):
        store = _write(tmp_path / f"v{version}.zarr", version, False)
        if version == 2:
            _set_attribute(store, False, "lat", "_ARRAY_DIMENSIONS", ["y"])
            expected = ("/lat", "/attributes/_ARRAY_DIMENSIONS", "x-zomgen-ndim-length")
        else:
            meta = store / "lat" / "zarr.json"
            document = json.loads(meta.read_text("utf-8"))
            document["dimension_names"] = ["y"]
            meta.write_text(json.dumps(document), "utf-8")
            expected = ("/lat", "/dimension_names", "x-zomgen-ndim-length")
        problems = _package(version).validate(store)
        assert [(p.node_path, p.pointer, p.keyword) for p in problems] == [expected]


@pytest.mark.node
def test_typescript_gives_the_same_problems(runtime: Path, tmp_path: Path) -> None:
    """Every store above, valid and broken, as a document under validate.ts's runtime."""
    jobs: list[tuple[int, list[Any]]] = []
    for version in (2, 3):
        documents = []
        for i, (_name, breaking, _expected) in enumerate([("valid", None, None), *BROKEN]):
            store = _write(tmp_path / f"v{version}-{i}.zarr", version, False)
            if breaking is not None:
                breaking(store, False)
            document, problems = read_document(store)
            assert problems == [] and document is not None
            documents.append(document)
        jobs.append((version, documents))
    schemas = {v: bundled(ROOT / "schemas" / f"cf-grid-v{v}" / "schema.json") for v in (2, 3)}
    payload = [{"schema": json.dumps(schemas[v]), "documents": docs} for v, docs in jobs]
    results = run_node(runtime / "harness" / "verdicts.mjs", payload)
    compared = 0
    for (version, documents), job in zip(jobs, results, strict=True):
        for document, result in zip(documents, job, strict=True):
            python = check_document(copy.deepcopy(document), schemas[version])
            # messages of JSON Schema's own keywords are each engine's; zomgen's are the same
            rows = sorted(
                (p.node_path, p.pointer, p.keyword, p.message if "x-zomgen" in p.keyword else "")
                for p in python
            )
            typescript = sorted(
                (
                    p["node_path"],
                    p["pointer"],
                    p["keyword"],
                    p["message"] if "x-zomgen" in p["keyword"] else "",
                )
                for p in result["problems"]
            )
            assert (result["valid"], typescript) == (not python, rows)
            compared += 1
    assert compared == 2 * (len(BROKEN) + 1)
