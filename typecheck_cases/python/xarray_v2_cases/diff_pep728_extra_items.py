"""Where the checkers differ: reading an extra attribute of an open object (PEP 728 `extra_items`).

A variable's attributes are open; `VariableAttributes` declares that with `extra_items`. Every
checker accepts documents with extra attributes (pos_documents_and_models.py), and pyright,
pyrefly and ty read one as `JsonValue`. mypy 2.4.1, which has no PEP 728, reads the attributes as
their listed keys or a dict of any of their value types (docs/exact-types.md): it rejects reading
an extra key by subscript (`typeddict-item`, from the listed keys), and its value is any of the
value types for it, `list[str]` too (`assignment`). Each line with a mypy ignore is one mypy
rejects; no other ignore: pyright, pyrefly and ty accept every line. When mypy reads these lines
as the others do its ignores go unused and fail the run, and this file becomes a plain positive.
"""

from xarray_v2 import documents

from ._valid import DATASET, VARIABLE

units: documents.XarrayDataset = {**DATASET, "members": {"t": {**VARIABLE, "attributes": {"_ARRAY_DIMENSIONS": ["x"], "units": "K"}}}}
attributes = units["members"]["t"]["attributes"]
units_value: documents.JsonValue = attributes["units"]  # type: ignore[typeddict-item]
