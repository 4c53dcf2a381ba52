"""Negative: the attributes and every transform are closed (`additionalProperties: false`)."""

from tagged_union import documents, models

from ._valid import IDENTITY, TRANSFORMED, transformed

colour: documents.Transformed = {**TRANSFORMED, "attributes": {"transform": {"type": "identity"}, "colour": "red"}}  # type: ignore[typeddict-unknown-key]  # pyright: ignore[reportAssignmentType]
# In a union, mypy reports the literal as fitting no branch (typeddict-item), not the key.
coloured_identity: documents.Transformed = {**TRANSFORMED, "attributes": {"transform": {"type": "identity", "colour": "red"}}}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]
colour_model = transformed(models.TransformedAttributes(transform=IDENTITY, colour="red"))  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
coloured_identity_model = transformed(models.TransformedAttributes(transform=models.Identity(type="identity", colour="red")))  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
