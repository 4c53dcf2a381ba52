"""The generated run-time API end to end: `load` reads a store written by xarray, `dump(parse(doc))
== doc` for every valid document (unknown keys and original JSON keys included), `create` writes
what `load` reads back equal, and an invalid document is refused by `parse` with node paths."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import xarray as xr

from tests.support.cli import build_package
from tests.support.packages import imported
from tests.support.paths import CASES, ROOT


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ModuleType]]:
    out = tmp_path_factory.mktemp("roundtrip")
    sources = {
        "rt_xarray_v2": ROOT / "schemas" / "xarray-v2" / "schema.json",
        "rt_xarray_v3": ROOT / "schemas" / "xarray-v3" / "schema.json",
        "rt_weird": CASES / "weird-keys" / "schema.json",
        "rt_tuple": CASES / "prefix-items-tuple" / "schema.json",
        "rt_union": CASES / "oneof-tagged-union" / "schema.json",
        "rt_named": CASES / "named-members" / "schema.json",
        "rt_tree": CASES / "recursive-group" / "schema.json",
    }
    for name, schema in sources.items():
        build_package(schema, out / name)
    with imported(out, *sources) as modules:
        yield dict(zip(sources, modules, strict=True))


def _dataset() -> xr.Dataset:
    return xr.Dataset(
        {"t": (("y", "x"), np.zeros((3, 4), dtype="float32"), {"units": "K", "note": [1, 2]})},
        coords={"y": [1.0, 2.0, 3.0], "x": [1, 2, 3, 4]},
        attrs={"title": "demo"},
    )


@pytest.mark.parametrize("zarr_format", [2, 3])
@pytest.mark.parametrize("consolidated", [True, False])
def test_load_an_xarray_store_and_round_trip_it(
    packages: dict[str, ModuleType], tmp_path: Path, zarr_format: int, consolidated: bool
) -> None:
    store = tmp_path / "ds.zarr"
    _dataset().to_zarr(store, zarr_format=zarr_format, consolidated=consolidated, mode="w")
    pkg = packages[f"rt_xarray_v{zarr_format}"]
    model = pkg.load(str(store))
    assert set(model.members) == {"t", "x", "y"}
    t = model.members["t"]
    if zarr_format == 3:
        assert t.dimension_names == ("y", "x")
    else:
        assert t.attributes.ARRAY_DIMENSIONS == ("y", "x")
        assert t.attributes.extras["units"] == "K"  # unknown attribute keys are kept
    assert t.shape == (3, 4)
    document = pkg.dump(model)
    assert pkg.dump(pkg.parse(document)) == document
    assert pkg.validate(str(store)) == []


def test_create_writes_what_load_reads_back(
    packages: dict[str, ModuleType], tmp_path: Path
) -> None:
    source = tmp_path / "source.zarr"
    _dataset().to_zarr(source, zarr_format=3, consolidated=False, mode="w")
    pkg = packages["rt_xarray_v3"]
    model = pkg.load(str(source))
    target = tmp_path / "copy.zarr"
    pkg.create(model, str(target))
    assert pkg.load(str(target)) == model
    with pytest.raises(pkg.ZomError):  # existing nodes are left alone and reported
        pkg.create(model, str(target))
    pkg.create(model, str(target), overwrite=True)
    assert pkg.load(str(target)) == model


def test_a_broken_store_is_refused_with_node_paths(
    packages: dict[str, ModuleType], tmp_path: Path
) -> None:
    store = tmp_path / "ds.zarr"
    ds = _dataset()
    ds.to_zarr(store, zarr_format=2, consolidated=False, mode="w")
    import json

    zattrs = store / "t" / ".zattrs"
    attrs = json.loads(zattrs.read_text())
    del attrs["_ARRAY_DIMENSIONS"]
    zattrs.write_text(json.dumps(attrs))
    pkg = packages["rt_xarray_v2"]
    problems = pkg.validate(str(store))
    assert any(p.node_path == "/t" for p in problems), problems
    with pytest.raises(pkg.ZomError) as info:
        pkg.load(str(store))
    assert "/t" in str(info.value)


def _array(attributes: dict[str, Any], **metadata: Any) -> dict[str, Any]:
    document = {
        "zarr_format": 3,
        "node_type": "array",
        "attributes": attributes,
        "shape": [3, 4],
        "data_type": "uint8",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [3, 4]}},
        "chunk_key_encoding": {"name": "default"},
        "fill_value": 0,
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
    }
    document.update(metadata)
    return document


def _group(attributes: dict[str, Any], members: dict[str, Any]) -> dict[str, Any]:
    return {"zarr_format": 3, "node_type": "group", "attributes": attributes, "members": members}


DOCUMENTS = {
    "rt_weird": _group(
        {
            "class": "c",
            "ome-zarr": {"version": "0.5", "other": True},
            "1st": 1,
            "größe": 2.5,
            "with space": False,
            "proj:code": "EPSG:4326",
            "__proto__": "p",
            "_private": "x",
            "extras": "e",
            'it\'s "quoted"': "q",
        },
        {"class": _array({}), "with space": _array({"a": 1}, dimension_names=["y", None])},
    ),
    "rt_tuple": _array(
        {"bbox": [0, 0, 1.5, 2], "range": [1, 2, "a", "b"], "nothing": None, "maybe": None, "z": 1},
        shape=[3, 4, 3],
        chunk_grid={"name": "regular", "configuration": {"chunk_shape": [3, 4, 3]}},
        data_type="float32",
        dimension_names=["y", "x", "c"],
        storage_transformers=[],
    ),
    "rt_union": _array({"transform": {"type": "translation", "translation": [1.0, 2]}}),
    "rt_named": _group(
        {},
        {
            "0": _array({}),
            "labels": _group({"labels": ["cells"], "more": 1}, {"cells": _array({})}),
            "1": _array({}, data_type="uint16"),
        },
    ),
    "rt_tree": {
        "zarr_format": 2,
        "attributes": {"note": "root", "children": [{"note": "a", "children": []}]},
        "members": {
            "leaf": {
                "zarr_format": 2,
                "attributes": {},
                "shape": [2],
                "chunks": [2],
                "dtype": "<f4",
                "compressor": None,
                "fill_value": "NaN",
                "order": "C",
                "filters": None,
            },
            "sub": {"zarr_format": 2, "attributes": {}, "members": {}},
        },
    },
}


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_dump_parse_is_lossless(packages: dict[str, ModuleType], name: str) -> None:
    pkg = packages[name]
    document = DOCUMENTS[name]
    model = pkg.parse(document)
    assert pkg.dump(model) == document


def _models(value: Any) -> Iterator[Any]:
    """Every dataclass instance inside a parsed model, the model included."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        yield value
        for f in dataclasses.fields(value):
            yield from _models(getattr(value, f.name))
    elif isinstance(value, dict | list | tuple):
        for item in value.values() if isinstance(value, dict) else value:
            yield from _models(item)


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_parse_builds_what_the_constructors_build(
    packages: dict[str, ModuleType], name: str
) -> None:
    """`parse` fills each frozen dataclass's `__dict__` without calling its `__init__`: every
    instance must hold exactly what `__init__` would have set, fields and values."""
    pkg = packages[name]
    models = list(_models(pkg.parse(DOCUMENTS[name])))
    assert len(models) > 1
    for model in models:
        rebuilt = dataclasses.replace(model)  # through __init__, from the same fields
        assert vars(model) == vars(rebuilt), type(model).__name__
        assert list(vars(model)) == list(vars(rebuilt)), type(model).__name__  # and in order


