"""Negative: the attributes must hold a `transform` (`required`)."""

from tagged_union import documents, models

from ._valid import TRANSFORMED, transformed

no_transform: documents.Transformed = {**TRANSFORMED, "attributes": {}}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-typed-dict-key]  # ty: ignore[missing-typed-dict-key]
no_transform_model = transformed(models.TransformedAttributes())  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]  # pyrefly: ignore[missing-argument]  # ty: ignore[missing-argument]
