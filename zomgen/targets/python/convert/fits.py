"""The checks a union picks its option by, as Python conditions: a JSON value meets a need
(`fits_need`, the needs discriminate.py finds), a model value fits a type (`fits_model`: a
record is an instance of its class, a list or tuple a tuple, a map a mapping, a JSON value
anything), so `dump` picks the class `parse` built.

A JSON value is `Any`, and stays so: `_is_array` and `_is_object` are functions rather than
`isinstance` checks, which would narrow it to `list[Unknown]` for pyright strict.

Each function returns the condition's text, `"True"` or `"False"` where nothing is left to
check, so that a caller can drop an option that never fits or stop at one that always does."""

from __future__ import annotations

import re

from zomgen import ir
from zomgen.discriminate import ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING, Need
from zomgen.targets.python.convert.context import Context
from zomgen.targets.python.spelling import py_literal


def fits_need(need: Need) -> str:
    """The condition that the JSON value `value` meets `need` (discriminate.py). A key right
    below the value is read with `.get` (the tests before it say the value is an object);
    a deeper one with `_at`, which gives `_ABSENT` wherever a key on the way is missing."""
    if not need.path:
        return _fits_kinds_values(need, "value")
    if len(need.path) == 1:
        key = py_literal(need.path[0])
        if need.absent:
            return f"{key} not in value"
        if need.kinds is None and need.values is None:
            return f"{key} in value"
        test = _fits_kinds_values(need, f"value[{key}]")
        if need.optional:
            return f"({key} not in value or {paren(test) if ' or ' in test else test})"
        if need.values is not None and None not in need.values:
            return _fits_kinds_values(need, f"value.get({key})")
        return f"{key} in value and {paren(test) if ' or ' in test else test}"
    at = f"_at(value, {', '.join(py_literal(k) for k in need.path)})"
    if need.absent:
        return f"{at} is _ABSENT"
    if need.kinds is None and need.values is None:
        return f"{at} is not _ABSENT"
    test = _fits_kinds_values(need, at)
    if need.optional:
        return f"({at} is _ABSENT or {paren(test) if ' or ' in test else test})"
    return test


def _fits_kinds_values(need: Need, e: str) -> str:
    if need.values is not None:
        return fits_literal(ir.Literal(need.values), e)
    kinds = sorted(need.kinds or ())
    return any_of([_FITS_KIND[k].format(e=e) for k in kinds]) if kinds else "True"


_FITS_KIND = {
    OBJECT: "_is_object({e})",
    ARRAY: "_is_array({e})",
    STRING: "isinstance({e}, str)",
    NUMBER: "_is_number({e})",
    BOOLEAN: "isinstance({e}, bool)",
    NULL: "{e} is None",
}


def fits_model(cx: Context, t: ir.TypeRef, e: str, seen: frozenset[str] = frozenset()) -> str:
    """The condition that the model value `e` fits `t`."""
    if isinstance(t, ir.Primitive):
        return fits_primitive(t, e)
    if isinstance(t, (ir.Json, ir.JsonObject, ir.Never)):
        return "True"
    if isinstance(t, ir.Literal):
        return fits_literal(t, e)
    if isinstance(t, ir.TupleOf):
        return fits_model_tuple(cx, t, e, seen)
    if isinstance(t, ir.ListOf):
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


def fits_model_tuple(
    cx: Context, t: ir.TupleOf, e: str, seen: frozenset[str], nested: bool = False
) -> str:
    """The model value `e` fits the tuple type `t`: a tuple of its lengths (`_is_tuple_of`),
    whose required positions fit theirs. Tuples of other lengths are other options of a union
    (a 2x2, 3x3 or 4x4 matrix). A tuple inside a position is told by its lengths alone, which
    keeps the condition short."""
    longest = "None" if t.rest is not None else str(len(t.items))
    parts = [f"_is_tuple_of({e}, {t.required_length}, {longest})"]
    if nested:
        return parts[0]
    for i, item in enumerate(t.items[: t.required_length]):
        at = f"{e}[{i}]"
        if isinstance(item, ir.TupleOf):
            fits = fits_model_tuple(cx, item, at, seen, nested=True)
        else:
            fits = fits_model(cx, item, at, seen)
        if fits != "True":
            parts.append(fits if " or " not in fits else f"({fits})")
    return " and ".join(parts)


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
