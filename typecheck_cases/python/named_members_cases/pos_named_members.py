"""Positive: named members are typed per name; a level's narrowed data type is a `Literal`."""

from typing import Literal, assert_type

import named_members
from named_members import documents, models

from ._valid import IMAGE, LABELS, LEVEL, LEVEL_MODEL

with_labels: documents.Image = {**IMAGE, "members": {"0": LEVEL, "labels": LABELS}}
image = named_members.parse(with_labels)
assert_type(image, models.Image)
assert_type(image.members["0"], models.Level)
assert_type(image.members["0"].data_type, Literal["uint8", "uint16"])
assert_type(image.members.get("labels"), models.Labels | None)
labels = image.members.get("labels")
if labels is not None:
    assert_type(labels.attributes.labels, tuple[str, ...])
assert_type(named_members.dump(image), documents.Image)
assert_type(named_members.dump(image)["members"]["0"]["data_type"], Literal["uint8", "uint16"])

built = models.Image(attributes={}, members={"0": LEVEL_MODEL})
assert_type(built.members["0"].shape, tuple[int, ...])
# A node is its generic base, with its narrowed attribute and member types.
base: models.GroupSpec[models.JsonObject, models.ImageMembers] = built
level_base: models.ArraySpec[models.JsonObject] = LEVEL_MODEL
