"""Negative: models are frozen dataclasses, the root, its named members and their attributes."""

from named_members import models

from ._valid import LEVEL_MODEL

labels = models.Labels(attributes=models.LabelsAttributes(labels=("cells",)), members={})
image = models.Image(attributes={}, members={"0": LEVEL_MODEL, "labels": labels})
image.members = {"0": LEVEL_MODEL}  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]  # pyrefly: ignore[read-only]  # ty: ignore[invalid-assignment]
image.members["0"].data_type = "uint8"  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]  # pyrefly: ignore[read-only]  # ty: ignore[invalid-assignment]
labels.attributes.labels = ()  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]  # pyrefly: ignore[read-only]  # ty: ignore[invalid-assignment]
