"""A smallest valid value for every IR type: the start of the valid hierarchy.

`Synthesiser.value(ref)` builds JSON data from the IR alone (every required key, the smallest
value of each type, every named member, one member per pattern and for the other members,
tuples of their full length, the first literal of a `const`/`enum`). What the IR cannot say
(`pattern`, `minimum`, `if`/`then`, ...) is fixed afterwards by `repair.py` against the run time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from zomgen import ir
from zomgen.cases.strings import matching

V3_ARRAY: dict[str, Any] = {
    "zarr_format": 3,
    "node_type": "array",
    "attributes": {},
    "shape": [1],
    "data_type": "uint8",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1]}},
    "chunk_key_encoding": {"name": "default"},
    "fill_value": 0,
    "codecs": [{"name": "bytes"}],
}
V2_ARRAY: dict[str, Any] = {
    "zarr_format": 2,
    "attributes": {},
    "shape": [1],
    "chunks": [1],
    "dtype": "|u1",
    "compressor": None,
    "fill_value": 0,
    "order": "C",
    "filters": None,
}

# Member names tried for a pattern (the first one the pattern matches is used) and for the
# members no name or pattern describes.
NAME_CANDIDATES = ("0", "a", "m", "x", "A", "0.0", "a0", "s0", "member", "_", "-", "0-0", "a:a")
OTHER_NAMES = ("extra", "other", "m1", "zz")


class Unsatisfiable(Exception):
    """No value can be built: `pointer` is the schema pointer of the type that blocks it."""

    def __init__(self, pointer: str, message: str) -> None:
        super().__init__(message)
        self.pointer = pointer
        self.message = message


def base_group(zarr_format: int) -> dict[str, Any]:
    if zarr_format == 2:
        return {"zarr_format": 2, "attributes": {}, "members": {}}
    return {"zarr_format": 3, "node_type": "group", "attributes": {}, "members": {}}


def base_array(zarr_format: int) -> dict[str, Any]:
    return dict(_copy(V2_ARRAY if zarr_format == 2 else V3_ARRAY))


def base_node(kind: ir.NodeKind, zarr_format: int) -> dict[str, Any]:
    return base_group(zarr_format) if kind == "group" else base_array(zarr_format)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def pattern_name(pattern: str, taken: Iterable[str]) -> str | None:
    """A member name `pattern` matches (Python's `re`, which reads the common ECMA subset)."""
    used = set(taken)
    try:
        compiled = re.compile(pattern)
    except re.error:
        return None
    for name in NAME_CANDIDATES:
        if name not in used and compiled.search(name):
            return name
    made = matching(pattern)
    return made if made and made not in used and "/" not in made else None


def other_name(members: ir.Members, taken: Iterable[str]) -> str | None:
    """A member name that no named member holds and no pattern matches."""
    used = set(taken)
    for name in OTHER_NAMES:
        if name in used:
            continue
        if not any(_matches(p, name) for p, _ in members.patterns):
            return name
    return None


def _matches(pattern: str, name: str) -> bool:
    try:
        return re.search(pattern, name) is not None
    except re.error:
        return True  # unreadable here: do not risk a name it might match


# Keys every JavaScript object has through its prototype: a literal without an optional key of
# one of these names has the inherited one, which tsc compares with the declared type (a
# language gap, docs/exact-types.md), so the valid hierarchy gives them their own value.
INHERITED = frozenset(
    (
        "constructor",
        "toString",
        "toLocaleString",
        "valueOf",
        "hasOwnProperty",
        "isPrototypeOf",
        "propertyIsEnumerable",
        "__proto__",
        "__defineGetter__",
        "__defineSetter__",
        "__lookupGetter__",
        "__lookupSetter__",
    )
)

SMALLEST: dict[ir.PrimitiveName, Any] = {
    "string": "",
    "integer": 0,
    "number": 0,
    "boolean": False,
    "null": None,
}


class Synthesiser:
    """Builds the valid hierarchy from a compiled convention."""

    def __init__(self, hierarchy: ir.Hierarchy) -> None:
        self.hierarchy = hierarchy
        self._stack: list[str] = []

    def root(self) -> Any:
        return self.value(ir.Ref(self.hierarchy.root), "#")

    def value(self, ref: ir.TypeRef, where: str) -> Any:
        if isinstance(ref, ir.Primitive):
            return SMALLEST[ref.name]
        if isinstance(ref, ir.Literal):
            return ref.values[0]
        if isinstance(ref, ir.Json):
            return None
        if isinstance(ref, ir.Never):
            raise Unsatisfiable(where, "a required key admits no value (`false`, `enum: []`)")
        if isinstance(ref, ir.JsonObject | ir.MapOf):
            return {}
        if isinstance(ref, ir.ListOf):
            # One item, not none: a list beside the shape (`_ARRAY_DIMENSIONS`) often has one
            # per dimension, and the item's own constraints get cases too.
            if self.recursive(ref.item):
                return []
            try:
                return [self.value(ref.item, where)]
            except Unsatisfiable:
                return []
        if isinstance(ref, ir.TupleOf):
            return [self.value(item, where) for item in ref.items]
        if isinstance(ref, ir.BaseNode):
            return base_node(ref.kind, ref.zarr_format)
        if isinstance(ref, ir.UnionOf):
            return self._union(ref, where)
        return self._named(ref.name)

    def recursive(self, ref: ir.TypeRef) -> bool:
        """Whether building `ref` now would enter a named type already being built."""
        if isinstance(ref, ir.Ref):
            return ref.name in self._stack
        if isinstance(ref, ir.UnionOf):
            return all(self.recursive(option) for option in ref.options)
        return False

    def _union(self, ref: ir.UnionOf, where: str) -> Any:
        problem: Unsatisfiable | None = None
        for option in sorted(ref.options, key=self.recursive):
            try:
                return self.value(option, where)
            except Unsatisfiable as exc:
                problem = problem or exc
        raise problem or Unsatisfiable(where, "a union with no option")

    def _named(self, name: str) -> Any:
        named = self.hierarchy.type_named(name)
        if name in self._stack:
            raise Unsatisfiable(named.pointer, f"`{name}` requires itself: no finite value")
        self._stack.append(name)
        try:
            if isinstance(named, ir.ObjectType):
                return self._object(named)
            if isinstance(named, ir.NodeType):
                return self._node(named)
            return self.value(named.target, named.pointer)
        finally:
            self._stack.pop()

    def _object(self, named: ir.ObjectType) -> dict[str, Any]:
        return {
            f.key: self.value(f.type, named.pointer)
            for f in named.fields
            if f.required or f.key in INHERITED
        }

    def _node(self, node: ir.NodeType) -> dict[str, Any]:
        doc = base_node(node.node_kind, node.zarr_format)
        doc["attributes"] = self.value(node.attributes, node.pointer)
        for meta in node.metadata:
            if meta.required or meta.key in doc:
                doc[meta.key] = self.value(meta.type, node.pointer)
        if node.node_kind == "array":
            _fit_dimensions(doc, {m.key for m in node.metadata})
        if node.members is not None:
            doc["members"] = self._members(node.members, node.pointer)
        return doc

    def _members(self, members: ir.Members, where: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for named in members.named:
            if named.required:
                out[named.key] = self.value(named.type, where)
            elif not self.recursive(named.type):
                try:
                    out[named.key] = self.value(named.type, where)
                except Unsatisfiable:
                    pass  # an optional member: the hierarchy is valid without it
        extra: list[tuple[str | None, ir.TypeRef]] = [
            (pattern_name(p, [*out, *(n.key for n in members.named)]), t)
            for p, t in members.patterns
        ]
        if members.other is not None:
            extra.append(
                (other_name(members, [*out, *(n.key for n in members.named)]), members.other)
            )
        for name, ref in extra:
            if name is None or self.recursive(ref):
                continue
            try:
                out[name] = self.value(ref, where)
            except Unsatisfiable:
                pass
        return out


def _fit_dimensions(doc: dict[str, Any], narrowed: set[str]) -> None:
    """Make shape, chunks and dimension names agree on the number of dimensions."""
    if "shape" in narrowed and isinstance(doc.get("shape"), list):
        ndim = len(doc["shape"])
    elif isinstance(doc.get("dimension_names"), list):
        ndim = len(doc["dimension_names"])
    else:
        return
    if "shape" not in narrowed:
        doc["shape"] = [1] * ndim
    if doc.get("zarr_format") == 2:
        doc["chunks"] = [1] * ndim
    elif isinstance(doc.get("chunk_grid"), dict) and "chunk_grid" not in narrowed:
        doc["chunk_grid"] = {"name": "regular", "configuration": {"chunk_shape": [1] * ndim}}
