"""Negative: `zarr_format` is the `const` 2; `order` is one of the `enum` "C", "F"."""

from xarray_v2 import documents, models

from ._valid import ATTRIBUTES, DATASET, VARIABLE

format_3: documents.XarrayDataset = {**DATASET, "zarr_format": 3}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-assignment]  # ty: ignore[invalid-argument-type]
order_z: documents.XarrayDataset = {**DATASET, "members": {"t": {**VARIABLE, "order": "Z"}}}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-assignment]  # ty: ignore[invalid-argument-type]

format_3_model = models.XarrayDataset(zarr_format=3, attributes={}, members={})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # pyrefly: ignore[bad-argument-type]  # ty: ignore[invalid-argument-type]
order_z_model = models.XarrayDataset(
    attributes={},
    members={
        "t": models.Variable(
            attributes=ATTRIBUTES,
            shape=(2,),
            chunks=(2,),
            dtype="<f8",
            compressor=None,
            fill_value=0,
            order="Z",  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # pyrefly: ignore[bad-argument-type]  # ty: ignore[invalid-argument-type]
            filters=None,
            dimension_separator=None,
        )
    },
)
