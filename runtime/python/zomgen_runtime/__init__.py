"""zomgen's run-time loader: read Zarr v2/v3 stores into ZOM documents, check them against a
convention schema (JSON Schema plus zomgen's check keywords), report every problem, and write
metadata back.

This is the distribution `zomgen-runtime`, which every generated package imports (a package
built with `zomgen build --vendor-runtime` carries a copy as `_runtime/` instead). So it imports
nothing from zomgen, only relatively from itself; zarr, jsonschema and jsonschema-rs are imported
inside the functions that need them, never at import time.

Importing this package loads nothing else: each name is imported from its module on first use
(PEP 562), so `import <package>` of a generated package (which calls `require` below) stays
fast and a type-only user of its models never loads the reader, the checks or the writer.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .api import Checked, check_hierarchy, load_document, validate_store
    from .checks import MEMBER_KIND, MEMBER_NDIM_LENGTH, NDIM_LENGTH
    from .consolidating import consolidate_store
    from .diffs import Difference, diff, like
    from .members import MemberTree, named_member_tree
    from .problems import (
        INVALID,
        NOT_FULLY_CHECKED,
        VALID,
        NotFullyChecked,
        Problem,
        StoreError,
        Unchecked,
        ZomError,
        format_problems_text,
        problems_to_json,
        verdict,
    )
    from .reading import DEFAULT_MAX_DEPTH, Read, read_document, read_hierarchy
    from .validation import check_document, is_valid
    from .writing import write_document

# The distribution's version (semantic versioning). A generated package needs the major version
# it was built with and at least its minor version: the API it calls (`require`).
__version__ = "1.5.0"

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "INVALID",
    "MEMBER_KIND",
    "MEMBER_NDIM_LENGTH",
    "NDIM_LENGTH",
    "NOT_FULLY_CHECKED",
    "VALID",
    "Checked",
    "Difference",
    "MemberTree",
    "NotFullyChecked",
    "Problem",
    "Read",
    "StoreError",
    "Unchecked",
    "ZomError",
    "check_document",
    "check_hierarchy",
    "consolidate_store",
    "diff",
    "format_problems_text",
    "is_valid",
    "like",
    "load_document",
    "named_member_tree",
    "problems_to_json",
    "read_document",
    "read_hierarchy",
    "require",
    "validate_store",
    "verdict",
    "write_document",
]

# The module of each name imported on first use.
_MODULES = {
    "INVALID": "problems",
    "NOT_FULLY_CHECKED": "problems",
    "VALID": "problems",
    "NotFullyChecked": "problems",
    "Problem": "problems",
    "StoreError": "problems",
    "Unchecked": "problems",
    "ZomError": "problems",
    "format_problems_text": "problems",
    "problems_to_json": "problems",
    "verdict": "problems",
    "Checked": "api",
    "check_hierarchy": "api",
    "load_document": "api",
    "validate_store": "api",
    "MEMBER_KIND": "checks",
    "MEMBER_NDIM_LENGTH": "checks",
    "NDIM_LENGTH": "checks",
    "consolidate_store": "consolidating",
    "Difference": "diffs",
    "diff": "diffs",
    "like": "diffs",
    "MemberTree": "members",
    "named_member_tree": "members",
    "DEFAULT_MAX_DEPTH": "reading",
    "Read": "reading",
    "read_document": "reading",
    "read_hierarchy": "reading",
    "check_document": "validation",
    "is_valid": "validation",
    "write_document": "writing",
}


def require(api: str, package: str) -> None:
    """Refuse, at `package`'s import, a run time whose API it was not built for: `api` is the
    `major.minor` version of zomgen-runtime the package was generated with. Any 1.x from that
    minor version on will do; another major version changed what the package calls."""
    major, minor = (int(part) for part in api.split(".")[:2])
    have_major, have_minor = (int(part) for part in __version__.split(".")[:2])
    if have_major != major or have_minor < minor:
        wanted = f"zomgen-runtime>={major}.{minor},<{major + 1}"
        raise ImportError(
            f"{package} was generated for {wanted}, but zomgen-runtime {__version__} is installed:"
            f" pip install '{wanted}' (or rebuild {package} with this zomgen)"
        )


def __getattr__(name: str) -> object:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value: object = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
