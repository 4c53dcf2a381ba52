"""Where the checkers differ: PEP 728 `extra_items` on open objects.

Every document here is valid (run time, pyright, pyrefly, ty); each line with a mypy ignore is one
mypy 2.4.1 rejects as it does not read `extra_items` (`typeddict-unknown-key`). No other ignore:
pyright, pyrefly and ty accept every line. When mypy learns PEP 728 its
ignores go unused and fail the run, and this file becomes a plain positive.
"""

from xarray_v2 import documents

from ._valid import DATASET, VARIABLE

units: documents.XarrayDataset = {**DATASET, "members": {"t": {**VARIABLE, "attributes": {"_ARRAY_DIMENSIONS": ["x"], "units": "K"}}}}  # type: ignore[typeddict-unknown-key]
attributes = units["members"]["t"]["attributes"]
units_value: documents.JsonValue = attributes["units"]  # type: ignore[typeddict-item]
