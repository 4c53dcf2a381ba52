"""Positive: named members are typed per name; the narrowed data type is a Literal."""

from typing import Literal, assert_type

import named_members
from named_members import documents, models

from ._levels import LEVEL_DOC, level

image_doc: documents.Image = {
    "zarr_format": 3,
    "node_type": "group",
    "attributes": {},
    "members": {"0": LEVEL_DOC},
}
image = named_members.parse(image_doc)
assert_type(image.members["0"], models.Level)
assert_type(image.members["0"].data_type, Literal["uint8", "uint16"])
built = models.Image(attributes={}, members={"0": level()})
assert_type(built.members["0"].shape, tuple[int, ...])
