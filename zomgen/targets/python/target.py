"""The Python target: the package's Python half (files.py), and with `--vendor-runtime` the
copy of zomgen-runtime as `_runtime/`."""

from __future__ import annotations

from zomgen.render import render
from zomgen.targets.python.files import python_files
from zomgen.targets.shipped import runtime_files
from zomgen.targets.target import Build, ReadmePart

# The package README's rows of this target's files.
_MODELS = (
    "frozen dataclasses: `ArraySpec[TAttrs]`, `GroupSpec[TAttrs, TMembers]`, one class per node "
    "and attribute object"
)
_DOCUMENTS = "TypedDicts of the JSON document, same names, original keys"
_INIT = "`load`, `validate`, `parse`, `dump`, `create`, `ZomError`, `Problem`"
_RUNTIME = "zomgen's Python run time (a copy of zomgen-runtime): readers, checks, writer"


class PythonTarget:
    """models.py, documents.py, _convert.py, __init__.py and py.typed."""

    def files(self, build: Build) -> dict[str, str]:
        files = python_files(build.hierarchy, build.package, build.runtime)
        if build.runtime.vendored:
            files |= runtime_files()
        return files

    def readme(self, build: Build) -> ReadmePart:
        rows = [("models.py", _MODELS), ("documents.py", _DOCUMENTS), ("__init__.py", _INIT)]
        if build.runtime.vendored:
            rows.append(("_runtime/", _RUNTIME))
        sections = render("python/README.md.j2", root=build.hierarchy.root, package=build.package)
        return ReadmePart(tuple(rows), sections)
