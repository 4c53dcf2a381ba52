"""The relation keywords: they compare values that paths
reach anywhere in the node and its members; a path may follow a string to the member it names (`->`), collect a
list (`[*]`), use a value as a segment (`{pointer}`) and split a string into its blank-separated
words (`[words]`); a string held by an array names a sibling (arrays have no members):

- `x-zomgen-equal: [[anchor, other, ...], ...]`: every value `other` reaches equals the anchor's.
- `x-zomgen-equal-length: [[anchor, other, ...], ...]`: every list `other` reaches has as many
  items as the anchor's list (OME: each level's `shape`, each `scale`, and `len(axes)`); an
  other `{"path": path, "plus": n}` has n items fewer (an affine row: its input axes, plus one).
- `x-zomgen-count-equal: [[anchor, other, ...], ...]`: `other` reaches as many values as the
  integer at the anchor says.
- `x-zomgen-reaches: [[anchor, other, ...], ...]`: `other` reaches a value, for every value of
  the anchor (OME plates: the row a well's `rowIndex` indexes exists).
- `x-zomgen-in: [[anchor, other, ...], ...]`: every value of the anchor is one of the values
  `other` reaches, if it reaches any (OME: a field's acquisition is one the plate lists); an
  other `{"values": [...]}` lists them (OME: a label image's levels have an integer data type,
  which the member its `path` names says, so no JSON Schema `enum` can stand there).
- `x-zomgen-unique-by: {list pointer: key pointer}`: no two items of a list share a key (OME:
  axis names).
- `x-zomgen-index-of: [[anchor, other, ...], ...]`: every number the anchor reaches is an index
  of the list `other` reaches, if it reaches one (OME-Zarr 0.6: a byDimension child's
  `inputAxes` name axes of the input coordinate system).
- `x-zomgen-partition: [[anchor, other, ...], ...]`: the anchor reaches a list of lists of
  indices (as `[*]` collects one from each item); together they hold every index of the list
  `other` reaches exactly once, and nothing else (OME-Zarr 0.6: "Every axis index in the parent
  byDimension's `output` coordinate system MUST appear in exactly one child transformation's
  `outputAxes` array"). An empty list of lists is not judged.

Where a path reaches: paths.py. Like the other check keywords (checks.py), each function here
compiles a keyword's value into a check.

Longer than 400 lines because each relation keyword is one comparison function beside the
`_relation` frame they share: a keyword is added here as a function and a line of the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .paths import (
    Choice,
    Path,
    Reached,
    bound_to,
    canonical,
    describe,
    evaluate,
    node_prefix,
    parse_path,
    same,
    segment_value,
    short,
)
from .pointers import WILDCARD, to_pointer
from .values import is_array, is_object
from .violations import Check, Violation, malformed, n_dims, n_items

EQUAL = "x-zomgen-equal"
EQUAL_LENGTH = "x-zomgen-equal-length"
COUNT_EQUAL = "x-zomgen-count-equal"
REACHES = "x-zomgen-reaches"
IN = "x-zomgen-in"
UNIQUE_BY = "x-zomgen-unique-by"
INDEX_OF = "x-zomgen-index-of"
PARTITION = "x-zomgen-partition"


@dataclass(frozen=True)
class Join:
    """`{"join": [path, ...], "with": separator}`: the strings (or integers) the paths reach,
    joined; one value per path, else nothing."""

    parts: tuple[Path, ...]
    separator: str


@dataclass(frozen=True)
class Plus:
    """`{"path": path, "plus": n}` (equal-length only): a list whose length plus n is the
    anchor's (OME-Zarr 0.6: an affine row has one item more than its input system has axes)."""

    path: Path
    plus: int


@dataclass(frozen=True)
class Listed:
    """`{"values": [value, ...]}` (in only): the values themselves, not reached by a path."""

    values: tuple[Any, ...]


Operand = Path | Join | Plus | Listed


def _listed(value: dict[str, Any]) -> Listed | None:
    values = value.get("values")
    if set(value) != {"values"} or not is_array(values) or not values:
        return None
    return Listed(tuple(values))


def _plus(value: dict[str, Any]) -> Plus | None:
    path, plus = value.get("path"), _integer(value.get("plus"))  # 1.0 is 1, as in JavaScript
    if set(value) != {"path", "plus"} or not isinstance(path, str) or plus is None:
        return None
    parsed = parse_path(path)
    return None if parsed is None else Plus(parsed, plus)


def parse_operand(value: Any, keyword: str) -> Operand | None:
    """A rule's other operand, as `keyword` allows it; None if malformed."""
    if isinstance(value, str):
        return parse_path(value)
    if keyword == EQUAL_LENGTH and is_object(value):
        return _plus(value)
    if keyword == IN and is_object(value):
        return _listed(value)
    if keyword != EQUAL or not is_object(value) or set(value) - {"join", "with"}:
        return None
    parts, separator = value.get("join"), value.get("with", "")
    if not is_array(parts) or not parts or not isinstance(separator, str):
        return None
    parsed = [parse_path(p) if isinstance(p, str) else None for p in parts]
    if any(p is None for p in parsed):
        return None
    return Join(tuple(p for p in parsed if p is not None), separator)


