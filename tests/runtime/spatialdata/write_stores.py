"""Writes the SpatialData stores of tests/runtime/test_spatialdata.py with spatialdata itself.

Run by .venv-spatialdata's interpreter (scripts/setup.sh installs it from requirements.txt
beside this file: spatialdata pins a dask that ome-zarr 0.18, in .venv, refuses):

    .venv-spatialdata/bin/python tests/runtime/spatialdata/write_stores.py OUT

OUT, which must not exist yet, gets one store per case below. Every element kind spatialdata writes (2D and 3D images and
labels, single-scale and multiscale, points with and without a feature key, circles, polygons
and multipolygons, tables annotating elements and not), each with every transformation type
spatialdata's NGFF layer writes, in both container formats: 0.2 (Zarr v3, the current) and
0.1 (Zarr v2), whose raster and shapes elements each come in two versions, mixed in one store.
"""

from __future__ import annotations

import sys
import warnings
import zipfile
from pathlib import Path

import anndata as ad
import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
import spatialdata._io.format as fmt
from spatialdata import SpatialData
from spatialdata.models import (
    Image2DModel,
    Image3DModel,
    Labels2DModel,
    Labels3DModel,
    PointsModel,
    ShapesModel,
    TableModel,
)
from spatialdata.transformations import (
    Affine,
    Identity,
    MapAxis,
    Scale,
    Sequence,
    Translation,
    set_transformation,
)

RNG = np.random.default_rng(0)


def _elements() -> SpatialData:
    images = {
        "image2d": Image2DModel.parse(
            RNG.integers(0, 255, (3, 32, 32), dtype=np.uint8), dims=("c", "y", "x")
        ),
        "pyramid": Image2DModel.parse(
            RNG.integers(0, 255, (2, 64, 64), dtype=np.uint16),
            dims=("c", "y", "x"),
            scale_factors=[2, 2],
            c_coords=["dapi", "gfp"],
        ),
        "image3d": Image3DModel.parse(
            RNG.random((1, 4, 16, 16)).astype("float32"), dims=("c", "z", "y", "x")
        ),
    }
    labels = {
        "cells": Labels2DModel.parse(RNG.integers(0, 5, (32, 32), dtype=np.int32), dims=("y", "x")),
        "nuclei_pyramid": Labels2DModel.parse(
            RNG.integers(0, 3, (64, 64), dtype=np.uint8), dims=("y", "x"), scale_factors=[2]
        ),
        "volume": Labels3DModel.parse(
            RNG.integers(0, 3, (4, 16, 16), dtype=np.uint16), dims=("z", "y", "x")
        ),
    }
    genes = pd.Categorical(["a", "b", "c"] * 4)
    points = {
        "transcripts": PointsModel.parse(
            pd.DataFrame(
                {"x": RNG.random(12), "y": RNG.random(12), "gene": genes, "cell": np.arange(12)}
            ),
            feature_key="gene",
            instance_key="cell",
        ),
        "points3d": PointsModel.parse(
            pd.DataFrame({"x": RNG.random(5), "y": RNG.random(5), "z": RNG.random(5)})
        ),
    }
    square = shapely.Polygon([(0, 0), (1, 0), (1, 1), (0, 1)])
    shapes = {
        "circles": ShapesModel.parse(
            np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
            geometry=0,
            radius=np.array([1.0, 2.0, 0.5]),
        ),
        "polygons": ShapesModel.parse(gpd.GeoDataFrame(geometry=[square, shapely.box(2, 2, 3, 4)])),
        "multipolygons": ShapesModel.parse(
            gpd.GeoDataFrame(geometry=[shapely.MultiPolygon([square, shapely.box(5, 5, 6, 6)])])
        ),
    }
    annotating = ad.AnnData(
        X=RNG.random((3, 4)),
        obs=pd.DataFrame(
            {"region": pd.Categorical(["circles"] * 3), "instance_id": [0, 1, 2]},
            index=["0", "1", "2"],
        ),
    )
    two_regions = ad.AnnData(
        X=RNG.random((4, 2)).astype("float32"),
        obs=pd.DataFrame(
            {
                "region": pd.Categorical(["cells", "cells", "polygons", "polygons"]),
                "cell_id": [1, 2, 0, 1],
            },
            index=list("abcd"),
        ),
    )
    tables = {
        "table": TableModel.parse(
            annotating, region="circles", region_key="region", instance_key="instance_id"
        ),
        "two_regions": TableModel.parse(
            two_regions, region=["cells", "polygons"], region_key="region", instance_key="cell_id"
        ),
        "plain": TableModel.parse(ad.AnnData(X=np.eye(2))),
    }
    sdata = SpatialData(images=images, labels=labels, points=points, shapes=shapes, tables=tables)
    _transform(sdata)
    return sdata


def _transform(sdata: SpatialData) -> None:
    """Every transformation type, each to its own coordinate system beside `global`."""
    xy = ("x", "y")
    set_transformation(sdata["image2d"], Scale([2.0, 2.0], axes=xy), "scaled")
    set_transformation(sdata["pyramid"], Translation([10.0, 5.0], axes=xy), "moved")
    set_transformation(
        sdata["cells"],
        Affine([[1.0, 0.5, 0.0], [0.0, 1.0, 3.0], [0.0, 0.0, 1.0]], input_axes=xy, output_axes=xy),
        "sheared",
    )
    set_transformation(sdata["circles"], MapAxis({"x": "y", "y": "x"}), "swapped")
    set_transformation(
        sdata["polygons"],
        Sequence([Scale([0.5, 0.5], axes=xy), Translation([1.0, 1.0], axes=xy)]),
        "aligned",
    )
    set_transformation(sdata["transcripts"], Identity(), "same")


V01 = [fmt.SpatialDataContainerFormatV01(), fmt.PointsFormatV01(), fmt.TablesFormatV01()]


def write(out: Path) -> None:
    out.mkdir(parents=True)
    sdata = _elements()
    sdata.write(out / "v3.zarr")
    sdata.write(out / "v3-unconsolidated.zarr", consolidate_metadata=False)
    # Container 0.1 (Zarr v2): raster elements 0.1 (OME-NGFF 0.4) and shapes 0.1 (with the
    # geometry type), then one of each written again beside them in 0.2, the default.
    sdata.write(
        out / "v2-mixed.zarr",
        sdata_formats=[*V01, fmt.RasterFormatV01(), fmt.ShapesFormatV01()],
    )
    mixed = SpatialData.read(out / "v2-mixed.zarr")
    mixed["image2d_v02"] = sdata["image2d"]
    mixed["cells_v02"] = sdata["cells"]
    mixed["polygons_v02"] = sdata["polygons"]
    mixed.write_element(
        ["image2d_v02", "cells_v02", "polygons_v02"],
        sdata_formats=[*V01, fmt.RasterFormatV02(), fmt.ShapesFormatV02()],
    )
    mixed.write_consolidated_metadata()
    sdata.write(out / "v2.zarr", sdata_formats=[*V01, fmt.RasterFormatV02(), fmt.ShapesFormatV02()])
    # Only some element kinds: the others' groups are absent.
    SpatialData(images={"image2d": sdata["image2d"]}).write(out / "images-only.zarr")
    _zip(out / "v3.zarr", out / "v3.zip")


def _zip(folder: Path, target: Path) -> None:
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    target = Path(sys.argv[1])
    if target.exists():  # never write into (or over) a folder this script did not make
        sys.exit(f"write_stores.py: {target} exists; give a new folder")
    write(target)
