"""Negative: `_ARRAY_DIMENSIONS` is required in every variable's attributes."""

from xarray_v2 import documents, models

from ._valid import DATASET, VARIABLE, variable

no_dimensions: documents.XarrayDataset = {**DATASET, "members": {"t": {**VARIABLE, "attributes": {}}}}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-typed-dict-key]  # ty: ignore[invalid-argument-type, missing-typed-dict-key]
no_dimensions_model = models.XarrayDataset(attributes={}, members={"t": variable(models.VariableAttributes())})  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]  # pyrefly: ignore[missing-argument]  # ty: ignore[missing-argument]
