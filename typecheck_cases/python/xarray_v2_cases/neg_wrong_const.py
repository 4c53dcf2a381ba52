"""Negative: a v2 variable says `zarr_format: 2`, nothing else."""

from xarray_v2 import documents

variable_doc: documents.Variable = {
    "zarr_format": 3,  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]
    "attributes": {"_ARRAY_DIMENSIONS": ["x"]},
    "shape": [2],
    "chunks": [2],
    "dtype": "<f8",
    "compressor": None,
    "fill_value": 0,
    "order": "C",
    "filters": None,
}
