"""The checks a union picks its option by, as Python conditions: a JSON value meets a need
(`fits_need`, the needs discriminate.py finds), a model value fits a type (`fits_model`: a
record is an instance of its class, a list or tuple a tuple, a map a mapping, a JSON value
anything), so `dump` picks the class `parse` built.

A JSON value is `Any`, and stays so: `is_array` and `is_object` are functions rather than
`isinstance` checks, which would narrow it to `list[Unknown]` for pyright strict.

Each function returns a `Condition` (view.py): its text, the run-time helpers it calls, and how
it joins others. `TRUE` or `FALSE` where nothing is left to check, so that a caller can drop an
option that never fits or stop at one that always does."""

from __future__ import annotations

from zomgen import ir
from zomgen.discriminate import ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING, Need
from zomgen.targets.python.convert.context import Context
from zomgen.targets.python.convert.view import FALSE, TRUE, Condition
from zomgen.targets.python.spelling import py_literal

# The helpers of `zomgen_runtime/converting.py` a deep key is read with.
_AT = frozenset({"value_at", "ABSENT"})


def fits_need(need: Need) -> Condition:
    """The condition that the JSON value `value` meets `need` (discriminate.py). A key right
    below the value is read with `.get` (the tests before it say the value is an object);
    a deeper one with `value_at`, which gives `ABSENT` wherever a key on the way is missing."""
    if not need.path:
        return _fits_kinds_values(need, "value")
    if len(need.path) == 1:
        key = py_literal(need.path[0])
        if need.absent:
            return Condition(f"{key} not in value")
        if need.kinds is None and need.values is None:
            return Condition(f"{key} in value")
        test = _fits_kinds_values(need, f"value[{key}]")
        if need.optional:
            return _grouped(any_of([Condition(f"{key} not in value"), test]))
        if need.values is not None and None not in need.values:
            return _fits_kinds_values(need, f"value.get({key})")
        return all_of([Condition(f"{key} in value"), test])
    at = f"value_at(value, {', '.join(py_literal(k) for k in need.path)})"
    if need.absent:
        return Condition(f"{at} is ABSENT", _AT)
    if need.kinds is None and need.values is None:
        return Condition(f"{at} is not ABSENT", _AT)
    test = _fits_kinds_values(need, at)
    test = Condition(test.text, test.helpers | {"value_at"}, test.operator, test.isinstance_of)
    if need.optional:
        return _grouped(any_of([Condition(f"{at} is ABSENT", _AT), test]))
    return test


def _fits_kinds_values(need: Need, e: str) -> Condition:
    if need.values is not None:
        return fits_literal(ir.Literal(need.values), e)
    kinds = sorted(need.kinds or ())
    return any_of([_fits_kind(k, e) for k in kinds]) if kinds else TRUE


def _fits_kind(kind: str, e: str) -> Condition:
    if kind == OBJECT:
        return _call("is_object", e)
    if kind == ARRAY:
        return _call("is_array", e)
    if kind == STRING:
        return is_instance(e, "str")
    if kind == NUMBER:
        return _call("is_number", e)
    if kind == BOOLEAN:
        return is_instance(e, "bool")
    assert kind == NULL, kind
    return Condition(f"{e} is None")


def fits_model(cx: Context, t: ir.TypeRef, e: str, seen: frozenset[str] = frozenset()) -> Condition:
    """The condition that the model value `e` fits `t`."""
    if isinstance(t, ir.Primitive):
        return fits_primitive(t, e)
    if isinstance(t, (ir.Json, ir.JsonObject, ir.Never)):
        return TRUE
    if isinstance(t, ir.Literal):
        return fits_literal(t, e)
    if isinstance(t, ir.TupleOf):
        return fits_model_tuple(cx, t, e, seen)
    if isinstance(t, ir.ListOf):
        return is_instance(e, "tuple")
    if isinstance(t, ir.MapOf):
        return is_instance(e, "Mapping")
    if isinstance(t, ir.UnionOf):
        return any_of([fits_model(cx, o, e, seen) for o in t.options])
    if isinstance(t, ir.BaseNode):
        return is_instance(e, cx.use(cx.sp.base_name(t.kind, t.zarr_format)))
    if t.name in cx.aliases:
        if t.name in seen:
            return FALSE
        return fits_model(cx, cx.aliases[t.name].target, e, seen | {t.name})
    return is_instance(e, cx.use(t.name))


