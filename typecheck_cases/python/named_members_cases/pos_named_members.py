"""Positive: named members are typed per name; a level's narrowed data type is a `Literal`; other
members (levels, by `additionalProperties`) and other attributes of the open labels attributes
are valid for every checker.

pyright, pyrefly and ty read `ImageMembers` as PEP 728 declares it: "0" is a `Level`, "labels" a
`Labels`. mypy, which has no PEP 728, reads it as its listed keys (docs/exact-types.md) and
reads other members with `.get()` only. The file narrows a member with `isinstance` (or its
`node_type`) before reading its fields, which every checker types the same, and asserts the
precise member types under `if not MYPY:`, which mypy skips (it reads a name `MYPY` as True) and
pyright, pyrefly and ty check.
"""

from typing import Literal, assert_type

import named_members
from named_members import documents, models

from ._valid import IMAGE, LABELS, LEVEL, LEVEL_MODEL

MYPY = False

with_labels: documents.Image = {**IMAGE, "members": {"0": LEVEL, "labels": LABELS}}
image = named_members.parse(with_labels)
assert_type(image, models.Image)
if not MYPY:
    assert_type(image.members["0"], models.Level)
    assert_type(image.members.get("labels"), models.Labels | None)
level = image.members["0"]
assert isinstance(level, models.Level)
assert_type(level.data_type, Literal["uint8", "uint16"])
labels = image.members.get("labels")
if isinstance(labels, models.Labels):
    assert_type(labels.attributes.labels, tuple[str, ...])
document = named_members.dump(image)
assert_type(document, documents.Image)
if not MYPY:
    assert_type(document["members"]["0"]["data_type"], Literal["uint8", "uint16"])
level_document = document["members"]["0"]
if level_document["node_type"] == "array":
    assert_type(level_document["data_type"], Literal["uint8", "uint16"])

built = models.Image(attributes={}, members={"0": LEVEL_MODEL})
built_level = built.members["0"]
assert isinstance(built_level, models.Level)
assert_type(built_level.shape, tuple[int, ...])
# A node is its generic base, with its narrowed attribute and member types.
base: models.GroupSpec[models.JsonObject, models.ImageMembers] = built
level_base: models.ArraySpec[models.JsonObject] = LEVEL_MODEL

# Other members are levels, and a labels group's attributes are open (PEP 728 `extra_items`;
# mypy reads the other keys as unknown keys, with that code off): every checker accepts both.
two_levels: documents.Image = {**IMAGE, "members": {"0": LEVEL, "1": LEVEL}}
labelled: documents.Image = {**IMAGE, "members": {"0": LEVEL, "labels": {**LABELS, "attributes": {"labels": ["cells"], "colour": "red"}}}}
two_levels_model = models.Image(attributes={}, members={"0": LEVEL_MODEL, "1": LEVEL_MODEL})
if not MYPY:
    assert_type(two_levels_model.members["0"], models.Level)
