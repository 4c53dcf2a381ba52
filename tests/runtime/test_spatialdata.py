"""Real SpatialData stores against the bundled conventions schemas/spatialdata-v3 (container
format 0.2, Zarr v3) and spatialdata-v2 (container format 0.1, Zarr v2), both written for this test from
spatialdata's own writer, not from its documentation.

spatialdata 0.7.3 writes the stores (tests/runtime/spatialdata/write_stores.py, run in
.venv-spatialdata). Every element says its format in its attributes: `spatialdata_attrs.version`
for images, labels, points and shapes (a 0.1 container holds raster and shapes elements of two
versions side by side, each its own option of a `oneOf`), `version` and `encoding-type` for a
table and the AnnData elements inside it, `type` for each coordinate transformation. For every
node `load` returns, and every transformation inside its attributes, the class must be the one
those values name, checked against the document `read_document` gives, so nothing goes
unchecked.

Each valid store: `validate` finds nothing, reading changes no byte, `dump(load(store))` is the
document. Broken stores: one problem each, at the element, from the option its version selects.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from zomgen_runtime import read_document

from tests.support.anndata_classes import CLASS_OF as ANNDATA_CLASS_OF
from tests.support.paths import ROOT
from tests.support.spatialdata_stores import BROKEN, SCHEMAS, STORES, broken_copy, write_stores
from tests.support.tagged_stores import (
    assert_one_problem,
    model_nodes,
    packages_built,
    store_state,
)
from zomgen.catalog.dispatch import validate_declared

PACKAGES = {3: "zom_spatialdata_v3", 2: "zom_spatialdata_v2"}

# Zarr version -> (element kind, its format version) -> the class of the element. In a 0.1
# container (v2) each raster and shapes version is an option of its own; in 0.2 (v3) there is
# one of each.
ELEMENT_CLASS = {
    3: {
        ("images", "0.3"): "Image",
        ("labels", "0.3"): "LabelImage",
        ("points", "0.2"): "Points",
        ("shapes", "0.3"): "Shapes",
        ("tables", "0.2"): "Table",
    },
    2: {
        ("images", "0.1"): "ImageV01",
        ("images", "0.2"): "ImageV02",
        ("labels", "0.1"): "LabelImageV01",
        ("labels", "0.2"): "LabelImageV02",
        ("points", "0.1"): "Points",
        ("shapes", "0.1"): "ShapesV01",
        ("shapes", "0.2"): "ShapesV02",
        ("tables", "0.1"): "Table",
    },
}
KIND_CLASS = {
    "images": "Images",
    "labels": "Labels",
    "points": "PointsGroup",
    "shapes": "ShapesGroup",
    "tables": "Tables",
}
TRANSFORMATION_CLASS = {
    "identity": "Identity",
    "mapAxis": "MapAxis",
    "translation": "Translation",
    "scale": "Scale",
    "affine": "Affine",
    "sequence": "Sequence_",  # `Sequence` would shadow typing's in models.py
}

# Per store: (elements, arrays of images and shapes, tagged AnnData elements inside its tables,
# transformations) whose class is checked. The full stores hold 14 elements (3 images, 3 labels,
# 2 points, 3 shapes, 3 tables), 9 image levels, and 28 transformations: each element's transformation to `global` (an identity), 6
# more to other coordinate systems (a sequence holding 2 more), and a scale per image level (9).
# v2-mixed adds an image, a label image and a polygons element in the other version (3
# elements, 2 levels, 10 transformations), and its shapes 0.1 keep their geometries in 12
# arrays.
EXPECTED_CHECKED = {
    "v3.zarr": (14, 9, 52, 28),
    "v3-unconsolidated.zarr": (14, 9, 52, 28),
    "v3.zip": (14, 9, 52, 28),
    "images-only.zarr": (1, 1, 0, 3),
    "v2.zarr": (14, 9, 52, 28),
    "v2-mixed.zarr": (17, 23, 52, 38),
}


# ------------------------------------------------------------------------- packages, stores


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[int, ModuleType]]:
    with packages_built(
        tmp_path_factory.mktemp("spatialdata_packages"), SCHEMAS, PACKAGES
    ) as built:
        yield built


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_stores(tmp_path_factory.mktemp("spatialdata_stores") / "stores")


# ---------------------------------------------------------------------------------- walking


def _document_nodes(document: Mapping[str, Any], path: str = "/") -> Iterator[tuple[str, Any]]:
    yield path, document
    for name, member in document.get("members", {}).items():
        yield from _document_nodes(member, f"{path.rstrip('/')}/{name}")


def _expected_class(path: str, document: Mapping[str, Any], version: int) -> str | None:
    """The class the node at `path` must be, from its place and its attributes; None for the
    untagged parts of AnnData elements (a sparse matrix's arrays, a categorical's codes), which
    tests/runtime/test_anndata.py checks."""
    parts = path.strip("/").split("/") if path != "/" else []
    attributes = document["attributes"]
    if not parts:
        return "SpatialData"
    kind = parts[0]
    if len(parts) == 1:
        return KIND_CLASS[kind]
    if len(parts) == 2:
        if kind == "tables":
            element_version = attributes["version"]
        else:
            element_version = attributes["spatialdata_attrs"]["version"]
        return ELEMENT_CLASS[version][kind, element_version]
    if kind == "tables":
        tag = attributes.get("encoding-type")
        return None if tag is None else ANNDATA_CLASS_OF[tag]
    return "ArraySpec"  # an image's level, a shapes 0.1 element's coordinates or offsets


def _transformations(value: Any) -> Iterator[str]:
    """The `type` of every coordinate transformation in a document's attributes."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key in ("coordinateTransformations", "transformations"):
                for transformation in item:
                    yield transformation["type"]
            yield from _transformations(item)
    elif isinstance(value, list):
        for item in value:
            yield from _transformations(item)


