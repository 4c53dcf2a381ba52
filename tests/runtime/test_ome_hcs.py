"""The bundled OME-NGFF high-content-screening and bioformats2raw conventions
(schemas/ome-ngff-0{4,5}-{plate,well,bf2raw}) against the community's own material, the
reference writer, and ome-zarr-models.

- The OME-NGFF 0.4 and 0.5 plate and well suites and the plate, well, bf2raw and OME-group
  examples: each attributes document becomes a whole node, with the members it lists (a plate's
  wells at their paths, each a valid well with a valid field; a well's fields, each a valid
  image; a bioformats2raw collection's series), so that only what the document says can be
  wrong; the convention's verdict equals the suite's, in Python and under Node with the same
  problems. The agreement counts and every departure (with its reason) are asserted.
- Real plates written by ome-zarr-py (the reference writer, `write_plate_metadata`,
  `write_well_metadata`, `write_image`, `write_labels`) for 0.4 and 0.5, valid and broken on
  purpose in the ways the spec forbids and the schema alone cannot see, read by the generated
  packages: every verdict right, every problem at the faulty node and key.
- ome-zarr-models (`HCS`, `Well`, `BioFormats2Raw` `.from_zarr`) on the same stores: where it
  agrees and where it does not, each difference pinned with its reason.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import ome_zarr_models.v04
import ome_zarr_models.v05
import pytest
import zarr
from ome_zarr import format as ome_format
from ome_zarr import writer
from zomgen_runtime import Problem, check_document

from tests.support.corpus_cases import MANIFEST, read_json
from tests.support.node import run_node
from tests.support.packages import import_package
from tests.support.runtime import CORPUS, ROOT, bundled, v2_array, v3_array
from zomgen.catalog.declarations import Matcher
from zomgen.catalog.dispatch import check_declared
from zomgen.catalog.entries import load_catalogs

warnings.filterwarnings("ignore", category=UserWarning)  # zarr: v3 consolidation is not in the spec

VERSIONS = ("0.4", "0.5")
KINDS = ("plate", "well", "bf2raw")
# The plain suites. The strict ones (strict_plate_suite, strict_well_suite) are left out, as
# strict_label is in test_ome.py: their invalid cases are about the strict schemas'
# extra requirements (a plate's `name`, an acquisition's `maximumfieldcount`), which conventions
# built on the plain schemas do not make.
SUITES = {"plate_suite": "plate", "well_suite": "well"}
# Example folder -> the convention its documents are checked with.
EXAMPLES = {"plate_strict": "plate", "well_strict": "well", "bf2raw": "bf2raw", "ome": "bf2raw"}


def _folder(version: str, kind: str) -> str:
    return f"ome-ngff-{version.replace('.', '')}-{kind}"


def _schema(version: str, kind: str) -> dict[str, Any]:
    return bundled(ROOT / "schemas" / _folder(version, kind) / "schema.json")


# ---------------------------------------------------------------- suite documents as nodes


def _group(version: str, attributes: Any, members: dict[str, Any]) -> dict[str, Any]:
    if version == "0.5":
        return {
            "zarr_format": 3,
            "node_type": "group",
            "attributes": attributes,
            "members": members,
        }
    return {"zarr_format": 2, "attributes": attributes, "members": members}


def _ome(version: str, key: str, value: Any) -> dict[str, Any]:
    return {"ome": {"version": "0.5", key: value}} if version == "0.5" else {key: value}


def _image(version: str) -> dict[str, Any]:
    """A valid single-level image (what a writer that follows the spec stores as a field)."""
    axes = [{"name": "y", "type": "space"}, {"name": "x", "type": "space"}]
    multiscale: dict[str, Any] = {
        "axes": axes,
        "datasets": [
            {"path": "0", "coordinateTransformations": [{"type": "scale", "scale": [1, 1]}]}
        ],
    }
    if version == "0.5":
        level = v3_array([1, 1], dimension_names=["y", "x"])
        return _group(version, _ome(version, "multiscales", [multiscale]), {"0": level})
    multiscale["version"] = "0.4"
    return _group(version, {"multiscales": [multiscale]}, {"0": v2_array([1, 1], attributes={})})


def _well(version: str, paths: list[str]) -> dict[str, Any]:
    images = [{"path": p} for p in paths]
    return _group(
        version, _ome(version, "well", {"images": images}), {p: _image(version) for p in paths}
    )


def _unwrapped(attributes: Any, version: str) -> Any:
    return (
        attributes.get("ome") if version == "0.5" and isinstance(attributes, dict) else attributes
    )


NAME = re.compile(r"^[A-Za-z0-9]+$")


def _plate_node(attributes: Any, version: str) -> dict[str, Any]:
    """A plate with the attributes, and a valid well (with one field) at every listed path of
    the form `row/column` (the only paths the spec allows; others name nothing)."""
    members: dict[str, Any] = {}
    plate = _unwrapped(attributes, version)
    plate = plate.get("plate") if isinstance(plate, dict) else None
    wells = plate.get("wells") if isinstance(plate, dict) else None
    for well in wells if isinstance(wells, list) else []:
        path = well.get("path") if isinstance(well, dict) else None
        parts = path.split("/") if isinstance(path, str) else []
        if len(parts) == 2 and all(NAME.match(p) for p in parts):
            row = members.setdefault(parts[0], _group(version, {}, {}))
            row["members"][parts[1]] = _well(version, ["0"])
    return _group(version, attributes, members)


def _well_node(attributes: Any, version: str) -> dict[str, Any]:
    """A well with the attributes, and a valid image at every listed field path."""
    well = _unwrapped(attributes, version)
    well = well.get("well") if isinstance(well, dict) else None
    images = well.get("images") if isinstance(well, dict) else None
    paths = (
        [i.get("path") for i in images if isinstance(i, dict)] if isinstance(images, list) else []
    )
    members = {p: _image(version) for p in paths if isinstance(p, str) and NAME.match(p)}
    return _group(version, attributes, members)


def _bf2raw_node(attributes: Any, version: str) -> dict[str, Any]:
    """A bioformats2raw collection with the attributes and one image `0`."""
    return _group(version, attributes, {"0": _image(version)})


def _ome_group_node(attributes: Any, version: str) -> dict[str, Any]:
    """A bioformats2raw collection whose `OME` group has the attributes, with an image at every
    series path."""
    series = _unwrapped(attributes, version)
    series = series.get("series") if isinstance(series, dict) else None
    paths = [s for s in series if isinstance(s, str)] if isinstance(series, list) else []
    root = _ome(version, "bioformats2raw.layout", 3)
    members: dict[str, Any] = {p: _image(version) for p in paths}
    members["OME"] = _group(version, attributes, {})
    return _group(version, root, members)


def suite_cases() -> Iterator[tuple[str, str, str, dict[str, Any], bool]]:
    """(label, version, convention kind, whole node document, the suite's verdict)."""
    for version in VERSIONS:
        folder = CORPUS / "ome-ngff" / version
        for name, kind in SUITES.items():
            for index, test in enumerate(read_json(folder / "tests" / f"{name}.json")["tests"]):
                data = test["data"]
                document = (
                    _plate_node(data, version) if kind == "plate" else _well_node(data, version)
                )
                yield (
                    f"{version}/tests/{name}#{index}",
                    version,
                    kind,
                    document,
                    bool(test["valid"]),
                )
        for rel, entry in MANIFEST.items():
            parts = rel.split("/")
            if parts[1] != version or parts[2] != "examples" or parts[3] not in EXAMPLES:
                continue
            if "expected_valid" not in entry:
                continue
            data = read_json(CORPUS / rel)
            if "validate .attributes" in (entry.get("notes") or ""):
                data = data["attributes"]
            kind = EXAMPLES[parts[3]]
            if parts[3] == "ome":
                document = _ome_group_node(data, version)
            elif kind == "plate" or parts[-1] == "plate.json":
                # bf2raw/plate.json: the layout key beside `plate` makes it a plate (the spec:
                # "takes precedence"), so the plate convention reads it.
                kind = "plate"
                document = _plate_node(data, version)
            elif kind == "well":
                document = _well_node(data, version)
            else:
                document = _bf2raw_node(data, version)
            yield rel, version, kind, document, bool(entry["expected_valid"])


SUITE_CASES = list(suite_cases())
# Where zomgen's verdict departs from the suite's, and why (schemas/README.md, "Upstream defects").
_COLUMN_FIRST = "its well path is column/row: rows [1], columns [A], path A/1 (0.5 fixed the data)"
DEPARTURES = {
    # The 0.4 spec: "The `path` MUST consist of a `name` in the `rows` list, a file separator
    # (`/`), and a `name` from the `columns` list, in that order", and rowIndex, columnIndex and
    # path "MUST all refer to the same row/column pair". These valid cases name the column
    # first; the 0.5 suite swapped their rows and columns to fix exactly that.
    "0.4/tests/plate_suite#0": _COLUMN_FIRST,
    "0.4/tests/plate_suite#1": _COLUMN_FIRST,
    "0.4/tests/plate_suite#20": "rows [A1], columns [A], path A/A1: column first",
}
# The agreement: version -> (cases, cases whose verdict equals the suite's).
EXPECTED_COUNTS = {"0.4": (44, 41), "0.5": (43, 43)}


def test_suites_and_examples_agree_in_python() -> None:
    counts: dict[str, list[int]] = {v: [0, 0] for v in VERSIONS}
    differ: dict[str, list[Problem]] = {}
    for label, version, kind, document, expected in SUITE_CASES:
        problems = check_document(document, _schema(version, kind))
        counts[version][0] += 1
        if (not problems) != expected:
            differ[label] = problems
        else:
            counts[version][1] += 1
    assert set(differ) == set(DEPARTURES), differ
    assert {v: tuple(c) for v, c in counts.items()} == EXPECTED_COUNTS
    for label in DEPARTURES:  # each departure is the path rule, and nothing else
        assert {p.keyword for p in differ[label]} == {"x-zomgen-equal"}, differ[label]


def test_the_case_upstream_cannot_express_is_caught() -> None:
    """0.5 `well_path_has_column_before_row`: upstream's runner xfails it (no schema can say
    it); the plate convention's `x-zomgen-equal` rule rejects it, at the well's path."""
    (document,) = [
        d
        for label, version, _k, d, _e in SUITE_CASES
        if version == "0.5" and label == "0.5/tests/plate_suite#30"
    ]
    problems = check_document(document, _schema("0.5", "plate"))
    assert [(p.node_path, p.pointer, p.keyword) for p in problems] == [
        ("/", "/attributes/ome/plate/wells/0/path", "x-zomgen-equal")
    ], problems
    # the message names the keys the path is checked against
    assert problems[0].message == (
        "'1/A' does not equal 'A/1', the join of "
        "/attributes/ome/plate/rows/{/attributes/ome/plate/wells/*/rowIndex}/name and "
        "/attributes/ome/plate/columns/{/attributes/ome/plate/wells/*/columnIndex}/name with '/'"
    )


# Where dispatching by declarations departs from naming the convention, and why.
# The suites' invalid cases the catalog judges for another reason than the schema named
# outright (label -> the verdict and the reason kind: a problem's keyword, or why not checked).
NOT_CHECKED_BY_THE_CATALOG = {
    # Version "foo": never an OME-Zarr version, a problem at its pointer.
    "0.4/tests/plate_suite#18": ("invalid", "ome-zarr version"),
    "0.4/tests/well_suite#4": ("invalid", "ome-zarr version"),
    # 0.5 cases whose `well` is not under `ome`: they declare no OME-Zarr at all.
    "0.5/tests/well_suite#2": ("not fully checked", "nothing declared"),
    "0.5/tests/well_suite#3": ("not fully checked", "nothing declared"),
    "0.5/tests/well_suite#4": ("not fully checked", "nothing declared"),
}


def test_suites_and_examples_agree_through_the_catalog() -> None:
    """`zomgen validate STORE` without `--schema`: each case's node is checked by the
    conventions it declares, with the problems of the convention named outright. A plate
    that is also a bioformats2raw collection is checked as a plate: the spec says the plate
    "takes precedence and parsing of such datasets should follow" it."""
    matcher = Matcher(load_catalogs([]))
    differ: dict[str, list[Problem]] = {}
    for label, version, kind, document, expected in SUITE_CASES:
        report = check_declared(document, matcher)
        if label in NOT_CHECKED_BY_THE_CATALOG:
            status, why = NOT_CHECKED_BY_THE_CATALOG[label]
            assert (report.status, expected, "/" in report.nodes) == (status, False, False), label
            kinds = [p.keyword for p in report.problems if p.node_path == "/"]
            assert kinds + [u.reason for u in report.unchecked] == [why], label
            continue
        assert [a.entry.name for a in report.nodes["/"]] == [f"ome-ngff-0{version[-1]}-{kind}"]
        if report.valid != expected:
            differ[label] = report.problems
        assert _rows(report.problems) == _rows(check_document(document, _schema(version, kind)))
    assert set(differ) == set(DEPARTURES), differ


def _rows(problems: list[Problem] | list[dict[str, str]]) -> list[tuple[str, str, str, str]]:
    rows = [p if isinstance(p, dict) else p.to_json() for p in problems]
    return sorted((p["node_path"], p["pointer"], p["keyword"], p["schema_path"]) for p in rows)


@pytest.mark.node
def test_suites_and_examples_agree_under_node(runtime: Path) -> None:
    jobs = [(v, k) for v in VERSIONS for k in KINDS]
    payload = [
        {
            "schema": json.dumps(_schema(v, k)),
            "documents": [d for _l, ver, kind, d, _e in SUITE_CASES if (ver, kind) == (v, k)],
        }
        for v, k in jobs
    ]
    results = run_node(runtime / "harness" / "verdicts.mjs", payload)
    seen = 0
    for (v, k), job in zip(jobs, results, strict=True):
        cases = [(label, d, e) for label, ver, kind, d, e in SUITE_CASES if (ver, kind) == (v, k)]
        for (label, document, expected), result in zip(cases, job, strict=True):
            assert result["valid"] is (expected and label not in DEPARTURES), label
            python = check_document(copy.deepcopy(document), _schema(v, k))
            assert _rows(result["problems"]) == _rows(python), label
            seen += 1
    assert seen == len(SUITE_CASES) == sum(n for n, _a in EXPECTED_COUNTS.values())


# ---------------------------------------------------------------- ome-zarr-py's stores


def _package(version: str, kind: str) -> Any:
    """The checked-in generated package of the convention."""
    return import_package(ROOT / "generated", _folder(version, kind).replace("-", "_"))


def _fmt(version: str) -> Any:
    return ome_format.FormatV04() if version == "0.4" else ome_format.FormatV05()


ROWS, COLUMNS = ["A", "B"], ["1", "2", "3"]
WELLS = ["A/1", "A/3", "B/2"]
FIELDS = ["0", "1"]


def _write_field(group: Any, version: str, levels: int = 2) -> None:
    """A field of view (c, y, x) of `levels` levels, with a label image `cells` of as many."""
    factors = (2, 4)[: levels - 1]
    writer.write_image(
        np.zeros((2, 16, 16), "uint16"), group, axes="cyx", fmt=_fmt(version), scale_factors=factors
    )
    writer.write_labels(
        np.zeros((2, 16, 16), "uint8"),
        group,
        name="cells",
        axes="cyx",
        fmt=_fmt(version),
        scaler=None,
        scale_factors=factors,
    )


def _write_plate(store: Path, version: str) -> None:
    """A sparse 2 x 3 plate of three wells, two fields each (one per acquisition), written by
    ome-zarr-py as its documentation shows (plate metadata, then each well's, then each field's
    image and label)."""
    root = zarr.open_group(store, mode="w", zarr_format=2 if version == "0.4" else 3)
    writer.write_plate_metadata(
        root,
        ROWS,
        COLUMNS,
        WELLS,
        fmt=_fmt(version),
        name="screen",
        field_count=len(FIELDS),
        acquisitions=[
            {"id": i, "name": f"acquisition {i}", "maximumfieldcount": 1}
            for i in range(len(FIELDS))
        ],
    )
    for path in WELLS:
        row, column = path.split("/")
        well = root.require_group(row).require_group(column)
        writer.write_well_metadata(
            well, [{"path": f, "acquisition": i} for i, f in enumerate(FIELDS)], fmt=_fmt(version)
        )
        for field in FIELDS:
            _write_field(well.require_group(field), version)


def _attributes_path(node: Path, version: str) -> Path:
    return node / (".zattrs" if version == "0.4" else "zarr.json")


def _edit(node: Path, version: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Change a node's OME metadata in place, as a careless tool would."""
    path = _attributes_path(node, version)
    document = json.loads(path.read_text("utf-8"))
    attributes = document if version == "0.4" else document["attributes"]
    change(attributes if version == "0.4" else attributes["ome"])
    path.write_text(json.dumps(document), "utf-8")


def _fewer_label_levels(store: Path, version: str) -> None:
    """Field A/3/1's label `cells` rewritten by ome-zarr-py with one level (its image has two)."""
    shutil.rmtree(store / "A" / "3" / "1" / "labels")
    field = zarr.open_group(store / "A" / "3" / "1", mode="r+")
    writer.write_labels(
        np.zeros((2, 16, 16), "uint8"),
        field,
        name="cells",
        axes="cyx",
        fmt=_fmt(version),
        scaler=None,
        scale_factors=(),
    )


def _ome_key(version: str) -> str:
    return "" if version == "0.4" else "/ome"


Where = set[tuple[str, str, str]]
Breakage = Callable[[Path, str], None]
# (name, how the store is broken, the expected (node, pointer, keyword) of every problem)
BROKEN: list[tuple[str, Breakage, Callable[[str], Where]]] = [
    (
        "a well path naming nothing",
        lambda s, v: _edit(
            s, v, lambda a: a["plate"]["wells"][2].update(path="B/3", columnIndex=2)
        ),
        lambda v: {("/", f"/attributes{_ome_key(v)}/plate/wells/2/path", "x-zomgen-member-kind")},
    ),
    (
        "a field missing",
        lambda s, v: shutil.rmtree(s / "B" / "2" / "1"),
        lambda v: {
            ("/B/2", f"/attributes{_ome_key(v)}/well/images/1/path", "x-zomgen-member-kind")
        },
    ),
    (
        "a rowIndex that disagrees with the well's path",
        lambda s, v: _edit(s, v, lambda a: a["plate"]["wells"][1].update(rowIndex=1)),
        lambda v: {("/", f"/attributes{_ome_key(v)}/plate/wells/1/path", "x-zomgen-equal")},
    ),
    (
        "a columnIndex that disagrees with the well's path",
        lambda s, v: _edit(s, v, lambda a: a["plate"]["wells"][0].update(columnIndex=1)),
        lambda v: {("/", f"/attributes{_ome_key(v)}/plate/wells/0/path", "x-zomgen-equal")},
    ),
    (
        "a label listed but missing",
        lambda s, v: shutil.rmtree(s / "A" / "1" / "0" / "labels" / "cells"),
        lambda v: {("/A/1/0/labels", f"/attributes{_ome_key(v)}/labels/0", "x-zomgen-member-kind")},
    ),
    (
        "a label with a different number of levels",
        _fewer_label_levels,
        lambda v: {
            (
                "/A/3/1/labels/cells",
                f"/attributes{_ome_key(v)}/multiscales/0/datasets",
                "x-zomgen-equal-length",
            )
        },
    ),
    (
        "a rowIndex beyond the rows",
        lambda s, v: _edit(s, v, lambda a: a["plate"]["wells"][0].update(rowIndex=7)),
        lambda v: {("/", f"/attributes{_ome_key(v)}/plate/wells/0/rowIndex", "x-zomgen-reaches")},
    ),
    (
        "a field's acquisition the plate does not list",
        lambda s, v: _edit(
            s / "A" / "1", v, lambda a: a["well"]["images"][1].update(acquisition=9)
        ),
        lambda v: {("/A/1", f"/attributes{_ome_key(v)}/well/images/1/acquisition", "x-zomgen-in")},
    ),
    (
        "two fields sharing a path",
        lambda s, v: _edit(s / "A" / "1", v, lambda a: a["well"]["images"][1].update(path="0")),
        lambda v: {("/A/1", f"/attributes{_ome_key(v)}/well/images/1/path", "x-zomgen-unique-by")},
    ),
]


@pytest.fixture(scope="module")
def plates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One plate per version, written once; each test copies it before breaking it."""
    folder = tmp_path_factory.mktemp("plates")
    written = {}
    for version in VERSIONS:
        store = folder / f"plate{version}.zarr"
        _write_plate(store, version)
        written[version] = store
    return written


def _copy(plates: dict[str, Path], version: str, tmp_path: Path) -> Path:
    store = tmp_path / "plate.zarr"
    shutil.copytree(plates[version], store)
    return store


@pytest.mark.parametrize("version", VERSIONS)
def test_ome_zarr_py_plates_are_valid(plates: dict[str, Path], version: str) -> None:
    store = plates[version]
    plate_package = _package(version, "plate")
    assert plate_package.validate(store) == []
    plate = plate_package.load(store)
    assert sorted(plate.members) == ROWS
    assert sorted(plate.members["A"].members) == ["1", "3"]
    well = plate.members["B"].members["2"]
    assert sorted(well.members) == FIELDS
    assert sorted(well.members["1"].members) == ["labels", "s0", "s1"]
    # a well, and a field, read alone by their own conventions
    assert _package(version, "well").validate(store / "B" / "2") == []
    assert _package(version, "well").load(store / "B" / "2").members.keys() == well.members.keys()
    assert _package(version, "image").validate(store / "B" / "2" / "1") == []


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(("name", "breakage", "expected"), BROKEN, ids=[b[0] for b in BROKEN])
def test_ome_zarr_py_plates_broken_on_purpose(
    plates: dict[str, Path],
    tmp_path: Path,
    version: str,
    name: str,
    breakage: Breakage,
    expected: Callable[[str], Where],
) -> None:
    store = _copy(plates, version, tmp_path)
    breakage(store, version)
    problems = _package(version, "plate").validate(store)
    assert {(p.node_path, p.pointer, p.keyword) for p in problems} == expected(version), problems
    for problem in problems:
        assert problem.message


# ---------------------------------------------------------------- bioformats2raw


def _write_bf2raw(store: Path, version: str, series: list[str] | None) -> None:
    """A bioformats2raw collection of two images `0`, `1` (each written by ome-zarr-py), its
    top-level and `OME` group metadata written with zarr-python as bioformats2raw writes them."""
    root = zarr.open_group(store, mode="w", zarr_format=2 if version == "0.4" else 3)
    layout = {"bioformats2raw.layout": 3}
    root.attrs.update(layout if version == "0.4" else {"ome": {"version": "0.5", **layout}})
    ome = root.require_group("OME")
    if series is not None:
        ome.attrs.update(
            {"series": series}
            if version == "0.4"
            else {"ome": {"version": "0.5", "series": series}}
        )
    for name in ("0", "1"):
        writer.write_image(
            np.zeros((2, 16, 16), "uint16"),
            root.require_group(name),
            axes="cyx",
            fmt=_fmt(version),
            scale_factors=(2,),
        )


@pytest.mark.parametrize("version", VERSIONS)
def test_bf2raw_collections(tmp_path: Path, version: str) -> None:
    package = _package(version, "bf2raw")
    store = tmp_path / "series.ome.zarr"
    _write_bf2raw(store, version, ["0", "1"])
    assert package.validate(store) == []
    collection = package.load(store)
    assert sorted(collection.members) == ["0", "1", "OME"]
    # the layout key is what makes the collection; 0.4's bf2raw.schema leaves it optional, the
    # convention requires it (the spec's MUST)
    _edit(store, version, lambda a: a.pop("bioformats2raw.layout"))
    problems = package.validate(store)
    at = "/attributes" if version == "0.4" else "/attributes/ome"
    assert {(p.node_path, p.pointer, p.keyword) for p in problems} == {("/", at, "required")}
    # a series the `OME` group lists but the collection lacks
    _write_bf2raw(store, version, ["0", "1"])
    _edit(store / "OME", version, lambda a: a["series"].append("2"))
    problems = package.validate(store)
    assert {(p.node_path, p.pointer, p.keyword) for p in problems} == {
        ("/OME", f"{at}/series/2", "x-zomgen-reaches")
    }
    # an image whose dataset path names nothing: the image convention's rule, inside the layout
    _write_bf2raw(store, version, ["0", "1"])
    _edit(store / "1", version, lambda a: a["multiscales"][0]["datasets"][1].update(path="s7"))
    problems = package.validate(store)
    assert {(p.node_path, p.pointer, p.keyword) for p in problems} == {
        ("/1", f"{at}/multiscales/0/datasets/1/path", "x-zomgen-member-kind")
    }
    # an `OME` group without `series`: the spec says it MAY have one, but the 0.5 ome.schema
    # requires it (vendored as published), and the 0.4 convention does too (schemas/README.md)
    _write_bf2raw(store, version, None)
    problems = package.validate(store)
    assert {(p.node_path, p.pointer, p.keyword) for p in problems} == {
        ("/OME", "/attributes", "required")
    }


# ---------------------------------------------------------------- ome-zarr-models


def _models(store: Path, version: str) -> str | None:
    """ome-zarr-models' verdict on a plate: None if `HCS.from_zarr` accepts it, else the
    first line of its error."""
    module = ome_zarr_models.v04 if version == "0.4" else ome_zarr_models.v05
    try:
        module.HCS.from_zarr(zarr.open_group(store, mode="r"))
    except Exception as error:  # noqa: BLE001 - pydantic, ValueError and RuntimeError alike
        return f"{type(error).__name__}: {str(error).splitlines()[0]}"
    return None


def _stamp_labels_version(store: Path) -> None:
    """Give every 0.5 labels group the `ome.version` ome-zarr-py 0.18 leaves out."""
    for path in sorted(store.rglob("labels/zarr.json")):
        document = json.loads(path.read_text("utf-8"))
        document["attributes"]["ome"]["version"] = "0.5"
        path.write_text(json.dumps(document), "utf-8")


VALID = "valid"
CASES: dict[str, Breakage] = {
    VALID: lambda s, v: None,
    **{name: breakage for name, breakage, _e in BROKEN},
}
LABELS_VERSION = "ValidationError: 1 validation error for LabelsAttrs"
ACQUISITION = "ValidationError: 1 validation error for HCS"
# (version, labels stamped) -> case -> ome-zarr-models' verdict (None: accepted), where it
# differs from zomgen's, with the reason.
MODELS: dict[tuple[str, bool], dict[str, str | None]] = {
    # ome-zarr-models 1.7's v04 HCS reads the plate and the wells' metadata, but neither opens
    # the groups the plate or a well lists nor follows a field's labels: it accepts every
    # breakage but one, an acquisition the plate does not list, which zomgen rejects too.
    ("0.4", False): {
        **{name: None for name in CASES},
        "a field's acquisition the plate does not list": ACQUISITION,
    },
    # v05 requires `ome.version` in the labels group, which ome-zarr-py 0.18 does not write:
    # it rejects every store the reference writer makes with labels, valid ones too. zomgen's
    # image convention leaves that version optional (schemas/README.md).
    ("0.5", False): {name: LABELS_VERSION for name in CASES},
    # With that version given: v05 checks a field's labels (listed ones exist, as many levels
    # as the image) and the acquisitions, but not that listed wells and fields exist, nor
    # that a well's indices name a row and column and agree with its path, nor that fields'
    # paths are unique.
    ("0.5", True): {
        **{name: None for name in CASES},
        "a label listed but missing": "ValueError: Label path 'cells' not found in zarr group",
        "a label with a different number of levels": (
            "RuntimeError: Number of image label multiscale levels (1) doesn't match number of "
            "image multiscale levels (2)."
        ),
        "a field's acquisition the plate does not list": ACQUISITION,
    },
}


@pytest.mark.parametrize(
    ("version", "stamped"), list(MODELS), ids=[f"{v}{'-stamped' * s}" for v, s in MODELS]
)
def test_ome_zarr_models_on_the_same_stores(
    plates: dict[str, Path], tmp_path: Path, version: str, stamped: bool
) -> None:
    verdicts: dict[str, tuple[bool, str | None]] = {}
    for index, (name, breakage) in enumerate(CASES.items()):
        store = tmp_path / f"{index}.zarr"
        shutil.copytree(plates[version], store)
        breakage(store, version)
        if stamped:
            _stamp_labels_version(store)
        zomgen_valid = _package(version, "plate").validate(store) == []
        models = _models(store, version)
        verdicts[name] = (zomgen_valid, models if models is None else models[: len(ACQUISITION)])
    expected_models = {
        name: None if m is None else m[: len(ACQUISITION)]
        for name, m in MODELS[version, stamped].items()
    }
    assert {n: m for n, (_z, m) in verdicts.items()} == expected_models
    # zomgen: the valid plate passes, every breakage fails
    assert {n: z for n, (z, _m) in verdicts.items()} == {n: n == VALID for n in CASES}
