"""Negative: models are frozen dataclasses, the root and every node and attribute object."""

from xarray_v2 import models

from ._valid import ATTRIBUTES, variable

dataset = models.XarrayDataset(attributes={}, members={"t": variable(ATTRIBUTES)})
dataset.attributes = {"title": "changed"}  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]  # pyrefly: ignore[read-only]  # ty: ignore[invalid-assignment]
dataset.members["t"].order = "F"  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]  # pyrefly: ignore[read-only]  # ty: ignore[invalid-assignment]
dataset.members["t"].attributes.ARRAY_DIMENSIONS = ("y",)  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]  # pyrefly: ignore[read-only]  # ty: ignore[invalid-assignment]
