"""Negative: the tag of a transform is one of its `const`s."""

from tagged_union import documents, models

attrs_doc: documents.TransformedAttributes = {"transform": {"type": "rotate"}}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]
identity = models.Identity(type="rotate")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
