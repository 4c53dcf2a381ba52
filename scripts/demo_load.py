"""Write an xarray Dataset as Zarr v3, then load and check it with the generated package; save
its ZOM document (`dump`) for the TypeScript half of the demo."""

from __future__ import annotations

import json
import sys

import numpy as np
import xarray as xr
import xarray_v3  # the package `zomgen build` just generated


def main(store: str, document_file: str) -> int:
    ds = xr.Dataset(
        {"temperature": (("time", "y", "x"), np.zeros((2, 3, 4), dtype="float32"))},
        coords={"time": [0, 1], "y": [10.0, 20.0, 30.0], "x": [1, 2, 3, 4]},
        attrs={"title": "demo"},
    )
    ds.to_zarr(store, zarr_format=3, mode="w", consolidated=False)
    dataset = xarray_v3.load(store)
    for name, variable in sorted(dataset.members.items()):
        print(
            f"{name}: dims={variable.dimension_names} shape={variable.shape} dtype={variable.data_type}"
        )
    problems = xarray_v3.validate(store)
    print(f"{len(problems)} problems: the store follows the xarray-v3 convention")
    with open(document_file, "w", encoding="utf-8") as out:
        json.dump(xarray_v3.dump(dataset), out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], sys.argv[2]))
