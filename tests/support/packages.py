"""Packages zomgen built into a folder, imported without putting the folder on `sys.path`: the
package is loaded from its `__init__.py` and registered under its name (its relative imports,
and `importlib.import_module("<name>.documents")`, then work), and forgotten afterwards, so
that a later test may build another package of the same name."""

from __future__ import annotations

import contextlib
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType


def import_package(folder: Path, name: str) -> ModuleType:
    """`folder/name` as the package `name` (the one already imported from there, if any)."""
    init = folder / name / "__init__.py"
    known = sys.modules.get(name)
    if known is not None and Path(known.__file__ or "") == init:
        return known
    forget(name)
    spec = importlib.util.spec_from_file_location(
        name, init, submodule_search_locations=[str(init.parent)]
    )
    assert spec is not None and spec.loader is not None, init
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        forget(name)
        raise
    return module


def forget(*names: str) -> None:
    """Each package and every module of it, out of `sys.modules`."""
    prefixes = tuple(f"{name}." for name in names)
    for module in [m for m in sys.modules if m in names or m.startswith(prefixes)]:
        del sys.modules[module]


@contextlib.contextmanager
def imported(folder: Path, *names: str) -> Iterator[list[ModuleType]]:
    """The packages `folder/<name>` for the length of a `with` block."""
    try:
        yield [import_package(folder, name) for name in names]
    finally:
        forget(*names)
