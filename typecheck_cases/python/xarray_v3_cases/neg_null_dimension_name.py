"""Negative: xarray-v3 `dimension_names` are strings; the base's `null` entries are not allowed."""

from xarray_v3 import documents, models

from ._valid import DATASET, VARIABLE

null_name: documents.XarrayDataset = {**DATASET, "members": {"t": {**VARIABLE, "dimension_names": [None]}}}  # type: ignore[list-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-assignment]  # ty: ignore[invalid-argument-type]
null_name_model = models.XarrayDataset(
    attributes={},
    members={
        "t": models.Variable(
            attributes={},
            shape=(2,),
            data_type="float32",
            chunk_grid="regular",
            chunk_key_encoding="default",
            fill_value=0,
            codecs=("bytes",),
            storage_transformers=None,
            dimension_names=(None,),  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # pyrefly: ignore[bad-argument-type]  # ty: ignore[invalid-argument-type]
        )
    },
)
