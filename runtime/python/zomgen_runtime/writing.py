"""Writing a ZOM document's metadata into a store: groups and empty arrays, no chunk data.

Existing nodes are never clobbered by accident: unless `overwrite=True`, any node already
present is reported and NOTHING is written, so a failed `create` leaves the store as it was.
What each node's files are: document_files.py; the stores written into: write_targets.py.
"""

from __future__ import annotations

import os
from typing import Any

from .confinement import LocalRoot
from .consolidated_writes import consolidated_changes
from .document_files import NodeFiles, document_files, key_prefix, write_problem
from .metadata_files import METADATA_NAMES, V3, ZARRAY, ZATTRS, ZGROUP, ZMETADATA
from .opening import split_path
from .pointers import node_path
from .problems import Problem
from .write_targets import Target, open_target, unusable

# The files whose presence makes a node (.zattrs too: without overwrite, none is replaced)
_NODE_FILES = (V3, ZARRAY, ZGROUP, ZATTRS)


def write_document(
    document: dict[str, Any], store: object, path: str = "", *, overwrite: bool = False
) -> list[Problem]:
    """Write the metadata of every node of `document` at `path` of `store`. Returns the
    problems ([] when written); existing nodes are problems unless `overwrite=True`, and then
    nothing at all is written. Raises StoreError when the store cannot be written."""
    nodes, problems = document_files(document)
    if problems:
        return problems
    target, inner = open_target(store)
    try:
        if getattr(target.store, "read_only", False):
            raise unusable("the store is read-only")
        at = split_path(path)
        base = key_prefix(inner + at)
        if target.local is not None:
            problems = _local_problems(
                target.local,
                {names: [base + key_prefix(names) + n for n in files] for names, files in nodes},
            )
            if problems:
                return problems
        # Before looking at what exists: the check and the write must be one step for others.
        target.take(overwrite=overwrite)
        found = _existing(target, nodes, base)
        replaced: list[str] = []
        if overwrite and any(found[base + name] for name in _NODE_FILES):
            # The node written over is replaced members included, as zarr replaces it: the
            # metadata of what was below it goes (chunks stay: no node reads them any more).
            replaced = [
                k for k in target.keys_below(base) if k.rsplit("/", 1)[-1] in METADATA_NAMES
            ]
            found.update(dict.fromkeys(replaced, True))
        changes, problems = _changes(nodes, base, found, overwrite=overwrite, replaced=replaced)
        if problems:
            return problems
        if at:  # below the root: its consolidated metadata is kept true in the same write
            root = key_prefix(inner)
            now = target.read([root + ZMETADATA, root + V3])
            kept, problems = consolidated_changes(now, nodes, root, at, overwrite=overwrite)
            if problems:
                return problems
            changes.update(kept)
            found.update(dict.fromkeys(kept, True))
        write_whole(target, changes, [k for k in changes if found.get(k)])
        return []
    finally:
        try:
            target.close()
        finally:  # a Ctrl-C in close() must not keep the lock
            target.release()


def _existing(target: Target, nodes: list[NodeFiles], base: str) -> dict[str, bool]:
    """Which of the nodes' metadata files, and the root's .zmetadata, the store holds now."""
    probe = [base + key_prefix(names) + name for names, _files in nodes for name in _NODE_FILES]
    probe.append(base + ZMETADATA)
    return dict(zip(probe, target.exists(probe)))


def _changes(
    nodes: list[NodeFiles],
    base: str,
    found: dict[str, bool],
    *,
    overwrite: bool,
    replaced: list[str],
) -> tuple[dict[str, bytes | None], list[Problem]]:
    """key -> new content (None: delete), or the problems that forbid writing: the nodes and
    the consolidated metadata already there, without `overwrite`. `replaced`: the metadata
    files below the node written over, deleted unless written again."""
    problems: list[Problem] = []
    writes: dict[str, bytes] = {}
    deletes: list[str] = []
    for names, files in nodes:
        prefix = base + key_prefix(names)
        present = [n for n in _NODE_FILES if found[prefix + n]]
        if present and not overwrite:
            message = (
                f"a node already exists here ({', '.join(present)}); "
                "pass overwrite=True to replace its metadata"
            )
            problems.append(write_problem(node_path(names), message))
        writes.update({prefix + n: data for n, data in files.items()})
        # Overwriting: metadata of the other kind or version would make a mixed node.
        deletes += [prefix + n for n in present]
    root_consolidated = base + ZMETADATA
    if found[root_consolidated] and not overwrite:
        # GDAL writes v2 stores that hold only this file: it is the hierarchy.
        message = (
            "the store has consolidated metadata (.zmetadata) describing a hierarchy; "
            "pass overwrite=True to replace it"
        )
        problems.append(write_problem("/", message))
    if problems:
        return {}, problems
    if found[root_consolidated]:
        deletes.append(root_consolidated)  # it would describe the old hierarchy
    deletes += replaced
    changes: dict[str, bytes | None] = {k: None for k in deletes if k not in writes}
    changes.update(writes)
    return changes, []


def _local_problems(local: LocalRoot, keys: dict[tuple[str, ...], list[str]]) -> list[Problem]:
    """Nodes whose files a local folder cannot take: a name past the file system's limit, a
    path through a symlink that leads out of the store."""
    problems: list[Problem] = []
    for names, node_keys in keys.items():
        long = local.too_long(names[-1:])
        if long is not None:
            message = (
                f"the name is {len(os.fsencode(long))} bytes long; this file system holds at "
                f"most {local.name_max}"
            )
            problems.append(write_problem(node_path(names), message))
        elif any(local.leads_out(key) for key in node_keys):
            message = "a symlink here leads out of the store: zomgen writes nothing outside it"
            problems.append(write_problem(node_path(names), message))
    return problems


def write_whole(target: Target, changes: dict[str, bytes | None], existing: list[str]) -> None:
    """Apply `changes`, or, if the store fails (or the write is interrupted) part way, put back
    every key as it was before: a `create` is whole or not at all."""
    if target.atomic:
        try:
            target.write(changes)
        except Exception as exc:  # noqa: BLE001  # the OS and zipfile raise many kinds
            raise unusable(
                f"writing failed ({type(exc).__name__}: {exc}); the zip is as it was"
            ) from None
        return
    before = target.read(existing) if existing else {}
    try:
        target.write(changes)
    except BaseException as exc:
        undo: dict[str, Any] = {k: before.get(k) for k in changes}
        outcome = "what was written was undone"
        try:
            target.write(undo)
        except BaseException:  # noqa: BLE001  # the store itself is failing: report the first error
            target.consistent = False  # the lock file stays: the next create reports it
            outcome = "undoing it failed too: the store may hold part of the hierarchy"
        if isinstance(exc, Exception):
            raise unusable(
                f"writing failed part way ({type(exc).__name__}: {exc}); {outcome}"
            ) from None
        raise
