"""Negative: a model's members and attributes are read-only `Mapping`s."""

from xarray_v3 import models

from ._valid import VARIABLE_MODEL

dataset = models.XarrayDataset(attributes={}, members={"t": VARIABLE_MODEL})
dataset.members["u"] = VARIABLE_MODEL  # type: ignore[index]  # pyright: ignore[reportIndexIssue]  # pyrefly: ignore[unsupported-operation]  # ty: ignore[invalid-assignment]
dataset.attributes["title"] = "changed"  # type: ignore[index]  # pyright: ignore[reportIndexIssue]  # pyrefly: ignore[unsupported-operation]  # ty: ignore[invalid-assignment]
