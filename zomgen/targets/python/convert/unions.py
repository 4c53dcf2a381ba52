"""The functions of unions and aliases. `parse` picks the option the schema means, by the tests
discriminate.py plans (or dispatches on a tag the options all carry), and `dump` the option
whose class the model value is (fits.py); an alias of anything else is one
expression."""

from __future__ import annotations

from zomgen import ir
from zomgen.discriminate import Test, plan
from zomgen.targets.python.convert.context import Context
from zomgen.targets.python.convert.fits import all_of, fits_model, fits_need
from zomgen.targets.python.convert.view import (
    FALSE,
    TRUE,
    Branches,
    Condition,
    Fixed,
    Function,
    Match,
)
from zomgen.targets.python.spelling import py_literal


def union_like(c: Context, side: str, t: ir.TypeRef, target: ir.TypeRef, function: str) -> Function:
    """An alias or an anonymous union: a union dispatches, anything else is one
    expression."""
    returns = c.model_type(t)
    if not isinstance(target, ir.UnionOf):
        if side == "parse":
            return Fixed(function, "value", "Any", returns, c.parse_expr(target, "value"))
        return Fixed(function, "model", returns, "Any", c.dump_expr(target, "model"))
    if side == "parse":
        return _parse_union(c, target, returns, function)
    return _dump_union(c, target, returns, function)


def _parse_union(c: Context, t: ir.UnionOf, returns: str, function: str) -> Function:
    tagged = _tags(c, t)
    if tagged is not None:
        subject, cases = tagged
        return Match(function, returns, subject, cases, c.as_typed(returns, "value"))
    branches: list[tuple[Condition, str]] = []
    final = c.as_typed(returns, "value")  # a JSON value that is its own model
    for option, test in zip(t.options, plan(c.h, t), strict=True):
        result = c.parse_expr(option, "value") if c.needs("parse", option) else final
        if test is None:
            final = result
            break
        branches.append((_condition(test), result))
    while branches and branches[-1][1] == final:
        branches.pop()  # the same value whichever of these options it is
    return Branches(function, "value", "Any", returns, c.conditions(branches), final)


def _condition(test: Test) -> Condition:
    parts = [fits_need(need) for need in test.needs]
    if test.engine:
        pointers = ", ".join(py_literal(p) for p in test.engine)
        parts.append(Condition(f"holds(value, schema(), {pointers})", frozenset({"holds"})))
    return all_of(parts)


def _tags(c: Context, t: ir.UnionOf) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """`match value[tag]` cases when every option is an object record whose required tag
    is one distinct string (the IR's discriminator)."""
    if t.discriminator is None:
        return None
    cases: list[tuple[str, str]] = []
    for option in t.options:
        record = None
        if isinstance(option, ir.Ref):
            record = c.records.get(option.name)
        if record is None or record.node is not None:
            return None
        slot = next((s for s in record.slots if s.key == t.discriminator), None)
        if (
            slot is None
            or not slot.required
            or not isinstance(slot.type, ir.Literal)
            or len(slot.type.values) != 1
            or not isinstance(slot.type.values[0], str)
        ):
            return None
        cases.append((py_literal(slot.type.values[0]), c.parse_expr(option, "value")))
    return f"value[{py_literal(t.discriminator)}]", tuple(cases)


def _dump_union(c: Context, t: ir.UnionOf, param_type: str, function: str) -> Function:
    # Options that dump as they are (scalars) fit no value the others fit, so only the
    # others are tried, in order, until one that fits every value (JSON). Where the options
    # are all records the checkers narrow the model by each check; else (tuples, mappings
    # and JSON values overlap for them) the value is converted as `Any` after the check.
    needed: list[ir.TypeRef] = []
    last: ir.TypeRef | None = None  # the option that fits every value, if any
    after: list[ir.TypeRef] = []  # the options after it that convert
    for option in t.options:
        if last is None and fits_model(c, option, "model") == TRUE:
            last = option
        elif c.needs("dump", option):
            (needed if last is None else after).append(option)
    # A record after the option that fits everything: parse never makes one, but a model
    # built by hand may hold it, and no other option fits it.
    records = [o for o in after if _model_class(c, o) not in (None, "tuple", "Mapping")]
    needed += records
    classes = [_model_class(c, o) for o in needed]
    containers = {"tuple", "Mapping"} & set(map(str, classes))
    untyped = (
        None in classes
        or len(set(classes)) < len(classes)
        or (last is not None and (bool(containers) or len(records) < len(after)))
        # a tuple is told by its lengths and positions, which the checkers do not narrow by
        or any(_is_tuple(c, o) for o in needed)
    )
    e = "value" if untyped else "model"
    branches: list[tuple[Condition, str]] = []
    for option in needed:
        # a tuple's lengths and positions are read on the untyped value (checked as `Any`)
        fits = fits_model(c, option, e if _is_tuple(c, option) else "model")
        if fits != FALSE and fits not in (b[0] for b in branches):
            branches.append((fits, c.dump_expr(option, e)))
    final: str | None = "model"
    if last is not None:
        final = c.dump_expr(last, e)
    elif len(needed) == len(t.options) and branches:
        final = branches.pop()[1]  # nothing else is left
    return Branches(function, "model", param_type, "Any", c.conditions(branches), final, untyped)


def _is_tuple(c: Context, t: ir.TypeRef) -> bool:
    seen: set[str] = set()
    while isinstance(t, ir.Ref) and t.name in c.aliases and t.name not in seen:
        seen.add(t.name)
        t = c.aliases[t.name].target
    return isinstance(t, ir.TupleOf)


def _model_class(c: Context, t: ir.TypeRef) -> str | None:
    """The class an option's model values are instances of, where one class says it (the
    checkers narrow a union by it): a record, `tuple` or `Mapping`."""
    if isinstance(t, ir.BaseNode):
        return c.sp.base_name(t.kind, t.zarr_format)
    if isinstance(t, ir.Ref) and t.name not in c.aliases:
        return t.name
    if isinstance(t, (ir.ListOf, ir.TupleOf)):
        return "tuple"
    if isinstance(t, ir.MapOf):
        return "Mapping"
    return None
