"""Positive: a `oneOf` tagged by `type` is a union of per-tag types."""

from typing import assert_type

from tagged_union import documents, models

attrs_doc: documents.TransformedAttributes = {"transform": {"type": "scale", "scale": [1.0, 2.0]}}
attrs = models.TransformedAttributes(transform=models.Identity(type="identity"))
assert_type(attrs.transform, models.TransformScale | models.TransformTranslation | models.Identity)
