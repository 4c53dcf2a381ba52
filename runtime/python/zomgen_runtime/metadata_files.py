"""A node's metadata files: their names, which names a node may have, and the ZOM document the
files make (`NodeReader`, which the walk in reading.py builds on).

- v3: the node's zarr.json minus `consolidated_metadata`, `attributes` defaulted to {};
- v2: `.zgroup` / `.zarray` plus `attributes` from `.zattrs` ({} when absent);
- groups get an empty `members`, for the walk to fill.
"""

from __future__ import annotations

from typing import Any

from .jsontext import parse_object
from .problems import Problem
from .sources import Failure, Fetched
from .values import is_object

V3 = "zarr.json"
ZARRAY, ZGROUP, ZATTRS, ZMETADATA = ".zarray", ".zgroup", ".zattrs", ".zmetadata"
V2_FILES = (ZARRAY, ZGROUP, ZATTRS)
ALL_FILES = (V3, *V2_FILES)
# The keys of a Zarr v2 node's document the spec defines (the ZOM's own `attributes` and
# `members` with them): the compiler's base fields (ir/zarr.py) name the same, and a test says so.
V2_NODE_KEYS = {
    "group": ("zarr_format", "attributes", "members"),
    "array": (
        "zarr_format", "attributes", "shape", "chunks", "dtype", "compressor", "fill_value",
        "order", "filters", "dimension_separator",
    ),
}  # fmt: skip
V2_FILES_SET = frozenset(V2_FILES)
METADATA_NAMES = frozenset((*ALL_FILES, ZMETADATA))


def forbidden_name(name: str) -> str | None:
    """Why `name` cannot be a node name (core spec, "Node names"), or None."""
    if name == "" or "/" in name:
        return "a node name cannot be empty or hold '/'"
    if set(name) == {"."}:
        return "a node name cannot consist of periods only"
    if name.startswith("__"):
        return "node names starting with '__' are reserved"
    if not name.isprintable() and not_unicode(name):
        # A folder name that is not UTF-8 arrives from the OS as lone surrogates.
        return "a node name must be Unicode text, and this one holds bytes that are not UTF-8"
    return None


def not_unicode(name: str) -> bool:
    """Whether `name` holds a lone surrogate, which UTF-8 cannot encode."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


class NodeReader:
    """Turns each node's fetched files into its document, noting the problems of those that
    cannot be read; `version` is the hierarchy's Zarr version once its root is read (0 before)."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.version = 0

    def problem(self, path: str, message: str, pointer: str = "") -> None:
        self.problems.append(Problem(path, pointer, message, "read"))

    def parse_files(self, path: str, fetched: dict[str, Fetched]) -> dict[str, Any] | None:
        """name -> parsed object for every file present; None (problems noted) when any is
        unreadable or not a JSON object."""
        files: dict[str, Any] = {}
        ok = True
        for name, got in fetched.items():
            if got is None:
                continue
            if isinstance(got, Failure):
                self.problem(path, f"{name}: {got.message}")
                ok = False
                continue
            parsed = parse_object(got, name)
            if isinstance(parsed, str):
                self.problem(path, parsed)
                ok = False
            else:
                files[name] = parsed
        return files if ok else None

    def build(self, path: str, files: dict[str, Any]) -> dict[str, Any] | None:
        """The node's ZOM document from its metadata files, or None (not a node, or a problem
        noted). Groups get an empty `members` to fill."""
        v2 = [n for n in (ZARRAY, ZGROUP) if n in files]
        if V3 in files and (v2 or ZATTRS in files):
            found = ", ".join(n for n in ALL_FILES if n in files)
            self.problem(path, f"Zarr v3 and v2 metadata mixed in one node ({found})")
            return None
        if V3 not in files and not v2:
            if ZATTRS in files:
                self.problem(path, ".zattrs without .zgroup or .zarray: not a node")
            return None
        if len(v2) == 2:
            self.problem(path, "both .zarray and .zgroup: a node is an array or a group")
            return None
        version = 3 if V3 in files else 2
        if self.version and version != self.version:
            self.problem(path, f"a Zarr v{version} node in a Zarr v{self.version} hierarchy")
            return None
        for name, value in files.items():
            if not is_object(value):
                self.problem(path, f"{name} holds a {type(value).__name__}, not an object")
                return None
        # The parsed files are ours (fresh from json.loads, consolidated entries included),
        # so they become the document in place instead of being copied.
        if version == 3:
            document: dict[str, Any] = files[V3]
            document.pop("consolidated_metadata", None)
            document.setdefault("attributes", {})
            is_group = document.get("node_type") == "group"
        else:
            document = files[v2[0]]
            document.pop("consolidated_metadata", None)
            document["attributes"] = files.get(ZATTRS, {})
            is_group = v2[0] == ZGROUP
        if is_group:
            if "members" in document:
                message = "the metadata holds a 'members' key, which the ZOM reserves; ignored"
                self.problem(path, message, "/members")
            document["members"] = dict[str, Any]()
        return document
