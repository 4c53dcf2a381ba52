"""One mutation per statically expressible constraint of the valid hierarchy.

Each `Mutation` is the valid document with exactly one change, made at `path`: a required key
or named member removed, a literal replaced by a near miss, a field given a value of the wrong
JSON type, an unknown key added to a closed object, a group where an array must be (and the
reverse), a wrong `data_type`, a tuple of the wrong length. `kind` names the mutation for the
per-checker expectations (`expect.py`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from zomgen import ir
from zomgen.cases import walk
from zomgen.cases.synth import base_node
from zomgen.ir.queries import json_type

UNKNOWN_KEY = "zomgen_unknown"
UNKNOWN_MEMBER = "zomgen_unknown"
# Real data types: a near miss of a narrowed `data_type` is still a valid type, just not the
# convention's.
V3_DATA_TYPES = ("float64", "int8", "complex128", "bool", "uint64")
V2_DATA_TYPES = ("<f8", "|i1", "<c16", "|b1", "<u8")
# Wrong values by JSON type, in the order tried: the first whose type the field does not admit.
WRONG_VALUES: tuple[tuple[str, Any], ...] = (
    ("string", "zomgen"),
    ("number", 0.5),
    ("null", None),
    ("array", []),
    ("object", {}),
    ("boolean", True),
)


@dataclass(frozen=True)
class Mutation:
    kind: str
    path: walk.Path  # where the change is made
    what: str  # one line for people
    document: Any
    ctx: walk.Context
    wrong_type: str = ""  # for `wrong-json-type`: the JSON type of the wrong value
    admitted: frozenset[str] = frozenset()  # for `wrong-json-type`: what the field admits
    closed: bool = True  # for a removed key: whether the object it is removed from is closed
    python_static: bool = True  # False: documents.py's types cannot tell (a tuple position)
    # True: another option of a union on the path admits the mutated value, so no static type
    # can tell (run-time only for every checker).
    hidden: bool = False
    # True: a union on the path has an option that allows other keys, which mypy reads as a
    # dict of any values (no PEP 728) and TypeScript as an index signature of `unknown`.
    open_union: bool = False
    # The same for TypeScript, which compares a literal with the options of a tagged union
    # that its tag selects only (an object literal's excess keys, against those options).
    open_union_tsc: bool = False
    # True: below a union on the path, some option's type for the key the mutation sits under
    # admits the mutated value there; TypeScript checks excess keys of a nested literal
    # against the union of the options' types for that key, so an unknown key passes.
    key_admitted_by_union: bool = False
    # True: the innermost union on the path is above the object the mutation is in, and every
    # option types the key below it alike, so TypeScript has one object type to compare with.
    union_narrowed: bool = False
    # True: the mutation is inside a member TypeScript types by an index signature widened
    # with the named members' types (walk.Context.widened), and one of those admits the
    # mutated member: tsc compares with their union, so it passes.
    widened_admits: bool = False
    # How mypy matches the mutated literal with the unions on its path (mypy_unions.py): ""
    # (one option each time), "dict" or "ambiguous", and the container of the union where
    # it stopped.
    mypy_union: str = ""
    mypy_union_container: str = ""


def mutations(document: Any, hierarchy: ir.Hierarchy) -> list[Mutation]:
    """Every mutation of the valid document; sight.judged then says how the checkers see it."""
    found: list[Mutation] = []
    for place in walk.places(document, hierarchy):
        found.extend(_of(place, document, hierarchy))
    return found


def _of(place: walk.Place, doc: Any, h: ir.Hierarchy) -> Iterator[Mutation]:
    path, ctx = place.path, place.ctx
    if isinstance(place, walk.NodePlace):
        here = get(doc, path)
        for key in ("zarr_format", "node_type") if place.zarr_format == 3 else ("zarr_format",):
            miss = near_miss_literal(here[key], [here[key]])
            yield _set(doc, "near-miss-literal", (*path, key), miss, ctx, f"{key} {miss!r}")
        yield _set(doc, "unknown-key", (*path, UNKNOWN_KEY), "x", ctx, "unknown node key")
    elif isinstance(place, walk.ObjectPlace):
        here = get(doc, path)
        for f in place.type.fields:
            if f.required and f.key in here:
                where = (*path, f.key)
                dropped = _drop(doc, "missing-required-key", where, ctx, f"no {f.key!r}")
                yield dataclasses.replace(dropped, closed=place.type.extra is None)
        if place.type.extra is None:
            unknown = (*path, UNKNOWN_KEY)
            yield _set(doc, "unknown-key", unknown, "x", ctx, f"unknown key in {place.type.name}")
    elif isinstance(place, walk.MembersPlace):
        yield from _members(place, doc)
    elif isinstance(place, walk.MemberPlace):
        yield from _member(place, doc, h)
    elif isinstance(place, walk.FieldPlace):
        yield from _wrong_type(place, doc, h)
    elif isinstance(place, walk.LiteralPlace):
        value = get(doc, path)
        if place.data_type:
            miss = wrong_data_type(place.type.values, int(get(doc, path[:-1])["zarr_format"]))
            yield _set(doc, "wrong-data-type", path, miss, ctx, f"data type {miss!r}")
        else:
            miss = near_miss_literal(value, place.type.values)
            found = _set(doc, "near-miss-literal", path, miss, ctx, f"{miss!r} for {value!r}")
            hidden = any(walk.fits(miss, item, h) for item in ctx.tuple_items)
            yield dataclasses.replace(found, python_static=not hidden)
    elif isinstance(place, walk.TuplePlace):
        value = get(doc, path)
        if place.type.rest is None:
            longer = [*value, value[-1] if value else 0]
            yield _set(doc, "tuple-length", path, longer, ctx, f"{len(longer)} items")
        elif place.type.required_length > 0:
            shorter = value[: place.type.required_length - 1]
            yield _set(doc, "tuple-length", path, shorter, ctx, f"{len(shorter)} items")


def _members(place: walk.MembersPlace, doc: Any) -> Iterator[Mutation]:
    here = get(doc, place.path)
    for named in place.members.named:
        if named.required and named.key in here:
            where = (*place.path, named.key)
            dropped = _drop(doc, "missing-named-member", where, place.ctx, f"no {named.key!r}")
            closed = place.members.other is None and not place.members.patterns
            yield dataclasses.replace(dropped, closed=closed)
    spec = place.members
    if spec.other is None and not spec.patterns and here:
        model = next(iter(here.values()))
        where = (*place.path, UNKNOWN_MEMBER)
        yield _set(doc, "unknown-member", where, json_copy(model), place.ctx, "unknown member")


def _member(place: walk.MemberPlace, doc: Any, h: ir.Hierarchy) -> Iterator[Mutation]:
    here = get(doc, place.path)
    kinds = node_kinds(place.type, h)
    if len(kinds) != 1 or not isinstance(here, dict):
        return
    (kind,) = kinds
    other: ir.NodeKind = "group" if kind == "array" else "array"
    name = "wrong-kind-under-pattern" if place.via == "pattern" else f"{other}-where-{kind}"
    ctx = place.ctx
    if isinstance(union := walk.alias_target(place.type, h), ir.UnionOf):
        # A member whose type is a union of nodes: the checkers only say the union fails.
        ctx = dataclasses.replace(
            ctx,
            union=True,
            union_container=ctx.union_container or ctx.container,
            unions=(*ctx.unions, (place.path, union)),
            union_containers=(*ctx.union_containers, ctx.container),
        )
    replacement = base_node(other, int(here.get("zarr_format", 3)))
    # Same attributes: only the kind is wrong, so every checker reports the kind.
    replacement["attributes"] = json_copy(here.get("attributes", {}))
    yield _set(doc, name, place.path, replacement, ctx, f"a {other} where {kind} must be")


def _wrong_type(place: walk.FieldPlace, doc: Any, h: ir.Hierarchy) -> Iterator[Mutation]:
    admitted = json_types(place.field.type, h)
    if "any" in admitted or not admitted:
        return
    for name, value in WRONG_VALUES:
        # Python's bool is an int: True would pass where a number is admitted.
        if name not in admitted and not (name == "boolean" and admitted & {"integer", "number"}):
            yield Mutation(
                "wrong-json-type",
                place.path,
                f"{name} for {place.field.key!r}",
                edited(doc, place.path, value),
                place.ctx,
                name,
                frozenset(admitted),
            )
            return


def json_types(ref: ir.TypeRef, h: ir.Hierarchy) -> set[str]:
    """The JSON types a static type admits ("any" for every one)."""
    if isinstance(ref, ir.Primitive):
        return {"integer", "number"} if ref.name == "number" else {ref.name}
    if isinstance(ref, ir.Literal):
        return {json_type(v) for v in ref.values}
    if isinstance(ref, ir.Json):
        return {"any"}
    if isinstance(ref, ir.Never):
        return set()
    if isinstance(ref, ir.ListOf | ir.TupleOf):
        return {"array"}
    if isinstance(ref, ir.UnionOf):
        return set().union(*(json_types(o, h) for o in ref.options))
    if isinstance(ref, ir.Ref):
        named = h.type_named(ref.name)
        if isinstance(named, ir.AliasType):
            return json_types(named.target, h)
    return {"object"}


def node_kinds(ref: ir.TypeRef, h: ir.Hierarchy) -> set[str]:
    """The node kinds a member type admits ("value" for anything that is not a node)."""
    if isinstance(ref, ir.BaseNode):
        return {ref.kind}
    if isinstance(ref, ir.UnionOf):
        return set().union(*(node_kinds(o, h) for o in ref.options))
    if isinstance(ref, ir.Ref):
        named = h.type_named(ref.name)
        if isinstance(named, ir.NodeType):
            return {named.node_kind}
        if isinstance(named, ir.AliasType):
            return node_kinds(named.target, h)
    return {"value"}


def near_miss_literal(value: Any, values: Any) -> Any:
    """A value of the same JSON type close to `value` that none of `values` is."""
    taken = list(values)
    candidates: list[Any]
    if isinstance(value, bool):
        candidates = [not value, 0]
    elif isinstance(value, int | float):
        candidates = [value + 1, value - 1, value + 2, value + 0.5]
    elif isinstance(value, str):
        candidates = [value + "x", value.upper(), value[:-1], "zomgen"]
    elif value is None:
        candidates = ["null", 0]
    else:
        candidates = ["zomgen"]
    for candidate in candidates:
        if not any(candidate == t and json_type(candidate) == json_type(t) for t in taken):
            return candidate
    return "zomgen-" + str(len(taken))


def wrong_data_type(values: tuple[ir.JsonScalar, ...], zarr_format: int) -> str:
    for candidate in V2_DATA_TYPES if zarr_format == 2 else V3_DATA_TYPES:
        if candidate not in values:
            return candidate
    return "zomgen"


def get(doc: Any, path: walk.Path) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def json_copy(value: Any) -> Any:
    """A copy of a JSON value, every object and array new: `copy.deepcopy` took a tenth of the
    time `zomgen cases` took on GeoZarr, most of it in bookkeeping a JSON value does not need."""
    if isinstance(value, dict):
        return {key: json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_copy(item) for item in value]
    return value


def edited(doc: Any, path: walk.Path, value: Any, drop: bool = False) -> Any:
    out = json_copy(doc)
    parent = get(out, path[:-1])
    if drop:
        del parent[path[-1]]
    elif isinstance(parent, list) and isinstance(path[-1], int) and path[-1] == len(parent):
        parent.append(value)
    else:
        parent[path[-1]] = value
    return out


def _set(
    doc: Any, kind: str, path: walk.Path, value: Any, ctx: walk.Context, what: str
) -> Mutation:
    return Mutation(kind, path, what, edited(doc, path, value), ctx)


def _drop(doc: Any, kind: str, path: walk.Path, ctx: walk.Context, what: str) -> Mutation:
    return Mutation(kind, path, what, edited(doc, path, None, drop=True), ctx)
