"""Negative: a transform's tag `type` is one of the branches' `const`s."""

from tagged_union import documents, models

from ._valid import TRANSFORMED, transformed

rotate: documents.Transformed = {**TRANSFORMED, "attributes": {"transform": {"type": "rotate"}}}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-assignment]  # ty: ignore[invalid-argument-type]
rotate_model = transformed(models.TransformedAttributes(transform=models.Identity(type="rotate")))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # pyrefly: ignore[bad-argument-type]  # ty: ignore[invalid-argument-type]
mislabelled_model = transformed(models.TransformedAttributes(transform=models.TransformScale(type="translation", scale=(2.0,))))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # pyrefly: ignore[bad-argument-type]  # ty: ignore[invalid-argument-type]
