"""Negative: an image is a v3 group: `zarr_format` 3 and `node_type` "group" (`const`s)."""

from named_members import documents, models

from ._valid import IMAGE, LEVEL_MODEL

format_2: documents.Image = {**IMAGE, "zarr_format": 2}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-assignment]  # ty: ignore[invalid-argument-type]
node_type_array: documents.Image = {**IMAGE, "node_type": "array"}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-assignment]  # ty: ignore[invalid-argument-type]
format_2_model = models.Image(zarr_format=2, attributes={}, members={"0": LEVEL_MODEL})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # pyrefly: ignore[bad-argument-type]  # ty: ignore[invalid-argument-type]
node_type_array_model = models.Image(node_type="array", attributes={}, members={"0": LEVEL_MODEL})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # pyrefly: ignore[bad-argument-type]  # ty: ignore[invalid-argument-type]
