"""zomgen's library for rules in CEL (rules.py): what a rule needs beyond CEL's standard
macros and the strings extension, the same in the TypeScript run time (rules.ts).

- `nodes`, a variable: every node at and below `self`, by its path from `self` as problems
  spell node paths ("/" is `self`, "/forecast/lev" its member `lev` of `forecast`). A rule on
  the root reads the whole tree with it: a path from the root, a sibling by name.
- `indices(list)`: 0, 1, ... size - 1, to pair lists by position (neither engine has
  two-variable comprehensions): `indices(self.shape).all(i, self.shape[i] == ...)`.
- `keys(map)`: a map's keys, sorted by code point. CEL leaves the order in which a macro walks
  a map unspecified, and the engines differ (the Python one changes it from process to process),
  so a message that lists keys lists `keys(m)`.
- `pathParent(path)`, `pathName(path)`: "/forecast/lev" -> "/forecast" and "lev"; "/lat" ->
  "/" and "lat".

`as_cel` gives a JSON value the numbers both run times give CEL (rules.py says which).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, cast

from .pointers import join_node_path
from .values import is_object

NODES = "nodes"
_INT_MIN = -(2**63)
_INT_MAX = 2**63 - 1
# CEL's string literals (their text is no code), then the variable `nodes` outside them.
_STRINGS = re.compile(r"'(?:\\.|[^'\\])*'" + r'|"(?:\\.|[^"\\])*"')
_NODES_READ = re.compile(r"(?<![.\w])nodes(?!\w)")


def uses_nodes(text: str) -> bool:
    """Does the CEL text `text` read the variable `nodes`? (A rule that does not is evaluated
    without it: building it converts every node a second time.)"""
    return _NODES_READ.search(_STRINGS.sub("''", text)) is not None


def nodes_of(node: Any) -> dict[str, Any]:
    """Every node at and below `node` by its path from it ("/" for `node` itself)."""
    found: dict[str, Any] = {}
    waiting = [("/", node)]
    while waiting:
        path, at = waiting.pop()
        found[path] = at
        members = at.get("members") if is_object(at) else None
        if is_object(members):
            waiting.extend((join_node_path(path, name), m) for name, m in members.items())
    return found


def as_cel(value: Any) -> Any:
    """`value` with each whole number within 64 bits an int and every other number a float (the
    same object where nothing changes). Called for every place that has rules, so it skips
    strings without a call, and copies a dict or list only where something in it changes."""
    kind = type(cast("object", value))
    if kind is dict:
        changed: dict[str, Any] | None = None
        for key, item in value.items():
            if type(item) is str or item is None:
                continue
            made = as_cel(item)
            if made is not item:
                changed = changed if changed is not None else dict(value)
                changed[key] = made
        return value if changed is None else changed
    if kind is list:
        items: list[Any] | None = None
        for index, item in enumerate(value):
            if type(item) is str:
                continue
            made = as_cel(item)
            if made is not item:
                items = items if items is not None else list(value)
                items[index] = made
        return value if items is None else items
    if kind is float:
        whole = value.is_integer() and _INT_MIN <= value <= _INT_MAX
        return int(value) if whole else value
    if kind is int:  # not a bool: type() is exact
        return value if _INT_MIN <= value <= _INT_MAX else _as_float(value)
    return value


def _as_float(whole: int) -> float:
    """An integer past 64 bits as JavaScript reads it: the nearest double, or infinity."""
    try:
        return float(whole)
    except OverflowError:
        return math.inf if whole > 0 else -math.inf


def _indices(items: list[Any]) -> list[int]:
    return list(range(len(items)))


def _keys(mapping: dict[str, Any]) -> list[str]:
    return sorted(mapping)


def _path_parent(path: str) -> str:
    parent, slash, _name = path.rpartition("/")
    return parent or slash


def _path_name(path: str) -> str:
    return path.rpartition("/")[2]


# The functions: (name, its argument's CEL type, its result's CEL type, the implementation).
FUNCTIONS: tuple[tuple[str, str, str, Callable[[Any], Any]], ...] = (
    ("indices", "list", "list<int>", _indices),
    ("keys", "map", "list<string>", _keys),
    ("pathParent", "string", "string", _path_parent),
    ("pathName", "string", "string", _path_name),
)
