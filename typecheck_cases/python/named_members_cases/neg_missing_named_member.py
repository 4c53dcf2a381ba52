"""Negative: the member "0" is required (`members.required` in the schema)."""

from named_members import documents, models

from ._valid import IMAGE, LABELS

no_members: documents.Image = {**IMAGE, "members": {}}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-typed-dict-key]  # ty: ignore[missing-typed-dict-key]
only_labels: documents.Image = {**IMAGE, "members": {"labels": LABELS}}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-typed-dict-key]  # ty: ignore[missing-typed-dict-key]
no_members_model = models.Image(attributes={}, members={})  # type: ignore[typeddict-item]  # pyright: ignore[reportArgumentType]  # pyrefly: ignore[bad-typed-dict-key]  # ty: ignore[invalid-argument-type, missing-typed-dict-key]
only_labels_model = models.Image(attributes={}, members={"labels": models.Labels(attributes=models.LabelsAttributes(labels=("cells",)), members={})})  # type: ignore[typeddict-item]  # pyright: ignore[reportArgumentType]  # pyrefly: ignore[bad-typed-dict-key]  # ty: ignore[invalid-argument-type, missing-typed-dict-key]
