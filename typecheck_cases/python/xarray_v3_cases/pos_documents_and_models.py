"""Positive: valid xarray-v3 documents and models type-check, with the types users rely on."""

from collections.abc import Mapping
from typing import Literal, assert_type

import xarray_v3
from xarray_v3 import documents, models

from ._valid import DATASET, VARIABLE, VARIABLE_MODEL

dataset_doc: documents.XarrayDataset = {**DATASET, "members": {"t": VARIABLE}}
dataset = xarray_v3.parse(dataset_doc)
assert_type(dataset, models.XarrayDataset)
assert_type(dataset.members, Mapping[str, models.Variable])
assert_type(dataset.members["t"].dimension_names, tuple[str, ...])
assert_type(dataset.members["t"].node_type, Literal["array"])
assert_type(xarray_v3.dump(dataset), documents.XarrayDataset)
assert_type(xarray_v3.dump(dataset)["members"]["t"]["dimension_names"], list[str])

built = models.XarrayDataset(attributes={"title": "demo"}, members={"t": VARIABLE_MODEL})
# A node is its generic base, with its narrowed attribute and member types.
base: models.GroupSpec[models.JsonObject, Mapping[str, models.ArraySpec[models.JsonObject]]] = built


def reads_a_store() -> None:
    """Checked, never called: these read a store."""
    assert_type(xarray_v3.load("store.zarr"), models.XarrayDataset)
    assert_type(xarray_v3.validate("store.zarr"), list[xarray_v3.Problem])
