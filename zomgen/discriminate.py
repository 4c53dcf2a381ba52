"""What tells the options of a union apart, read from the IR alone (no target language here).

`parse` receives a document the schema has accepted, so a value at a union is valid for at
least one option, and the converters must build that option (`anyOf`: the first valid one, in
the schema's order; `oneOf`: the only one). Each option has *needs*: what every value valid for
it holds, at any depth (`attributes.encoding-type` is `"csr_matrix"`, `zarr_format` is 3, a key
is present, the value is an array). The IR's types never reject a value the schema accepts, so
these are necessary conditions. Two options whose needs contradict on some path (different
constants, different JSON types, a key one requires and the other forbids) cannot both hold.

`plan` decides, option by option in the schema's order, the test that picks it:

- an option whose needs contradict those of every later option is picked when one need per later
  option holds (the one that contradicts it): a value valid only for a later option fails it;
- an option that some later option cannot be told apart from by needs is picked when the run
  time's engine says the value satisfies the option's own subschemas
  (`UnionOf.option_schemas`), with its needs as a cheap filter first; where the option has no
  subschema of its own, by all its needs (a shape fit, the one inexact case: listed in `Test`);
- the last option is what is left, and needs no test.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from zomgen import ir

# JSON types as needs name them; `integer` is a `number` (1.0 is both).
OBJECT, ARRAY, STRING, NUMBER, BOOLEAN, NULL = (
    "object",
    "array",
    "string",
    "number",
    "boolean",
    "null",
)
_KIND_OF_PRIMITIVE = {
    "string": STRING,
    "integer": NUMBER,
    "number": NUMBER,
    "boolean": BOOLEAN,
    "null": NULL,
}
# Needs are read this many keys deep: enough for `attributes.ome.version`, and bounded for
# recursive types.
MAX_DEPTH = 6


@dataclass(frozen=True)
class Need:
    """At `path` below the value: a value of one of `kinds` (None: any), and where `values` is
    set, one of those constants. `optional`: the key may also be absent; `absent`: it must be."""

    path: tuple[str, ...]
    kinds: frozenset[str] | None = None
    values: tuple[ir.JsonScalar, ...] | None = None
    optional: bool = False
    absent: bool = False


@dataclass(frozen=True)
class Test:
    """How one option is picked: every one of `needs` holds and, where `engine` is set, the
    value satisfies each of those subschemas (JSON pointers into the bundled schema).
    `by_shape`: the needs alone decide, though a later option may hold too (the option has no
    subschema of its own the engine could ask about)."""

    needs: tuple[Need, ...]
    engine: tuple[str, ...] = ()
    by_shape: bool = False


def plan(hierarchy: ir.Hierarchy, union: ir.UnionOf) -> list[Test | None]:
    """One test per option of `union`; None for the last, which is what is left."""
    found = [needs_of(hierarchy, option) for option in union.options]
    schemas = union.option_schemas or ((),) * len(union.options)
    tests: list[Test | None] = []
    for i, mine in enumerate(found):
        if i == len(found) - 1:
            tests.append(None)
            break
        chosen: list[Need] = []
        apart = True
        for theirs in found[i + 1 :]:
            need = contradicting(mine, theirs)
            if need is None:
                apart = False
            elif need not in chosen:
                chosen.append(need)
        if apart:
            tests.append(Test(_with_guards(mine, chosen)))
        elif schemas[i]:
            tests.append(Test(_with_guards(mine, chosen), schemas[i]))
        else:
            tests.append(Test(tuple(mine), by_shape=True))
    return tests


def needs_of(hierarchy: ir.Hierarchy, t: ir.TypeRef) -> list[Need]:
    """What every value of `t` holds, outermost first."""
    return list(dict.fromkeys(_Reader(hierarchy).needs(t, (), frozenset())))


def contradicting(mine: list[Need], theirs: list[Need]) -> Need | None:
    """One of `mine` that no value meeting all of `theirs` meets, if any."""
    by_path: dict[tuple[str, ...], list[Need]] = {}
    for need in theirs:
        by_path.setdefault(need.path, []).append(need)
    for need in mine:
        if any(_contradict(need, other) for other in by_path.get(need.path, ())):
            return need
    return None


def _contradict(a: Need, b: Need) -> bool:
    if a.absent or b.absent:
        return (a.absent and not b.optional and not b.absent) or (
            b.absent and not a.optional and not a.absent
        )
    if a.optional and b.optional:
        return False  # both hold where the key is absent
    if a.kinds is not None and b.kinds is not None and not a.kinds & b.kinds:
        return True
    if a.values is not None and b.values is not None:
        return not any(_json_equal(x, y) for x in a.values for y in b.values)
    return any(
        values is not None and kinds is not None and not any(kind_of(v) in kinds for v in values)
        for values, kinds in ((a.values, b.kinds), (b.values, a.kinds))
    )


def _with_guards(mine: list[Need], chosen: list[Need]) -> tuple[Need, ...]:
    """`chosen`, each after the needs that say its parents are objects (so that reading the
    key cannot fail), in the order `mine` lists them."""
    wanted: set[Need] = set(chosen)
    for need in chosen:
        wanted.update(
            other
            for other in mine
            if other.kinds == frozenset({OBJECT})
            and not other.optional
            and len(other.path) < len(need.path)
            and need.path[: len(other.path)] == other.path
        )
    return tuple(n for n in mine if n in wanted)


def kind_of(value: ir.JsonScalar) -> str:
    if value is None:
        return NULL
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, (int, float)):
        return NUMBER
    return STRING


def _json_equal(x: ir.JsonScalar, y: ir.JsonScalar) -> bool:
    """JSON equality: `1` is `1.0`, `true` is not `1`."""
    return kind_of(x) == kind_of(y) and x == y


class _Reader:
    def __init__(self, hierarchy: ir.Hierarchy) -> None:
        self.h = hierarchy
        self.named = {t.name: t for t in hierarchy.types}

    def needs(self, t: ir.TypeRef, path: tuple[str, ...], seen: frozenset[str]) -> Iterator[Need]:
        if isinstance(t, ir.Primitive):
            yield Need(path, frozenset({_KIND_OF_PRIMITIVE[t.name]}))
        elif isinstance(t, ir.Literal):
            yield Need(path, frozenset(map(kind_of, t.values)), t.values)
        elif isinstance(t, (ir.JsonObject, ir.MapOf)):
            yield Need(path, frozenset({OBJECT}))
        elif isinstance(t, (ir.ListOf, ir.TupleOf)):
            yield Need(path, frozenset({ARRAY}))
        elif isinstance(t, ir.UnionOf):
            kinds = self._kinds(t, seen)
            if kinds is not None:
                yield Need(path, kinds)
        elif isinstance(t, ir.BaseNode):
            yield from _node_needs(t.kind, t.zarr_format, path)
        elif isinstance(t, ir.Ref) and t.name == "NamedConfig" and t.name not in self.named:
            # the base schemas' extension object (`{"name": ..., "configuration"?: ...}`)
            yield Need(path, frozenset({OBJECT}))
            yield Need((*path, "name"), frozenset({STRING}))
        elif isinstance(t, ir.Ref) and t.name not in seen and len(path) <= MAX_DEPTH:
            yield from self._named(self.named[t.name], path, seen | {t.name})

    def _kinds(self, t: ir.UnionOf, seen: frozenset[str]) -> frozenset[str] | None:
        """The JSON types a union's values may have, where each option says."""
        kinds: set[str] = set()
        for option in t.options:
            top = [n for n in self.needs(option, (), seen) if n.path == () and n.kinds]
            if not top or top[0].kinds is None:
                return None
            kinds |= top[0].kinds
        return frozenset(kinds)

    def _named(
        self, named: ir.NamedType, path: tuple[str, ...], seen: frozenset[str]
    ) -> Iterator[Need]:
        if isinstance(named, ir.AliasType):
            yield from self.needs(named.target, path, seen)
            return
        if isinstance(named, ir.ObjectType):
            yield Need(path, frozenset({OBJECT}))
            yield from self._fields(named.fields, path, seen)
            return
        yield from _node_needs(named.node_kind, named.zarr_format, path)
        yield Need((*path, "attributes"), frozenset({OBJECT}))
        yield from self.needs(named.attributes, (*path, "attributes"), seen)
        yield from self._fields(named.metadata, path, seen)
        if named.members is not None:
            yield from self._fields(named.members.named, (*path, "members"), seen)

    def _fields(
        self, fields: tuple[ir.Field, ...], path: tuple[str, ...], seen: frozenset[str]
    ) -> Iterator[Need]:
        for f in fields:
            at = (*path, f.key)
            if f.required:
                yield Need(at)
                yield from self.needs(f.type, at, seen)
            elif isinstance(f.type, ir.Literal):
                yield Need(at, frozenset(map(kind_of, f.type.values)), f.type.values, True)
            elif isinstance(f.type, ir.Never):
                yield Need(at, optional=True, absent=True)


def _node_needs(kind: ir.NodeKind, zarr_format: int, path: tuple[str, ...]) -> Iterator[Need]:
    """A node's kind and Zarr version: `zarr_format`, and `node_type` (v3) or whether it has
    `members` (v2, where only groups do)."""
    yield Need(path, frozenset({OBJECT}))
    yield Need((*path, "zarr_format"), frozenset({NUMBER}), (zarr_format,))
    if zarr_format == 3:
        yield Need((*path, "node_type"), frozenset({STRING}), (kind,))
    elif kind == "group":
        yield Need((*path, "members"), frozenset({OBJECT}))
    else:
        yield Need((*path, "members"), optional=True, absent=True)
