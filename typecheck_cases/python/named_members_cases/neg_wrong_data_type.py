"""Negative: a level's data type is "uint8" or "uint16", nothing else."""

from named_members import documents, models

from ._levels import LEVEL_DOC

level = models.Level(
    attributes={},
    shape=(2, 2),
    data_type="float64",  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    chunk_grid="regular",
    chunk_key_encoding="default",
    fill_value=0,
    codecs=("bytes",),
    storage_transformers=None,
    dimension_names=None,
)
level_doc: documents.Level = {**LEVEL_DOC, "data_type": "float64"}  # type: ignore[typeddict-item]  # pyright: ignore[reportAssignmentType]
