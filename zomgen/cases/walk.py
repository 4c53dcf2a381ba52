"""Where the valid hierarchy can be broken: the places of a document, typed by the IR.

`places(document, hierarchy)` walks the valid document beside the IR and yields each node,
attribute object, `members` mapping, member, field, literal and tuple it meets, with its path
and its context: why mypy cannot type it, if it cannot (below an option of a union that holds
`MypyFallback`, or among the other members of a group with named ones: docs/exact-types.md),
and whether it sits inside a union.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from zomgen import ir
from zomgen.cases.mypy_gaps import MypyGaps, tuple_union, union_at
from zomgen.ir.queries import json_type
from zomgen.ir.zarr import ALL_NODE_KEYS
from zomgen.schema.patterns import matches

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Context:
    # Why mypy cannot type the place (open_dicts.py: no PEP 728), in mypy's terms; None where it
    # can. A mistake there is not compared for mypy (expect.py), and the reason goes into
    # cases.json and the agreement report. The outermost reason on the path is kept.
    loose: str | None = None
    union: bool = False  # inside an option of a union
    nested: bool = False  # below the root node (inside a member)
    # What holds the value in documents.py: a TypedDict, a dict or a list. mypy names a
    # mismatch inside a union by the union's container (typeddict-item, dict-item, list-item).
    container: str = "typeddict"
    union_container: str = ""  # the container of the outermost union on the path ("": none)
    in_collection: bool = False  # below a value of a dict or list
    # The item types of the tuple whose position this is: documents.py types a tuple as a list
    # of their union, so a position's mistake that another position admits passes there.
    tuple_items: tuple[ir.TypeRef, ...] = ()
    # The unions on the path (outermost first): where each is, and its type. A mistake below
    # one that leaves a value another option admits is no mistake to a type checker.
    unions: tuple[tuple[Path, ir.UnionOf], ...] = ()
    union_containers: tuple[str, ...] = ()  # the container of each of `unions`
    # Members that TypeScript types by an index signature, which must admit the named
    # members' types too (types.ts: `{ readonly [name: string]: Named | Other }`): where each
    # is, and the types besides its own that tsc compares it with.
    widened: tuple[tuple[Path, tuple[ir.TypeRef, ...]], ...] = ()


@dataclass(frozen=True)
class NodePlace:
    path: Path
    kind: ir.NodeKind
    zarr_format: int
    ctx: Context


@dataclass(frozen=True)
class ObjectPlace:
    path: Path
    type: ir.ObjectType
    ctx: Context


@dataclass(frozen=True)
class MembersPlace:
    path: Path  # of the `members` mapping
    members: ir.Members
    ctx: Context


@dataclass(frozen=True)
class MemberPlace:
    path: Path
    type: ir.TypeRef
    via: str  # "named", "pattern" or "other"
    ctx: Context


@dataclass(frozen=True)
class FieldPlace:
    path: Path  # of the field's value (present or not)
    field: ir.Field
    metadata: bool  # a node's metadata field rather than an attribute object's
    ctx: Context


@dataclass(frozen=True)
class LiteralPlace:
    path: Path
    type: ir.Literal
    data_type: bool  # the narrowed `data_type` / `dtype` of an array node
    ctx: Context


@dataclass(frozen=True)
class TuplePlace:
    path: Path
    type: ir.TupleOf
    ctx: Context


Place = (
    NodePlace | ObjectPlace | MembersPlace | MemberPlace | FieldPlace | LiteralPlace | TuplePlace
)


def places(document: Any, hierarchy: ir.Hierarchy) -> list[Place]:
    return list(_Walker(hierarchy).walk(document, ir.Ref(hierarchy.root), (), Context()))


class _Walker:
    def __init__(self, hierarchy: ir.Hierarchy) -> None:
        self.h = hierarchy
        self.gaps = MypyGaps(hierarchy)

    def _options_for(self, value: Any, union: ir.UnionOf) -> tuple[ir.TypeRef, ...]:
        """The union's options, the one whose type admits `value` all the way down first: the
        top-level shape alone does not tell apart options that differ only inside a required
        key (OME-Zarr's `ome` object, which each of `ome_zarr.schema`'s options types its way)."""
        admitting = next((o for o in union.options if admits(value, o, self.h)), None)
        if admitting is None:
            return union.options
        return (admitting, *(o for o in union.options if o is not admitting))

    def walk(
        self,
        value: Any,
        ref: ir.TypeRef,
        path: Path,
        ctx: Context,
        where: str = "",
        alias: bool = False,
    ) -> Iterator[Place]:
        """The places of `value`, typed `ref`. For the reasons of Context.loose, `where` names
        what documents.py spells this type in (an alias, or the `Object.key` it types), and
        `alias` says that `ref` is that alias's own type."""
        if isinstance(ref, ir.Ref):
            named = self.h.type_named(ref.name)
            if isinstance(named, ir.ObjectType):
                yield from self._object(value, named, path, ctx)
            elif isinstance(named, ir.NodeType):
                yield from self._node(value, named, path, ctx)
            else:
                yield from self.walk(value, named.target, path, ctx, f"`{ref.name}`", alias=True)
        elif isinstance(ref, ir.BaseNode) and fits(value, ref, self.h):
            yield NodePlace(path, ref.kind, ref.zarr_format, ctx)
        elif isinstance(ref, ir.UnionOf):
            for option in self._options_for(value, ref):
                if fits(value, option, self.h):
                    inner = _with(
                        ctx,
                        union=True,
                        union_container=ctx.union_container or ctx.container,
                        unions=(*ctx.unions, (path, ref)),
                        union_containers=(*ctx.union_containers, ctx.container),
                        loose=ctx.loose or self.gaps.below(ref.options, union_at(where, alias)),
                    )
                    yield from self.walk(value, option, path, inner)
                    break
        elif isinstance(ref, ir.Literal):
            data_type = len(path) > 0 and path[-1] in ("data_type", "dtype")
            yield LiteralPlace(path, ref, data_type and ctx_is_metadata(path), ctx)
        elif isinstance(ref, ir.TupleOf) and isinstance(value, list):
            yield TuplePlace(path, ref, ctx)
            items = (*ref.items, *([ref.rest] if ref.rest is not None else []))
            inner = _with(
                ctx,
                container="list",
                in_collection=True,
                tuple_items=ref.items,
                loose=ctx.loose or self.gaps.below(items, tuple_union(where)),
            )
            for index, item in enumerate(value):
                item_type = ref.items[index] if index < len(ref.items) else ref.rest
                if item_type is not None:
                    yield from self.walk(item, item_type, (*path, index), inner, where)
        elif isinstance(ref, ir.ListOf) and isinstance(value, list):
            inner = _with(ctx, container="list", in_collection=True, tuple_items=())
            for index, item in enumerate(value):
                yield from self.walk(item, ref.item, (*path, index), inner, where)
        elif isinstance(ref, ir.MapOf) and isinstance(value, dict):
            inner = _with(ctx, container="dict", in_collection=True, tuple_items=())
            for key, item in value.items():
                yield from self.walk(item, ref.value, (*path, key), inner, where)

    def _object(self, value: Any, obj: ir.ObjectType, path: Path, ctx: Context) -> Iterator[Place]:
        if not isinstance(value, dict):
            return
        yield ObjectPlace(path, obj, ctx)
        ctx = _with(ctx, container="typeddict", tuple_items=())
        for f in obj.fields:
            yield FieldPlace((*path, f.key), f, False, ctx)
            if f.key in value:
                at = f"`{obj.name}.{f.key}`"
                yield from self.walk(value[f.key], f.type, (*path, f.key), ctx, at)

    def _node(self, value: Any, node: ir.NodeType, path: Path, ctx: Context) -> Iterator[Place]:
        if not isinstance(value, dict):
            return
        yield NodePlace(path, node.node_kind, node.zarr_format, ctx)
        ctx = _with(ctx, container="typeddict", tuple_items=())
        attributes = value.get("attributes")
        at = f"`{node.name}.attributes`"
        yield from self.walk(attributes, node.attributes, (*path, "attributes"), ctx, at)
        for meta in node.metadata:
            yield FieldPlace((*path, meta.key), meta, True, ctx)
            if meta.key in value:
                at = f"`{node.name}.{meta.key}`"
                yield from self.walk(value[meta.key], meta.type, (*path, meta.key), ctx, at)
        members = value.get("members")
        if node.members is None or not isinstance(members, dict):
            return
        spec = node.members
        other_types = (
            *(t for _, t in spec.patterns),
            *([] if spec.other is None else [spec.other]),
        )
        where = (*path, "members")
        yield MembersPlace(where, spec, ctx)
        if spec.named:
            inner = _with(ctx, nested=True, container="typeddict")
        else:
            inner = _with(ctx, nested=True, container="dict", in_collection=True)
        for name, member in members.items():
            found = member_type(spec, name)
            if found is not None:
                here = inner
                if found[1] != "named" and spec.other is not None:
                    index = [n.type for n in spec.named] + [t for _, t in spec.patterns]
                    others = tuple(t for t in dict.fromkeys([*index, spec.other]) if t != found[0])
                    here = _with(inner, widened=(*inner.widened, ((*where, name), others)))
                target = alias_target(found[0], self.h)
                loose = self.gaps.of_member(node.name, spec, name, found, other_types, target)
                here = _with(here, loose=here.loose or loose)
                yield MemberPlace((*where, name), found[0], found[1], here)
                yield from self.walk(member, found[0], (*where, name), here)


