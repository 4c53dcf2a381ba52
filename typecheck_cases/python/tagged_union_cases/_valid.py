"""Valid pieces of tagged-union documents and models (tests/cases/oneof-tagged-union);
each negative case changes one thing."""

from tagged_union import documents, models

TRANSFORMED: documents.Transformed = {
    "zarr_format": 3,
    "node_type": "array",
    "attributes": {"transform": {"type": "identity"}},
    "shape": [2],
    "data_type": "float32",
    "chunk_grid": "regular",
    "chunk_key_encoding": "default",
    "fill_value": 0,
    "codecs": ["bytes"],
}


def transformed(attributes: models.TransformedAttributes) -> models.Transformed:
    """A one-dimensional array with the given attributes."""
    return models.Transformed(
        attributes=attributes,
        shape=(2,),
        data_type="float32",
        chunk_grid="regular",
        chunk_key_encoding="default",
        fill_value=0,
        codecs=("bytes",),
        storage_transformers=None,
        dimension_names=None,
    )


IDENTITY = models.Identity(type="identity")
