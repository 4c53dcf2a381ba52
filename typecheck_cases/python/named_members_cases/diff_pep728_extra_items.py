"""Where the checkers differ: reading a member other than "0" and "labels" (PEP 728 `extra_items`).

Members other than "0" and "labels" are levels (`additionalProperties`); `ImageMembers` declares
that with `extra_items`. Every checker accepts groups with such members (pos_named_members.py),
and pyright, pyrefly and ty read one as a `Level`, in a document and in a model. mypy 2.4.1,
which has no PEP 728, reads the members as their listed names (docs/exact-types.md): it
rejects reading another member by subscript (`typeddict-item`). Each line with a mypy ignore is
one mypy rejects; no other ignore: pyright, pyrefly and ty accept every line. When mypy
reads these lines as the others do its ignores go unused and fail the run, and this file becomes
a plain positive.
"""

import named_members
from named_members import documents, models

from ._valid import IMAGE, LEVEL

two_levels: documents.Image = {**IMAGE, "members": {"0": LEVEL, "1": LEVEL}}
level_1_document: documents.Level = two_levels["members"]["1"]  # type: ignore[typeddict-item]
level_1: models.Level = named_members.parse(two_levels).members["1"]  # type: ignore[typeddict-item]