def alias_target(ref: ir.TypeRef, h: ir.Hierarchy) -> ir.TypeRef:
    """`ref` with its aliases followed."""
    while isinstance(ref, ir.Ref):
        named = h.type_named(ref.name)
        if not isinstance(named, ir.AliasType):
            break
        ref = named.target
    return ref


def ctx_is_metadata(path: Path) -> bool:
    """A node's own key: the path is the root's key, or a member's (`.../members/<name>/key`)."""
    return len(path) == 1 or (len(path) >= 3 and path[-3] == "members")


def member_type(spec: ir.Members, name: str) -> tuple[ir.TypeRef, str] | None:
    for named in spec.named:
        if named.key == name:
            return named.type, "named"
    for pattern, ref in spec.patterns:
        if matches(pattern, name):
            return ref, "pattern"
    return (spec.other, "other") if spec.other is not None else None


def _with(ctx: Context, **changes: Any) -> Context:
    return dataclasses.replace(ctx, **changes)


def fits(value: Any, ref: ir.TypeRef, h: ir.Hierarchy) -> bool:
    """Whether `value` has the shape of `ref` (used to tell which option of a union it is)."""
    if isinstance(ref, ir.Primitive):
        kind = json_type(value)
        return kind == ref.name or (ref.name == "number" and kind == "integer")
    if isinstance(ref, ir.Literal):
        return any(value == v and json_type(value) == json_type(v) for v in ref.values)
    if isinstance(ref, ir.Json):
        return True
    if isinstance(ref, ir.Never):
        return False
    if isinstance(ref, ir.JsonObject | ir.MapOf):
        return isinstance(value, dict)
    if isinstance(ref, ir.ListOf):
        return isinstance(value, list)
    if isinstance(ref, ir.TupleOf):
        return isinstance(value, list) and ref.required_length <= len(value)
    if isinstance(ref, ir.BaseNode):
        return _is_node(value, ref.kind, ref.zarr_format)
    if isinstance(ref, ir.UnionOf):
        return any(fits(value, option, h) for option in ref.options)
    named = h.type_named(ref.name)
    if isinstance(named, ir.NodeType):
        return _is_node(value, named.node_kind, named.zarr_format)
    if isinstance(named, ir.AliasType):
        return fits(value, named.target, h)
    if not isinstance(value, dict):
        return False
    listed = {f.key: f for f in named.fields}
    if any(f.required and f.key not in value for f in named.fields):
        return False
    if named.extra is None and any(k not in listed for k in value):
        return False
    return all(
        fits(value[k], f.type, h) for k, f in listed.items() if k in value and _shallow(f.type)
    )


