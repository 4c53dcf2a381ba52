"""Negative: v3 node metadata is closed: a key the core spec does not name must be an extension
object with `"must_understand": false` (ZEP 9), so `"colour": "red"` is refused, on the image and
on a named member."""

from named_members import documents, models

from ._valid import IMAGE, LEVEL, LEVEL_MODEL

colour: documents.Image = {**IMAGE, "colour": "red"}  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-typed-dict-key]  # ty: ignore[unknown-typed-dict-constructor-key]
colour_0: documents.Image = {**IMAGE, "members": {"0": {**LEVEL, "colour": "red"}}}  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-typed-dict-key]  # ty: ignore[unknown-typed-dict-constructor-key]
colour_model = models.Image(attributes={}, members={"0": LEVEL_MODEL}, colour="red")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]  # pyrefly: ignore[unexpected-keyword]  # ty: ignore[unknown-argument]
