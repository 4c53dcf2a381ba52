"""zomgen's run-time loader: read Zarr v2/v3 stores into ZOM documents, check them against a
convention schema (JSON Schema plus zomgen's check keywords), report every problem, and write
metadata back.

This folder is copied verbatim into every generated package as `_runtime/`, so it imports
nothing from zomgen, only relatively from itself; zarr, jsonschema and jsonschema-rs are imported
inside the functions that need them, never at import time. See docs/runtime.md.
"""

from __future__ import annotations

from .api import load_document, validate_store
from .checks import MEMBER_KIND, MEMBER_NDIM_LENGTH, NDIM_LENGTH
from .members import MemberTree, named_member_tree
from .problems import (
    Problem,
    StoreError,
    ZomError,
    format_problems_text,
    problems_to_json,
)
from .reading import DEFAULT_MAX_DEPTH, read_document
from .validation import check_document, is_valid
from .writing import write_document

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "MEMBER_KIND",
    "MEMBER_NDIM_LENGTH",
    "NDIM_LENGTH",
    "MemberTree",
    "Problem",
    "StoreError",
    "ZomError",
    "check_document",
    "format_problems_text",
    "is_valid",
    "load_document",
    "named_member_tree",
    "problems_to_json",
    "read_document",
    "validate_store",
    "write_document",
]
