"""The functions of records and of the containers whose items differ by position or key: a
record's constructor call (`parse_<Name>`) and its document (`dump_<Name>`), a tuple's items
converted by position, a group's named members converted by name."""

from __future__ import annotations

import builtins
import keyword
import re

from zomgen import ir
from zomgen.targets.python.convert.context import Context
from zomgen.targets.python.convert.fits import among
from zomgen.targets.python.convert.view import (
    Construct,
    Document,
    Fixed,
    KeySet,
    Loop,
    NamedMembers,
    Record,
)
from zomgen.targets.python.spelling import py_literal

ITEM = "item"
# Names the functions below use themselves, which no local may take.
_TAKEN = frozenset({"model", "document", "value", "key", "item", "items", "index", "members"})
# Names the module imports, which no local may shadow: the run time's helpers, `cast`, `schema`.
_IMPORTED = frozenset(
    {"cast", "schema", "holds", "new_model", "plain_json", "value_at", "ABSENT"}
    | {"model_is", "dump_other_node", "_NODE_DUMPS"}
    | {"is_array", "is_object", "is_tuple_of", "is_integer", "is_number"}
)


def construct(c: Context, record: Record, cls: str, typed: str, function: str) -> Construct:
    """`new_model(cls, {attr: <the value of its key>, ...})` from a checked JSON object `value`:
    every field of the dataclass is given, the node's constants included, since `new_model`
    bypasses the defaults of its `__init__` (`zomgen_runtime/converting.py`)."""
    args: list[tuple[str, str]] = []
    if record.node is not None:
        kind, version = record.node
        own = {slot.attr for slot in record.slots}
        constants = [("zarr_format", str(version))]
        if version == 3:
            constants.append(("node_type", f'"{kind}"'))
        args.extend((attr, expr) for attr, expr in constants if attr not in own)
    for slot in record.slots:
        key = py_literal(slot.key)
        value = f"value[{key}]"
        if slot.required:
            args.append((slot.attr, c.parse_expr(slot.type, value)))
            continue
        absent = c.use("UNSET") if slot.default == "UNSET" else "None"
        if not c.needs("parse", slot.type):
            get = f"value.get({key})" if absent == "None" else f"value.get({key}, {absent})"
            args.append((slot.attr, get))
        else:
            parsed = c.parse_expr(slot.type, value)
            args.append((slot.attr, f"{parsed} if {key} in value else {absent}"))
    if record.extras is not None:
        attr, extra = record.extras
        args.append((attr, _others(c, record, c.parse_expr(extra, ITEM, 1))))
    elif record.node is not None:
        args.append(("extensions", _others(c, record, ITEM)))
    return Construct(function, cls, typed, tuple(args), generic=typed != cls)


def _others(c: Context, record: Record, converted: str) -> str:
    """The other keys of `value` than the record's own, each item `converted`."""
    keys = _known_keys(record)
    if not keys:
        return "dict(value)" if converted == ITEM else _comprehension(converted, "")
    name = _key_set(c, record.name, "{" + ", ".join(keys) + "}")
    # Most documents have no other key: the subset test runs in C, the comprehension would not.
    return (
        f"{{}} if value.keys() <= {name} else {_comprehension(converted, f' if key not in {name}')}"
    )


def _key_set(c: Context, record: str, keys: str) -> str:
    """The name of the constant holding `keys`: one per distinct set of keys in the module,
    named for the first record that has it."""
    for known in c.module.constants:
        if known.keys == keys:
            if known.name != f"_{record}_KEYS" and record not in known.shared_by:
                known.shared_by.append(record)
            return known.name
    c.module.constants.append(KeySet(f"_{record}_KEYS", keys))
    return c.module.constants[-1].name


def _comprehension(converted: str, condition: str) -> str:
    return f"{{key: {converted} for key, {ITEM} in value.items(){condition}}}"


def _known_keys(record: Record) -> list[str]:
    keys = (["zarr_format", "node_type"] if record.node is not None else []) + [
        s.key for s in record.slots
    ]
    return [py_literal(k) for k in dict.fromkeys(keys)]