def fits_model_tuple(
    cx: Context, t: ir.TupleOf, e: str, seen: frozenset[str], nested: bool = False
) -> Condition:
    """The model value `e` fits the tuple type `t`: a tuple of its lengths (`is_tuple_of`),
    whose required positions fit theirs. Tuples of other lengths are other options of a union
    (a 2x2, 3x3 or 4x4 matrix). A tuple inside a position is told by its lengths alone, which
    keeps the condition short."""
    longest = "None" if t.rest is not None else str(len(t.items))
    lengths = _call("is_tuple_of", f"{e}, {t.required_length}, {longest}")
    if nested:
        return lengths
    parts = [lengths]
    for i, item in enumerate(t.items[: t.required_length]):
        at = f"{e}[{i}]"
        if isinstance(item, ir.TupleOf):
            parts.append(fits_model_tuple(cx, item, at, seen, nested=True))
        else:
            parts.append(fits_model(cx, item, at, seen))
    return all_of(parts)


def fits_primitive(t: ir.Primitive, e: str) -> Condition:
    if t.name == "integer":
        return _call("is_integer", e)
    if t.name == "number":
        return _call("is_number", e)
    if t.name == "null":
        return Condition(f"{e} is None")
    return is_instance(e, "str" if t.name == "string" else "bool")


def fits_literal(t: ir.Literal, e: str) -> Condition:
    """JSON equality: `1` matches `1.0`, never `True`; a string only a string."""
    strings = [v for v in t.values if isinstance(v, str)]
    numbers = [v for v in t.values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    parts: list[Condition] = []
    if strings:
        parts.append(among(e, [py_literal(s) for s in strings]))
    if numbers:
        parts.append(all_of([_call("is_number", e), among(e, [repr(n) for n in numbers])]))
    parts += [Condition(f"{e} is {v!r}") for v in t.values if v is None or isinstance(v, bool)]
    return any_of(parts) if parts else FALSE


# --- making and joining conditions -------------------------------------------------------------


def _call(helper: str, arguments: str) -> Condition:
    """A call of one of the run time's helpers."""
    return Condition(f"{helper}({arguments})", frozenset({helper}))


def is_instance(subject: str, cls: str) -> Condition:
    return Condition(f"isinstance({subject}, {cls})", isinstance_of=(subject, (cls,)))


def among(e: str, literals: list[str]) -> Condition:
    if len(literals) == 1:
        return Condition(f"{e} == {literals[0]}")
    return Condition(f"{e} in ({', '.join(literals)})")


def any_of(parts: list[Condition]) -> Condition:
    """`parts` joined by `or`, without repeats; `isinstance` checks of one value are one call
    (`isinstance(e, (A, B))`, as ruff's SIM101 asks)."""
    if TRUE in parts:
        return TRUE
    merged: list[Condition | str] = []  # a subject's place: where its merged check goes
    classes: dict[str, list[str]] = {}  # subject -> the classes of its isinstance checks
    for part in _unique(parts, FALSE):
        if part.isinstance_of is None:
            merged.append(part)
            continue
        subject, names = part.isinstance_of
        if subject not in classes:
            classes[subject] = []
            merged.append(subject)
        classes[subject] += [n for n in names if n not in classes[subject]]
    out = [
        part if isinstance(part, Condition) else _isinstance_of(part, classes[part])
        for part in merged
    ]
    return _joined("or", out, FALSE)


def all_of(parts: list[Condition]) -> Condition:
    """`parts` joined by `and`, without repeats."""
    if FALSE in parts:
        return FALSE
    return _joined("and", _unique(parts, TRUE), TRUE)


def _isinstance_of(subject: str, names: list[str]) -> Condition:
    joined = names[0] if len(names) == 1 else f"({', '.join(names)})"
    return Condition(f"isinstance({subject}, {joined})", isinstance_of=(subject, tuple(names)))


def _unique(parts: list[Condition], neutral: Condition) -> list[Condition]:
    return [p for p in dict.fromkeys(parts) if p != neutral]


def _joined(operator: str, parts: list[Condition], empty: Condition) -> Condition:
    if not parts:
        return empty
    if len(parts) == 1:
        return parts[0]
    texts = [_grouped(p).text if p.operator not in (None, operator) else p.text for p in parts]
    helpers = frozenset().union(*(p.helpers for p in parts))
    return Condition(f" {operator} ".join(texts), helpers, operator)


def _grouped(condition: Condition) -> Condition:
    """`condition` in parentheses, which no operator around it splits."""
    if condition.operator is None:
        return condition
    return Condition(f"({condition.text})", condition.helpers)
