"""Negative: models are frozen dataclasses, the root and every node."""

from xarray_v3 import models

from ._valid import VARIABLE_MODEL

dataset = models.XarrayDataset(attributes={}, members={"t": VARIABLE_MODEL})
dataset.members = {}  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]  # pyrefly: ignore[read-only]  # ty: ignore[invalid-assignment]
dataset.members["t"].dimension_names = ("y",)  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]  # pyrefly: ignore[read-only]
