"""The shallow checks a union picks its option by, as Python conditions: does a JSON value
(`fits_document`) or a model value (`fits_model`) fit a type? The same rules on both sides, so
`dump` picks the option `parse` made: a record fits a JSON object holding its required keys and
its literal values (a node also its `zarr_format` and kind), a list or tuple fits a JSON array
(a tuple in a model), a map fits a JSON object (a mapping), a JSON value fits anything.

A JSON value is `Any`, and stays so: `_is_array` and `_is_object` are functions rather than
`isinstance` checks, which would narrow it to `list[Unknown]` for pyright strict.

Each function returns the condition's text, `"True"` or `"False"` where nothing is left to
check, so that a caller can drop an option that never fits or stop at one that always does."""

from __future__ import annotations

import re

from zomgen import ir
from zomgen.targets.pyconvert_context import Context
from zomgen.targets.pyconvert_view import Record
from zomgen.targets.pyspell import py_literal


def fits_document(cx: Context, t: ir.TypeRef, e: str, seen: frozenset[str] = frozenset()) -> str:
    """The condition that the JSON value `e` fits `t`."""
    if isinstance(t, ir.Primitive):
        return fits_primitive(t, e)
    if isinstance(t, (ir.Json, ir.JsonObject, ir.Never)):
        return "True"
    if isinstance(t, ir.Literal):
        return fits_literal(t, e)
    if isinstance(t, (ir.ListOf, ir.TupleOf)):
        return f"_is_array({e})"
    if isinstance(t, ir.MapOf):
        return f"_is_object({e})"
    if isinstance(t, ir.UnionOf):
        return any_of([fits_document(cx, o, e, seen) for o in t.options])
    if isinstance(t, ir.BaseNode):
        return _fits_record(cx.base_record(t), e)
    if t.name in cx.aliases:
        if t.name in seen:
            return "False"
        return fits_document(cx, cx.aliases[t.name].target, e, seen | {t.name})
    return _fits_record(cx.records[t.name], e)


def _fits_record(record: Record, e: str) -> str:
    parts = [f"_is_object({e})"]
    if record.node is not None:
        kind, version = record.node
        parts.append(f'{e}.get("zarr_format") == {version}')
        if version == 3:
            parts.append(f'{e}.get("node_type") == "{kind}"')
        else:
            parts.append(f'"members" {"in" if kind == "group" else "not in"} {e}')
    for slot in record.slots:
        key = py_literal(slot.key)
        if slot.required:
            parts.append(f"{key} in {e}")
        if isinstance(slot.type, ir.Literal):
            fits = fits_literal(slot.type, f"{e}[{key}]")
            parts.append(fits if slot.required else f"({key} not in {e} or {paren(fits)})")
    return " and ".join(paren(p) if " or " in p else p for p in dict.fromkeys(parts))


def fits_model(cx: Context, t: ir.TypeRef, e: str, seen: frozenset[str] = frozenset()) -> str:
    """The condition that the model value `e` fits `t`."""
    if isinstance(t, ir.Primitive):
        return fits_primitive(t, e)
    if isinstance(t, (ir.Json, ir.JsonObject, ir.Never)):
        return "True"
    if isinstance(t, ir.Literal):
        return fits_literal(t, e)
    if isinstance(t, (ir.ListOf, ir.TupleOf)):
        return f"isinstance({e}, tuple)"
    if isinstance(t, ir.MapOf):
        return f"isinstance({e}, Mapping)"
    if isinstance(t, ir.UnionOf):
        return any_of([fits_model(cx, o, e, seen) for o in t.options])
    if isinstance(t, ir.BaseNode):
        return f"isinstance({e}, {cx.use(cx.sp.base_name(t.kind, t.zarr_format))})"
    if t.name in cx.aliases:
        if t.name in seen:
            return "False"
        return fits_model(cx, cx.aliases[t.name].target, e, seen | {t.name})
    return f"isinstance({e}, {cx.use(t.name)})"


def fits_primitive(t: ir.Primitive, e: str) -> str:
    if t.name == "integer":
        return f"_is_integer({e})"
    if t.name == "number":
        return f"_is_number({e})"
    if t.name == "null":
        return f"{e} is None"
    return f"isinstance({e}, {'str' if t.name == 'string' else 'bool'})"


def fits_literal(t: ir.Literal, e: str) -> str:
    """JSON equality: `1` matches `1.0`, never `True`; a string only a string."""
    strings = [v for v in t.values if isinstance(v, str)]
    numbers = [v for v in t.values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    parts: list[str] = []
    if strings:
        parts.append(among(e, [py_literal(s) for s in strings]))
    if numbers:
        parts.append(f"_is_number({e}) and {among(e, [repr(n) for n in numbers])}")
    parts += [f"{e} is {v!r}" for v in t.values if v is None or isinstance(v, bool)]
    return any_of(parts) if parts else "False"


# --- putting conditions together ---------------------------------------------------------------

_ISINSTANCE = re.compile(r"isinstance\(([\w.\[\]\"']+), (\w+|\([\w, ]+\))\)")


def any_of(parts: list[str]) -> str:
    """`parts` joined by `or`, without repeats; `isinstance` checks of one value are one call
    (`isinstance(e, (A, B))`, as ruff's SIM101 asks)."""
    if "True" in parts:
        return "True"
    merged: list[str] = []
    classes: dict[str, list[str]] = {}  # value -> classes of its isinstance checks so far
    for part in dict.fromkeys(parts):
        if part == "False":
            continue
        match = _ISINSTANCE.fullmatch(part)
        if match is None:
            merged.append(part)
            continue
        subject, names = match.group(1), match.group(2).strip("()").split(", ")
        if subject not in classes:
            classes[subject] = []
            merged.append(f"\0{subject}")  # where the merged check goes
        classes[subject] += [n for n in names if n and n not in classes[subject]]
    out: list[str] = []
    for part in merged:
        if part.startswith("\0"):
            subject = part[1:]
            names = classes[subject]
            joined = names[0] if len(names) == 1 else f"({', '.join(names)})"
            part = f"isinstance({subject}, {joined})"
        out.append(part)
    if not out:
        return "False"
    if len(out) == 1:
        return out[0]
    return " or ".join(paren(p) if " and " in p else p for p in out)


def among(e: str, literals: list[str]) -> str:
    if len(literals) == 1:
        return f"{e} == {literals[0]}"
    return f"{e} in ({', '.join(literals)})"


def paren(condition: str) -> str:
    return f"({condition})"
