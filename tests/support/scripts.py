"""The project's scripts (scripts/*.py, not a package) as modules, without a `sys.path` edit."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from tests.support.paths import ROOT


def load_script(name: str) -> ModuleType:
    """scripts/<name>.py, imported once as the module `<name>` (as `python scripts/<name>.py`
    would run it)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module
