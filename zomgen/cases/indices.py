"""Repairs of a synthesised hierarchy that the index relations refuse (runtime/relations.py):
an `x-zomgen-index-of` index past the end of its list, and lists of indices that do not hold
each index of an `x-zomgen-partition` list exactly once (an OME-Zarr 0.6 byDimension whose one
child maps only the first of two axes). The length comes from the refusal's message, which
both run times write alike; each repair is a whole document, for repair.py to keep or not.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from zomgen.cases.mutate import json_copy
from zomgen.cases.raw import put, resolve

if TYPE_CHECKING:
    from zomgen.cases.refusals import Refusal

# "(2 items)" in "3 is not an index of /attributes/from (2 items)", "must hold each index of
# /attributes/to (2 items) exactly once: ..."
_LENGTH = re.compile(r" \((\d+) items?\)(?:$| exactly once: )")
# The path after a `[*]`: plain keys into each item, past `[!key]` filters.
_COLLECTED = "/[*]/"


def index_repairs(refusal: Refusal, schema: Any, doc: Any) -> list[Any]:
    """Whole documents that may satisfy the refused index relation."""
    found = _LENGTH.search(refusal.message)
    if found is None:
        return []
    length = int(found.group(1))
    if refusal.keyword == "x-zomgen-index-of":
        return [put(json_copy(doc), refusal.pointer, i) for i in range(min(length, 4))]
    return _partitioned(refusal, schema, doc, length)


def _partitioned(refusal: Refusal, schema: Any, doc: Any, length: int) -> list[Any]:
    """The items' index lists set to hold 0 .. length-1 once between them: all in the first
    item (the others empty), and dealt out in turn."""
    try:
        anchor = resolve(schema, refusal.schema_path)[0]
        items = resolve(doc, refusal.pointer)
    except (KeyError, IndexError, ValueError, TypeError):
        return []
    keys = _keys_after_collect(anchor)
    if keys is None or not isinstance(items, list) or not items:
        return []
    count = len(items)
    first = [list(range(length)) if k == 0 else [] for k in range(count)]
    dealt = [[i for i in range(length) if i % count == k] for k in range(count)]
    found: list[Any] = []
    for lists in (first, dealt):
        out = json_copy(doc)
        placed = resolve(out, refusal.pointer)
        if all(_set(item, keys, indices) for item, indices in zip(placed, lists, strict=True)):
            found.append(out)
    return found


def _keys_after_collect(anchor: Any) -> list[str] | None:
    """The plain keys after the anchor's `[*]` (`[!type]/outputAxes` -> `outputAxes`); None
    where the rest is anything else."""
    if not isinstance(anchor, str) or _COLLECTED not in anchor:
        return None
    keys = [s for s in anchor.split(_COLLECTED, 1)[1].split("/") if not s.startswith("[!")]
    special = any(s in ("*", "->", "") or s.startswith(("[", "{")) or "~" in s for s in keys)
    return None if special or not keys else keys


def _set(item: Any, keys: list[str], value: Any) -> bool:
    """`value` at `keys` inside `item` (an object whose path there exists but the last key)."""
    for key in keys[:-1]:
        if not isinstance(item, dict) or not isinstance(item.get(key), dict):
            return False
        item = item[key]
    if not isinstance(item, dict):
        return False
    item[keys[-1]] = value
    return True
