"""Negative: the attributes object is closed (`additionalProperties: false`)."""

from tagged_union import documents, models

attrs_doc: documents.TransformedAttributes = {
    "transform": {"type": "identity"},
    "colour": "red",  # type: ignore[typeddict-unknown-key]  # pyright: ignore[reportAssignmentType]
}
attrs = models.TransformedAttributes(transform=models.Identity(type="identity"), colour="red")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
