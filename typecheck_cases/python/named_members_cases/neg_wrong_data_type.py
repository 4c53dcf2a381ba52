"""Negative: a level's data type is narrowed to the `enum` "uint8", "uint16"."""

from named_members import documents, models

from ._valid import IMAGE, LEVEL

float64: documents.Image = {**IMAGE, "members": {"0": {**LEVEL, "data_type": "float64"}}}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]  # pyrefly: ignore[bad-assignment]  # ty: ignore[invalid-argument-type]
float64_model = models.Image(
    attributes={},
    members={
        "0": models.Level(
            attributes={},
            shape=(2, 2),
            data_type="float64",  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # pyrefly: ignore[bad-argument-type]  # ty: ignore[invalid-argument-type]
            chunk_grid="regular",
            chunk_key_encoding="default",
            fill_value=0,
            codecs=("bytes",),
            storage_transformers=None,
            dimension_names=None,
        )
    },
)
