"""Negative: every member of an xarray dataset is a variable (an array), never a group."""

from collections.abc import Mapping

from xarray_v3 import documents, models

no_attributes: models.JsonObject = {}
no_members: Mapping[str, models.AnyNode] = {}
group = models.GroupSpec(attributes=no_attributes, members=no_members)
dataset = models.XarrayDataset(attributes={}, members={"g": group})  # type: ignore[dict-item]  # pyright: ignore[reportArgumentType]

dataset_doc: documents.XarrayDataset = {
    "zarr_format": 3,
    "node_type": "group",
    "attributes": {},
    "members": {"g": {"zarr_format": 3, "node_type": "group", "attributes": {}, "members": {}}},  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]
}
