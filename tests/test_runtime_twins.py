"""Every static negative in typecheck_cases/python has its run-time twin: the same mistake, as a
JSON document given to `parse`, is refused with a ZomError naming where it is; mutating a
frozen model raises at run time too."""

from __future__ import annotations

import dataclasses
import importlib
import subprocess
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from conftest import CASES, ROOT


@pytest.fixture(scope="module")
def pkgs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ModuleType]]:
    out = tmp_path_factory.mktemp("twins")
    for package, case in {
        "named_members": "named-members",
        "tagged_union": "oneof-tagged-union",
    }.items():
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "zomgen",
                "build",
                str(CASES / case / "schema.json"),
                "-o",
                str(out / package),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr
    paths = [str(ROOT / "generated"), str(out)]
    sys.path[:0] = paths
    try:
        yield {
            name: importlib.import_module(name)
            for name in ("xarray_v2", "xarray_v3", "named_members", "tagged_union")
        }
    finally:
        for path in paths:
            sys.path.remove(path)


def v2_variable(**attributes: Any) -> dict[str, Any]:
    return {
        "zarr_format": 2,
        "attributes": attributes,
        "shape": [2],
        "chunks": [2],
        "dtype": "<f8",
        "compressor": None,
        "fill_value": 0,
        "order": "C",
        "filters": None,
    }


def v3_array(**metadata: Any) -> dict[str, Any]:
    document = {
        "zarr_format": 3,
        "node_type": "array",
        "attributes": {},
        "shape": [2],
        "data_type": "uint8",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
        "chunk_key_encoding": {"name": "default"},
        "fill_value": 0,
        "codecs": ["bytes"],
    }
    document.update(metadata)
    return document


def group(version: int, members: dict[str, Any], **attributes: Any) -> dict[str, Any]:
    node: dict[str, Any] = {"zarr_format": version, "attributes": attributes, "members": members}
    if version == 3:
        node["node_type"] = "group"
    return node


def refused(pkg: ModuleType, document: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(pkg.ZomError) as info:
        pkg.parse(document)
    return [(p.node_path, p.pointer) for p in info.value.problems]


def test_xarray_v2_missing_required_attribute(pkgs: dict[str, ModuleType]) -> None:
    where = refused(pkgs["xarray_v2"], group(2, {"t": v2_variable(units="K")}))
    assert ("/t", "/attributes") in where


def test_xarray_v2_wrong_const(pkgs: dict[str, ModuleType]) -> None:
    variable = v2_variable(_ARRAY_DIMENSIONS=["x"])
    variable["zarr_format"] = 3
    assert ("/t", "/zarr_format") in refused(pkgs["xarray_v2"], group(2, {"t": variable}))


def test_frozen_models(pkgs: dict[str, ModuleType]) -> None:
    attrs = pkgs["xarray_v2"].models.VariableAttributes(ARRAY_DIMENSIONS=("x",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        attrs.ARRAY_DIMENSIONS = ("y",)
    dataset = pkgs["xarray_v3"].models.XarrayDataset(attributes={}, members={})
    with pytest.raises(dataclasses.FrozenInstanceError):
        dataset.members = {}


def test_xarray_v3_group_where_array_must_be(pkgs: dict[str, ModuleType]) -> None:
    where = refused(pkgs["xarray_v3"], group(3, {"g": group(3, {})}))
    assert [path for path, _pointer in where] == ["/g"]


def test_xarray_v3_missing_or_null_dimension_names(pkgs: dict[str, ModuleType]) -> None:
    assert ("/t", "") in refused(pkgs["xarray_v3"], group(3, {"t": v3_array()}))
    with_null = v3_array(shape=[2, 2], dimension_names=["x", None])
    assert ("/t", "/dimension_names/1") in refused(pkgs["xarray_v3"], group(3, {"t": with_null}))


def test_xarray_v3_wrong_node_type_literal(pkgs: dict[str, ModuleType]) -> None:
    wrong = v3_array(dimension_names=["x"])
    wrong["node_type"] = "group"
    assert [p for p, _ in refused(pkgs["xarray_v3"], group(3, {"t": wrong}))] == ["/t"]


def test_named_members_missing_named_member(pkgs: dict[str, ModuleType]) -> None:
    assert ("/", "/members") in refused(pkgs["named_members"], group(3, {}))


def test_named_members_wrong_data_type(pkgs: dict[str, ModuleType]) -> None:
    document = group(3, {"0": v3_array(data_type="float64")})
    assert ("/0", "/data_type") in refused(pkgs["named_members"], document)


def test_named_members_missing_required_attribute(pkgs: dict[str, ModuleType]) -> None:
    document = group(3, {"0": v3_array(), "labels": group(3, {})})
    assert ("/labels", "/attributes") in refused(pkgs["named_members"], document)


def test_tagged_union_unknown_key_on_closed_object(pkgs: dict[str, ModuleType]) -> None:
    document = v3_array(attributes={"transform": {"type": "identity"}, "colour": "red"})
    assert ("/", "/attributes") in refused(pkgs["tagged_union"], document)


def test_tagged_union_wrong_tag(pkgs: dict[str, ModuleType]) -> None:
    document = v3_array(attributes={"transform": {"type": "rotate"}})
    where = refused(pkgs["tagged_union"], document)
    assert where and all(
        path == "/" and pointer.startswith("/attributes/transform") for path, pointer in where
    )
