"""Valid pieces of xarray-v2 documents and models; each negative case changes one thing."""

from xarray_v2 import documents, models

DATASET: documents.XarrayDataset = {"zarr_format": 2, "attributes": {}, "members": {}}
VARIABLE: documents.Variable = {
    "zarr_format": 2,
    "attributes": {"_ARRAY_DIMENSIONS": ["x"]},
    "shape": [2],
    "chunks": [2],
    "dtype": "<f8",
    "compressor": None,
    "fill_value": 0,
    "order": "C",
    "filters": None,
}


def variable(attributes: models.VariableAttributes) -> models.Variable:
    """A one-dimensional variable with the given attributes."""
    return models.Variable(
        attributes=attributes,
        shape=(2,),
        chunks=(2,),
        dtype="<f8",
        compressor=None,
        fill_value=0,
        order="C",
        filters=None,
        dimension_separator=None,
    )


ATTRIBUTES = models.VariableAttributes(ARRAY_DIMENSIONS=("x",))
