"""Negative: a v2 array may not hold `node_type`, a v3 key (false in the v2 base)."""

from xarray_v2 import documents, models

from ._valid import ATTRIBUTES, DATASET, VARIABLE

node_type: documents.XarrayDataset = {**DATASET, "members": {"t": {**VARIABLE, "node_type": "array"}}}  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-typed-dict-key]  # ty: ignore[invalid-argument-type, unknown-typed-dict-constructor-key]
node_type_model = models.XarrayDataset(
    attributes={},
    members={
        "t": models.Variable(node_type="array",  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]  # pyrefly: ignore[unexpected-keyword]  # ty: ignore[unknown-argument]
            attributes=ATTRIBUTES,
            shape=(2,),
            chunks=(2,),
            dtype="<f8",
            compressor=None,
            fill_value=0,
            order="C",
            filters=None,
            dimension_separator=None,
        )
    },
)
