"""Where the checkers differ: PEP 728 `extra_items` on open objects.

Members other than "0" and "labels" are levels (`additionalProperties`), and a labels group's
attributes are open; `ImageMembers` and `LabelsAttributes` declare that with `extra_items`. Every
document and model here is valid (run time, pyright, pyrefly, ty); each line with a mypy ignore
is one mypy 2.4.1 rejects as it does not read `extra_items` (`typeddict-unknown-key`). No other
ignore: pyright, pyrefly and ty accept every line. When mypy learns PEP 728 its ignores go unused
and fail the run, and this file becomes a plain positive.
"""

from typing import assert_type

from named_members import documents, models

from ._valid import IMAGE, LABELS, LEVEL, LEVEL_MODEL

two_levels: documents.Image = {**IMAGE, "members": {"0": LEVEL, "1": LEVEL}}  # type: ignore[typeddict-unknown-key]
labelled: documents.Image = {**IMAGE, "members": {"0": LEVEL, "labels": {**LABELS, "attributes": {"labels": ["cells"], "colour": "red"}}}}  # type: ignore[typeddict-unknown-key]
two_levels_model = models.Image(attributes={}, members={"0": LEVEL_MODEL, "1": LEVEL_MODEL})  # type: ignore[typeddict-unknown-key]
level_1: models.Level = two_levels_model.members["1"]  # type: ignore[typeddict-item]
assert_type(two_levels_model.members["0"], models.Level)