def _shallow(ref: ir.TypeRef) -> bool:
    return isinstance(ref, ir.Literal | ir.Primitive)


def _is_node(value: Any, kind: str, zarr_format: int) -> bool:
    if not isinstance(value, dict) or value.get("zarr_format") != zarr_format:
        return False
    if zarr_format == 3:
        return bool(value.get("node_type") == kind)
    return ("members" in value) == (kind == "group")


def admits(value: Any, ref: ir.TypeRef, h: ir.Hierarchy) -> bool:
    """Whether the static type `ref` admits `value`, all the way down (nodes: their kind and
    attributes). Used to tell a mutation inside a union that another option still admits."""
    if isinstance(ref, ir.Primitive | ir.Literal | ir.Json | ir.Never | ir.JsonObject):
        return fits(value, ref, h)
    if isinstance(ref, ir.MapOf):
        return isinstance(value, dict) and all(admits(v, ref.value, h) for v in value.values())
    if isinstance(ref, ir.ListOf):
        return isinstance(value, list) and all(admits(v, ref.item, h) for v in value)
    if isinstance(ref, ir.TupleOf):
        if not isinstance(value, list) or len(value) < ref.required_length:
            return False
        if ref.rest is None and len(value) > len(ref.items):
            return False
        return all(
            admits(v, ref.items[i] if i < len(ref.items) else ref.rest or ir.Json(), h)
            for i, v in enumerate(value)
        )
    if isinstance(ref, ir.BaseNode):
        return _is_node(value, ref.kind, ref.zarr_format) and all(k in ALL_NODE_KEYS for k in value)
    if isinstance(ref, ir.UnionOf):
        return any(admits(value, option, h) for option in ref.options)
    named = h.type_named(ref.name)
    if isinstance(named, ir.AliasType):
        return admits(value, named.target, h)
    if isinstance(named, ir.NodeType):
        return _node_admits(value, named, h)
    if not isinstance(value, dict):
        return False
    listed = {f.key: f for f in named.fields}
    if any(f.required and f.key not in value for f in named.fields):
        return False
    for key, item in value.items():
        field = listed.get(key)
        if field is not None:
            if not admits(item, field.type, h):
                return False
        elif named.extra is None or not admits(item, named.extra, h):
            return False
    return True


def _node_admits(value: Any, node: ir.NodeType, h: ir.Hierarchy) -> bool:
    if not _is_node(value, node.node_kind, node.zarr_format):
        return False
    if not admits(value.get("attributes"), node.attributes, h):
        return False
    metadata = {m.key: m for m in node.metadata}
    if any(k not in ALL_NODE_KEYS and k not in metadata for k in value):
        return False
    if not all(admits(value[k], m.type, h) for k, m in metadata.items() if k in value):
        return False
    members = value.get("members")
    if node.members is None or not isinstance(members, dict):
        return True
    if any(n.required and n.key not in members for n in node.members.named):
        return False
    for name, member in members.items():
        found = member_type(node.members, name)
        if found is None or not admits(member, found[0], h):
            return False
    return True
