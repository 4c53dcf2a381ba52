"""The members a convention names, for stores that cannot be listed (plain HTTP).

Listing a folder is the only way to discover members nobody named. When a store cannot list,
the walk still loads every member the schema names: `properties.members.properties` at each
level (through local `$ref`, `allOf`, `anyOf` and `oneOf`), plus the members that a node's own
document names through the zomgen check keywords (OME's `datasets[].path`), which are known only
once that node has been read. The tree is computed lazily, level by level, so recursive schemas
are fine.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .checks import member_patterns
from .named_members import Forced
from .pointers import match, parse_pointer, resolve_local_ref
from .values import is_array, is_object

# (named member -> its schemas, schemas of other members, member-naming pointers)
_Collected = tuple[dict[str, list[Any]], list[Any], list[list[str]]]


class MemberTree:
    """The schemas that (may) apply to one node, and what they say about its members."""

    def __init__(
        self,
        root: Any,
        schemas: tuple[Any, ...],
        forced: Forced | None = None,
        collected: dict[tuple[int, ...], _Collected] | None = None,
    ) -> None:
        self._root = root
        self._schemas = schemas
        self._forced: Forced = forced or {}
        # Shared by the whole tree, by the ids of the schemas that apply: every well of a
        # plate has the same ones, and collecting them again for each of 4,000 nodes took a
        # tenth of a remote walk's CPU.
        self._every_collected = {} if collected is None else collected

    def _collect(self) -> _Collected:
        key = tuple(id(schema) for schema in self._schemas)
        collected = self._every_collected.get(key)
        if collected is None:
            collected = self._every_collected[key] = self._collect_anew()
        return collected

    def _collect_anew(self) -> _Collected:
        named: dict[str, list[Any]] = {}
        others: list[Any] = []
        patterns: list[list[str]] = []
        for schema in self._applying(self._schemas):
            patterns.extend(parse_pointer(p) for p in member_patterns(schema))
            properties = schema.get("properties")
            members = properties.get("members") if is_object(properties) else None
            for sub in self._applying((members,) if members is not None else ()):
                named_here = sub.get("properties")
                if is_object(named_here):
                    for name, child in named_here.items():
                        named.setdefault(name, []).append(child)
                extra = sub.get("additionalProperties")
                if is_object(extra):
                    others.append(extra)
                by_pattern = sub.get("patternProperties")
                if is_object(by_pattern):
                    others.extend(by_pattern.values())
        return named, others, patterns

    def names(self, document: Mapping[str, Any], referenced: bool = False) -> dict[str, Forced]:
        """Every member name the convention gives this node, given the node's own document:
        name -> the names below it that must be probed too (`a/b` in a dataset path). With
        `referenced`, the schema's own member names are left out."""
        named, _others, patterns = self._collect()
        found: Forced = {} if referenced else {name: {} for name in named}
        merge_forced(found, self._forced)
        for pattern in patterns:
            for _path, value in match(document, pattern):
                if isinstance(value, str):
                    _force(found, value.split("/"))
        return found

    def child(self, name: str, forced: Forced | None = None) -> MemberTree:
        named, others, _patterns = self._collect()
        schemas = tuple(named.get(name, others))
        return MemberTree(self._root, schemas, forced, self._every_collected)

    def _applying(self, schemas: tuple[Any, ...]) -> Iterator[dict[str, Any]]:
        """Every subschema that may apply to the same instance: the schemas themselves and
        what they reach through local `$ref`, `allOf`, `anyOf`, `oneOf`."""
        seen: set[int] = set()
        stack = list(reversed(schemas))
        while stack:
            schema = stack.pop()
            if not is_object(schema) or id(schema) in seen:
                continue
            seen.add(id(schema))
            yield schema
            ref = schema.get("$ref")
            if isinstance(ref, str):
                target = resolve_local_ref(self._root, ref)
                if target is not None:
                    stack.append(target)
            for keyword in ("allOf", "anyOf", "oneOf"):
                branches = schema.get(keyword)
                if is_array(branches):
                    stack.extend(reversed(branches))


def _force(forced: Forced, parts: list[str]) -> None:
    level = forced
    for part in parts:
        if part in ("", ".", ".."):
            return  # not a member name: x-zomgen-member-kind reports it
        level = level.setdefault(part, {})


def merge_forced(into: Forced, other: Forced) -> None:
    stack = [(into, other)]
    while stack:
        target, source = stack.pop()
        for name, below in source.items():
            stack.append((target.setdefault(name, {}), below))


def named_member_tree(schema: Mapping[str, Any]) -> MemberTree:
    """The member tree of the document root under `schema` (a bundled convention schema)."""
    return MemberTree(schema, (schema,))