def _model_transformations(value: Any, classes: set[str]) -> Iterator[Any]:
    """Every instance of a transformation class in a model's attributes, at any depth."""
    if type(value).__name__ in classes:
        yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _model_transformations(getattr(value, field.name), classes)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _model_transformations(item, classes)
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _model_transformations(item, classes)


# ---------------------------------------------------------------------------------- the tests


@pytest.mark.parametrize("version", sorted(SCHEMAS))
def test_the_tables_are_the_schemas(version: int) -> None:
    """Each class named above is a `$defs` entry of the convention, each transformation class
    the option of spatialdata-ngff.json whose `type` is that transformation's."""
    schema = json.loads(SCHEMAS[version].read_text(encoding="utf-8"))
    ngff = json.loads(
        (ROOT / "schemas" / "spatialdata-v3" / "spatialdata-ngff.json").read_text(encoding="utf-8")
    )
    assert {*ELEMENT_CLASS[version].values(), *KIND_CLASS.values()} <= set(schema["$defs"])
    for transformation, name in TRANSFORMATION_CLASS.items():
        entry = ngff["$defs"][name.rstrip("_")]
        assert entry["properties"]["type"] == {"const": transformation}


def test_the_stores_hold_every_element_kind_and_format(stores: dict[str, Path]) -> None:
    formats: dict[int, set[tuple[str, str]]] = {2: set(), 3: set()}
    transformations: set[str] = set()
    for name, version in STORES.items():
        document, problems = read_document(stores[name])
        assert problems == [] and document is not None, name
        assert document["zarr_format"] == version
        for path, node in _document_nodes(document):
            parts = path.strip("/").split("/")
            if len(parts) == 2:
                attributes = node["attributes"]
                element = attributes.get("spatialdata_attrs", attributes).get("version")
                formats[version].add((parts[0], element))
        transformations |= set(_transformations(document))
    assert formats == {v: set(classes) for v, classes in ELEMENT_CLASS.items()}
    assert transformations == set(TRANSFORMATION_CLASS)
    v3 = stores["v3.zarr"]
    assert "consolidated_metadata" in json.loads((v3 / "zarr.json").read_text())
    unconsolidated = stores["v3-unconsolidated.zarr"] / "zarr.json"
    assert "consolidated_metadata" not in json.loads(unconsolidated.read_text())
    # points and shapes (format 0.2 and later) keep their data in Parquet, beside the metadata
    assert (v3 / "points" / "transcripts" / "points.parquet").is_dir()  # dask writes parts
    assert (v3 / "shapes" / "circles" / "shapes.parquet").is_file()


@pytest.mark.parametrize("store", STORES)
def test_load_returns_the_class_each_node_says(
    packages: dict[int, ModuleType], stores: dict[str, Path], store: str
) -> None:
    version = STORES[store]
    pkg, path = packages[version], stores[store]
    before = store_state(path)

    assert pkg.validate(str(path)) == []
    document, problems = read_document(path)
    assert problems == [] and document is not None
    if store in ("v3.zarr", "v2.zarr", "v2-mixed.zarr"):
        # the consolidated metadata says what the walk finds
        assert read_document(path, use_consolidated=False) == (document, [])
    model = pkg.load(str(path))

    document_nodes = dict(_document_nodes(document))
    wrong: list[str] = []
    checked = collections.Counter[str]()
    model_paths: list[str] = []
    for node_path, node in model_nodes(model):
        model_paths.append(node_path)
        expected = _expected_class(node_path, document_nodes[node_path], version)
        if expected is None:
            continue
        depth = len(node_path.strip("/").split("/")) if node_path != "/" else 0
        below = "tables" if node_path.startswith("/tables/") else "arrays"
        checked[{0: "root", 1: "kinds", 2: "elements"}.get(depth, below)] += 1
        if type(node).__name__ != expected or not isinstance(node, getattr(pkg.models, expected)):
            wrong.append(f"{node_path}: {type(node).__name__}, not {expected}")
        found = list(_model_transformations(node.attributes, set(TRANSFORMATION_CLASS.values())))
        for transformation in found:
            if type(transformation).__name__ != TRANSFORMATION_CLASS[transformation.type]:
                wrong.append(
                    f"{node_path}: a {transformation.type} transformation is "
                    f"{type(transformation).__name__}"
                )
        types = collections.Counter(t.type for t in found)
        in_document = collections.Counter(_transformations(document_nodes[node_path]["attributes"]))
        if types != in_document:
            wrong.append(f"{node_path}: transformations {dict(types)}, not {dict(in_document)}")
        checked["transformations"] += sum(in_document.values())
    assert wrong == []
    assert model_paths == list(document_nodes)  # every node was walked
    counts = tuple(checked[k] for k in ("elements", "arrays", "tables", "transformations"))
    assert counts == EXPECTED_CHECKED[store]

    assert pkg.dump(model) == document
    assert store_state(path) == before


