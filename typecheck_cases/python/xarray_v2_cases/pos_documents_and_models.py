"""Positive: valid xarray-v2 documents and models type-check, with the types users rely on.

A variable's attributes are open (PEP 728 `extra_items`): pyright, pyrefly and ty read their
listed keys precisely; mypy, which has no PEP 728, reads them as the listed keys or a dict of any
of their value types (docs/exact-types.md), so a listed attribute of a document is typed under
`if not MYPY:`, which mypy skips (it reads a name `MYPY` as True) and the other checkers check.
"""

from collections.abc import Mapping
from typing import assert_type

import xarray_v2
from xarray_v2 import documents, models

from ._valid import ATTRIBUTES, DATASET, VARIABLE, variable

MYPY = False

dataset_doc: documents.XarrayDataset = {**DATASET, "members": {"t": VARIABLE}}
dataset = xarray_v2.parse(dataset_doc)
assert_type(dataset, models.XarrayDataset)
assert_type(dataset.members["t"], models.Variable)
assert_type(dataset.members["t"].attributes.ARRAY_DIMENSIONS, tuple[str, ...])
assert_type(dataset.members["t"].attributes.extras, Mapping[str, models.JsonValue])
assert_type(dataset.members["t"].shape, tuple[int, ...])
assert_type(xarray_v2.dump(dataset), documents.XarrayDataset)
if not MYPY:
    assert_type(xarray_v2.dump(dataset)["members"]["t"]["attributes"]["_ARRAY_DIMENSIONS"], list[str])
# Other attributes are valid for every checker.
units: documents.XarrayDataset = {**DATASET, "members": {"t": {**VARIABLE, "attributes": {"_ARRAY_DIMENSIONS": ["x"], "units": "K"}}}}

# Unknown attributes of the open attributes object are kept in `extras`.
with_units = variable(models.VariableAttributes(ARRAY_DIMENSIONS=("x",), extras={"units": "K"}))
built = models.XarrayDataset(attributes={"title": "demo"}, members={"t": with_units})
# A node is its generic base, with its narrowed attribute and member types.
base: models.GroupSpec[models.JsonObject, Mapping[str, models.ArraySpec[models.VariableAttributes]]]
base = built
array_base: models.ArraySpec[models.VariableAttributes] = variable(ATTRIBUTES)
