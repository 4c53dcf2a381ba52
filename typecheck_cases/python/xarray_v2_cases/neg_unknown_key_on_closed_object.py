"""Negative: a v2 array's metadata is closed (`additionalProperties: false` in the base)."""

from xarray_v2 import documents, models

from ._valid import ATTRIBUTES, DATASET, VARIABLE

colour: documents.XarrayDataset = {**DATASET, "members": {"t": {**VARIABLE, "colour": "red"}}}  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-typed-dict-key]  # ty: ignore[invalid-argument-type, unknown-typed-dict-constructor-key]
colour_model = models.XarrayDataset(
    attributes={},
    members={
        "t": models.Variable(colour="red",  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]  # pyrefly: ignore[unexpected-keyword]  # ty: ignore[unknown-argument]
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
