"""Negative: models are frozen."""

from xarray_v2 import models

attrs = models.VariableAttributes(ARRAY_DIMENSIONS=("x",))
attrs.ARRAY_DIMENSIONS = ("y",)  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]
