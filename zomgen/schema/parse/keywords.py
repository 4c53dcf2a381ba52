"""The merged keywords of a conjunction of atoms: what all of them say together of literals,
JSON types, properties, required keys, and the node kind. Each contradiction raises
`Impossible`, explained by explain.py."""

from __future__ import annotations

import json

from zomgen_runtime.pointers import escape as escape_pointer

from zomgen import ir
from zomgen.errors import CompileError
from zomgen.schema.atoms import Atom, Conj, Expander, Impossible
from zomgen.schema.parse.bases import BaseSchemas
from zomgen.schema.parse.explain import clause_text, contradiction, disjoint
from zomgen.schema.patterns import matches

RUNTIME_KEYWORDS = frozenset(
    {
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "uniqueItems",
        "contains",
        "minContains",
        "maxContains",
        "not",
        "if",
        "then",
        "else",
        "propertyNames",
        "minProperties",
        "maxProperties",
        "dependentRequired",
        "dependentSchemas",
        "dependencies",
        "unevaluatedProperties",
        "unevaluatedItems",
        "patternProperties",
    }
)
OBJECT_KEYWORDS = (
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "unevaluatedProperties",
)
ARRAY_KEYWORDS = (
    "items",
    "prefixItems",
    "additionalItems",
    "minItems",
    "maxItems",
    "contains",
    "uniqueItems",
    "unevaluatedItems",
)
STRING_KEYWORDS = ("pattern", "minLength", "maxLength")
NUMBER_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
TYPED_KEYWORDS = (
    ("object", OBJECT_KEYWORDS),
    ("array", ARRAY_KEYWORDS),
    ("string", STRING_KEYWORDS),
    ("number", NUMBER_KEYWORDS),
)
# Keywords that shape a static type of their JSON type (the others are checked at run time).
SHAPING = {
    "object": ("properties", "required", "additionalProperties", "patternProperties"),
    "array": ("items", "prefixItems", "additionalItems", "minItems", "maxItems"),
}


