"""Negative: a variable's `node_type` is the literal "array"."""

from xarray_v3 import models

variable = models.Variable(
    node_type="group",  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    attributes={},
    shape=(2,),
    data_type="float32",
    chunk_grid="regular",
    chunk_key_encoding="default",
    fill_value=0,
    codecs=("bytes",),
    storage_transformers=None,
    dimension_names=("x",),
)
