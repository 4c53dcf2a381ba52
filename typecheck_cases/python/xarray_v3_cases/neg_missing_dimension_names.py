"""Negative: xarray-v3 variables must have `dimension_names`, without nulls."""

from xarray_v3 import documents, models

variable = models.Variable(  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    attributes={},
    shape=(2,),
    data_type="float32",
    chunk_grid="regular",
    chunk_key_encoding="default",
    fill_value=0,
    codecs=("bytes",),
    storage_transformers=None,
)
variable_doc: documents.Variable = {  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]
    "zarr_format": 3,
    "node_type": "array",
    "attributes": {},
    "shape": [2],
    "data_type": "float32",
    "chunk_grid": "regular",
    "chunk_key_encoding": "default",
    "fill_value": 0,
    "codecs": ["bytes"],
}
with_null = models.Variable(
    attributes={},
    shape=(2, 2),
    data_type="float32",
    chunk_grid="regular",
    chunk_key_encoding="default",
    fill_value=0,
    codecs=("bytes",),
    storage_transformers=None,
    dimension_names=("x", None),  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
)
