"""Negative: `_ARRAY_DIMENSIONS` is required on every variable's attributes."""

from xarray_v2 import documents, models

attrs_doc: documents.VariableAttributes = {}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]
attrs = models.VariableAttributes()  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
