"""The differences between two hierarchies' ZOM documents, each at its node path and the JSON
pointer inside that node's document.

Members are matched by name, at every level: a member on one side only is one difference, the
whole node `added` or `removed` (pointer ""), not one per key inside it. Inside a node's document
(`attributes`, `shape`, `codecs`, ...) objects are matched by key and lists by position; a list
that grew or shrank has its extra items `added` or `removed` at their indexes. Values are
compared as JSON (`paths.same`): 1 and 1.0 are equal, as a JSON reader sees them, true and 1 are
not, and a key set to null differs from a key left out.

`include` and `exclude` say which places of each node's document are compared. A pattern is
either a key name (`history`, `_NC*`), which matches that key at any depth, or a pointer
(`/attributes/history`, `/chunk_grid`, `/attributes/*/units`), matched from the top of every
node's document; `*` in a name or segment stands for any characters. Below an excluded place
nothing is compared; with `include`, only the places at or below an included one are. Whether a
node is there at all is not a place inside a document, so members added or removed are always
reported.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any, Literal

from .paths import kind_of, same
from .pointers import join_node_path, to_pointer
from .problems import Problem
from .values import is_array, is_object

Kind = Literal["added", "removed", "changed"]
ADDED: Kind = "added"
REMOVED: Kind = "removed"
CHANGED: Kind = "changed"


class _Absent:
    """The side of a difference where the place is not there (distinct from JSON null)."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()


@dataclass(frozen=True)
class Difference:
    """One place where the two hierarchies differ. `node`: the node path ("/" the root);
    `pointer`: inside that node's document ("" for the whole node, added or removed);
    `before` / `after`: the value on each side, `ABSENT` on the side that lacks it."""

    kind: Kind
    node: str
    pointer: str
    before: Any = ABSENT
    after: Any = ABSENT

    def __str__(self) -> str:
        side = self.after if self.kind == ADDED else self.before
        if self.kind == CHANGED:
            text = f"changed from {short(self.before)} to {short(self.after)}"
        elif self.pointer == "":
            text = f"{self.kind} {_node_kind(side)}"
        else:
            text = f"{self.kind} {short(side)}"
        # (as a problem reads: node, pointer, and control characters escaped to keep one line)
        return str(Problem(self.node, self.pointer, text))

    def to_json(self) -> dict[str, Any]:
        """`kind`, `node`, `pointer`, and `before` / `after` where that side has the place."""
        found: dict[str, Any] = {"kind": self.kind, "node": self.node, "pointer": self.pointer}
        if self.before is not ABSENT:
            found["before"] = self.before
        if self.after is not ABSENT:
            found["after"] = self.after
        return found


