"""zomgen's check keywords: rules JSON Schema cannot express, declared in the schema itself.

Each keyword sits on a NODE schema, so the instance it sees is one node's document (with
`shape` for arrays and `members` for groups). Paths are JSON pointers relative to that document
in which a `*` segment stands for every item of a list (or value of an object). A path that
reaches nothing is not this check's business: `required` and `type` report that. zomgen's
documentation of the check keywords is the full reference.

- `x-zomgen-ndim-length: [pointer, ...]`: every list reached has one item per dimension
  (`len(shape)`); e.g. `/attributes/_ARRAY_DIMENSIONS`, `/dimension_names`, `/chunks`.
- `x-zomgen-member-kind: {pointer: "array" | "group" | "node"}`: every string reached names a
  member of this group (a relative path, `a/b` for a grandchild) of that kind; e.g. OME's
  `/attributes/multiscales/*/datasets/*/path` names arrays.
- `x-zomgen-member-ndim-length: [{"member": pointer, "length_of": pointer}, ...]`: every string
  reached by `member` that names an array has `len(shape)` equal to the length of the list(s)
  reached by `length_of`, whose `*`s are bound, left to right, to the positions the `*`s of
  `member` matched; e.g. OME's `len(axes)` per multiscale.

The relation keywords (`x-zomgen-equal`, `-equal-length`, `-count-equal`, `-reaches`, `-in`,
`-unique-by`, `-index-of`, `-partition`) compare values that paths reach anywhere in the node and its members: relations.py.
`x-zomgen-connected` asks that what the paths link forms one connected graph: connected.py.
`x-zomgen-rules` holds rules in CEL, on any subschema: rules.py.

The functions here are pure: each compiles a keyword's value into a check (instance in,
violations out). The validators plug them into
jsonschema and jsonschema-rs as ordinary keywords, so they take part in `anyOf`, `oneOf`, `not`
and `if` like any other keyword.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from .connected import CONNECTED, connected
from .paths import (
    evaluate,
    find_member,
    holder_of,
    kind_of,
    node_prefix,
    parse_path,
    value_at,
)
from .pointers import WILDCARD, match, parse_pointer, to_pointer
from .relations import (
    COUNT_EQUAL,
    EQUAL,
    EQUAL_LENGTH,
    IN,
    INDEX_OF,
    PARTITION,
    REACHES,
    UNIQUE_BY,
    count_equal,
    equal,
    equal_length,
    in_,
    index_of,
    partition,
    reaches,
    unique_by,
)
from .rules import RULES, rules
from .values import is_array, is_object
from .violations import Check, Violation, malformed, n_dims, n_items

NDIM_LENGTH = "x-zomgen-ndim-length"
MEMBER_KIND = "x-zomgen-member-kind"
MEMBER_NDIM_LENGTH = "x-zomgen-member-ndim-length"
KINDS = ("array", "group", "node")


def _pointers(value: Any) -> list[list[str]] | None:
    if not is_array(value) or not all(isinstance(p, str) for p in value):
        return None
    return [parse_pointer(p) for p in value]


_ABSENT = object()


def _fits(instance: dict[str, Any], tokens: list[str], ndim: int) -> bool:
    """True when the plain pointer `tokens` reaches, through objects alone, nothing or no list
    of other than `ndim` items; False when undecided (the full match then decides). The check
    runs on every array, several times where schemas compose, so the common case is kept
    cheap."""
    value: Any = instance
    for token in tokens:
        if not is_object(value):
            return False
        value = value.get(token, _ABSENT)
        if value is _ABSENT:
            return True
    return not is_array(value) or len(value) == ndim


def ndim_length(value: Any) -> Check:
    patterns = _pointers(value)
    plain = patterns if patterns is not None and not any(WILDCARD in p for p in patterns) else None

    def check(instance: Any) -> list[Violation]:
        if not is_object(instance):
            return []
        shape = instance.get("shape")
        if not is_array(shape):
            return []  # a group, or a broken array that `type` / `required` report
        if plain is not None:
            ndim = len(shape)
            for tokens in plain:
                if not _fits(instance, tokens, ndim):
                    break
            else:
                return []
        if patterns is None:
            return [malformed(NDIM_LENGTH, "expected a list of JSON pointers")]
        found: list[Violation] = []
        for index, pattern in enumerate(patterns):
            for path, target in match(instance, pattern):
                if is_array(target) and len(target) != len(shape):
                    message = (
                        f"has {n_items(len(target))}, but the array has {n_dims(len(shape))} "
                        f"(shape {shape})"
                    )
                    found.append(Violation(path, message, index))
        return found

    return check


def member_kind(value: Any) -> Check:
    rules = (
        [(k, parse_path(k), v) for k, v in value.items() if isinstance(v, str) and v in KINDS]
        if is_object(value)
        else []
    )
    valid = is_object(value) and len(rules) == len(value) and all(p for _k, p, _v in rules)

    def check(instance: Any) -> list[Violation]:
        if not is_object(instance) or not is_object(instance.get("members")):
            return []  # an array, or a group whose `members` the schema reports
        if not valid:
            return [malformed(MEMBER_KIND, f"expected {{pointer: one of {list(KINDS)}}}")]
        found: list[Violation] = []
        for key, path, kind in rules:
            assert path is not None
            for reached in evaluate(instance, path, {}):
                target = reached.value
                if not isinstance(target, str):
                    continue
                # a string names a member of the node that holds it (of an array: a sibling)
                holder = holder_of(instance, reached.location)
                node = find_member(value_at(instance, holder), target)
                if node is None:
                    where = (
                        "this group"
                        if holder == node_prefix(reached.location)
                        else ("the group that holds this array")
                    )
                    message = f"{target!r} names no member of {where}"
                    found.append(Violation(reached.location, message, key))
                    continue
                actual = kind_of(node)
                if kind != "node" and actual != kind:
                    what = f"a{'n' if actual == 'array' else ''} {actual}" if actual else "a node"
                    message = (
                        f"{target!r} names {what}, not a{'n' if kind == 'array' else ''} {kind}"
                    )
                    found.append(Violation(reached.location, message, key))
        return found

    return check


def _bind(pattern: list[str], bindings: list[str | int]) -> list[str]:
    """Replace the `*`s of `pattern`, left to right, with `bindings`; extra `*`s stay."""
    out: list[str] = []
    remaining = iter(bindings)
    for token in pattern:
        if token == WILDCARD:
            bound = next(remaining, None)
            out.append(WILDCARD if bound is None else str(bound))
        else:
            out.append(token)
    return out


def _rules(value: Any) -> list[tuple[str, str]] | None:
    if not is_array(value):
        return None
    rules: list[tuple[str, str]] = []
    for rule in value:
        if not is_object(rule):
            return None
        member, length_of = rule.get("member"), rule.get("length_of")
        if not isinstance(member, str) or not isinstance(length_of, str):
            return None
        rules.append((member, length_of))
    return rules


def member_ndim_length(value: Any) -> Check:
    rules = _rules(value)
    parsed = [(parse_pointer(m), parse_pointer(n)) for m, n in rules or []]

    def check(instance: Any) -> list[Violation]:
        if not is_object(instance) or not is_object(instance.get("members")):
            return []
        if rules is None:
            return [malformed(MEMBER_NDIM_LENGTH, 'expected [{"member": ..., "length_of": ...}]')]
        found: list[Violation] = []
        for index, (member_pattern, length_pattern) in enumerate(parsed):
            for path, target in match(instance, member_pattern):
                if not isinstance(target, str):
                    continue
                node = find_member(instance, target)
                shape = node.get("shape") if is_object(node) else None
                if not is_array(shape):
                    continue  # no such array: x-zomgen-member-kind says so, if the schema asks
                bindings = [path[i] for i, token in enumerate(member_pattern) if token == WILDCARD]
                for list_path, items in match(instance, _bind(length_pattern, bindings)):
                    if is_array(items) and len(items) != len(shape):
                        message = (
                            f"{target!r} has {n_dims(len(shape))} (shape {shape}), but "
                            f"{to_pointer(list_path)} has {n_items(len(items))}"
                        )
                        found.append(Violation(path, message, index))
        return found

    return check


# keyword -> compiler of its value
CHECKS: dict[str, Callable[[Any], Check]] = {
    NDIM_LENGTH: ndim_length,
    MEMBER_KIND: member_kind,
    MEMBER_NDIM_LENGTH: member_ndim_length,
    EQUAL: equal,
    EQUAL_LENGTH: equal_length,
    COUNT_EQUAL: count_equal,
    REACHES: reaches,
    IN: in_,
    UNIQUE_BY: unique_by,
    INDEX_OF: index_of,
    PARTITION: partition,
    CONNECTED: connected,
    RULES: rules,
}


# A reaches rule whose target is a member named by a value: `/members/{/pointer}`.
_MEMBER_TARGET = re.compile(r"^/members/\{(/[^{}]*)\}$")


def member_patterns(schema: dict[str, Any]) -> Iterator[str]:
    """The pointers in `schema`'s own check keywords whose strings name members."""
    kinds = schema.get(MEMBER_KIND)
    if is_object(kinds):
        yield from kinds
    for member, _length_of in _rules(schema.get(MEMBER_NDIM_LENGTH)) or []:
        yield member
    reaches = schema.get(REACHES)
    for rule in reaches if is_array(reaches) else []:
        target = rule[1] if is_array(rule) and len(rule) == 2 and isinstance(rule[1], str) else ""
        found = _MEMBER_TARGET.match(target)
        if found is not None:
            yield found.group(1)


def uses_checks(schema: Any) -> bool:
    """Whether any subschema of `schema` holds a zomgen check keyword."""
    stack = [schema]
    while stack:
        value = stack.pop()
        if is_object(value):
            if any(k in CHECKS for k in value):
                return True
            stack.extend(value.values())
        elif is_array(value):
            stack.extend(value)
    return False