def document(c: Context, record: Record, cls: str, function: str) -> Document:
    """The JSON object of a `model` of the record: its fields in order (an optional one only
    when set), then the other keys it keeps."""
    head: list[tuple[str, str]] = []
    tail: list[tuple[str | None, str, str]] = []
    if record.node is not None:
        # The model's own values, not the record's constants: a model built with a wrong one
        # (which the checkers refuse) is then refused by the check of its document, not
        # silently corrected.
        head.append(('"zarr_format"', "model.zarr_format"))
        if record.node[1] == 3:
            head.append(('"node_type"', "model.node_type"))
    taken = set(_TAKEN)
    for slot in record.slots:
        key = py_literal(slot.key)
        attribute = f"model.{slot.attr}"
        dumps = slot.type if slot.dump_type is None else slot.dump_type
        if slot.required:
            value = c.dump_expr(dumps, attribute)
            if tail:
                tail.append((None, key, value))
            else:
                head.append((key, value))
            continue
        # The value is converted where it is known to be set: a local names it, since the
        # checkers narrow locals (pyrefly narrows at most 50 attributes of one object).
        local = attribute
        if c.needs("dump", dumps):
            local = _local(slot.attr, taken)
            attribute = f"({local} := {attribute})"
        value = c.dump_expr(dumps, local)
        if slot.default == "UNSET":
            condition = f"not isinstance({attribute}, {c.use('Unset')})"
        else:
            condition = f"{attribute} is not None"
        tail.append((condition, key, value))
    rest: tuple[str, str] | None = None
    if record.extras is not None:
        attr, extra = record.extras
        rest = (f"model.{attr}", c.dump_expr(extra, ITEM, 1))
    elif record.node is not None:
        rest = ("model.extensions", c.dump_expr(ir.Json(), ITEM, 1))
    node_class = None
    if record.node is not None:
        node_class = c.use(record.name)
        c.helpers |= {"model_is", "dump_other_node"}
    return Document(function, cls, tuple(head), tuple(tail), rest, node_class)


def _local(attr: str, taken: set[str]) -> str:
    """A local variable named after the attribute, unless that name means something else in
    the module (a builtin, a function, a class) or in the function."""
    name = attr
    if (
        not name[:1].islower()
        or keyword.iskeyword(name)
        or hasattr(builtins, name)
        or name in _IMPORTED
        or re.match(r"(parse|dump)_|(item|key)\d", name)
    ):
        name = f"{attr.lstrip('_').lower()}_value"
        if not name.isidentifier() or name == "_value":
            name = "field_value"
    base, n = name, 2
    while name in taken:
        name, n = f"{base}{n}", n + 1
    taken.add(name)
    return name


def tuple_items(c: Context, side: str, t: ir.TupleOf, function: str) -> Fixed | Loop:
    """A tuple whose items convert by position: one expression when its length is fixed, else
    a loop over the items."""
    model_type = c.model_type(t)
    fixed = t.rest is None and t.required_length == len(t.items)
    if side == "parse":
        convert, param, param_type, returns = c.parse_expr, "value", "Any", model_type
    else:
        convert, param, param_type, returns = c.dump_expr, "model", model_type, "list[Any]"
    if fixed:
        parts = [convert(p, f"{param}[{i}]") for i, p in enumerate(t.items)]
        expr = f"({', '.join(parts)},)" if side == "parse" else f"[{', '.join(parts)}]"
        if side == "parse" and not parts:
            expr = "()"
        return Fixed(function, param, param_type, returns, expr)
    add = "items.append" if side == "parse" else "document.append"
    cases = tuple((f"index == {i}", f"{add}({convert(p, ITEM, 1)})") for i, p in enumerate(t.items))
    otherwise = f"{add}({ITEM if t.rest is None else convert(t.rest, ITEM, 1)})"
    setup: tuple[str, ...]
    if side == "parse":
        setup = ("items: list[Any] = []",)
        result = c.as_typed(returns, "tuple(items)")
        header = f"for index, {ITEM} in enumerate(value)"
    else:
        # An annotation, not a cast: ty took minutes to check the cast of a deeply nested
        # union of tuples (hostile deep_prefix_items_40), while every tuple is assignable.
        setup = ("items: tuple[Any, ...] = model", "document: list[Any] = []")
        result = "document"
        header = f"for index, {ITEM} in enumerate(items)"
    return Loop(function, param, param_type, returns, setup, header, cases, otherwise, result)


def members(c: Context, side: str, t: NamedMembers, function: str) -> Loop:
    """A group's members: each named one converted by its own type, every other by the type
    of the others."""
    typed = c.use(t.typed_dict)
    convert = c.parse_expr if side == "parse" else c.dump_expr
    out = "members" if side == "parse" else "document"
    # Named members converted alike share one case.
    keys_by_statement: dict[str, list[str]] = {}
    for key, ty in t.named:
        statement = f"{out}[key] = {convert(ty, ITEM, 1)}"
        keys_by_statement.setdefault(statement, []).append(py_literal(key))
    if t.other is not None:
        otherwise = f"{out}[key] = {convert(t.other, ITEM, 1)}"
    elif side == "parse":
        otherwise = f"{out}[key] = {ITEM}"
    else:
        otherwise = f"{out}[key] = {c.dump_expr(ir.Json(), ITEM, 1)}"
    keys_by_statement.pop(otherwise, None)  # as every other member
    cases = tuple(
        (among("key", keys).text, statement) for statement, keys in keys_by_statement.items()
    )
    if side == "parse":
        return Loop(
            function,
            "value",
            "Any",
            typed,
            ("members: dict[str, Any] = {}",),
            f"for key, {ITEM} in value.items()",
            cases,
            otherwise,
            f"cast({py_literal(typed)}, members)",
        )
    return Loop(
        function,
        "members",
        typed,
        "dict[str, Any]",
        ("items = cast(Mapping[str, Any], members)", "document: dict[str, Any] = {}"),
        f"for key, {ITEM} in items.items()",
        cases,
        otherwise,
        "document",
    )
