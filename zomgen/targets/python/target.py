"""The Python target: the package's Python half (files.py), and with `--vendor-runtime` the
copy of zomgen-runtime as `_runtime/`."""

from __future__ import annotations

from zomgen.targets.python.files import python_files
from zomgen.targets.shipped import runtime_files
from zomgen.targets.target import Build


class PythonTarget:
    """models.py, documents.py, _convert.py, __init__.py, README.md and py.typed."""

    def files(self, build: Build) -> dict[str, str]:
        files = python_files(build.hierarchy, build.package, build.runtime)
        if build.runtime.vendored:
            files |= runtime_files()
        return files
