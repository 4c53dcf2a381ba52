"""Which TypedDicts allow other keys, and which unions mypy must read with a fallback.

mypy has no PEP 728 (`extra_items`), so it reads a TypedDict that allows other keys as its
listed keys (typeddict.j2). Run with `disable_error_code = typeddict-unknown-key`, mypy then
checks every listed key and accepts the others. That holds wherever a dict literal meets the
TypedDict itself. It fails inside a union (mypy 2.4.1, `checkexpr.py`): mypy first keeps the
options whose keys the literal fits, so a literal with other keys fits none and is rejected;
and when several fit, it counts any error, a disabled one too, against an option. A valid
document with other keys below a union option would be rejected. So a union with an option
that reaches an open TypedDict, at any depth, also holds `MypyFallback`
(`zomgen_runtime.mypy_view`): `dict[str, Any]` for mypy, `Never` for the checkers that read PEP
728. mypy then accepts any dict there, and checks every other place exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from zomgen import ir

MYPY_FALLBACK = "MypyFallback"


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


def reaching_open(h: ir.Hierarchy) -> frozenset[str]:
    """The named types whose documents hold an open TypedDict at any depth (themselves
    included): a node reaches its members' TypedDict."""
    named = {t.name: t for t in h.types}
    opened = open_names(h)
    reaches = {n for n in named if n in opened or members_name(n) in opened}
    changed = True
    while changed:  # a fixed point: types may refer to each other in cycles
        changed = False
        for name, t in named.items():
            if name not in reaches and any(
                n in reaches for ref in _inside(t) for n in _names_in(ref)
            ):
                reaches.add(name)
                changed = True
    return frozenset(reaches)


def needs_fallback(options: Iterable[ir.TypeRef], reaching: frozenset[str]) -> bool:
    """Whether mypy must read a union of these options with `MypyFallback`: several options,
    one of which reaches an open TypedDict."""
    distinct = list(dict.fromkeys(options))
    return len(distinct) > 1 and any(n in reaching for o in distinct for n in _names_in(o))


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
