"""Positive: a `oneOf` tagged by `type` is a union of per-tag types, narrowed by its tag."""

from typing import Literal, assert_type

import tagged_union
from tagged_union import documents, models

from ._valid import TRANSFORMED

scaled: documents.Transformed = {**TRANSFORMED, "attributes": {"transform": {"type": "scale", "scale": [1.0, 2.0]}}}
array = tagged_union.parse(scaled)
assert_type(array, models.Transformed)
transform = array.attributes.transform
assert_type(transform, models.TransformScale | models.TransformTranslation | models.Identity)
if isinstance(transform, models.TransformScale):
    assert_type(transform.scale, tuple[float, ...])
assert_type(transform.type, Literal["scale", "translation", "identity"])

document_transform = scaled["attributes"]["transform"]
if document_transform["type"] == "translation":
    assert_type(document_transform, documents.TransformTranslation)
    assert_type(document_transform["translation"], list[float])
assert_type(tagged_union.dump(array), documents.Transformed)
base: models.ArraySpec[models.TransformedAttributes] = array
