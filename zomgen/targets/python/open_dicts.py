"""Which TypedDicts that allow other keys mypy must read loosely.

mypy has no PEP 728 (`extra_items`), so it reads a TypedDict that allows other keys through a
view of its own (typeddict.j2). The exact view is the listed keys alone: mypy then checks every
listed key and, run with `disable_error_code = typeddict-unknown-key`, accepts the other keys.
That holds wherever a dict literal meets the TypedDict itself. It fails inside a union: mypy
first picks the options whose keys match the literal (an option with other keys matches
none), and when several remain it counts any error, a disabled one included, against an
option. A valid document with other keys below a union option would be rejected. So each
open TypedDict reachable from a union option (at any depth) keeps the loose view,
`_XKeys | dict[str, ...]`, which accepts any dict there; all the others get the exact view.
"""

from __future__ import annotations

from collections.abc import Iterator

from zomgen import ir


def open_names(h: ir.Hierarchy) -> frozenset[str]:
    """Every TypedDict that allows other keys: an open object, or the members of a group with
    named members and others (`<Node>Members`)."""
    names: set[str] = set()
    for named in h.types:
        if isinstance(named, ir.ObjectType) and named.extra is not None:
            names.add(named.name)
        elif isinstance(named, ir.NodeType) and named.members is not None:
            m = named.members
            if m.named and (m.other is not None or m.patterns):
                names.add(members_name(named.name))
    return frozenset(names)


def members_name(node: str) -> str:
    return f"{node}Members"


def loose_names(h: ir.Hierarchy) -> frozenset[str]:
    """The open TypedDicts mypy must read loosely: those reachable from a union option. The
    members of a group with named and other members are always read loosely (their dict
    holds every member type, which is a union too: `_members_unions`)."""
    named = {t.name: t for t in h.types}  # not `NamedConfig`, the base's extension object
    reached: set[str] = set()
    pending = [o for union in _unions(h) for o in union]
    while pending:
        for name in _names_in(pending.pop()):
            if name not in reached and name in named:
                reached.add(name)
                pending.extend(_inside(named[name]))
    return frozenset((reached | {members_name(n) for n in reached}) & open_names(h))


def _unions(h: ir.Hierarchy) -> Iterator[tuple[ir.TypeRef, ...]]:
    """The options of every union a document type spells as one: unions, and the item types of
    a tuple (documents.py types a tuple as a list of their union)."""
    for named in h.types:
        for ref in _inside(named):
            yield from _unions_in(ref)
        if isinstance(named, ir.NodeType) and named.members is not None:
            m = named.members
            if m.named and (m.other is not None or m.patterns):
                other = [m.other] if m.other is not None else []
                yield (*(f.type for f in m.named), *(t for _, t in m.patterns), *other)


def _unions_in(ref: ir.TypeRef) -> Iterator[tuple[ir.TypeRef, ...]]:
    if isinstance(ref, ir.UnionOf):
        yield ref.options
        for o in ref.options:
            yield from _unions_in(o)
    elif isinstance(ref, ir.TupleOf):
        items = (*ref.items, *([ref.rest] if ref.rest is not None else []))
        if len(set(items)) > 1:
            yield items
        for i in items:
            yield from _unions_in(i)
    elif isinstance(ref, ir.ListOf):
        yield from _unions_in(ref.item)
    elif isinstance(ref, ir.MapOf):
        yield from _unions_in(ref.value)


def _names_in(ref: ir.TypeRef) -> Iterator[str]:
    """The named types a type reference spells, at any depth of its containers."""
    if isinstance(ref, ir.Ref):
        yield ref.name
    elif isinstance(ref, ir.UnionOf):
        for o in ref.options:
            yield from _names_in(o)
    elif isinstance(ref, ir.TupleOf):
        for i in (*ref.items, *([ref.rest] if ref.rest is not None else [])):
            yield from _names_in(i)
    elif isinstance(ref, ir.ListOf):
        yield from _names_in(ref.item)
    elif isinstance(ref, ir.MapOf):
        yield from _names_in(ref.value)


def _inside(named: ir.NamedType) -> Iterator[ir.TypeRef]:
    """The type references a named type holds directly."""
    if isinstance(named, ir.ObjectType):
        yield from (f.type for f in named.fields)
        if named.extra is not None:
            yield named.extra
    elif isinstance(named, ir.NodeType):
        yield named.attributes
        yield from (f.type for f in named.metadata)
        if named.members is not None:
            yield from (f.type for f in named.members.named)
            yield from (t for _, t in named.members.patterns)
            if named.members.other is not None:
                yield named.members.other
    else:
        yield named.target
