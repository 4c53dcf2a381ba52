"""Deep anonymous types get names: a pass over the IR, after the front end, before any target.

A schema may nest up to MAX_DEPTH (128) levels (schema/read.py), and every anonymous array, map,
tuple or union nests its type expression one level deeper: `items` 120 deep was
`list[list[...]]` 120 deep in documents.py and models.py, `Array<Array<...>>` in types.ts, and
twice that in the generated conversion code. Python's parser stops at 200 brackets, pyright's
stack overflows, and pyrefly's time is exponential in the nesting of a generic inside a type
alias (20 levels ~7 s). So no type expression of the IR is left deeper than MAX_TYPE_DEPTH: the
part of an expression that starts at that depth becomes an `AliasType` of its own (itself
flattened the same way), referenced by name. Every target reads the IR, so documents.py,
models.py, the converters and types.ts nest with MAX_TYPE_DEPTH, not with the schema.

The alias is named after where it stands (names.py conventions): the named type whose
expression it cuts, the field, member or part of it, then one word per level down, as the front
end names inline types (`Item`, `Item2` for a tuple position, `Value` for a map, `Option1` for a
union branch); a run of the same word is written once with its count (`ItemItemItem` is
`ItemLevels3`: the alias cut 22 levels down an `items` chain of field `x` of `Attrs` is
`AttrsXItemLevels22`), words that do not repeat so are summed up as `Nested<levels>` when they
would be long, and a clash gets `2`, `3`... in the order the types are listed. The same
expression met twice is one alias. A hierarchy with no expression deeper than the limit (every
real schema seen: at most 6) is returned unchanged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import assert_never

from zomgen import ir
from zomgen.names import pascal_case, type_identifier

# The deepest type expression left in the IR. Real conventions nest at most about 6; pyrefly
# reads a generic 12 deep in an alias in well under a second (its time doubles with each level).
MAX_TYPE_DEPTH = 12
MAX_WORDS = 40  # characters of an alias name spelling the levels down, past its owner's name


def type_depth(t: ir.TypeRef) -> int:
    """How many levels `t` nests: 1 for a scalar or a reference, one more per list, tuple, map
    or union around it."""
    children = _children(t)
    return 1 + max((type_depth(c) for c in children), default=0)


def _fits(t: ir.TypeRef, limit: int) -> bool:
    """Whether `t` can be spelled as it is: at most `limit` deep, and no compound type inside a
    tuple whose positions are optional (each target spells such a tuple once per length it may
    have, `tuple[A, B] | tuple[A] | tuple[()]`, so nesting them doubled the text at each level:
    `prefixItems` 40 deep was gigabytes; real schemas have only scalars and names there)."""
    return type_depth(t) <= limit and not _repeats_compound(t)


def _repeats_compound(t: ir.TypeRef) -> bool:
    if _repeats(t) and any(_children(c) for c in _children(t)):
        return True
    return any(_repeats_compound(c) for c in _children(t))


def _repeats(t: ir.TypeRef) -> bool:
    """A tuple with optional positions: spelled once per length it may have."""
    return isinstance(t, ir.TupleOf) and t.required_length < len(t.items)


# The types that hold no other type: flatten leaves them as they are.
_LEAVES = (ir.Primitive, ir.Literal, ir.Json, ir.Never, ir.JsonObject, ir.Ref, ir.BaseNode)


def _children(t: ir.TypeRef) -> tuple[ir.TypeRef, ...]:
    if isinstance(t, ir.ListOf):
        return (t.item,)
    if isinstance(t, ir.MapOf):
        return (t.value,)
    if isinstance(t, ir.TupleOf):
        return t.items if t.rest is None else (*t.items, t.rest)
    if isinstance(t, ir.UnionOf):
        return t.options
    return ()


def flatten(hierarchy: ir.Hierarchy, limit: int = MAX_TYPE_DEPTH) -> ir.Hierarchy:
    """`hierarchy` with every type expression at most `limit` deep (deeper parts named)."""
    if limit < 2:
        raise ValueError("a type expression needs at least 2 levels to be flattened")
    if all(_fits(t, limit) for t in expressions(hierarchy)):
        return hierarchy
    return _Flattener(hierarchy, limit).run()


def expressions(hierarchy: ir.Hierarchy) -> list[ir.TypeRef]:
    found: list[ir.TypeRef] = []
    for named in hierarchy.types:
        if isinstance(named, ir.AliasType):
            found.append(named.target)
        elif isinstance(named, ir.ObjectType):
            found.extend(f.type for f in named.fields)
            if named.extra is not None:
                found.append(named.extra)
        else:
            found.append(named.attributes)
            found.extend(f.type for f in named.metadata)
            if named.members is not None:
                found.extend(f.type for f in named.members.named)
                if named.members.other is not None:
                    found.append(named.members.other)
                found.extend(t for _pattern, t in named.members.patterns)
    return found


class _Flattener:
    def __init__(self, hierarchy: ir.Hierarchy, limit: int) -> None:
        self.h = hierarchy
        self.limit = limit
        self.taken = {named.name for named in hierarchy.types}
        self.named: dict[ir.TypeRef, str] = {}  # an expression cut out before -> its alias
        self.added: list[ir.AliasType] = []

    def run(self) -> ir.Hierarchy:
        types: list[ir.NamedType] = []
        for named in self.h.types:
            start = len(self.added)
            types.append(self._named(named))
            # A type's aliases right after it, deepest last: the order is the schema's.
            types.extend(self.added[start:])
        return dataclasses.replace(self.h, types=tuple(types))

    def _named(self, named: ir.NamedType) -> ir.NamedType:
        def at(where: str) -> Callable[[ir.TypeRef], ir.TypeRef]:
            return lambda t: self._cut(t, named.name + where, named.pointer)

        if isinstance(named, ir.AliasType):
            return dataclasses.replace(named, target=at("")(named.target))
        if isinstance(named, ir.ObjectType):
            extra = named.extra
            return dataclasses.replace(
                named,
                fields=self._fields(named.fields, named.name, named.pointer),
                extra=None if extra is None else at("Value")(extra),
            )
        members = named.members
        if members is not None:
            other = members.other
            members = ir.Members(
                self._fields(members.named, named.name, named.pointer),
                None if other is None else at("Member")(other),
                tuple(
                    (pattern, at(f"Member{i + 1}")(t))
                    for i, (pattern, t) in enumerate(members.patterns)
                ),
            )
        return dataclasses.replace(
            named,
            attributes=at("Attributes")(named.attributes),
            members=members,
            metadata=self._fields(named.metadata, named.name, named.pointer),
        )

    def _fields(
        self, fields: tuple[ir.Field, ...], owner: str, pointer: str
    ) -> tuple[ir.Field, ...]:
        return tuple(
            dataclasses.replace(f, type=self._cut(f.type, owner + pascal_case(f.key), pointer))
            for f in fields
        )

    def _cut(
        self, t: ir.TypeRef, hint: str, pointer: str, words: tuple[str, ...] = ()
    ) -> ir.TypeRef:
        """`t` with every part that starts `limit - 1` levels down made an alias; `words` are
        the levels between `hint`'s type and `t` (an alias cut out of a deeper expression is
        named from where that expression starts)."""
        if _fits(t, self.limit):
            return t
        return self._rebuild(t, 1, hint, words, pointer)

    def _rebuild(
        self, t: ir.TypeRef, depth: int, hint: str, words: tuple[str, ...], pointer: str
    ) -> ir.TypeRef:
        children = _children(t)
        if not children or isinstance(t, _LEAVES):
            return t
        if depth == self.limit:
            return self._alias(t, hint, words, pointer)

        def down(child: ir.TypeRef, word: str) -> ir.TypeRef:
            return self._rebuild(child, depth + 1, hint, (*words, word), pointer)

        if isinstance(t, ir.ListOf):
            return dataclasses.replace(t, item=down(t.item, "Item"))
        if isinstance(t, ir.MapOf):
            return dataclasses.replace(t, value=down(t.value, "Value"))

        def named(child: ir.TypeRef, word: str) -> ir.TypeRef:
            if not _children(child):
                return child
            return self._alias(child, hint, (*words, word), pointer)

        if isinstance(t, ir.TupleOf):
            part = named if _repeats(t) else down  # spelled once per length: parts by name
            return dataclasses.replace(
                t,
                items=tuple(part(item, f"Item{i + 1}") for i, item in enumerate(t.items)),
                rest=None if t.rest is None else part(t.rest, "Item"),
            )
        if isinstance(t, ir.UnionOf):
            return dataclasses.replace(
                t, options=tuple(down(o, f"Option{i + 1}") for i, o in enumerate(t.options))
            )
        assert_never(t)

    def _alias(self, t: ir.TypeRef, hint: str, words: tuple[str, ...], pointer: str) -> ir.Ref:
        known = self.named.get(t)
        if known is not None:
            return ir.Ref(known)
        unique = _unique(_name(hint, words), self.taken)
        self.named[t] = unique
        alias = ir.AliasType(unique, ir.Json(), None, pointer)  # the target is set below
        index = len(self.added)
        self.added.append(alias)
        target = self._cut(t, hint, pointer, words)
        self.added[index] = dataclasses.replace(alias, target=target)
        return ir.Ref(unique)


def _name(hint: str, words: tuple[str, ...]) -> str:
    """`hint` and the words of the levels down, each run of one word written once with its
    count (`("Item",) * 11` -> `ItemLevels11`); words that do not repeat so (an `anyOf` of
    arrays alternates `Option1` and `Item`) are summed up as `Nested<levels>` past
    MAX_WORDS characters."""
    parts: list[str] = []
    i = 0
    while i < len(words):
        j = i
        while j < len(words) and words[j] == words[i]:
            j += 1
        parts.append(words[i] if j - i == 1 else f"{words[i]}Levels{j - i}")
        i = j
    spelled = "".join(parts)
    if len(spelled) > MAX_WORDS:
        spelled = f"Nested{len(words)}"
    return type_identifier(hint + spelled)


def _unique(name: str, taken: set[str]) -> str:
    """`name`, or `name2`, `name3`... (`name_2` after a digit) if taken; claimed in `taken`."""
    unique, n = name, 2
    while unique in taken:
        unique = f"{name}_{n}" if name[-1].isdigit() else f"{name}{n}"
        n += 1
    taken.add(unique)
    return unique
