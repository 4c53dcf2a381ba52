"""The shapes of values that are not records or nodes: literals and constants, arrays and
tuples, and the union of the shapes a conjunction's JSON types allow."""

from __future__ import annotations

from zomgen import ir
from zomgen.ir.queries import json_type
from zomgen.names import pascal_case
from zomgen.schema.atoms import Atom, Conj, Impossible
from zomgen.schema.parse.explain import contradiction
from zomgen.schema.parse.keywords import SHAPING, TYPED_KEYWORDS, canonical, count, is_count
from zomgen.schema.parse.records import RecordShapes

MAX_TUPLE = 16
_NO_SCHEMA = object()  # an array keyword that is absent (not the same as `true`)


class ValueShapes(RecordShapes):
    def _inline(self, conj: Conj, hint: str) -> ir.TypeRef:
        """The type of a conjunction that is not a named record or node: a literal, a scalar,
        an array, a map, or the union of those its JSON types allow."""
        self._record_runtime(conj)
        literals = self.kw.literals(conj)
        types = self.kw.type_set(conj)
        if literals is not None:
            if types is not None:
                kept = [v for v in literals if json_type(v) in types]
                if not kept:
                    literal_atoms = [(a, k) for k in ("const", "enum") for a, _v in conj.values(k)]
                    type_atoms = [(a, "type") for a, _v in conj.values("type")]
                    last_atom, last_keyword = (type_atoms or literal_atoms)[-1]
                    partners = [
                        p for p in literal_atoms + type_atoms if p != (last_atom, last_keyword)
                    ]
                    raise contradiction(self.x, last_atom, last_keyword, partners)
                literals = kept
            return self._literal_type(literals, hint)
        if types is None:
            shaped = [
                kind
                for kind, keywords in SHAPING.items()
                if any(True for k in keywords for _ in conj.values(k))
            ]
            if any(
                True for _kind, keywords in TYPED_KEYWORDS for k in keywords for _ in conj.values(k)
            ):
                self.warn.open_type(conj)
            if not shaped:
                return ir.Json()
            types = {"string", "number", "integer", "boolean", "null", "array", "object"}
        parts: list[ir.TypeRef] = []
        for kind in ("string", "integer", "number", "boolean", "null", "array", "object"):
            if kind not in types or (kind == "integer" and "number" in types):
                continue
            try:
                if kind == "array":
                    parts.append(self._array(conj, hint))
                elif kind == "object":
                    parts.append(self._object_part(conj, hint))
                else:
                    parts.append(ir.Primitive(kind))
            except Impossible:
                continue  # no array (object) fits, but values of the other types may
        if not parts:
            raise Impossible
        if len(parts) == 1:
            return parts[0]
        return ir.UnionOf(tuple(parts))

    def _literal_type(self, values: list[object], hint: str) -> ir.TypeRef:
        """`const`/`enum` values as types: scalars as one literal, arrays as tuples of their
        items' literals, objects as closed records of their keys' literals."""
        scalars = [v for v in values if v is None or isinstance(v, (str, int, float, bool))]
        parts: list[ir.TypeRef] = []
        if scalars:
            parts.append(ir.Literal(tuple(scalars)))
        for value in values:
            if isinstance(value, (list, dict)):
                parts.append(self._constant(value, hint))
        return parts[0] if len(parts) == 1 else ir.UnionOf(tuple(parts))

    def _constant(self, value: object, hint: str) -> ir.TypeRef:
        if not isinstance(value, (list, dict)):
            return ir.Literal((value,))  # type: ignore[arg-type]
        spelled = canonical(value)
        known = self.constants.get(spelled)
        if known is not None:
            return known
        if isinstance(value, list):
            items = tuple(self._constant(v, f"{hint}Item{i + 1}") for i, v in enumerate(value))
            result: ir.TypeRef = ir.TupleOf(items)
        else:
            name = self.naming.fresh_name(hint)
            result = ir.Ref(name)
            self.types[name] = None
            fields = tuple(
                ir.Field(key, self._constant(v, name + pascal_case(key)), True, v is None)
                for key, v in value.items()
            )
            self.types[name] = ir.ObjectType(
                name, fields, None, "The constant object the schema allows.", "#"
            )
        self.constants[spelled] = result
        return result

    def _positions(self, conj: Conj) -> list[tuple[Atom, list[object], object]]:
        """Per atom: its positional item schemas and the schema of the items after them (or
        `_NO_SCHEMA`). 2020-12 says `prefixItems` + `items`; draft-07 and 2019-09 say array
        `items` + `additionalItems`, or `items` for every item (`additionalItems` is then
        ignored)."""
        found: list[tuple[Atom, list[object], object]] = []
        for atom in conj.atoms:
            if atom.draft == "draft-07" and "$ref" in atom.schema:
                continue
            items = atom.get("items")
            if atom.draft == "2020-12":
                prefix = atom.get("prefixItems")
                positional = prefix if isinstance(prefix, list) else []
                rest = items if "items" in atom.schema else _NO_SCHEMA
            elif isinstance(items, list):
                positional = items
                rest = (
                    atom.get("additionalItems") if "additionalItems" in atom.schema else _NO_SCHEMA
                )
            else:
                positional = []
                rest = items if "items" in atom.schema else _NO_SCHEMA
            if positional or rest is not _NO_SCHEMA:
                found.append((atom, positional, rest))
        return found

    def _array(self, conj: Conj, hint: str) -> ir.TypeRef:
        """Positions and the rest of an array, each the intersection of what every atom says
        of it (an atom's own `items` also covers the positions past its own prefix). A
        position or rest that admits nothing ends the array there: an array whose items can
        hold no value is still valid when empty."""
        min_items = max((count(v) for _a, v in conj.values("minItems") if is_count(v)), default=0)
        max_items = min(
            (count(v) for _a, v in conj.values("maxItems") if is_count(v)), default=None
        )
        if max_items is not None and max_items < min_items:
            raise Impossible(f"`maxItems: {max_items}` is below `minItems: {min_items}`")
        per_atom = self._positions(conj)
        width = max((len(p) for _a, p, _r in per_atom), default=0)
        item_hint = hint + "Item"
        rest_hint = self.naming.item_name(hint)
        items: list[ir.TypeRef] = []
        closed = False
        for i in range(width if max_items is None else min(width, max_items)):
            atoms: list[Atom] = []
            try:
                for atom, positional, rest in per_atom:
                    sub = positional[i] if i < len(positional) else rest
                    if sub is not _NO_SCHEMA:
                        atoms.extend(self.x.expand(sub, atom.resolver))
                items.append(self.type_of(Conj(tuple(atoms)), f"{item_hint}{i + 1}"))
            except Impossible:
                closed = True  # nothing fits position i: the array stops before it
                break
        if max_items is not None and max_items <= len(items):
            closed = True
        rest_type: ir.TypeRef | None = None
        if not closed:
            atoms = []
            try:
                for atom, _positional, rest in per_atom:
                    if rest is not _NO_SCHEMA:
                        atoms.extend(self.x.expand(rest, atom.resolver))
                rest_type = self.type_of(Conj(tuple(atoms)), rest_hint)
            except Impossible:
                rest_type = None
        longest_fixed = len(items) if rest_type is None else None
        if longest_fixed is not None and longest_fixed < min_items:
            raise Impossible(
                f"`minItems: {min_items}` asks for more items than the positions that admit a "
                f"value ({longest_fixed})"
            )
        if not items and rest_type is not None:
            if max_items is not None and max_items == min_items and max_items <= MAX_TUPLE:
                return ir.TupleOf(tuple(rest_type for _ in range(max_items)))
            return ir.ListOf(rest_type)
        min_length = min(min_items, len(items))
        return ir.TupleOf(tuple(items), rest_type, None if min_length >= len(items) else min_length)
