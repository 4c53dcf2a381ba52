"""Negative: a labels group's attributes must list its `labels`."""

from named_members import documents, models

attrs = models.LabelsAttributes()  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
attrs_doc: documents.LabelsAttributes = {}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]
