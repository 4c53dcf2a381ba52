"""How IR types are spelled in Python: in the frozen models and in the TypedDict documents
(one walk over the IR, the flavour saying where they differ), no I/O."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Literal as TLiteral
from typing import assert_never

from zomgen import ir
from zomgen.ir.queries import any_node_version, merge_literals
from zomgen.names import BaseNames
from zomgen.targets.python import open_dicts

# Where a type is spelled: the frozen models (tuples, mappings) or the TypedDict documents
# (lists, dicts, as `json.loads` gives them).
Flavour = TLiteral["model", "document"]

PRIMITIVES = {
    "string": "str",
    "integer": "int",
    "number": "float",
    "boolean": "bool",
    "null": "None",
}


class Spelling:
    """Spells types for one package: knows which Zarr versions it uses (to name the bases)."""

    def __init__(self, hierarchy: ir.Hierarchy) -> None:
        self.hierarchy = hierarchy
        self.names = BaseNames(hierarchy.zarr_formats)
        # The types that reach a TypedDict that allows other keys: a union of those gets
        # mypy's fallback (open_dicts.py).
        self.reaching_open = open_dicts.reaching_open(hierarchy)
        self.uses_fallback = False  # whether a document spelling has used `MypyFallback`

    def base_name(self, kind: ir.NodeKind, version: int) -> str:
        return self.names.base(kind, version)

    def any_node(self, version: int) -> str:
        return self.names.any_node(version)

    # --- models (frozen dataclasses) and documents (TypedDicts of the JSON) ---------------

    def model(self, t: ir.TypeRef, names: set[str] | None = None) -> str:
        """The models' type of `t`; `names`, where given, gets each name of the package's
        models the spelling uses (the importer of the type imports those)."""
        return self._spell(t, "model", set[str]() if names is None else names)

    def document(self, t: ir.TypeRef) -> str:
        """The TypedDict type of `t`. A union with an option that reaches a TypedDict that
        allows other keys also holds `MypyFallback` (open_dicts.py)."""
        return self._spell(t, "document", set())

    def _spell(self, t: ir.TypeRef, flavour: Flavour, names: set[str]) -> str:
        """`t` in the models (tuples, mappings) or in the documents (lists, dicts)."""
        model = flavour == "model"
        if isinstance(t, ir.Primitive):
            return PRIMITIVES[t.name]
        if isinstance(t, ir.Literal):
            return literal(t)
        if isinstance(t, (ir.Json, ir.JsonObject)):
            name = "JsonValue" if isinstance(t, ir.Json) else "JsonObject"
            names.add(name)
            return name
        if isinstance(t, ir.Never):
            return "Never"
        if isinstance(t, ir.ListOf):
            item = self._spell(t.item, flavour, names)
            return f"tuple[{item}, ...]" if model else f"list[{item}]"
        if isinstance(t, ir.TupleOf):
            return self._tuple(t, flavour, names)
        if isinstance(t, ir.MapOf):
            value = self._spell(t.value, flavour, names)
            return f"{'Mapping' if model else 'dict'}[str, {value}]"
        if isinstance(t, ir.UnionOf):
            if (version := any_node_version(t)) is not None:
                names.add(self.any_node(version))
                return self.any_node(version)
            options = merge_literals(t.options)
            spelled = [self._spell(o, flavour, names) for o in options]
            return union(spelled + self.fallback(options, flavour))
        if isinstance(t, ir.Ref):
            names.add(t.name)
            return t.name
        if isinstance(t, ir.BaseNode):
            base = self.base_name(t.kind, t.zarr_format)
            names.update((base, "JsonObject"))
            if t.kind == "array":
                return f"{base}[JsonObject]"
            any_node = self.any_node(t.zarr_format)
            names.add(any_node)
            return f"{base}[JsonObject, {'Mapping' if model else 'dict'}[str, {any_node}]]"
        assert_never(t)

    def fallback(self, options: Sequence[ir.TypeRef], flavour: Flavour) -> list[str]:
        """`[MypyFallback]` where a document's union of these options needs it, else `[]`."""
        if flavour == "model" or not open_dicts.needs_fallback(options, self.reaching_open):
            return []
        self.uses_fallback = True
        return [open_dicts.MYPY_FALLBACK]

    def _tuple(self, t: ir.TupleOf, flavour: Flavour, names: set[str]) -> str:
        if flavour != "model":
            # A document's array is a list of any of the positions' types.
            parts = list(t.items) + ([t.rest] if t.rest is not None else [])
            merged = merge_literals(tuple(parts))
            options = [self._spell(i, flavour, names) for i in merged]
            options += self.fallback(merged, flavour)
            return f"list[{union(options)}]" if options else "list[JsonValue]"
        items = [self._spell(i, flavour, names) for i in t.items]
        rest = [] if t.rest is None else [f"*tuple[{self._spell(t.rest, flavour, names)}, ...]"]
        # Shorter arrays are valid down to `required_length`: Python has no optional tuple
        # positions, so each allowed length is one option, longest first.
        options = [_tuple(items + rest)]
        for length in range(len(items) - 1, t.required_length - 1, -1):
            options.append(_tuple(items[:length]))
        return " | ".join(options)


def split_union(spelled: str) -> list[str]:
    """The top-level options of a spelled union (`list[int | str] | None` -> 2 options)."""
    options: list[str] = []
    depth = 0
    start = 0
    quoted = False  # inside a string literal (`Literal["a|b"]`), written by `json.dumps`
    escaped = False
    for i, c in enumerate(spelled):
        if quoted:
            escaped, quoted = (False, True) if escaped else (c == "\\", c != '"')
            continue
        if c == '"':
            quoted = True
        elif c in "[(":
            depth += 1
        elif c in "])":
            depth -= 1
        elif c == "|" and depth == 0:
            options.append(spelled[start:i].strip())
            start = i + 1
    options.append(spelled[start:].strip())
    return options


def _tuple(items: list[str]) -> str:
    return f"tuple[{', '.join(items)}]" if items else "tuple[()]"


def union(options: list[str]) -> str:
    unique: list[str] = []
    for option in options:
        for part in split_union(option):
            if part not in unique:
                unique.append(part)
    # `None` last reads best and is what ruff's formatter leaves alone.
    if "None" in unique:
        unique.remove("None")
        unique.append("None")
    return " | ".join(unique)


def literal(t: ir.Literal) -> str:
    parts: list[str] = []
    for value in t.values:
        if value is None:
            parts.append("None")
        elif isinstance(value, float):
            parts.append("float")  # Literal[] cannot hold floats; the value is checked at run time
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**63:
            parts.append("int")  # mypy's Literal[] holds 64-bit integers only
        else:
            parts.append(py_literal(value))
    literal_parts = [p for p in parts if p not in ("None", "float", "int")]
    out: list[str] = []
    if literal_parts:
        out.append(f"Literal[{', '.join(literal_parts)}]")
    if "int" in parts:
        out.append("int")
    if "float" in parts:
        out.append("float")
    if "None" in parts:
        out.append("None")
    return " | ".join(out)


def py_literal(value: str | int | bool) -> str:
    """A Python literal for a JSON scalar; `json.dumps` escapes every quote, backslash and
    control character, and its output is also a valid Python string literal."""
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        return str(value)
    text = json.dumps(value, ensure_ascii=False)
    if all(c.isprintable() for c in text):
        return text
    return json.dumps(value)  # lone surrogates, control and separator characters as escapes
