"""Negative: models are frozen dataclasses, the root, its attributes and each transform."""

from tagged_union import models

from ._valid import IDENTITY, transformed

array = transformed(models.TransformedAttributes(transform=IDENTITY))
array.shape = (3,)  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]  # pyrefly: ignore[read-only]  # ty: ignore[invalid-assignment]
array.attributes.transform = models.TransformScale(type="scale", scale=(2.0,))  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]  # pyrefly: ignore[read-only]  # ty: ignore[invalid-assignment]
IDENTITY.type = "identity"  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]  # pyrefly: ignore[read-only]  # ty: ignore[invalid-assignment]
