"""Negative: the named member "0" is a level (an array), never a group."""

from named_members import documents, models

from ._valid import GROUP_MODEL, IMAGE, LABELS

group_0: documents.Image = {**IMAGE, "members": {"0": LABELS}}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-assignment]  # ty: ignore[invalid-argument-type]
group_0_literal: documents.Image = {**IMAGE, "members": {"0": {"zarr_format": 3, "node_type": "group", "attributes": {}, "members": {}}}}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-assignment, bad-typed-dict-key]  # ty: ignore[invalid-argument-type, missing-typed-dict-key, unknown-typed-dict-constructor-key]
group_0_model = models.Image(attributes={}, members={"0": GROUP_MODEL})  # type: ignore[typeddict-item]  # pyright: ignore[reportArgumentType]  # pyrefly: ignore[bad-assignment]  # ty: ignore[invalid-argument-type]