def short(value: Any) -> str:
    """A value as JSON, cut to 80 characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


def _node_kind(document: Any) -> str:
    return kind_of(document) or "node"


@dataclass(frozen=True)
class _Pattern:
    """One include or exclude pattern: a key name anywhere, or segments from the top."""

    segments: tuple[str, ...]
    anywhere: bool

    def matches(self, place: Sequence[str]) -> bool:
        """Whether `place` (the segments of a pointer in a node's document) is this pattern's."""
        if self.anywhere:
            return bool(place) and fnmatchcase(place[-1], self.segments[0])
        return len(place) == len(self.segments) and all(
            fnmatchcase(s, p) for s, p in zip(place, self.segments, strict=True)
        )

    def may_lead_to(self, place: Sequence[str]) -> bool:
        """Whether a place below `place` may match: `place` is on the way to this pattern."""
        if self.anywhere:
            return True
        return len(place) < len(self.segments) and all(
            fnmatchcase(s, p) for s, p in zip(place, self.segments, strict=False)
        )


def place_pattern(text: str) -> _Pattern:
    """An include or exclude pattern; raises ValueError, naming it, when it is empty."""
    if text.startswith("/"):
        segments = tuple(s.replace("~1", "/").replace("~0", "~") for s in text[1:].split("/"))
        if any(s == "" for s in segments):
            raise ValueError(f"{text!r}: a pointer pattern has an empty segment")
        return _Pattern(segments, anywhere=False)
    if not text or "/" in text:
        raise ValueError(f"{text!r}: a pattern is a key name or a pointer starting with '/'")
    return _Pattern((text,), anywhere=True)


class _Places:
    """Which places of a node's document are compared, by `include` and `exclude`."""

    def __init__(self, include: Sequence[str], exclude: Sequence[str]) -> None:
        self.include = [place_pattern(p) for p in include]
        self.exclude = [place_pattern(p) for p in exclude]

    def state(self, place: Sequence[str], inside: bool) -> tuple[bool, bool] | None:
        """For `place` (below a place whose state gave `inside`): None to skip it, else whether
        it is compared in whole (inside an included place) and whether it is reported."""
        if any(p.matches(place) for p in self.exclude):
            return None
        if inside or not self.include or any(p.matches(place) for p in self.include):
            return (True, True)
        if any(p.may_lead_to(place) for p in self.include):
            return (False, False)
        return None


def diff(
    before: Any, after: Any, *, include: Sequence[str] = (), exclude: Sequence[str] = ()
) -> list[Difference]:
    """Every difference between two ZOM documents (`before`, `after`), in document order: the
    root's own keys, then its members by name (the names of `before` first, then those only
    `after` has), each member's keys and then its members. Raises ValueError for a malformed
    pattern (module docstring)."""
    return list(_differences(before, after, _Places(include, exclude)))


def like(
    before: Any, after: Any, *, include: Sequence[str] = (), exclude: Sequence[str] = ()
) -> bool:
    """Whether the two documents have no difference (`diff` is empty); stops at the first."""
    return next(_differences(before, after, _Places(include, exclude)), None) is None


@dataclass(frozen=True)
class _Node:
    """Two nodes to compare, at a node path."""

    before: Any
    after: Any
    path: str


@dataclass(frozen=True)
class _Value:
    """Two values to compare at `place` in the documents of the nodes at `node`; `inside`: below
    an included place."""

    before: Any
    after: Any
    node: str
    place: tuple[str, ...]
    inside: bool


def _differences(before: Any, after: Any, places: _Places) -> Iterator[Difference]:
    """The differences, depth first in document order, from a stack of what is left to compare
    rather than by recursion: a document may be as deep as a JSON reader allows."""
    stack: list[_Node | _Value | Difference] = [_Node(before, after, "/")]
    while stack:
        item = stack.pop()
        if isinstance(item, Difference):  # a member on one side only
            yield item
            continue
        if isinstance(item, _Node):
            stack.extend(reversed(_node_parts(item)))
            continue
        state = places.state(item.place, item.inside)
        if state is None:
            continue
        inside, reported = state
        b, a = item.before, item.after
        pointer = to_pointer(item.place)
        if reported and (b is ABSENT or a is ABSENT):
            kind = ADDED if b is ABSENT else REMOVED
            yield Difference(kind, item.node, pointer, before=b, after=a)
        # (on the way to an included place, each side's items are walked whatever the other
        # holds)
        elif not reported or is_object(b) and is_object(a) or is_array(b) and is_array(a):
            pairs = _paired(_items(b), _items(a))
            stack.extend(
                _Value(bv, av, item.node, (*item.place, key), inside)
                for key, bv, av in reversed(pairs)
            )
        elif not same(b, a):
            yield Difference(CHANGED, item.node, pointer, before=b, after=a)


def _node_parts(node: _Node) -> list[_Node | _Value | Difference]:
    """What comparing two nodes comes to: their own keys, then their members by name."""
    before = node.before if is_object(node.before) else {}
    after = node.after if is_object(node.after) else {}
    own = {k: v for k, v in before.items() if k != "members"}
    parts: list[_Node | _Value | Difference] = [
        _Value(b, a, node.path, (key,), False)
        for key, b, a in _paired(own, {k: v for k, v in after.items() if k != "members"})
    ]
    for name, b, a in _paired(_members(before), _members(after)):
        here = join_node_path(node.path, name)
        if a is ABSENT:
            parts.append(Difference(REMOVED, here, "", before=b))
        elif b is ABSENT:
            parts.append(Difference(ADDED, here, "", after=a))
        else:
            parts.append(_Node(b, a, here))
    return parts


def _members(document: dict[str, Any]) -> dict[str, Any]:
    members = document.get("members")
    return members if is_object(members) else {}


def _paired(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """(key, before's value, after's value) for the keys of `before`, then those only `after`
    has; `ABSENT` on the side without the key."""
    pairs = [(k, v, after.get(k, ABSENT)) for k, v in before.items()]
    pairs += [(k, ABSENT, v) for k, v in after.items() if k not in before]
    return pairs


def _items(value: Any) -> dict[str, Any]:
    """An object's items, or a list's by index (as pointer segments); nothing for a scalar."""
    if is_object(value):
        return dict(value)
    if is_array(value):
        return {str(i): item for i, item in enumerate(value)}
    return {}
