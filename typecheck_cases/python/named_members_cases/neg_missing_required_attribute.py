"""Negative: a labels group's attributes must list its `labels` (`required`)."""

from named_members import documents, models

from ._valid import IMAGE, LABELS, LEVEL, LEVEL_MODEL

no_labels: documents.Image = {**IMAGE, "members": {"0": LEVEL, "labels": {**LABELS, "attributes": {}}}}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-typed-dict-key]  # ty: ignore[missing-typed-dict-key]
no_labels_model = models.Image(attributes={}, members={"0": LEVEL_MODEL, "labels": models.Labels(attributes=models.LabelsAttributes(), members={})})  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]  # pyrefly: ignore[missing-argument]  # ty: ignore[missing-argument]
