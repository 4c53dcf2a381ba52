"""Valid pieces of xarray-v3 documents and models; each negative case changes one thing."""

from collections.abc import Mapping

from xarray_v3 import documents, models

DATASET: documents.XarrayDataset = {
    "zarr_format": 3,
    "node_type": "group",
    "attributes": {},
    "members": {},
}
VARIABLE: documents.Variable = {
    "zarr_format": 3,
    "node_type": "array",
    "attributes": {},
    "shape": [2],
    "data_type": "float32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
    "chunk_key_encoding": {"name": "default"},
    "fill_value": 0,
    "codecs": ["bytes"],
    "dimension_names": ["x"],
}
GROUP: documents.GroupSpec[documents.JsonObject, dict[str, documents.AnyNode]] = {
    "zarr_format": 3,
    "node_type": "group",
    "attributes": {},
    "members": {},
}

NO_ATTRIBUTES: models.JsonObject = {}
NO_MEMBERS: Mapping[str, models.AnyNode] = {}
GROUP_MODEL = models.GroupSpec(attributes=NO_ATTRIBUTES, members=NO_MEMBERS)
VARIABLE_MODEL = models.Variable(
    attributes={},
    shape=(2,),
    data_type="float32",
    chunk_grid="regular",
    chunk_key_encoding="default",
    fill_value=0,
    codecs=("bytes",),
    storage_transformers=None,
    dimension_names=("x",),
)
