"""The geo conventions registered since the catalog was written: `geoemb:` (geospatial
embeddings), checked by schemas/catalog/geoemb.json on stores zarr-python writes, with its
cross-node rules; `cs` (Coordinate Set), known but without a schema zomgen can use, so reported
and never valid (docs/catalog.md, "The geo conventions")."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import zarr

from zomgen.catalog.dispatch import validate_declared

GEOEMB = {"uuid": "61c12cc5-0e28-4056-999a-480cf3fb7e4c", "name": "geoemb:"}
CS = {"uuid": "e4dbf0b7-7a00-4ce6-b23e-484292014ab4", "name": "cs"}
ZOMGEN = [sys.executable, "-m", "zomgen", "validate"]


def _pixels(**more: Any) -> dict[str, Any]:
    """A pixel embedding's attributes: the five required keys, scales per pixel."""
    return {
        "zarr_conventions": [GEOEMB],
        "geoemb:type": "pixel",
        "geoemb:dimensions": 64,
        "geoemb:model": "https://example.org/encoder",
        "geoemb:source_data": ["https://example.org/sentinel-2"],
        "geoemb:data_type": "int8",
        "geoemb:quantization": {
            "method": "per_pixel_scale",
            "original_dtype": "float32",
            "quantized_dtype": "int8",
            "scale": {"type": "array", "array_name": "scales", "nodata": "+inf"},
        },
        **more,
    }


def _embeddings(group: zarr.Group) -> None:
    group.create_array("embeddings", shape=(4, 4, 64), dtype="int8")
    group.create_array("scales", shape=(4, 4), dtype="float32")


def _store(path: Path, attributes: dict[str, Any], members: Callable[[zarr.Group], None]) -> Path:
    root = zarr.open_group(path, mode="w", zarr_format=3)
    root.attrs.update(attributes)
    members(root)
    return path


def _zones(*names: str) -> Callable[[zarr.Group], None]:
    def write(root: zarr.Group) -> None:
        for name in names:
            _embeddings(root.create_group(name))

    return write


def _rows(path: Path) -> list[tuple[str, str, str]]:
    return [(p.node_path, p.pointer, p.keyword) for p in validate_declared(path).problems]


@pytest.mark.parametrize(
    ("attributes", "members"),
    [
        (_pixels(), _embeddings),
        (_pixels(**{"geoemb:spatial_layout": "global", "geoemb:gsd": 10.0}), _embeddings),
        (
            _pixels(**{"geoemb:spatial_layout": "utm_zones"}),
            _zones("utm01", "utm30", "utm60"),
        ),
        (
            {
                **_pixels(),
                "geoemb:type": "chip",
                "geoemb:chip_layout": {"layout_type": "regular_grid", "chip_size": [256, 256]},
                "geoemb:quantization": {
                    "method": "linear",
                    "original_dtype": "float32",
                    "scale": {"type": "scalar", "scale": 0.01, "offset": 0.0},
                },
            },
            lambda root: root.create_array("embeddings", shape=(10, 64), dtype="int8"),
        ),
    ],
    ids=["pixels", "global", "by UTM zone", "chips"],
)
def test_a_geoemb_store_is_checked_by_its_convention(
    tmp_path: Path, attributes: dict[str, Any], members: Callable[[zarr.Group], None]
) -> None:
    report = validate_declared(_store(tmp_path / "store.zarr", attributes, members))
    assert report.problems == [] and report.valid
    assert [a.entry.name for a in report.nodes["/"]] == ["geoemb:"]


@pytest.mark.parametrize(
    ("attributes", "members", "expected"),
    [
        (  # "When geoemb:type is "chip", the geoemb:chip_layout field is also required"
            {**_pixels(), "geoemb:type": "chip"},
            _embeddings,
            [("/", "/attributes", "required")],
        ),
        (  # the per-pixel scales: "a separate zarr array", named by array_name
            _pixels(),
            lambda root: root.create_array("embeddings", shape=(4, 4, 64), dtype="int8"),
            [("/", "/attributes/geoemb:quantization/scale/array_name", "x-zomgen-member-kind")],
        ),
        (  # ... an array, not a group
            _pixels(),
            lambda root: root.create_group("scales"),
            [("/", "/attributes/geoemb:quantization/scale/array_name", "x-zomgen-member-kind")],
        ),
        (  # one group per zone, "named utm{NN} ... (01-60)"
            _pixels(**{"geoemb:spatial_layout": "utm_zones"}),
            _zones("utm30", "utm61"),
            [("/", "/members", "pattern")],
        ),
        (
            _pixels(**{"geoemb:spatial_layout": "utm_zones"}),
            lambda root: root.create_array("utm30", shape=(4,), dtype="int8"),
            [("/utm30", "/node_type", "const")],
        ),
        (
            _pixels(**{"geoemb:spatial_layout": "utm_zones"}),
            _embeddings,
            [("/", "/members", "not")],
        ),
        (
            _pixels(**{"geoemb:dimensions": 0}),
            _embeddings,
            [("/", "/attributes/geoemb:dimensions", "minimum")],
        ),
    ],
    ids=[
        "chip without layout",
        "no scale array",
        "scales a group",
        "zone 61",
        "zone an array",
        "no zone",
        "no dimension",
    ],
)
def test_a_broken_geoemb_store_is_told_where(
    tmp_path: Path,
    attributes: dict[str, Any],
    members: Callable[[zarr.Group], None],
    expected: list[tuple[str, str, str]],
) -> None:
    store = _store(tmp_path / "store.zarr", attributes, members)
    assert _rows(store) == expected
    command = subprocess.run([*ZOMGEN, str(store)], capture_output=True, text=True, check=False)
    assert command.returncode == 1, command.stdout + command.stderr


def test_a_coordinate_set_is_known_but_not_checked(tmp_path: Path) -> None:
    """cs has no schema zomgen can use (docs/catalog.md): a node declaring it is reported,
    by name, and the store is never valid."""
    store = _store(
        tmp_path / "store.zarr",
        {"zarr_conventions": [CS], "crs": {"wgs84": {"type": "geographic"}}},
        lambda root: None,
    )
    report = validate_declared(store)
    assert report.status == "not fully checked" and report.problems == []
    messages = [u.message for u in report.outcome().unchecked]
    assert messages == ["cs is known but its schema is not available offline; not checked"]
    command = subprocess.run([*ZOMGEN, str(store)], capture_output=True, text=True, check=False)
    assert command.returncode == 3, command.stdout + command.stderr
