"""Negative: models are frozen, down to the group's own fields."""

from xarray_v3 import models

dataset = models.XarrayDataset(attributes={}, members={})
dataset.members = {}  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]
