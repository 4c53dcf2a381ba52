"""Positive: valid xarray-v2 documents and models type-check, with the types users rely on."""

from typing import assert_type

import xarray_v2
from xarray_v2 import documents, models

variable_doc: documents.Variable = {
    "zarr_format": 2,
    "attributes": {"_ARRAY_DIMENSIONS": ["y", "x"]},
    "shape": [2, 3],
    "chunks": [2, 3],
    "dtype": "<f8",
    "compressor": None,
    "fill_value": "NaN",
    "order": "C",
    "filters": None,
}
dataset_doc: documents.XarrayDataset = {
    "zarr_format": 2,
    "attributes": {"title": "demo"},
    "members": {"t": variable_doc},
}

dataset = xarray_v2.parse(dataset_doc)
assert_type(dataset, models.XarrayDataset)
assert_type(dataset.members["t"], models.Variable)
assert_type(dataset.members["t"].attributes.ARRAY_DIMENSIONS, tuple[str, ...])
assert_type(dataset.members["t"].shape, tuple[int, ...])
assert_type(xarray_v2.dump(dataset), documents.XarrayDataset)

variable = models.Variable(
    attributes=models.VariableAttributes(ARRAY_DIMENSIONS=("y", "x"), extras={"units": "K"}),
    shape=(2, 3),
    chunks=(2, 3),
    dtype="<f8",
    compressor=None,
    fill_value=0,
    order="C",
    filters=None,
    dimension_separator=None,
)
base: models.ArraySpec[models.VariableAttributes] = variable  # a node is its generic base
