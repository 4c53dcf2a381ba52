"""OME-Zarr 0.6 as released and 0.9.dev1: stores written by ngff-zarr, the one writer of both
(ome-zarr-py 0.18 writes up to 0.5), and the 0.6rc0 conformance cases moved to those versions.

ngff-zarr 0.50.0 writes images (with RFC-4 anatomical orientation at 0.9.dev1), plates with
their wells (`HCSPlateWriter`, also zipped as RFC-9 `.ozx`) and scenes; it writes no labels
and no bioformats2raw collection, which the derived cases cover instead.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

# each version zomgen checks beyond 0.6rc0 -> the infix of its conventions' names
RELEASED = {"0.6": "06", "0.9.dev1": "09dev1"}
RC0 = "0.6rc0"


def with_version(value: Any, version: str) -> Any:
    """A copy of `value` in which every OME-Zarr 0.6rc0 version is `version` (the `ome` objects'
    `version`, wherever they stand)."""
    if isinstance(value, list):
        return [with_version(item, version) for item in value]
    if not isinstance(value, dict):
        return value
    moved = {key: with_version(item, version) for key, item in value.items()}
    if moved.get("version") == RC0:
        moved["version"] = version
    return moved


def _multiscales(dims: str, orientation: str | None = None) -> Any:
    import ngff_zarr as nz
    import numpy as np

    shape = {"z": 8, "y": 16, "x": 16}
    data = np.arange(np.prod([shape[d] for d in dims]), dtype=np.uint16) % 7
    image = nz.to_ngff_image(
        data.reshape([shape[d] for d in dims]),
        dims=list(dims),
        scale={d: 0.5 for d in dims},
        translation={d: 0.0 for d in dims},
    )
    return nz.to_multiscales(image, scale_factors=[2], orientation=orientation)


def _plate(store: Path, version: str) -> None:
    import ngff_zarr as nz
    from ngff_zarr.hcs import HCSPlateWriter

    plate = nz.Plate(
        columns=[nz.PlateColumn(name="1"), nz.PlateColumn(name="2")],
        rows=[nz.PlateRow(name="A")],
        wells=[
            nz.PlateWell(path="A/1", rowIndex=0, columnIndex=0),
            nz.PlateWell(path="A/2", rowIndex=0, columnIndex=1),
        ],
        version=version,
        acquisitions=[nz.PlateAcquisition(id=0, name="first")],
        field_count=1,
        name="plate",
    )
    with HCSPlateWriter(str(store), plate) as writer:
        for column in ("1", "2"):
            writer.write_well_image(
                multiscales=_multiscales("yx"), row_name="A", column_name=column, field_index=0
            )


def _scene(store: Path, version: str) -> None:
    import ngff_zarr as nz
    from ngff_zarr.v06 import zarr_metadata as v06

    def placed(path: str, x: float) -> Any:
        return v06.Translation(
            translation=[0.0, x],
            input=v06.CoordinateSystemIdentifier(path=path, name="intrinsic"),
            output=v06.CoordinateSystemIdentifier(name="world"),
        )

    axes = [v06.Axis(name="y", type="space"), v06.Axis(name="x", type="space")]
    scene = nz.NgffScene(
        images={"left": _multiscales("yx"), "right": _multiscales("yx")},
        coordinateTransformations=[placed("left", 0.0), placed("right", 16.0)],
        coordinateSystems=[v06.CoordinateSystem(name="world", axes=axes)],
    )
    nz.to_ngff_zarr(str(store), scene, version=version)


def write_stores(folder: Path, version: str) -> dict[str, Path]:
    """name -> store, every kind ngff-zarr writes at `version`, each valid."""
    import ngff_zarr as nz

    stores = {
        "image": folder / f"image-{version}.ome.zarr",
        "plate": folder / f"plate-{version}.ome.zarr",
        "plate-zipped": folder / f"plate-{version}.ozx",
        "scene": folder / f"scene-{version}.ome.zarr",
    }
    orientation = "RAS" if version != "0.6" else None
    nz.to_ngff_zarr(str(stores["image"]), _multiscales("zyx", orientation), version=version)
    _plate(stores["plate"], version)
    _plate(stores["plate-zipped"], version)
    _scene(stores["scene"], version)
    return stores


def edit(store: Path, node: str, change: Any) -> None:
    """`change(attributes["ome"])` in the zarr.json of `node` below the folder store."""
    path = store / node / "zarr.json" if node else store / "zarr.json"
    document = json.loads(path.read_text("utf-8"))
    ome = copy.deepcopy(document["attributes"]["ome"])
    change(ome)
    document["attributes"]["ome"] = ome
    path.write_text(json.dumps(document), "utf-8")