def bind_operand(anchor: Path, operand: Operand) -> Operand:
    """The operand with its paths bound to the anchor's `*`s."""
    if isinstance(operand, Path):
        return bound_to(anchor, operand)
    if isinstance(operand, Listed):
        return operand
    if isinstance(operand, Plus):
        return Plus(bound_to(anchor, operand.path), operand.plus)
    return Join(tuple(bound_to(anchor, p) for p in operand.parts), operand.separator)


def _rule_list(value: Any, keyword: str) -> list[tuple[Path, list[Operand]]] | None:
    """`[[anchor, other, ...], ...]` -> parsed, the others bound to their anchor."""
    if not is_array(value):
        return None
    rules: list[tuple[Path, list[Operand]]] = []
    for rule in value:
        if not is_array(rule) or len(rule) < 2 or not isinstance(rule[0], str):
            return None
        anchor = parse_path(rule[0])
        others = [parse_operand(o, keyword) for o in rule[1:]]
        if anchor is None or any(o is None for o in others):
            return None
        rules.append((anchor, [bind_operand(anchor, o) for o in others if o is not None]))
    return rules


def reach(root: Any, operand: Operand, choices: Mapping[int, Choice]) -> list[Reached]:
    """What an operand reaches; a join reaches one value without a location, or nothing."""
    if isinstance(operand, Path):
        return evaluate(root, operand, choices)
    if isinstance(operand, Plus):
        return evaluate(root, operand.path, choices)
    if isinstance(operand, Listed):
        return [Reached((), operand, {})]
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
    EQUAL_LENGTH: "[[anchor path, path or {path, plus}, ...], ...]",
    COUNT_EQUAL: "[[anchor path, path, ...], ...]",
    REACHES: "[[anchor path, path, ...], ...]",
    IN: "[[anchor path, path or {values}, ...], ...]",
    INDEX_OF: "[[anchor path, path, ...], ...]",
    PARTITION: "[[anchor path, path, ...], ...]",
}

# (anchor's value, other's value, whether the problem stands at the other's, its `plus`)
Compare = Callable[[Reached, Reached, bool, int], str | None]


def _relation(keyword: str, compare: Compare) -> Callable[[Any], Check]:
    """A relation keyword: for every value the anchor reaches, each other operand (its shared
    `*`s bound) is compared with it; a problem stands at the other operand's value (at the
    anchor's, for a join or a count, which have no place of their own)."""

    def compile_relation(value: Any) -> Check:
        rules = _rule_list(value, keyword)

        def check(instance: Any) -> list[Violation]:
            if not is_object(instance):
                return []
            if rules is None:
                return [malformed(keyword, f"expected {_SHAPES[keyword]}")]
            found: list[Violation] = []
            for index, (anchor, others) in enumerate(rules):
                for a in evaluate(instance, anchor, {}):
                    for other in others:
                        placed = not isinstance(other, Join) and keyword not in _AT_ANCHOR
                        plus = other.plus if isinstance(other, Plus) else 0
                        if keyword in _WHOLE and isinstance(other, Path):
                            # compared as a whole: how many values, or which, and where
                            # (a node above this document may be there: only `reaches`
                            # is told of it, and holds)
                            values = evaluate(
                                instance, other, a.choices, outside=keyword == REACHES
                            )
                            empty = None
                            if keyword == IN and not values:
                                empty = _present_and_empty(instance, other, a.choices)
                            reached = [Reached((), _Whole(other.text, values, empty), {})]
                        else:
                            reached = reach(instance, other, a.choices)
                        for o in reached:
                            message = compare(a, o, placed, plus)
                            if message is not None:
                                where = o.location if placed else a.location
                                found.append(Violation(where, message + _joined(other), index))
            return found

        return check

    return compile_relation


def _joined(other: Operand) -> str:
    """What a join was made of, after its problem's message: the paths name the keys involved
    (an OME well path against its `rowIndex` and `columnIndex`)."""
    if not isinstance(other, Join):
        return ""
    return f", the join of {' and '.join(p.text for p in other.parts)} with {other.separator!r}"


def _equal(a: Reached, o: Reached, placed: bool, plus: int) -> str | None:
    if same(a.value, o.value):
        return None
    if placed:
        return (
            f"{short(o.value)} does not equal {describe(a.location, o.location)} ({short(a.value)})"
        )
    return f"{short(a.value)} does not equal {short(o.value)}"


def _equal_length(a: Reached, o: Reached, placed: bool, plus: int) -> str | None:
    if not is_array(a.value) or not is_array(o.value) or len(a.value) == len(o.value) + plus:
        return None
    other = describe(a.location, o.location)
    if plus:
        return (
            f"has {n_items(len(o.value))}, so {other} must have {n_items(len(o.value) + plus)}, "
            f"but has {len(a.value)}"
        )
    if o.location and o.location[-1] == "shape":
        return (
            f"the array has {n_dims(len(o.value))} (shape {o.value}), but {other} has "
            f"{n_items(len(a.value))}"
        )
    return f"has {n_items(len(o.value))}, but {other} has {n_items(len(a.value))}"


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
    """Everything an other path reaches for one anchor value (count-equal, reaches, in); where
    it reaches nothing because the list its first free `*` ranges over is there but empty,
    that list (`x-zomgen-in`: nothing is one of an empty list)."""

    text: str
    values: list[Reached]
    empty: Reached | None = None


