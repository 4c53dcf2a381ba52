"""Writing consolidated metadata for a hierarchy that validates, and nothing otherwise.

The consolidated metadata is made from the very document that was checked, so it can only say
what was found valid:
- v3: the group's zarr.json gains `consolidated_metadata` `{"kind": "inline",
  "must_understand": false, "metadata": {"a": ..., "a/b": ...}}`, each entry the node's zarr.json
  (a group's with an empty envelope of its own, as zarr-python writes it);
- v2: a `.zmetadata` beside the group's `.zgroup`: `{"zarr_consolidated_format": 1,
  "metadata": {".zgroup": ..., ".zattrs": ..., "a/.zarray": ..., "a/.zattrs": ...}}`.

Both are the forms zarr-python and xarray read (tests/runtime/test_consolidate.py opens them
with both). The store's lock is held from before the hierarchy is read until the file is
written, so no other zomgen write lands between the check and the write; the one file is
written whole or put back as it was.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .api import Checked
from .document_files import NodeFiles, document_files, key_prefix
from .metadata_files import V3, ZMETADATA
from .opening import split_path
from .problems import VALID, StoreError, verdict
from .write_targets import open_target, unusable
from .writing import write_whole
from .zip_rewrite import ZipRewrite

_EMPTY_ENVELOPE: dict[str, Any] = {"kind": "inline", "must_understand": False, "metadata": {}}


@dataclass(frozen=True)
class Consolidation:
    """What `consolidate_store` did: the hierarchy as checked, and the key written (None when
    the hierarchy was not valid, or not fully checked, and nothing was written)."""

    checked: Checked
    written: str | None
    nodes: int  # nodes the consolidated metadata lists, the group itself included


def consolidate_store(
    store: object, path: str = "", *, check: Callable[[], Checked]
) -> Consolidation:
    """Consolidate the group at `path` of `store` if `check()` (which reads the same hierarchy
    from its files and checks it) finds it valid. Raises StoreError when the store cannot be
    written or is not a group there."""
    target, inner = open_target(store)
    try:
        if getattr(target.store, "read_only", False):
            raise unusable("the store is read-only")
        local = target.local.root if target.local is not None else None
        where = local or (target.mapping.path if isinstance(target.mapping, ZipRewrite) else None)
        if where is not None and not os.path.exists(where):
            raise unusable(f"{where}: no such store: there is nothing to consolidate")
        target.take(overwrite=False)
        checked = check()
        if verdict(checked.problems, checked.unchecked) != VALID:
            return Consolidation(checked, None, 0)
        if "members" not in checked.document:
            raise unusable("an array has no members to consolidate: give the path of a group")
        nodes, problems = document_files(checked.document)
        if problems:  # a valid hierarchy read from files is always writable: never expected
            raise StoreError(problems)
        name, content = consolidated_file(nodes)
        key = key_prefix(inner + split_path(path)) + name
        existing = [key] if target.exists([key])[0] else []
        write_whole(target, {key: content}, existing)
        return Consolidation(checked, key, len(nodes))
    finally:
        try:
            target.close()
        finally:  # a Ctrl-C in close() must not keep the lock
            target.release()


def consolidated_file(nodes: list[NodeFiles]) -> tuple[str, bytes]:
    """The file holding the consolidated metadata of the group whose nodes' files (document_files,
    the group first) are `nodes`: its name beside the group's own files, and its content."""
    (_, root_files), members = nodes[0], nodes[1:]
    if V3 in root_files:
        metadata: dict[str, Any] = {}
        for names, files in sorted(members, key=lambda node: node[0]):
            entry = json.loads(files[V3])
            if entry.get("node_type") == "group":
                entry["consolidated_metadata"] = _EMPTY_ENVELOPE
            metadata["/".join(names)] = entry
        root = json.loads(root_files[V3])
        envelope = {"kind": "inline", "must_understand": False, "metadata": metadata}
        return V3, _encoded(root | {"consolidated_metadata": envelope})
    entries = {
        key_prefix(names) + file: json.loads(content)
        for names, files in sorted(nodes, key=lambda node: node[0])
        for file, content in sorted(files.items())
    }
    return ZMETADATA, _encoded({"metadata": entries, "zarr_consolidated_format": 1})


def _encoded(value: dict[str, Any]) -> bytes:
    return json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False).encode("utf-8")
