"""Negative: every member of an xarray dataset is a variable (an array), never a group."""

from collections.abc import Mapping

from xarray_v2 import documents, models

from ._valid import DATASET

group_member: documents.XarrayDataset = {**DATASET, "members": {"g": {"zarr_format": 2, "attributes": {}, "members": {}}}}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-typed-dict-key]  # ty: ignore[invalid-argument-type, missing-typed-dict-key, unknown-typed-dict-constructor-key]
no_attributes: models.JsonObject = {}
no_members: Mapping[str, models.AnyNode] = {}
group_member_model = models.XarrayDataset(attributes={}, members={"g": models.GroupSpec(attributes=no_attributes, members=no_members)})  # type: ignore[dict-item]  # pyright: ignore[reportArgumentType]  # pyrefly: ignore[bad-assignment]  # ty: ignore[invalid-argument-type]