def _present_and_empty(root: Any, path: Path, choices: Mapping[int, Choice]) -> Reached | None:
    """The empty list or object that the first `*` of `path` not bound to the anchor ranges
    over, where the path up to it reaches one; None where it reaches none (absent)."""
    free = next(
        (i for i, token in enumerate(path.tokens) if token == WILDCARD and i not in path.links),
        None,
    )
    if free is None:
        return None
    links = {i: j for i, j in path.links.items() if i < free}
    for reached in evaluate(root, Path(path.text, path.tokens[:free], links), choices):
        if (is_array(reached.value) or is_object(reached.value)) and not reached.value:
            return reached
    return None


_WHOLE = (COUNT_EQUAL, REACHES, IN)
# Their problems stand at the anchor's value: the others' values have no place of their own
# (a whole), or are right where the anchor is wrong (the list an index is out of).
_AT_ANCHOR = (*_WHOLE, INDEX_OF, PARTITION)


def _count_equal(a: Reached, o: Reached, placed: bool, plus: int) -> str | None:
    expected = _integer(a.value)
    if expected is None or not isinstance(o.value, _Whole):
        return None
    count = len(o.value.values)
    if expected == count:
        return None
    return f"is {expected}, but {n_items(count)} {'is' if count == 1 else 'are'} there"


def _reaches(a: Reached, o: Reached, placed: bool, plus: int) -> str | None:
    if not isinstance(o.value, _Whole) or o.value.values:
        return None
    return f"{short(a.value)}: {o.value.text} reaches nothing"


def _in(a: Reached, o: Reached, placed: bool, plus: int) -> str | None:
    if isinstance(o.value, Listed):
        if any(same(a.value, v) for v in o.value.values):
            return None
        return f"{short(a.value)} is not one of {short(list(o.value.values))}"
    if isinstance(o.value, _Whole) and o.value.empty is not None:
        where = describe(o.value.empty.location, a.location)
        return f"{short(a.value)} is not one of [], the values of {o.value.text}: {where} is empty"
    if not isinstance(o.value, _Whole) or not o.value.values:
        return None
    values = [v.value for v in o.value.values]
    if any(same(a.value, v) for v in values):
        return None
    first = o.value.values[0].location
    pointer = to_pointer(first[len(node_prefix(first)) :]) or "the document"
    whose = describe(first, a.location)[len(pointer) :]
    return f"{short(a.value)} is not one of {short(values)}, the values of {o.value.text}{whose}"


def _not_an_index(value: Any, length: int) -> bool:
    """Whether a number is no index of a list of `length` items (1.0 is 1, as in JavaScript;
    a value of another type is left to the schema)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    index = _integer(value)
    return index is None or not 0 <= index < length


def _index_of(a: Reached, o: Reached, placed: bool, plus: int) -> str | None:
    if not is_array(o.value) or not _not_an_index(a.value, len(o.value)):
        return None
    other = describe(o.location, a.location)
    return f"{short(a.value)} is not an index of {other} ({n_items(len(o.value))})"


def _partition(a: Reached, o: Reached, placed: bool, plus: int) -> str | None:
    if not is_array(a.value) or not a.value or not is_array(o.value):
        return None
    length = len(o.value)
    holders: dict[int, list[int]] = {}  # index -> the items holding it, once per time
    faults: list[str] = []
    for item, indices in enumerate(a.value):
        for value in indices if is_array(indices) else []:
            if _not_an_index(value, length):
                faults.append(f"item {item} holds {short(value)}, which is not an index")
            elif isinstance(value, int | float) and not isinstance(value, bool):
                holders.setdefault(int(value), []).append(item)
    for index in sorted(holders):
        items = holders[index]
        if len(items) > 1:
            held_by = ", ".join(str(i) for i in items)
            faults.append(f"{index} is held {len(items)} times (by items {held_by})")
    missing = [str(i) for i in range(length) if i not in holders]
    if missing:
        faults.append(
            f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} held by no item"
        )
    if not faults:
        return None
    other = describe(o.location, a.location)
    return f"must hold each index of {other} ({n_items(length)}) exactly once: {'; '.join(faults)}"


equal = _relation(EQUAL, _equal)
equal_length = _relation(EQUAL_LENGTH, _equal_length)
count_equal = _relation(COUNT_EQUAL, _count_equal)
reaches = _relation(REACHES, _reaches)
in_ = _relation(IN, _in)
index_of = _relation(INDEX_OF, _index_of)
partition = _relation(PARTITION, _partition)


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
            return [malformed(UNIQUE_BY, "expected {list path: key path}")]
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