class Keywords:
    def __init__(self, x: Expander, bases: BaseSchemas) -> None:
        self.x = x
        self.bases = bases

    def description(self, conj: Conj) -> str | None:
        for atom in conj.atoms:
            if id(atom.schema) in self.bases.atoms:
                continue  # the base's prose describes the base, not the convention's type
            text = atom.get("description")
            if isinstance(text, str) and text.strip():
                return text
        return None

    def literals(self, conj: Conj) -> list[object] | None:
        result: dict[str, object] | None = None
        seen: list[tuple[Atom, str, set[str]]] = []
        for keyword in ("const", "enum"):
            for atom, value in conj.values(keyword):
                values = [value] if keyword == "const" else value
                if not isinstance(values, list):
                    file, pointer = self.x.where(atom.schema)
                    raise CompileError.one(file, f"{pointer}/enum", "`enum` must be an array")
                these = {canonical(v): v for v in values}
                result = (
                    these if result is None else {k: v for k, v in result.items() if k in these}
                )
                if not result:
                    raise contradiction(self.x, atom, keyword, disjoint(seen, set(these)))
                seen.append((atom, keyword, set(these)))
        if result is None:
            return None
        return list(result.values())

    def type_set(self, conj: Conj) -> set[str] | None:
        """The JSON types `type` allows (`number` includes `integer`), or None when no `type`
        says: then every JSON type is valid, whatever other keywords say, because JSON Schema
        applies `properties`, `items`, `pattern`... only to values of their own type."""
        result: set[str] | None = None
        seen: list[tuple[Atom, str, set[str]]] = []
        for atom, value in conj.values("type"):
            these = (
                {value}
                if isinstance(value, str)
                else set(value)
                if isinstance(value, list)
                else set()
            )
            if "number" in these:
                these.add("integer")
            result = these if result is None else result & these
            if not result:
                raise contradiction(self.x, atom, "type", disjoint(seen, these))
            seen.append((atom, "type", these))
        return result

    def is_record(self, conj: Conj) -> bool:
        types = self.type_set(conj)
        if types != {"object"}:
            return False  # other JSON types are valid too: a union (see `_inline`)
        if self.literals(conj) is not None:
            return False
        return any(True for _ in conj.values("properties")) or any(
            True for _ in conj.values("required")
        )

    def node_kind(self, conj: Conj) -> tuple[ir.NodeKind, int] | None:
        bases = {
            self.bases.nodes[id(a.schema)] for a in conj.atoms if id(a.schema) in self.bases.nodes
        }
        if len(bases) > 1:
            # a group refined as an array, or v2 refined as v3
            clauses = tuple(
                (
                    "a Zarr v{1} {0}".format(*self.bases.nodes[id(a.schema)]),
                    self.x.where_text(a.schema),
                )
                for a in conj.atoms
                if id(a.schema) in self.bases.nodes
            )
            raise Impossible(" contradicts ".join(clause_text(c) for c in clauses), clauses)
        if bases:
            self.check_satisfiable(conj)
            return bases.pop()
        props = self.properties(conj)
        node_type = self.const_of(props.get("node_type", []))
        zarr_format = self.const_of(props.get("zarr_format", []))
        version = zarr_format if zarr_format in (2, 3) else None
        if node_type in ("group", "array"):
            return node_type, version or 3
        if "members" in props:
            return "group", version or 2
        if "shape" in props and ("chunks" in props or "dtype" in props):
            return "array", version or 2
        return None

    def check_satisfiable(self, conj: Conj) -> None:
        """Raise Impossible when a listed or required key can hold no value: conflicting
        `const`s (`node_type` group vs array) or a key a closed atom forbids."""
        for key in list(self.properties(conj)) + sorted(self.required(conj)):
            try:
                field_conj = self.field_conj(conj, key)
                self.literals(field_conj)
                self.type_set(field_conj)
            except Impossible as exc:
                if key in self.required(conj):
                    raise exc.within(f"/{escape_pointer(key)}") from None

    def const_of(self, subs: list[tuple[object, Atom]]) -> object:
        for sub, _atom in subs:
            if isinstance(sub, dict) and "const" in sub:
                return sub["const"]
            if (
                isinstance(sub, dict)
                and isinstance(sub.get("enum"), list)
                and len(sub["enum"]) == 1
            ):
                return sub["enum"][0]
        return None

    def properties(self, conj: Conj) -> dict[str, list[tuple[object, Atom]]]:
        """Every listed property key with the subschemas its own atoms give it, in order."""
        props: dict[str, list[tuple[object, Atom]]] = {}
        for atom, value in conj.values("properties"):
            if isinstance(value, dict):
                for key, sub in value.items():
                    props.setdefault(key, []).append((sub, atom))
        return props

    def field_conj(self, conj: Conj, key: str) -> Conj:
        """All that constrains property `key`: `properties`, matching `patternProperties`, and
        the `additionalProperties` of every atom that neither lists nor matches it."""
        atoms: list[Atom] = []
        for atom in conj.atoms:
            if atom.draft == "draft-07" and "$ref" in atom.schema:
                continue
            props = atom.get("properties")
            patterns = atom.get("patternProperties")
            subs: list[tuple[object, str]] = []
            listed = isinstance(props, dict) and key in props
            if listed:
                subs.append((props[key], f"properties/{escape_pointer(key)}"))  # type: ignore[index]
            matched = False
            if isinstance(patterns, dict):
                for pattern, sub in patterns.items():
                    if matches(pattern, key):
                        matched = True
                        subs.append((sub, f"patternProperties/{escape_pointer(pattern)}"))
            if not listed and not matched and "additionalProperties" in atom.schema:
                subs.append((atom.schema["additionalProperties"], "additionalProperties"))
            for sub, where in subs:
                if sub is False:
                    raise Impossible(
                        f"`false` at {self.x.where_text(atom.schema)}/{where} admits no value"
                    )
                atoms.extend(self.x.expand(sub, atom.resolver))
        return Conj(tuple(atoms))

    def required(self, conj: Conj) -> set[str]:
        required: set[str] = set()
        for _atom, value in conj.values("required"):
            if isinstance(value, list):
                required.update(k for k in value if isinstance(k, str))
        return required

    def refines(self, conj: Conj, key: str) -> bool:
        for atom in conj.atoms:
            if id(atom.schema) in self.bases.atoms:
                continue
            props = atom.get("properties")
            required = atom.get("required")
            if (isinstance(props, dict) and key in props) or (
                isinstance(required, list) and key in required
            ):
                return True
        return False


def canonical(value: object) -> str:
    # Tag the Python type so that `true` and `1` (equal in Python) stay distinct, as in JSON.
    return type(value).__name__.replace("int", "number").replace("float", "number") + json.dumps(
        value, sort_keys=True
    )


def count(value: object) -> int:
    return int(value) if isinstance(value, (int, float)) else 0


def is_count(value: object) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, float) and value.is_integer()
    )


def single_value(schema: object) -> object:
    """The one value a schema allows through `const` or a one-element `enum`, else None."""
    if not isinstance(schema, dict):
        return None
    if "const" in schema:
        return schema["const"]
    values = schema.get("enum")
    return values[0] if isinstance(values, list) and len(values) == 1 else None


def merge_patterns(
    other: ir.TypeRef | None, patterns: tuple[tuple[str, ir.TypeRef], ...]
) -> ir.TypeRef | None:
    options: list[ir.TypeRef] = [t for _p, t in patterns]
    if other is not None:
        options.append(other)
    if not options:
        return None
    if any(isinstance(o, ir.Json) for o in options):
        return ir.Json()
    unique: list[ir.TypeRef] = []
    for option in options:
        if option not in unique:
            unique.append(option)
    return unique[0] if len(unique) == 1 else ir.UnionOf(tuple(unique))
