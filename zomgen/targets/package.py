"""A package's files from its targets: the one place that puts a package together.

`schema.json` (the bundled schema, which both run times read) belongs to no target; every
target's files are added beside it, in the targets' order, and the names are sorted so that the
same schema gives the same package whatever order the targets ran in. Two targets writing the
same file would leave one of them silently half-written, so that is refused (a zomgen bug, not
the user's input). The manifest of the files written is added when the package is written
(write.py), where the files a build no longer generates are known.
"""

from __future__ import annotations

from collections.abc import Sequence

from zomgen.targets.target import Build, Target

SCHEMA_FILE = "schema.json"


def assemble(build: Build, targets: Sequence[Target]) -> dict[str, str]:
    files = {SCHEMA_FILE: build.schema_text}
    owners = {SCHEMA_FILE: "the package"}
    for target in targets:
        name = type(target).__name__
        for path, text in target.files(build).items():
            if path in files:
                raise ValueError(f"{name} writes {path}, which {owners[path]} writes too")
            files[path] = text
            owners[path] = name
    return dict(sorted(files.items()))
