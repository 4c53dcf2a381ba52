"""Shared valid values for the named-members cases (tests/cases/named-members/schema.json)."""

from named_members import documents, models


def level(data_type: str = "uint8") -> models.Level:
    return models.Level(
        attributes={},
        shape=(2, 2),
        data_type="uint8" if data_type == "uint8" else "uint16",
        chunk_grid="regular",
        chunk_key_encoding="default",
        fill_value=0,
        codecs=("bytes",),
        storage_transformers=None,
        dimension_names=None,
    )


LEVEL_DOC: documents.Level = {
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
