"""Keeping a store's consolidated metadata true when a write lands below its root.

A reader that finds consolidated metadata (v2: the root's `.zmetadata`; v3: the root's
`zarr.json` `consolidated_metadata`) takes the hierarchy from it and lists nothing. A write at
`path` below the root that left it alone made `load` return the old attributes and miss the new
members. So the root's consolidated metadata is updated in the same write, whole or nothing:
the written nodes' entries are put in, and with `overwrite=True` the entries of the node written
over and everything below it are taken out first (the node is replaced, members included, as
zarr replaces it). Without `overwrite`, a node the consolidated metadata already lists is an
existing node, as a file would be. Consolidated metadata that cannot be read is a problem:
nothing is written rather than a store left saying two things.

A write at the root itself replaces the root's metadata: writing.py handles that (the new root
has no consolidated metadata; a v2 `.zmetadata` there is deleted with `overwrite=True`).
"""

from __future__ import annotations

import json
from typing import Any

from .document_files import NodeFiles, key_prefix, write_problem
from .metadata_files import V3, ZMETADATA
from .pointers import node_path
from .problems import Problem
from .values import is_object


def consolidated_changes(
    now: dict[str, bytes | None],
    nodes: list[NodeFiles],
    root: str,
    at: list[str],
    *,
    overwrite: bool,
) -> tuple[dict[str, bytes], list[Problem]]:
    """The root's consolidated metadata after writing `nodes` at the names `at` below `root`
    (a key prefix), given what the root's `.zmetadata` and `zarr.json` hold `now`: {key: new
    content}, or the problems that forbid the write."""
    if not at:
        return {}, []
    changes: dict[str, bytes] = {}
    problems: list[Problem] = []
    zmetadata = now.get(root + ZMETADATA)
    if zmetadata is not None:
        updated = _v2(zmetadata, nodes, at, overwrite=overwrite, problems=problems)
        if updated is not None:
            changes[root + ZMETADATA] = updated
    root_node = now.get(root + V3)
    if root_node is not None:
        updated = _v3(root_node, nodes, at, overwrite=overwrite, problems=problems)
        if updated is not None:
            changes[root + V3] = updated
    return ({}, problems) if problems else (changes, [])


def _v2(
    data: bytes, nodes: list[NodeFiles], at: list[str], *, overwrite: bool, problems: list[Problem]
) -> bytes | None:
    envelope = _object(data)
    metadata = envelope.get("metadata") if envelope is not None else None
    if envelope is None or not is_object(metadata):
        problems.append(_unreadable(ZMETADATA))
        return None
    top = key_prefix(at)
    entries = {
        top + key_prefix(names) + name: json.loads(content)
        for names, files in nodes
        for name, content in files.items()
    }
    for names, files in nodes:
        listed = [n for n in files if top + key_prefix(names) + n in metadata]
        if listed and not overwrite:
            problems.append(_listed(at + list(names), ZMETADATA))
    kept = (
        metadata if not overwrite else {k: v for k, v in metadata.items() if not k.startswith(top)}
    )
    envelope = envelope | {"metadata": kept | entries}
    return _encoded(envelope)


def _v3(
    data: bytes, nodes: list[NodeFiles], at: list[str], *, overwrite: bool, problems: list[Problem]
) -> bytes | None:
    root = _object(data)
    if root is None:
        problems.append(_unreadable(V3))
        return None
    consolidated = root.get("consolidated_metadata")
    if consolidated is None:
        return None  # not consolidated: nothing to keep true
    metadata = consolidated.get("metadata") if is_object(consolidated) else None
    if not is_object(metadata):
        problems.append(_unreadable(f"{V3} consolidated_metadata"))
        return None
    top = "/".join(at)
    entries = {
        "/".join(at + list(names)): json.loads(files[V3]) for names, files in nodes if V3 in files
    }
    for key in entries:
        if key in metadata and not overwrite:
            problems.append(_listed(key.split("/"), f"{V3} consolidated_metadata"))
    kept = metadata
    if overwrite:
        kept = {k: v for k, v in metadata.items() if k != top and not k.startswith(top + "/")}
    root = root | {"consolidated_metadata": consolidated | {"metadata": kept | entries}}
    return _encoded(root)


def _object(data: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return None
    return value if is_object(value) else None


def _encoded(value: dict[str, Any]) -> bytes:
    return json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False).encode("utf-8")


def _unreadable(what: str) -> Problem:
    message = (
        f"the root's {what} cannot be read, so it cannot be kept true after this write; "
        "nothing was written (remove it, or write at the root with overwrite=True)"
    )
    return write_problem("/", message)


def _listed(names: list[str], where: str) -> Problem:
    message = (
        f"a node already exists here (in the root's {where}); pass overwrite=True to replace it"
    )
    return write_problem(node_path(names), message)
