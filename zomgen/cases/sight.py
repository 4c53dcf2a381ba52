"""How each checker sees a mutation: what its place in the document and the IR say about the
unions, mypy's fallbacks and index signatures on its path (the fields of `Mutation` that
expect.py reads to say which codes each checker must report)."""

from __future__ import annotations

import dataclasses
from typing import Any

from zomgen import ir
from zomgen.cases import mypy_unions, walk
from zomgen.cases.mutate import Mutation, get
from zomgen.targets.python.bases import base_fields
from zomgen.targets.python.lower import PythonLowering


def judged(found: list[Mutation], hierarchy: ir.Hierarchy) -> list[Mutation]:
    """Each mutation with how the checkers see it."""
    keys = typeddict_keys(hierarchy)
    return [_judged(m, keys, hierarchy) for m in found]


def _judged(m: Mutation, keys: mypy_unions.Keys, h: ir.Hierarchy) -> Mutation:
    """`m` with what its place says about how each checker sees it."""
    mypy_union, container = mypy_unions.verdict(m.document, m.path, m.ctx, keys, h)
    return dataclasses.replace(
        m,
        mypy_union=mypy_union,
        mypy_union_container=container,
        hidden=_hidden(m, h),
        open_union=_open_union(m, h),
        open_union_tsc=_open_union_tsc(m, h),
        key_admitted_by_union=_key_admitted_by_union(m, h),
        union_narrowed=_union_narrowed(m, h),
        widened_admits=_widened_admits(m, h),
    )


def _widened_admits(mutation: Mutation, h: ir.Hierarchy) -> bool:
    return any(
        walk.admits(get(mutation.document, where), other, h)
        for where, others in mutation.ctx.widened
        if mutation.path[: len(where)] == where
        for other in others
    )


def _key_admitted_by_union(mutation: Mutation, h: ir.Hierarchy) -> bool:
    for where, union in mutation.ctx.unions:
        rest = mutation.path[len(where) :]
        if mutation.path[: len(where)] != where or len(rest) < 2:
            continue
        value = get(mutation.document, (*where, rest[0]))
        for option in _discriminated(union, get(mutation.document, where), h):
            found = _key_type(option, rest[0], h)
            if found is not None and walk.admits(value, found, h):
                return True
    return False


def _discriminated(union: ir.UnionOf, value: Any, h: ir.Hierarchy) -> list[ir.TypeRef]:
    """The options TypeScript compares a literal with: where every option is an object with
    a required key of literal type (a tag, OME's transformation `type`), only those whose
    tag the value holds; else all."""
    objects = [_object(option, h) for option in union.options]
    if not isinstance(value, dict) or any(o is None for o in objects):
        return list(union.options)
    tags = [{f.key: f.type for f in o.fields if f.required} for o in objects if o is not None]
    for key in tags[0]:
        literals = [t.get(key) for t in tags]
        if key in value and all(isinstance(t, ir.Literal) for t in literals):
            return [
                option
                for option, literal in zip(union.options, literals, strict=True)
                if isinstance(literal, ir.Literal) and value[key] in literal.values
            ]
    return list(union.options)


def _object(ref: ir.TypeRef, h: ir.Hierarchy) -> ir.ObjectType | None:
    if not isinstance(ref, ir.Ref):
        return None
    named = h.type_named(ref.name)
    if isinstance(named, ir.AliasType):
        return _object(named.target, h)
    return named if isinstance(named, ir.ObjectType) else None


def _union_narrowed(mutation: Mutation, h: ir.Hierarchy) -> bool:
    if not mutation.ctx.unions:
        return False
    where, union = mutation.ctx.unions[-1]
    rest = mutation.path[len(where) :]
    if mutation.path[: len(where)] != where or len(rest) < 2:
        return False
    found = [_key_type(option, rest[0], h) for option in union.options]
    typed = [t for t in found if t is not None]
    return bool(typed) and all(t == typed[0] for t in typed) and isinstance(typed[0], ir.Ref)


def _key_type(ref: ir.TypeRef, key: str | int, h: ir.Hierarchy) -> ir.TypeRef | None:
    """The type an object type gives `key` (a listed field, else its other keys' type)."""
    if isinstance(ref, ir.Json | ir.JsonObject):
        return ir.Json()
    if isinstance(ref, ir.MapOf):
        return ref.value
    if not isinstance(ref, ir.Ref):
        return None
    named = h.type_named(ref.name)
    if isinstance(named, ir.AliasType):
        return _key_type(named.target, key, h)
    if not isinstance(named, ir.ObjectType):
        return None
    for field in named.fields:
        if field.key == key:
            return field.type
    return named.extra


def typeddict_keys(h: ir.Hierarchy) -> mypy_unions.Keys:
    """The listed and the required keys of every TypedDict of documents.py."""
    target = PythonLowering(h)
    package = target.package()
    found = {
        d.name: (
            frozenset(f.key for f in d.fields),
            frozenset(f.key for f in d.fields if f.required),
        )
        for d in package.documents
    }
    for version in h.zarr_formats:
        for kind in ("group", "array"):
            own = ["zarr_format", "attributes"] + (["node_type"] if version == 3 else [])
            own += ["members"] if kind == "group" else []
            fields = base_fields(target.sp, kind, version)
            found[mypy_unions.base_name(kind, version)] = (
                frozenset([*own, *(f.key for f in fields)]),
                frozenset([*own, *(f.key for f in fields if f.required)]),
            )
    return found


def _open_union(mutation: Mutation, h: ir.Hierarchy) -> bool:
    return any(
        any(_is_open(option, h) for option in union.options) for _, union in mutation.ctx.unions
    )


def _open_union_tsc(mutation: Mutation, h: ir.Hierarchy) -> bool:
    """The same as TypeScript sees it: only the options a tagged union narrows to count, and
    only where the mistake is in the option's own other keys (its index signature of
    `unknown`), not below a key the option lists."""
    for where, union in mutation.ctx.unions:
        rest = mutation.path[len(where) :]
        if mutation.path[: len(where)] != where or not rest:
            continue
        for option in _discriminated(union, get(mutation.document, where), h):
            found = _object(option, h)
            listed = found is not None and any(f.key == rest[0] for f in found.fields)
            if _is_open(option, h) and (len(rest) == 1 or not listed):
                return True
    return False


def _is_open(ref: ir.TypeRef, h: ir.Hierarchy) -> bool:
    """Whether a type is an object that allows other keys (or any JSON value)."""
    if isinstance(ref, ir.JsonObject | ir.MapOf | ir.Json):
        return True
    if not isinstance(ref, ir.Ref):
        return False
    named = h.type_named(ref.name)
    if isinstance(named, ir.AliasType):
        return _is_open(named.target, h)
    return isinstance(named, ir.ObjectType) and named.extra is not None


def _hidden(mutation: Mutation, h: ir.Hierarchy) -> bool:
    """Whether a union on the mutation's path still admits the mutated value there, or the
    root's static type admits the whole mutated document (a member typed as any JSON value)."""
    for where, union in mutation.ctx.unions:
        if mutation.path[: len(where)] == where:
            value = get(mutation.document, where)
            if any(walk.admits(value, option, h) for option in union.options):
                return True
    return walk.admits(mutation.document, ir.Ref(h.root), h)
