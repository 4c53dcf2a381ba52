"""Negative: every xarray-v3 variable has `dimension_names` (required by the convention)."""

from xarray_v3 import documents, models

from ._valid import DATASET

no_names: documents.XarrayDataset = {**DATASET, "members": {"t": {  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-typed-dict-key]  # ty: ignore[invalid-argument-type, missing-typed-dict-key]
    "zarr_format": 3,
    "node_type": "array",
    "attributes": {},
    "shape": [2],
    "data_type": "float32",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
    "chunk_key_encoding": {"name": "default"},
    "fill_value": 0,
    "codecs": ["bytes"],
}}}
no_names_model = models.XarrayDataset(
    attributes={},
    members={
        "t": models.Variable(  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]  # pyrefly: ignore[missing-argument]  # ty: ignore[missing-argument]
            attributes={},
            shape=(2,),
            data_type="float32",
            chunk_grid="regular",
            chunk_key_encoding="default",
            fill_value=0,
            codecs=("bytes",),
            storage_transformers=None,
        )
    },
)
