"""Negative: a model's members are a read-only `Mapping`; no member can be added or replaced."""

from xarray_v2 import models

from ._valid import ATTRIBUTES, variable

dataset = models.XarrayDataset(attributes={}, members={"t": variable(ATTRIBUTES)})
dataset.members["u"] = variable(ATTRIBUTES)  # type: ignore[index]  # pyright: ignore[reportIndexIssue]  # pyrefly: ignore[unsupported-operation]  # ty: ignore[invalid-assignment]
