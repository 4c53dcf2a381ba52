"""Negative: the attributes and every transform are closed (`additionalProperties: false`)."""

from tagged_union import documents, models

from ._valid import IDENTITY, TRANSFORMED, transformed

colour: documents.Transformed = {**TRANSFORMED, "attributes": {"transform": {"type": "identity"}, "colour": "red"}}  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-typed-dict-key]  # ty: ignore[unknown-typed-dict-constructor-key]
# In a union, mypy reports the literal as fitting no branch (typeddict-item), not the key.
coloured_identity: documents.Transformed = {**TRANSFORMED, "attributes": {"transform": {"type": "identity", "colour": "red"}}}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-assignment]  # ty: ignore[invalid-argument-type]
colour_model = transformed(models.TransformedAttributes(transform=IDENTITY, colour="red"))  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]  # pyrefly: ignore[unexpected-keyword]  # ty: ignore[unknown-argument]
coloured_identity_model = transformed(models.TransformedAttributes(transform=models.Identity(type="identity", colour="red")))  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]  # pyrefly: ignore[unexpected-keyword]  # ty: ignore[unknown-argument]
