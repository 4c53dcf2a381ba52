"""zomgen's run-time loader: read Zarr v2/v3 stores into ZOM documents, check them against a
convention schema (JSON Schema plus zomgen's check keywords), report every problem, and write
metadata back.

This folder is copied verbatim into every generated package as `_runtime/`, so it imports
nothing from zomgen, only relatively from itself; zarr, jsonschema and jsonschema-rs are imported
inside the functions that need them, never at import time.

Importing this package loads only `problems`: each other name is imported from its module on
first use (PEP 562), so `import <package>` of a generated package stays fast and a type-only
user of its models never loads the reader, the checks or the writer.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from .api import Checked, check_hierarchy, load_document, validate_store
    from .checks import MEMBER_KIND, MEMBER_NDIM_LENGTH, NDIM_LENGTH
    from .members import MemberTree, named_member_tree
    from .reading import DEFAULT_MAX_DEPTH, Read, read_document, read_hierarchy
    from .validation import check_document, is_valid
    from .writing import write_document

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "INVALID",
    "MEMBER_KIND",
    "MEMBER_NDIM_LENGTH",
    "NDIM_LENGTH",
    "NOT_FULLY_CHECKED",
    "VALID",
    "Checked",
    "MemberTree",
    "NotFullyChecked",
    "Problem",
    "Read",
    "StoreError",
    "Unchecked",
    "ZomError",
    "check_document",
    "check_hierarchy",
    "format_problems_text",
    "is_valid",
    "load_document",
    "named_member_tree",
    "problems_to_json",
    "read_document",
    "read_hierarchy",
    "validate_store",
    "verdict",
    "write_document",
]

# The module of each name imported on first use.
_MODULES = {
    "Checked": "api",
    "check_hierarchy": "api",
    "load_document": "api",
    "validate_store": "api",
    "MEMBER_KIND": "checks",
    "MEMBER_NDIM_LENGTH": "checks",
    "NDIM_LENGTH": "checks",
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


def __getattr__(name: str) -> object:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value: object = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
