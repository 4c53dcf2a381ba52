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

The relations (docs/extra-checks.md, "Relations") compare values that paths reach anywhere in
the node and its members; a path may follow a string to the member it names (`->`), collect a
list (`[*]`), use a value as a segment (`{pointer}`) and split a string into its blank-separated
words (`[words]`); a string held by an array names a sibling (arrays have no members):

- `x-zomgen-equal: [[anchor, other, ...], ...]`: every value `other` reaches equals the anchor's.
- `x-zomgen-equal-length: [[anchor, other, ...], ...]`: every list `other` reaches has as many
  items as the anchor's list (OME: each level's `shape`, each `scale`, and `len(axes)`).
- `x-zomgen-count-equal: [[anchor, other, ...], ...]`: `other` reaches as many values as the
  integer at the anchor says.
- `x-zomgen-reaches: [[anchor, other, ...], ...]`: `other` reaches a value, for every value of
  the anchor (OME plates: the row a well's `rowIndex` indexes exists).
- `x-zomgen-in: [[anchor, other, ...], ...]`: every value of the anchor is one of the values
  `other` reaches, if it reaches any (OME: a field's acquisition is one the plate lists).
- `x-zomgen-unique-by: {list pointer: key pointer}`: no two items of a list share a key (OME:
  axis names).

The functions here are pure: each compiles a keyword's value into a check (instance in,
violations out). The validators plug them into
jsonschema and jsonschema-rs as ordinary keywords, so they take part in `anyOf`, `oneOf`, `not`
and `if` like any other keyword.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .paths import (
    Path,
    Reached,
    bound_to,
    canonical,
    describe,
    evaluate,
    find_member,
    holder_of,
    kind_of,
    node_prefix,
    parse_path,
    segment_value,
    short,
    value_at,
)
from .pointers import WILDCARD, match, parse_pointer, to_pointer
from .values import is_array, is_object

NDIM_LENGTH = "x-zomgen-ndim-length"
MEMBER_KIND = "x-zomgen-member-kind"
MEMBER_NDIM_LENGTH = "x-zomgen-member-ndim-length"
EQUAL = "x-zomgen-equal"
EQUAL_LENGTH = "x-zomgen-equal-length"
COUNT_EQUAL = "x-zomgen-count-equal"
REACHES = "x-zomgen-reaches"
IN = "x-zomgen-in"
UNIQUE_BY = "x-zomgen-unique-by"
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
            return [_malformed(MEMBER_KIND, f"expected {{pointer: one of {list(KINDS)}}}")]
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


# ---------------------------------------------------------------- relations between paths
# (where a path reaches: paths.py)


@dataclass(frozen=True)
class Join:
    """`{"join": [path, ...], "with": separator}`: the strings (or integers) the paths reach,
    joined; one value per path, else nothing."""

    parts: tuple[Path, ...]
    separator: str


Operand = Path | Join


def _operand(value: Any) -> Operand | None:
    if isinstance(value, str):
        return parse_path(value)
    if not is_object(value) or set(value) - {"join", "with"}:
        return None
    parts, separator = value.get("join"), value.get("with", "")
    if not is_array(parts) or not parts or not isinstance(separator, str):
        return None
    parsed = [parse_path(p) if isinstance(p, str) else None for p in parts]
    if any(p is None for p in parsed):
        return None
    return Join(tuple(p for p in parsed if p is not None), separator)


def _rule_list(value: Any, joins: bool) -> list[tuple[Path, list[Operand]]] | None:
    """`[[anchor, other, ...], ...]` -> parsed, the others bound to their anchor."""
    if not is_array(value):
        return None
    rules: list[tuple[Path, list[Operand]]] = []
    for rule in value:
        if not is_array(rule) or len(rule) < 2 or not isinstance(rule[0], str):
            return None
        anchor = parse_path(rule[0])
        others = [_operand(o) if joins or isinstance(o, str) else None for o in rule[1:]]
        if anchor is None or any(o is None for o in others):
            return None
        rules.append(
            (
                anchor,
                [
                    bound_to(anchor, o)
                    if isinstance(o, Path)
                    else Join(tuple(bound_to(anchor, p) for p in o.parts), o.separator)
                    for o in others
                    if o is not None
                ],
            )
        )
    return rules


def _reach(root: Any, operand: Operand, choices: Mapping[int, str | int]) -> list[Reached]:
    """What an operand reaches; a join reaches one value without a location, or nothing."""
    if isinstance(operand, Path):
        return evaluate(root, operand, choices)
    texts: list[str] = []
    for part in operand.parts:
        reached = evaluate(root, part, choices)
        text = segment_value(reached[0].value) if len(reached) == 1 else None
        if text is None:
            return []
        texts.append(text)
    return [Reached((), operand.separator.join(texts), {})]


_SHAPES = {
    EQUAL: "[[anchor path, path or {join, with}, ...], ...]",
    EQUAL_LENGTH: "[[anchor path, path, ...], ...]",
    COUNT_EQUAL: "[[anchor path, path, ...], ...]",
    REACHES: "[[anchor path, path, ...], ...]",
    IN: "[[anchor path, path, ...], ...]",
}

Compare = Callable[[Reached, Reached, bool], str | None]


def _relation(keyword: str, compare: Compare) -> Callable[[Any], Check]:
    """A relation keyword: for every value the anchor reaches, each other operand (its shared
    `*`s bound) is compared with it; a problem stands at the other operand's value (at the
    anchor's, for a join or a count, which have no place of their own)."""

    def compile_relation(value: Any) -> Check:
        rules = _rule_list(value, joins=keyword == EQUAL)

        def check(instance: Any) -> list[Violation]:
            if not is_object(instance):
                return []
            if rules is None:
                return [_malformed(keyword, f"expected {_SHAPES[keyword]}")]
            found: list[Violation] = []
            for index, (anchor, others) in enumerate(rules):
                for a in evaluate(instance, anchor, {}):
                    for other in others:
                        placed = isinstance(other, Path) and keyword not in _WHOLE
                        if keyword in _WHOLE and isinstance(other, Path):
                            # compared as a whole: how many values, or which, and where
                            values = evaluate(instance, other, a.choices)
                            reached = [Reached((), _Whole(other.text, values), {})]
                        else:
                            reached = _reach(instance, other, a.choices)
                        for o in reached:
                            message = compare(a, o, placed)
                            if message is not None:
                                where = o.location if placed else a.location
                                found.append(Violation(where, message, index))
            return found

        return check

    return compile_relation


def _equal(a: Reached, o: Reached, placed: bool) -> str | None:
    if canonical(a.value) == canonical(o.value):
        return None
    if placed:
        return (
            f"{short(o.value)} does not equal {describe(a.location, o.location)} ({short(a.value)})"
        )
    return f"{short(a.value)} does not equal {short(o.value)}"


def _equal_length(a: Reached, o: Reached, placed: bool) -> str | None:
    if not is_array(a.value) or not is_array(o.value) or len(a.value) == len(o.value):
        return None
    other = describe(a.location, o.location)
    if o.location and o.location[-1] == "shape":
        return (
            f"the array has {_dims(len(o.value))} (shape {o.value}), but {other} has "
            f"{_items(len(a.value))}"
        )
    return f"has {_items(len(o.value))}, but {other} has {_items(len(a.value))}"


def _integer(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


@dataclass(frozen=True)
class _Whole:
    """Everything an other path reaches for one anchor value (count-equal, reaches, in)."""

    text: str
    values: list[Reached]


_WHOLE = (COUNT_EQUAL, REACHES, IN)


def _count_equal(a: Reached, o: Reached, placed: bool) -> str | None:
    expected = _integer(a.value)
    if expected is None or not isinstance(o.value, _Whole):
        return None
    count = len(o.value.values)
    if expected == count:
        return None
    return f"is {expected}, but {_items(count)} {'is' if count == 1 else 'are'} there"


def _reaches(a: Reached, o: Reached, placed: bool) -> str | None:
    if not isinstance(o.value, _Whole) or o.value.values:
        return None
    return f"{short(a.value)}: {o.value.text} reaches nothing"


def _in(a: Reached, o: Reached, placed: bool) -> str | None:
    if not isinstance(o.value, _Whole) or not o.value.values:
        return None
    values = [v.value for v in o.value.values]
    if any(canonical(a.value) == canonical(v) for v in values):
        return None
    first = o.value.values[0].location
    pointer = to_pointer(first[len(node_prefix(first)) :]) or "the document"
    whose = describe(first, a.location)[len(pointer) :]
    return f"{short(a.value)} is not one of {short(values)}, the values of {o.value.text}{whose}"


equal = _relation(EQUAL, _equal)
equal_length = _relation(EQUAL_LENGTH, _equal_length)
count_equal = _relation(COUNT_EQUAL, _count_equal)
reaches = _relation(REACHES, _reaches)
in_ = _relation(IN, _in)


def unique_by(value: Any) -> Check:
    parsed = (
        [(k, parse_path(k), parse_path(v)) for k, v in value.items() if isinstance(v, str)]
        if is_object(value)
        else []
    )
    valid = is_object(value) and len(parsed) == len(value)
    valid = valid and all(p is not None and q is not None for _k, p, q in parsed)

    def check(instance: Any) -> list[Violation]:
        if not is_object(instance):
            return []
        if not valid:
            return [_malformed(UNIQUE_BY, "expected {list path: key path}")]
        found: list[Violation] = []
        for key, items, by in parsed:
            assert items is not None and by is not None
            for reached in evaluate(instance, items, {}):
                if not is_array(reached.value):
                    continue
                first: dict[str, int] = {}
                for index, item in enumerate(reached.value):
                    keys = evaluate(instance, by, {}, ((*reached.location, index), item))
                    if len(keys) != 1:
                        continue
                    text = canonical(keys[0].value)
                    if text in first:
                        message = (
                            f"{short(keys[0].value)} is also the {by.text or 'value'} of item "
                            f"{first[text]}"
                        )
                        found.append(Violation(keys[0].location, message, key))
                    else:
                        first[text] = index
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
