"""Questions both targets and `zomgen cases` ask of IR types and JSON values, asked once.

Each answer is the same for every target: how a target spells it is the target's business.
"""

from __future__ import annotations

from typing import assert_never

from zomgen import ir


def json_type(value: object) -> str:
    """The JSON Schema type of a JSON value; a float with an integral value (`1.0`) is an
    `integer`, as JSON Schema counts it (draft 6 on)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def any_node_version(t: ir.UnionOf) -> int | None:
    """The Zarr version of a union that is exactly the base group and the base array of one
    version (any node of that version, which both targets name `AnyNode`), else None."""
    kinds = {(o.kind, o.zarr_format) for o in t.options if isinstance(o, ir.BaseNode)}
    if len(t.options) == 2 and len(kinds) == 2 and len({v for _k, v in kinds}) == 1:
        return next(iter(kinds))[1]
    return None


def merge_literals(options: tuple[ir.TypeRef, ...]) -> list[ir.TypeRef]:
    """A union's options with its literals merged into one, where the first of them stood
    (`Literal["a"] | Literal["b"]` is spelled `Literal["a", "b"]`, ruff's PYI030)."""
    values: list[ir.JsonScalar] = []
    seen: set[ir.JsonScalar] = set()  # same equality as `in` on the list, linear in the values
    merged: list[ir.TypeRef] = []
    for option in options:
        if isinstance(option, ir.Literal):
            if not values:
                merged.append(option)  # placeholder, replaced below
            for v in option.values:
                if v not in seen:
                    seen.add(v)
                    values.append(v)
        else:
            merged.append(option)
    return [ir.Literal(tuple(values)) if isinstance(o, ir.Literal) else o for o in merged]


def names_a_type(t: ir.TypeRef) -> bool:
    """Whether `t` names a type of the package or a base node anywhere inside."""
    if isinstance(t, (ir.Ref, ir.BaseNode)):
        return True
    if isinstance(t, (ir.Primitive, ir.Literal, ir.Json, ir.Never, ir.JsonObject)):
        return False
    if isinstance(t, ir.ListOf):
        return names_a_type(t.item)
    if isinstance(t, ir.MapOf):
        return names_a_type(t.value)
    if isinstance(t, ir.TupleOf):
        return any(names_a_type(p) for p in (*t.items, *([t.rest] if t.rest else [])))
    if isinstance(t, ir.UnionOf):
        return any(names_a_type(o) for o in t.options)
    assert_never(t)