def test_parsed_models_are_typed_values(packages: dict[str, ModuleType]) -> None:
    weird = packages["rt_weird"].parse(DOCUMENTS["rt_weird"])
    assert weird.attributes.class_ == "c"
    assert weird.attributes.f_1st == 1
    assert weird.attributes.ome_zarr.version == "0.5"
    union = packages["rt_union"].parse(DOCUMENTS["rt_union"])
    assert type(union.attributes.transform).__name__ == "TransformTranslation"
    tree = packages["rt_tree"].parse(DOCUMENTS["rt_tree"])
    assert type(tree.members["sub"]).__name__ == "Tree"
    assert tree.attributes.children[0].note == "a"


def test_parse_refuses_an_invalid_document_with_every_problem(
    packages: dict[str, ModuleType],
) -> None:
    pkg = packages["rt_named"]
    broken = _group({}, {"labels": _group({}, {}), "x": _array({}, data_type="float64")})
    with pytest.raises(pkg.ZomError) as info:
        pkg.parse(broken)
    paths = {p.node_path for p in info.value.problems}
    assert "/" in paths  # the required member "0" is missing
    assert "/labels" in paths  # its attributes lack "labels"
    assert "/x" in paths  # float64 is not an allowed data type


def test_a_hand_built_model_holding_another_node_is_dumped_as_that_node(
    packages: dict[str, ModuleType],
) -> None:
    """The checkers refuse a group where a variable must be; at run time `dump` writes each
    member as the node it is, so that `parse` of the document (what `create` checks before it
    writes) names the member, for a node of this package, a bare base node and a node of
    another package alike."""
    v3, v2 = packages["rt_xarray_v3"], packages["rt_xarray_v2"]
    variable = _array({}, dimension_names=["y", "x"])
    dataset = v3.parse(_group({"title": "demo"}, {"x": variable}))
    others = {
        "own class": dataset,  # an XarrayDataset where a Variable must be
        "base class": v3.models.GroupSpec(attributes={"a": 1}, members={}),
        "another package's": v2.models.GroupSpec(attributes={"a": 1}, members={}),
    }
    for label, other in others.items():
        wrong = dataclasses.replace(dataset, members={**dataset.members, "g": other})
        document = v3.dump(wrong)
        assert document["members"]["g"]["attributes"] == dict(other.attributes), label
        with pytest.raises(v3.ZomError) as info:
            v3.parse(document)
        assert {p.node_path for p in info.value.problems} == {"/g"}, label
