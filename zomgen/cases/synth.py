"""A smallest valid value for every IR type: the start of the valid hierarchy.

`Synthesiser.value(ref)` builds JSON data from the IR alone (every required key, the smallest
value of each type, every named member, one member per pattern and for the other members,
tuples of their full length, the first literal of a `const`/`enum`). What the IR cannot say
(`pattern`, `minimum`, `if`/`then`, ...) is fixed afterwards by `repair.py` against the run time.

Longer than 400 lines because `Synthesiser` is one recursive walk over the IR, a method per
IR construct, which change together when the IR does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, assert_never

from zomgen import ir
from zomgen.cases.strings import matching
from zomgen.ir.zarr import example_array
from zomgen.schema.patterns import matches, refused

# Member names tried for a pattern (the first one the pattern matches is used) and for the
# members no name or pattern describes.
NAME_CANDIDATES = ("0", "a", "m", "x", "A", "0.0", "a0", "s0", "member", "_", "-", "0-0", "a:a")
OTHER_NAMES = ("extra", "other", "m1", "zz")
BUDGET = 2_000  # values built for one hierarchy at the most


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
    return example_array(zarr_format)


def base_node(kind: ir.NodeKind, zarr_format: int) -> dict[str, Any]:
    return base_group(zarr_format) if kind == "group" else base_array(zarr_format)


def pattern_name(pattern: str, taken: Iterable[str]) -> str | None:
    """A member name `pattern` matches (as the run time matches it: RE2)."""
    used = set(taken)
    if refused(pattern) is not None:
        return None
    for name in NAME_CANDIDATES:
        if name not in used and matches(pattern, name):
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
    if refused(pattern) is not None:
        return True  # unreadable here: do not risk a name it might match
    return matches(pattern, name)


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


_NUMBER, _INTEGER = ir.Primitive("number"), ir.Primitive("integer")

Path = tuple[str | int, ...]


class Synthesiser:
    """Builds the valid hierarchy from a compiled convention.

    How coverage.py makes a hierarchy for each option of each union: `choose` fixes the option
    a union takes (by `union_key`; else the first that can be built), `prefer` the option it
    tries first, `pairs` gives the list holding a chosen union two items, the second with the
    chosen option. `chosen` lists where each union was built and the option it took
    (`value_at` says where a value goes)."""

    def __init__(
        self,
        hierarchy: ir.Hierarchy,
        *,
        choose: dict[str, int] | None = None,
        prefer: dict[str, int] | None = None,
        pairs: bool = False,
    ) -> None:
        self.hierarchy = hierarchy
        self.choose = choose or {}
        self.prefer = prefer or {}
        self.pairs = pairs
        self.chosen: list[tuple[Path, ir.UnionOf, int]] = []
        self._stack: list[str] = []
        self._path: list[str | int] = []  # where in the document the value being built goes
        # Values one hierarchy may take to build: a union whose options all recurse (PROJJSON's
        # CRS inside CRS) is otherwise searched option by option at every level.
        self._budget = BUDGET
        # How many chosen unions' options are being built: inside one, an alias union already
        # being built may be entered again through an option that ends (a bound CRS's source
        # CRS is a CRS), and the routes (`prefer`) are not followed again.
        self._inside_chosen = 0
        # The named type the chosen option of a union may build once more although it is being
        # built (a group whose other members may be groups like itself: GeoZarr's pyramid).
        self._again: str | None = None
        # The chosen unions whose chosen option, a list, map or tuple, is being built: met again
        # inside it (a list of JSON values holding JSON values), the union takes an option that
        # ends.
        self._within: set[str] = set()

    def root(self) -> Any:
        return self.value(ir.Ref(self.hierarchy.root), "#")

    def value_at(self, path: Path, ref: ir.TypeRef) -> Any:
        """The value of `ref` for the place `path` of the document."""
        saved, self._path = self._path, list(path)
        try:
            return self.value(ref, "#")
        finally:
            self._path = saved

    def value(self, ref: ir.TypeRef, where: str) -> Any:
        self._budget -= 1
        if self._budget < 0:
            raise Unsatisfiable(where, f"no value found within {BUDGET} steps")
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
            chosen = len(self.chosen)
            try:
                if self.pairs and self._is_chosen(ref.item):
                    return self._pair(ref.item, where)
                return [self._at(0, ref.item, where)]
            except Unsatisfiable:
                del self.chosen[chosen:]  # nothing was built there
                return []
        if isinstance(ref, ir.TupleOf):
            return [self._at(i, item, where) for i, item in enumerate(ref.items)]
        if isinstance(ref, ir.BaseNode):
            return base_node(ref.kind, ref.zarr_format)
        if isinstance(ref, ir.UnionOf):
            return self._union(ref, where)
        if isinstance(ref, ir.Ref):
            return self._named(ref.name)
        assert_never(ref)

    def entered(self, ref: ir.TypeRef) -> bool:
        """Whether `ref` names a type already being built (or is a union of such): an optional
        member of that type is left out, where `recursive` may build it again (a labels folder
        holding a folder is valid without it)."""
        if isinstance(ref, ir.Ref):
            return ref.name in self._stack
        if isinstance(ref, ir.UnionOf):
            return all(self.entered(option) for option in ref.options)
        return False

    def recursive(self, ref: ir.TypeRef) -> bool:
        """Whether building `ref` now would enter a named type already being built. The union
        whose option is chosen may be entered again through an option that does not recurse:
        a sequence of transformations holds transformations, a scale among them; inside a chosen
        option, any union may (PROJJSON's bound CRS holds a CRS). (Any union entered again
        everywhere made PROJJSON's hierarchies too deep to repair.)"""
        if isinstance(ref, ir.Ref):
            if ref.name not in self._stack:
                return False
            union = self._aliased_union(ref.name)
            if union is None:
                return True
            if union_key(union) not in self.choose and not self._inside_chosen:
                return True
            return self.recursive(union)
        if isinstance(ref, ir.UnionOf):
            return all(self.recursive(option) for option in ref.options)
        return False

    def _aliased_union(self, name: str) -> ir.UnionOf | None:
        named = self.hierarchy.type_named(name)
        if isinstance(named, ir.AliasType) and isinstance(named.target, ir.UnionOf):
            return named.target
        return None

    def _at(self, step: str | int, ref: ir.TypeRef, where: str) -> Any:
        """The value of `ref` built one step (key, index or member name) further down."""
        self._path.append(step)
        try:
            return self.value(ref, where)
        finally:
            self._path.pop()

    def _is_chosen(self, ref: ir.TypeRef) -> bool:
        """Whether `ref` is a union whose option is chosen (or an alias of one)."""
        if isinstance(ref, ir.Ref):
            named = self.hierarchy.type_named(ref.name)
            ref = named.target if isinstance(named, ir.AliasType) else ref
        return isinstance(ref, ir.UnionOf) and union_key(ref) in self.choose

    def _pair(self, item: ir.TypeRef, where: str) -> list[Any]:
        """Two items: the first as if no union's option were chosen, the second with the
        chosen options (a list whose first item must be one option, `scale` before
        `translation`)."""
        choose, self.choose = self.choose, {}
        try:
            first = self._at(0, item, where)
        finally:
            self.choose = choose
        return [first, self._at(1, item, where)]

    def _union(self, ref: ir.UnionOf, where: str) -> Any:
        key = union_key(ref)
        chosen = None if key in self._within else self.choose.get(key)
        # inside the chosen option, the same union again (a sequence in a sequence) takes
        # an option that ends
        if chosen is not None and not self.recursive(ref.options[chosen]):
            return self._option(ref, chosen, where)
        if (
            chosen is not None
            and isinstance(option := ref.options[chosen], ir.Ref)
            and not self._inside_chosen
            and self._again is None
        ):
            # the chosen option is the type being built: built once more, where its own
            # unions take options that end
            self._again = option.name
            made = len(self.chosen)
            try:
                return self._option(ref, chosen, where)
            except Unsatisfiable:
                del self.chosen[made:]
            finally:
                self._again = None
        problem: Unsatisfiable | None = None
        order = sorted(range(len(ref.options)), key=lambda i: self.recursive(ref.options[i]))
        if key in self.prefer and not self._inside_chosen:
            order.insert(0, order.pop(order.index(self.prefer[key])))
        for index in order:
            made = len(self.chosen)
            try:
                return self._option(ref, index, where)
            except Unsatisfiable as exc:
                del self.chosen[made:]  # nothing was built there
                problem = problem or exc
        raise problem or Unsatisfiable(where, "a union with no option")

    def _option(self, ref: ir.UnionOf, index: int, where: str) -> Any:
        made = len(self.chosen)
        key = union_key(ref)
        inside = key in self.choose
        self._inside_chosen += inside
        # (a named option met again is `recursive`'s to judge: a bound CRS holds a CRS)
        within = inside and not isinstance(ref.options[index], ir.Ref) and key not in self._within
        if within:
            self._within.add(key)
        try:
            value = self.value(ref.options[index], where)
        finally:
            self._inside_chosen -= inside
            if within:
                self._within.discard(key)
        self.chosen.insert(made, (tuple(self._path), ref, index))  # outer unions first
        if (
            self.choose.get(key) == index
            and ref.options[index] == _NUMBER
            and _INTEGER in ref.options
        ):
            return 0.5  # the number option built: a number no `integer` option holds
        return self._tagged(value, ref.options[index])

    def _tagged(self, value: Any, option: ir.TypeRef) -> Any:
        """An option's value with its optional keys of literal type, at their first value
        (PROJJSON's `"type": "ProjectedCRS"`): without them a projected CRS is also a derived
        geodetic one, and a `oneOf` of the two refuses it."""
        named = self.hierarchy.type_named(option.name) if isinstance(option, ir.Ref) else None
        if not isinstance(named, ir.ObjectType) or not isinstance(value, dict):
            return value
        for f in named.fields:
            if f.key not in value and isinstance(f.type, ir.Literal):
                value[f.key] = f.type.values[0]
        return value

    def _named(self, name: str) -> Any:
        named = self.hierarchy.type_named(name)
        again, self._again = self._again == name, None
        if self.recursive(ir.Ref(name)) and not again:
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
            f.key: self._at(f.key, f.type, named.pointer)
            for f in named.fields
            if f.required or f.key in INHERITED
        }

    def _optional(self, out: dict[str, Any], key: str, ref: ir.TypeRef, where: str) -> None:
        """`out[key]`, where a value can be built (the object is valid without it)."""
        chosen = len(self.chosen)
        try:
            out[key] = self._at(key, ref, where)
        except Unsatisfiable:
            del self.chosen[chosen:]

    def _node(self, node: ir.NodeType) -> dict[str, Any]:
        doc = base_node(node.node_kind, node.zarr_format)
        doc["attributes"] = self._at("attributes", node.attributes, node.pointer)
        for meta in node.metadata:
            if meta.required or meta.key in doc:
                doc[meta.key] = self._at(meta.key, meta.type, node.pointer)
        if node.node_kind == "array":
            _fit_dimensions(doc, {m.key for m in node.metadata})
        if node.members is not None:
            self._path.append("members")
            try:
                doc["members"] = self._members(node.members, node.pointer)
            finally:
                self._path.pop()
        return doc

    def _members(self, members: ir.Members, where: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for named in members.named:
            if named.required:
                out[named.key] = self._at(named.key, named.type, where)
            elif not self.entered(named.type):
                self._optional(out, named.key, named.type, where)
        extra: list[tuple[str | None, ir.TypeRef]] = [
            (pattern_name(p, [*out, *(n.key for n in members.named)]), t)
            for p, t in members.patterns
        ]
        if members.other is not None:
            extra.append(
                (other_name(members, [*out, *(n.key for n in members.named)]), members.other)
            )
        for name, ref in extra:
            if name is None or self.entered(ref):
                continue
            self._optional(out, name, ref, where)
        return out


def union_key(union: ir.UnionOf) -> str:
    """What tells one union of a hierarchy from another (the same union met twice is one)."""
    return repr(union)


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
