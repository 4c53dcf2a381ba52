"""Negative: `zarr_format` is the `const` 3 and a variable's `node_type` the `const` "array"."""

from xarray_v3 import documents, models

from ._valid import DATASET, VARIABLE

format_2: documents.XarrayDataset = {**DATASET, "zarr_format": 2}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-assignment]  # ty: ignore[invalid-argument-type]
node_type_group: documents.XarrayDataset = {**DATASET, "members": {"t": {**VARIABLE, "node_type": "group"}}}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-assignment]  # ty: ignore[invalid-argument-type]

format_2_model = models.XarrayDataset(zarr_format=2, attributes={}, members={})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # pyrefly: ignore[bad-argument-type]  # ty: ignore[invalid-argument-type]
node_type_group_model = models.XarrayDataset(
    attributes={},
    members={
        "t": models.Variable(
            node_type="group",  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # pyrefly: ignore[bad-argument-type]  # ty: ignore[invalid-argument-type]
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
    },
)
