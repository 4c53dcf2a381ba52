"""A folder of stores as an archive holds them, for `zomgen validate` of many stores
(`cli/test_validate_many.py`, `cli/test_validate_dask.py`): xarray's datasets (v3 `a.zarr`, v2
`b.zarr`), one whose array has a dimension name too many (`c.zarr`, invalid), a zarr-python
group that declares nothing (`d.zarr`, not fully checked), and a folder that is no store
(`e.zarr`, unusable)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path


def write_archive(root: Path) -> Path:
    import numpy as np
    import xarray as xr
    import zarr

    warnings.filterwarnings("ignore", category=UserWarning)  # zarr: v3 consolidation
    dataset = xr.Dataset({"t": (("y",), np.zeros(2))}, coords={"y": [1, 2]})
    dataset.to_zarr(root / "a.zarr", zarr_format=3, consolidated=False)
    dataset.to_zarr(root / "b.zarr", zarr_format=2, consolidated=False)
    dataset.to_zarr(root / "c.zarr", zarr_format=3, consolidated=False)
    node = root / "c.zarr" / "t" / "zarr.json"
    array = json.loads(node.read_text("utf-8"))
    array["dimension_names"] = ["y", "z"]
    node.write_text(json.dumps(array), "utf-8")
    zarr.open_group(root / "d.zarr", mode="w").create_array("a", shape=(1,), dtype="i1")
    (root / "e.zarr").mkdir()
    return root
