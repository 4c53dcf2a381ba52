"""Negative: the member "0" is required."""

from named_members import documents, models

image = models.Image(attributes={}, members={})  # type: ignore[typeddict-item]  # pyright: ignore[reportArgumentType]
image_doc: documents.Image = {
    "zarr_format": 3,
    "node_type": "group",
    "attributes": {},
    "members": {},  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]
}
