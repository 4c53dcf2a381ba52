"""Negative: every member of an xarray dataset is a variable (an array), never a group."""

from xarray_v3 import documents, models

from ._valid import DATASET, GROUP, GROUP_MODEL

group_member: documents.XarrayDataset = {**DATASET, "members": {"g": GROUP}}  # type: ignore[dict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-assignment]  # ty: ignore[invalid-argument-type]
group_member_literal: documents.XarrayDataset = {**DATASET, "members": {"g": {"zarr_format": 3, "node_type": "group", "attributes": {}, "members": {}}}}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-assignment, bad-typed-dict-key]  # ty: ignore[invalid-argument-type, missing-typed-dict-key, unknown-typed-dict-constructor-key]
group_member_model = models.XarrayDataset(attributes={}, members={"g": GROUP_MODEL})  # type: ignore[dict-item]  # pyright: ignore[reportArgumentType]  # pyrefly: ignore[bad-assignment]  # ty: ignore[invalid-argument-type]
