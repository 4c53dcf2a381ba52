"""Negative: v3 node metadata is closed: a key the core spec does not name is an extension, and an
extension must be an object with `"must_understand": false` (ZEP 9), so `"colour": "red"` is
refused. Models keep extensions in `extensions`, never as keyword arguments."""

from xarray_v3 import documents, models

from ._valid import DATASET, VARIABLE

colour: documents.XarrayDataset = {**DATASET, "colour": "red"}  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-typed-dict-key]  # ty: ignore[unknown-typed-dict-constructor-key]
colour_variable: documents.XarrayDataset = {**DATASET, "members": {"t": {**VARIABLE, "colour": "red"}}}  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-typed-dict-key]  # ty: ignore[invalid-argument-type, unknown-typed-dict-constructor-key]
colour_model = models.XarrayDataset(attributes={}, members={}, colour="red")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]  # pyrefly: ignore[unexpected-keyword]  # ty: ignore[unknown-argument]
colour_variable_model = models.XarrayDataset(
    attributes={},
    members={
        "t": models.Variable(colour="red",  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]  # pyrefly: ignore[unexpected-keyword]  # ty: ignore[unknown-argument]
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
    },
)
