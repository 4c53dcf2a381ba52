"""Positive: valid xarray-v3 documents and models type-check, with the types users rely on."""

from typing import assert_type

import xarray_v3
from xarray_v3 import documents, models

variable_doc: documents.Variable = {
    "zarr_format": 3,
    "node_type": "array",
    "attributes": {"units": "K"},
    "shape": [2, 3],
    "data_type": "float32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 3]}},
    "chunk_key_encoding": {"name": "default"},
    "fill_value": 0,
    "codecs": ["bytes"],
    "dimension_names": ["y", "x"],
}
dataset_doc: documents.XarrayDataset = {
    "zarr_format": 3,
    "node_type": "group",
    "attributes": {},
    "members": {"t": variable_doc},
}
dataset = xarray_v3.parse(dataset_doc)
assert_type(dataset, models.XarrayDataset)
assert_type(dataset.members["t"].dimension_names, tuple[str, ...])
# These files are type-checked, never run: no store is read here.
assert_type(xarray_v3.load("store.zarr"), models.XarrayDataset)
assert_type(xarray_v3.validate("store.zarr"), list[xarray_v3.Problem])
assert_type(xarray_v3.dump(dataset)["members"]["t"]["dimension_names"], list[str])
