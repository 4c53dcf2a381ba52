"""The SpatialData stores of runtime/test_spatialdata.py and typescript/test_tagged_stores.py:
written by spatialdata itself (tests/runtime/spatialdata/write_stores.py, run in
.venv-spatialdata, which scripts/setup.sh installs), and broken the ways the tests break them."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.support.paths import ROOT

WRITER = ROOT / "tests" / "runtime" / "spatialdata" / "write_stores.py"
SPATIALDATA_PYTHON = ROOT / ".venv-spatialdata" / "bin" / "python"

SCHEMAS = {
    3: ROOT / "schemas" / "spatialdata-v3" / "schema.json",
    2: ROOT / "schemas" / "spatialdata-v2" / "schema.json",
}
# store -> its Zarr version (the container format: 0.2 in v3, 0.1 in v2)
STORES = {
    "v3.zarr": 3,
    "v3-unconsolidated.zarr": 3,
    "v3.zip": 3,
    "images-only.zarr": 3,
    "v2.zarr": 2,
    "v2-mixed.zarr": 2,
}

BROKEN = {
    # fault -> (store, node, pointer, keyword, a word of the message)
    "shapes 0.1 without geos": (
        "v2-mixed.zarr",
        "/shapes/circles",
        "/attributes/spatialdata_attrs",
        "required",
        "geos",
    ),
    "shapes 0.1 without its coordinates": (
        "v2-mixed.zarr",
        "/shapes/polygons",
        "/members",
        "required",
        "coords",
    ),
    "an image 0.2 whose multiscales say 0.4": (
        "v2-mixed.zarr",
        "/images/image2d_v02",
        "/attributes/multiscales/0/version",
        "const",
        "0.4-dev-spatialdata",
    ),
    "a scale transformation without its scale": (
        "v3.zarr",
        "/images/image2d",
        "/attributes/ome/multiscales/0/coordinateTransformations/1",
        "required",
        "scale",
    ),
}


def write_stores(out: Path) -> dict[str, Path]:
    """Every store of STORES, written by spatialdata into `out` (which must not exist)."""
    assert SPATIALDATA_PYTHON.is_file(), "spatialdata is not installed: run scripts/setup.sh"
    written = subprocess.run(
        [str(SPATIALDATA_PYTHON), str(WRITER), str(out)],
        check=False,
        capture_output=True,
        text=True,
    )
    assert written.returncode == 0, written.stderr
    return {name: out / name for name in STORES}


def broken_copy(stores: dict[str, Path], fault: str, out: Path) -> Path:
    """A copy in `out` of the store BROKEN names for `fault`, with that fault."""
    source, node_path = BROKEN[fault][:2]
    version = STORES[source]
    store = shutil.copytree(stores[source], out / source)
    node = store / node_path.lstrip("/")
    if fault == "shapes 0.1 without geos":
        _edit_attributes(node, version, lambda a: a["spatialdata_attrs"].pop("geos"))
    elif fault == "shapes 0.1 without its coordinates":
        shutil.rmtree(node / "coords")
    elif fault == "an image 0.2 whose multiscales say 0.4":
        _edit_attributes(node, version, lambda a: a["multiscales"][0].update(version="0.4"))
    else:
        _edit_attributes(node, version, _drop_the_scale)
    # The reader must see the edit, not the consolidated copy from before: drop that copy.
    if version == 3:
        root = json.loads((store / "zarr.json").read_text(encoding="utf-8"))
        del root["consolidated_metadata"]
        (store / "zarr.json").write_text(json.dumps(root), encoding="utf-8")
    else:
        (store / ".zmetadata").unlink()
    return store


def _edit_attributes(node: Path, version: int, edit: Callable[[dict[str, Any]], Any]) -> None:
    path = node / ("zarr.json" if version == 3 else ".zattrs")
    metadata = json.loads(path.read_text(encoding="utf-8"))
    edit(metadata["attributes"] if version == 3 else metadata)
    path.write_text(json.dumps(metadata), encoding="utf-8")


def _drop_the_scale(attributes: dict[str, Any]) -> None:
    """The image's second transformation (a `scale`, to `scaled`) loses its factors."""
    attributes["ome"]["multiscales"][0]["coordinateTransformations"][1].pop("scale")