@pytest.mark.parametrize("fault", BROKEN)
def test_a_broken_store_is_reported_at_the_element_from_its_version(
    packages: dict[int, ModuleType], stores: dict[str, Path], tmp_path: Path, fault: str
) -> None:
    source, node_path, pointer, keyword, word = BROKEN[fault]
    store = broken_copy(stores, fault, tmp_path)

    assert_one_problem(packages[STORES[source]], store, node_path, pointer, keyword, word)


# ------------------------------------------------------------------- zomgen validate's catalog

# The images and labels v2-mixed.zarr holds in SpatialData's 0.1 element format declare
# OME-Zarr 0.4 (`multiscales[].version: "0.4"`) but are not OME-Zarr 0.4: a multiscale-level
# `identity` transformation with `input`/`output` systems (0.4 has scale and translation only),
# `omero` channels without `window` and `color` and with integer labels. The catalog's OME-Zarr
# 0.4 entry, which they declare, reports them; they are valid SpatialData.
NOT_OME_0_4 = {
    "/images/image2d": 10,
    "/images/image3d": 5,
    "/images/pyramid": 6,
    "/labels/cells": 3,
    "/labels/nuclei_pyramid": 2,
    "/labels/volume": 2,
}


def test_zomgen_validate_checks_each_store_by_its_root(stores: dict[str, Path]) -> None:
    """The catalog's `spatialdata-v2`/`-v3` entries: the root's `spatialdata_attrs.version`
    (0.1 in v2, 0.2 in v3) declares the container format; each table is AnnData, declared by
    its own `encoding-type`; the images' OME-Zarr version ("0.5-dev-spatialdata" in v3) is
    SpatialData's, judged by its convention, not by OME-Zarr's version policy."""
    for name, version in STORES.items():
        report = validate_declared(stores[name])
        assert not report.warnings and not report.outcome().unchecked, name
        checked = {path: [a.entry.label for a in found] for path, found in report.nodes.items()}
        root = {2: "spatialdata-v2 0.1", 3: "spatialdata-v3 0.2"}[version]
        assert checked.pop("/") == [root], name
        ome = {p: c for p, c in checked.items() if c == ["ome-ngff-04-image 0.4"]}
        assert set(checked) - set(ome) == {p for p in checked if p.startswith("/tables/")}
        assert all(c == [f"anndata-v{version} 0.1.0"] for p, c in checked.items() if p not in ome)
        counted = collections.Counter(p.node_path for p in report.problems)
        assert counted == (NOT_OME_0_4 if name == "v2-mixed.zarr" else {}), name
        assert set(ome) == (set(NOT_OME_0_4) if name == "v2-mixed.zarr" else set()), name


@pytest.mark.parametrize("fault", BROKEN)
def test_zomgen_validate_reports_a_broken_store_at_the_element(
    stores: dict[str, Path], tmp_path: Path, fault: str
) -> None:
    _source, node_path, pointer, keyword, word = BROKEN[fault]
    store = broken_copy(stores, fault, tmp_path)
    # what the SpatialData convention finds (v2-mixed's images also declare OME-Zarr 0.4)
    found = validate_declared(store).problems
    problems = [p for p in found if (p.convention or "").startswith("spatialdata-")]
    assert [(p.node_path, p.pointer, p.keyword) for p in problems] == [
        (node_path, pointer, keyword)
    ]
    assert word in problems[0].message


def test_a_container_version_the_catalog_has_no_schema_for_is_not_checked(
    stores: dict[str, Path], tmp_path: Path
) -> None:
    store = shutil.copytree(stores["v3-unconsolidated.zarr"], tmp_path / "later.zarr")
    metadata = json.loads((store / "zarr.json").read_text("utf-8"))
    metadata["attributes"]["spatialdata_attrs"]["version"] = "0.9"
    (store / "zarr.json").write_text(json.dumps(metadata), "utf-8")
    report = validate_declared(store)
    # the root, and its labels group (an `ome` without a version), which nothing judged
    unchecked = [(u.node_path, u.pointer) for u in report.outcome().unchecked]
    assert unchecked == [("/", "/attributes"), ("/labels", "/attributes")]
    # Nothing checked the images, whose `ome.version` is SpatialData's, not an OME-Zarr version
    # (OME-Zarr's version policy says so where no convention judges them): never valid.
    assert {p.keyword for p in report.problems} <= {"ome-zarr version"}
    assert not report.valid
