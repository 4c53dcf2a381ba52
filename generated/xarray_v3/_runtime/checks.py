"""zomgen's check keywords: rules JSON Schema cannot express, declared in the schema itself.

Each keyword sits on a NODE schema, so the instance it sees is one node's document (with
`shape` for arrays and `members` for groups). Paths are JSON pointers relative to that document
in which a `*` segment stands for every item of a list (or value of an object). A path that
reaches nothing is not this check's business: `required` and `type` report that. The full
reference is docs/extra-checks.md.

- `x-zomgen-ndim-length: [pointer, ...]`: every list reached has one item per dimension
  (`len(shape)`); e.g. `/attributes/_ARRAY_DIMENSIONS`, `/dimension_names`, `/chunks`.
- `x-zomgen-member-kind: {pointer: "array" | "group" | "node"}`: every string reached names a
  member of this group (a relative path, `a/b` for a grandchild) of that kind; e.g. OME's
  `/attributes/multiscales/*/datasets/*/path` names arrays.
- `x-zomgen-member-ndim-length: [{"member": pointer, "length_of": pointer}, ...]`: every string
  reached by `member` that names an array has `len(shape)` equal to the length of the list(s)
  reached by `length_of`, whose `*`s are bound, left to right, to the positions the `*`s of
  `member` matched; e.g. OME's `len(axes)` per multiscale.

The functions here are pure: each compiles a keyword's value into a check (instance in,
violations out). The validators plug them into
jsonschema and jsonschema-rs as ordinary keywords, so they take part in `anyOf`, `oneOf`, `not`
and `if` like any other keyword.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .pointers import WILDCARD, match, parse_pointer, to_pointer
from .values import is_array, is_object

NDIM_LENGTH = "x-zomgen-ndim-length"
MEMBER_KIND = "x-zomgen-member-kind"
MEMBER_NDIM_LENGTH = "x-zomgen-member-ndim-length"
KINDS = ("array", "group", "node")


@dataclass(frozen=True)
class Violation:
    """`path`: where in the node's document; `at`: which entry of the keyword's value (a list
    index or an object key), for the schema path; None when the value itself is malformed."""

    path: tuple[str | int, ...]
    message: str
    at: str | int | None


def _malformed(keyword: str, why: str) -> Violation:
    return Violation((), f"the schema's {keyword} is malformed: {why}", None)


def _items(n: int) -> str:
    return f"{n} item" if n == 1 else f"{n} items"


def _dims(n: int) -> str:
    return f"{n} dimension" if n == 1 else f"{n} dimensions"


# A compiled check: the keyword's value is parsed once, then the check runs per instance.
Check = Callable[[Any], list[Violation]]


def _pointers(value: Any) -> list[list[str]] | None:
    if not is_array(value) or not all(isinstance(p, str) for p in value):
        return None
    return [parse_pointer(p) for p in value]


def ndim_length(value: Any) -> Check:
    patterns = _pointers(value)

    def check(instance: Any) -> list[Violation]:
        if not is_object(instance):
            return []
        shape = instance.get("shape")
        if not is_array(shape):
            return []  # a group, or a broken array that `type` / `required` report
        if patterns is None:
            return [_malformed(NDIM_LENGTH, "expected a list of JSON pointers")]
        found: list[Violation] = []
        for index, pattern in enumerate(patterns):
            for path, target in match(instance, pattern):
                if is_array(target) and len(target) != len(shape):
                    message = (
                        f"has {_items(len(target))}, but the array has {_dims(len(shape))} "
                        f"(shape {shape})"
                    )
                    found.append(Violation(path, message, index))
        return found

    return check


def _kind(node: Any) -> str | None:
    if not is_object(node):
        return None
    node_type = node.get("node_type")
    if node_type in ("array", "group"):
        return str(node_type)
    if "shape" in node:
        return "array"
    if "members" in node:
        return "group"
    return None


def find_member(instance: dict[str, Any], relative: str) -> Any:
    """The member node `relative` (`a` or `a/b`) names below `instance`, or None."""
    node: Any = instance
    for name in relative.split("/"):
        members = node.get("members") if is_object(node) else None
        if not is_object(members) or name in ("", ".", "..") or name not in members:
            return None
        node = members[name]
    return node


def member_kind(value: Any) -> Check:
    valid = is_object(value) and all(k in KINDS for k in value.values())
    rules = [(k, parse_pointer(k), v) for k, v in value.items()] if is_object(value) else []

    def check(instance: Any) -> list[Violation]:
        if not is_object(instance) or not is_object(instance.get("members")):
            return []  # an array, or a group whose `members` the schema reports
        if not valid:
            return [_malformed(MEMBER_KIND, f"expected {{pointer: one of {list(KINDS)}}}")]
        found: list[Violation] = []
        for key, pattern, kind in rules:
            for path, target in match(instance, pattern):
                if not isinstance(target, str):
                    continue
                node = find_member(instance, target)
                if node is None:
                    message = f"{target!r} names no member of this group"
                    found.append(Violation(path, message, key))
                    continue
                actual = _kind(node)
                if kind != "node" and actual != kind:
                    what = f"a{'n' if actual == 'array' else ''} {actual}" if actual else "a node"
                    message = (
                        f"{target!r} names {what}, not a{'n' if kind == 'array' else ''} {kind}"
                    )
                    found.append(Violation(path, message, key))
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
            return [_malformed(MEMBER_NDIM_LENGTH, 'expected [{"member": ..., "length_of": ...}]')]
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
                            f"{target!r} has {_dims(len(shape))} (shape {shape}), but "
                            f"{to_pointer(list_path)} has {_items(len(items))}"
                        )
                        found.append(Violation(path, message, index))
        return found

    return check


# keyword -> compiler of its value
CHECKS: dict[str, Callable[[Any], Check]] = {
    NDIM_LENGTH: ndim_length,
    MEMBER_KIND: member_kind,
    MEMBER_NDIM_LENGTH: member_ndim_length,
}


def member_patterns(schema: dict[str, Any]) -> Iterator[str]:
    """The pointers in `schema`'s own check keywords whose strings name members."""
    kinds = schema.get(MEMBER_KIND)
    if is_object(kinds):
        yield from kinds
    for member, _length_of in _rules(schema.get(MEMBER_NDIM_LENGTH)) or []:
        yield member


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
