"""A ZOM document as the metadata files of each of its nodes: what writing puts in a store.

Each node's files are exactly its document (v3: zarr.json minus `members`; v2: `.zgroup` /
`.zarray` plus `.zattrs`), so reading the store back gives the same document. A node that cannot
be written (not an object, no `zarr_format`, not JSON, a forbidden name) is a problem, found
before the store is touched.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any, cast

from .jsontext import MAX_DEPTH, beyond_float
from .metadata_files import (
    METADATA_NAMES,
    V3,
    ZARRAY,
    ZATTRS,
    ZGROUP,
    forbidden_name,
    not_unicode,
)
from .pointers import escape, node_path
from .problems import Problem
from .values import is_object

# (member names from the root, file name -> encoded content) of each node
NodeFiles = tuple[tuple[str, ...], dict[str, bytes]]


def write_problem(path: str, message: str) -> Problem:
    return Problem(path, "", message, "write")


def key_prefix(names: tuple[str, ...] | list[str]) -> str:
    """The store key prefix of the node `names` reaches: "" or "a/b/"."""
    return "".join(n + "/" for n in names)


def document_files(document: Any) -> tuple[list[NodeFiles], list[Problem]]:
    """The files of every node of `document`, parents before children; and the problems of the
    nodes that cannot be written (then none should be)."""
    nodes: list[NodeFiles] = []
    problems: list[Problem] = []
    stack: list[tuple[tuple[str, ...], Any]] = [((), document)]
    while stack:
        names, node = stack.pop()
        files = _files(names, node, problems)
        if files:
            nodes.append((names, files))
        members = node.get("members") if is_object(node) else None
        if is_object(members):
            # A document built in Python may have keys that are not strings.
            items: list[tuple[object, Any]] = list(members.items())
            for key, member in reversed(items):
                name = str(key)
                reason = forbidden_name(name) or _unwritable(name)
                if reason is not None or name in METADATA_NAMES:
                    why = reason or "it is a metadata file name"
                    problems.append(write_problem(node_path((*names, name)), why))
                    continue
                stack.append(((*names, name), member))
    return nodes, problems


def _files(names: tuple[str, ...], node: Any, problems: list[Problem]) -> dict[str, bytes]:
    """One node's metadata files, encoded; {} (problems noted) when it cannot be written."""
    path = node_path(names)
    if not is_object(node):
        problems.append(
            write_problem(path, f"a node must be an object, not a {type(node).__name__}")
        )
        return {}
    meta = {k: v for k, v in node.items() if k != "members"}
    unwritable = _first_unwritable(meta)
    if unwritable is not None:
        pointer, why = unwritable
        problems.append(Problem(path, pointer, why, "write"))
        return {}
    if node.get("zarr_format") == 3:
        files: dict[str, Any] = {V3: meta}
    elif node.get("zarr_format") == 2:
        attributes = meta.pop("attributes", {})
        files = {ZARRAY if "shape" in meta else ZGROUP: meta, ZATTRS: attributes}
    else:
        problems.append(write_problem(path, "zarr_format must be 2 or 3 to know what to write"))
        return {}
    encoded: dict[str, bytes] = {}
    for name, content in files.items():
        try:
            text = json.dumps(content, indent=2, ensure_ascii=False, allow_nan=False)
        except ValueError:
            message = f"{name}: NaN or Infinity cannot be written as JSON"
            problems.append(write_problem(path, message))
            return {}
        except (TypeError, RecursionError) as exc:
            problems.append(write_problem(path, f"{name}: not JSON-serialisable: {exc}"))
            return {}
        encoded[name] = text.encode("utf-8")
    return encoded


def _first_unwritable(document: dict[str, Any]) -> tuple[str, str] | None:
    """(pointer, why) of the first value of a node's metadata that JSON in UTF-8 cannot hold, or
    that zomgen would not read back: NaN or an infinity (JSON has neither; Zarr spells them as
    strings), a number no 64-bit float holds, nesting past `MAX_DEPTH`, a lone surrogate in a
    string or key, a value that is not JSON at all. Found before anything is written."""
    stack: list[tuple[str, Any, int]] = [("", document, 1)]
    while stack:
        pointer, value, depth = stack.pop()
        if isinstance(value, (dict, list, tuple)) and depth > MAX_DEPTH:
            return pointer, f"nests deeper than {MAX_DEPTH} levels: zomgen reads no file that deep"
        if isinstance(value, str):
            if not_unicode(value):
                return pointer, "a lone surrogate cannot be written as UTF-8"
        elif isinstance(value, float):
            if not math.isfinite(value):
                spelled = "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
                return pointer, f"{value} cannot be written as JSON (Zarr writes {spelled!r})"
        elif isinstance(value, int) and not isinstance(value, bool):
            if value.bit_length() > 1000 and beyond_float(value):
                bits = value.bit_length()
                return pointer, f"an integer of {bits} bits is beyond what a 64-bit float holds"
        elif isinstance(value, dict):
            for key, item in cast("dict[object, Any]", value).items():
                if not isinstance(key, str):
                    return pointer, f"a key {key!r} that is not a string cannot be written as JSON"
                at = f"{pointer}/{escape(key)}"
                if not_unicode(key):
                    return at, "a key holding a lone surrogate cannot be written as UTF-8"
                stack.append((at, item, depth + 1))
        elif isinstance(value, (list, tuple)):  # a document built in Python may hold tuples
            items = cast("Sequence[Any]", value)
            stack += [(f"{pointer}/{i}", item, depth + 1) for i, item in enumerate(items)]
        elif value is not None and not isinstance(value, bool):
            return pointer, f"a {type(value).__name__} cannot be written as JSON"
    return None


def _unwritable(name: str) -> str | None:
    if "\x00" in name:
        return "a name cannot hold a NUL character (no file system holds it)"
    return None
