"""Positive: valid xarray-v2 documents and models type-check, with the types users rely on."""

from collections.abc import Mapping
from typing import assert_type

import xarray_v2
from xarray_v2 import documents, models

from ._valid import ATTRIBUTES, DATASET, VARIABLE, variable

dataset_doc: documents.XarrayDataset = {**DATASET, "members": {"t": VARIABLE}}
dataset = xarray_v2.parse(dataset_doc)
assert_type(dataset, models.XarrayDataset)
assert_type(dataset.members["t"], models.Variable)
assert_type(dataset.members["t"].attributes.ARRAY_DIMENSIONS, tuple[str, ...])
assert_type(dataset.members["t"].attributes.extras, Mapping[str, models.JsonValue])
assert_type(dataset.members["t"].shape, tuple[int, ...])
assert_type(xarray_v2.dump(dataset), documents.XarrayDataset)
assert_type(xarray_v2.dump(dataset)["members"]["t"]["attributes"]["_ARRAY_DIMENSIONS"], list[str])

# Unknown attributes of the open attributes object are kept in `extras`.
with_units = variable(models.VariableAttributes(ARRAY_DIMENSIONS=("x",), extras={"units": "K"}))
built = models.XarrayDataset(attributes={"title": "demo"}, members={"t": with_units})
# A node is its generic base, with its narrowed attribute and member types.
base: models.GroupSpec[models.JsonObject, Mapping[str, models.ArraySpec[models.VariableAttributes]]]
base = built
array_base: models.ArraySpec[models.VariableAttributes] = variable(ATTRIBUTES)
