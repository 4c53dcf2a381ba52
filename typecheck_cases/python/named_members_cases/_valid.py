"""Valid pieces of named-members documents and models (tests/cases/named-members/schema.json);
each negative case changes one thing."""

from collections.abc import Mapping

from named_members import documents, models

LEVEL: documents.Level = {
    "zarr_format": 3,
    "node_type": "array",
    "attributes": {},
    "shape": [2, 2],
    "data_type": "uint16",
    "chunk_grid": "regular",
    "chunk_key_encoding": "default",
    "fill_value": 0,
    "codecs": ["bytes"],
}
IMAGE: documents.Image = {
    "zarr_format": 3,
    "node_type": "group",
    "attributes": {},
    "members": {"0": LEVEL},
}
LABELS: documents.Labels = {
    "zarr_format": 3,
    "node_type": "group",
    "attributes": {"labels": ["cells"]},
    "members": {},
}

LEVEL_MODEL = models.Level(
    attributes={},
    shape=(2, 2),
    data_type="uint16",
    chunk_grid="regular",
    chunk_key_encoding="default",
    fill_value=0,
    codecs=("bytes",),
    storage_transformers=None,
    dimension_names=None,
)
NO_ATTRIBUTES: models.JsonObject = {}
NO_MEMBERS: Mapping[str, models.AnyNode] = {}
GROUP_MODEL = models.GroupSpec(attributes=NO_ATTRIBUTES, members=NO_MEMBERS)
