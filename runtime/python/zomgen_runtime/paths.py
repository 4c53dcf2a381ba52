"""Paths over a node's document, for the check keywords (checks.py): where a path reaches.

A path is a JSON pointer relative to the node's document whose segments may also be: `*` every
item of a list (or value of an object), `**` the value reached so far and every value below it,
`[node]` the path of the node holding the value reached so far (`A/labels/x`; empty for the
checked node), `[last]` the last item of a list, `[*]` the list of what the rest of the path reaches in every item (one value per
item, else nothing), `->` the member node the string reached so far names (relative to the node
holding the string: `s0`, `A/1`, `../../`), `{path}` the string or integer that path reaches,
used as a segment, `[key={path}]` the items of a list (or values of an object) whose `key`
equals the one value that path reaches (a coordinate system looked up by its name), `[!key]`
the value reached so far if it is an object without `key` (or with `key` null: an OME-Zarr 0.6
reference to a coordinate system of the same document), and `[words]` the blank-separated
words of a string.
zomgen's documentation of the check keywords is the full reference.

Longer than 400 lines because the path language is one grammar: its tokens (`Indirect`,
`Select`, `Without`), its parser and its evaluator (`_Evaluation`) change together whenever a
segment is added. relations.py and connected.py use only `parse_path`, `evaluate` and the
helpers at the end.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from .pointers import WILDCARD, to_pointer, unescape
from .values import is_array, is_object


def kind_of(node: Any) -> str | None:
    """The kind of a node's document, `array` or `group` (by `node_type`, else by its keys), or
    None."""
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


FOLLOW = "->"
COLLECT = "[*]"
DESCEND = "**"
WORDS = "[words]"  # the whitespace-separated words of a string (CF `coordinates`)
NODE = "[node]"  # the path of the node holding the value reached so far (`A/labels/x`)
LAST = "[last]"  # the last item of a list (a sequence's last step)
_ASCII_SPACE = re.compile("[ \t\n\r\f\v]+")  # as JavaScript's, whatever Unicode says

Location = tuple[str | int, ...]
# What a `*` took (a key or an index), or a `**` (the keys from where it stood to the value)
Choice = str | int | Location


class _Outside:
    """What a `->` reaches when its `..`s climb above the node whose document is evaluated:
    a node this evaluation cannot see, so neither there nor missing."""

    def __repr__(self) -> str:
        return "OUTSIDE"


OUTSIDE = _Outside()


@dataclass(frozen=True)
class Indirect:
    """A `{path}` segment: the value `path` reaches, used as a segment."""

    text: str
    path: Path


@dataclass(frozen=True)
class Select:
    """A `[key={path}]` segment: the items whose `key` equals the one value `path` reaches."""

    text: str
    key: str
    path: Path


@dataclass(frozen=True)
class Without:
    """A `[!key]` segment: the value reached so far, if it is an object without `key` (or with
    `key` null); else nothing."""

    text: str
    key: str


Token = str | Indirect | Select | Without
# `[key={` opening a selection: the key is one name, without `/`, `=`, `]` or braces
_SELECT = re.compile(r"\[([^/=\]{}]*)=\{")
# `[!key]`, the same kind of key
_WITHOUT = re.compile(r"\[!([^/=\]{}]*)\]")


# What a token is, computed once per path (evaluation dispatches on it for every step)
# (a key and a `{path}` first: `kind <= _INDIRECT` is a segment that names one key or index)
_KEY, _INDIRECT, _WILDCARD, _COLLECT, _WORDS, _FOLLOW, _SELECTION, _FILTER = range(8)
_DESCEND, _NODE, _LAST = range(8, 11)
_KINDS = {
    WILDCARD: _WILDCARD,
    COLLECT: _COLLECT,
    WORDS: _WORDS,
    FOLLOW: _FOLLOW,
    DESCEND: _DESCEND,
    NODE: _NODE,
    LAST: _LAST,
}


@dataclass(frozen=True)
class Path:
    """A parsed path; `links`: own `*` (or `**`) index -> the anchor's index it is bound to."""

    text: str
    tokens: tuple[Token, ...]
    links: Mapping[int, int] = field(default_factory=dict[int, int])
    kinds: tuple[int, ...] = field(init=False, compare=False, repr=False)
    # token index of a `{path}` or `[key={path}]` -> its path's `*`s in the prefix it shares
    # with this path (inner index -> own index): they take the item this path took there
    inner_links: Mapping[int, Mapping[int, int]] = field(init=False, compare=False, repr=False)
    # token index of a `[*]` -> the path after it (made once, not for every list collected)
    rests: dict[int, Path] = field(
        init=False, compare=False, repr=False, default_factory=dict[int, "Path"]
    )

    def __post_init__(self) -> None:
        inner: dict[int, Mapping[int, int]] = {}
        for k, token in enumerate(self.tokens):
            if isinstance(token, Indirect | Select):
                inner[k] = _shared_wildcards(self.tokens[:k], token.path.tokens)
        object.__setattr__(self, "inner_links", inner)
        kinds = tuple(
            _INDIRECT
            if isinstance(t, Indirect)
            else _SELECTION
            if isinstance(t, Select)
            else _FILTER
            if isinstance(t, Without)
            else _KINDS.get(t, _KEY)
            for t in self.tokens
        )
        object.__setattr__(self, "kinds", kinds)

    def rest(self, i: int) -> Path:
        """The path after token `i`."""
        after = self.rests.get(i)
        if after is None:
            after = self.rests[i] = Path(self.text, self.tokens[i + 1 :])
        return after


def _shared_wildcards(outer: tuple[Token, ...], inner: tuple[Token, ...]) -> dict[int, int]:
    """The `*`s and `**`s of `inner` in the prefix it shares with `outer` (index -> the same
    index)."""
    links: dict[int, int] = {}
    for i, (mine, theirs) in enumerate(zip(inner, outer, strict=False)):
        if mine != theirs or mine == COLLECT:
            break
        if mine in (WILDCARD, DESCEND):
            links[i] = i
    return links


class Reached(NamedTuple):
    """A place a path reaches. (A named tuple: relations make tens of thousands per store.)"""

    location: Location
    value: Any
    choices: Mapping[int, Choice]  # `*` (`**`) index -> the key or index (the keys) it took


def _segments(body: str) -> list[str] | None:
    """Split at `/`, keeping a `{...}` or `[key={...}]` segment whole (braces nest); None if
    unbalanced, or if such a segment runs on past its closing bracket."""
    out: list[str] = []
    i, n = 0, len(body)
    while True:
        selection = _SELECT.match(body, i) if i < n and body[i] == "[" else None
        if selection is not None or (i < n and body[i] == "{"):
            # the `}` that closes the path inside, then `]` for a selection
            close = _closing_brace(body, selection.end() - 1 if selection else i)
            if close is None:
                return None
            j = close + 1
            if selection is not None:
                if body[j : j + 1] != "]":
                    return None
                j += 1
            if j < n and body[j] != "/":
                return None
        else:
            j = body.find("/", i)
            j = n if j < 0 else j
        out.append(body[i:j])
        i = j
        if i >= n:
            return out
        i += 1


def _closing_brace(body: str, start: int) -> int | None:
    """The index of the `}` that closes the `{` at `start`, or None."""
    depth = 0
    for j in range(start, len(body)):
        if body[j] == "{":
            depth += 1
        elif body[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return None


def parse_path(text: str) -> Path | None:
    """A relation path -> its tokens; None if malformed (an unbalanced `{`)."""
    if text == "":
        return Path(text, ())
    segments = _segments(text.removeprefix("/"))
    if segments is None:
        return None
    tokens: list[Token] = []
    for segment in segments:
        selection = _SELECT.match(segment)
        if selection is not None:
            inner = parse_path(segment[selection.end() : -2])
            if inner is None:
                return None
            tokens.append(Select(segment, unescape(selection.group(1)), inner))
        elif segment.startswith("{") and segment.endswith("}"):
            inner = parse_path(segment[1:-1])
            if inner is None:
                return None
            tokens.append(Indirect(segment, inner))
        elif (without := _WITHOUT.fullmatch(segment)) is not None:
            tokens.append(Without(segment, unescape(without.group(1))))
        else:
            tokens.append(unescape(segment))
    return Path(text, tuple(tokens))


def bound_to(anchor: Path, path: Path) -> Path:
    """`path` with its `*`s in the prefix it shares with the anchor bound to the anchor's: two
    paths that agree up to a `*` mean the same item there. The paths inside `{path}` and
    `[key={path}]` segments are bound too."""
    links = _shared_wildcards(anchor.tokens, path.tokens)
    tokens = tuple(
        Indirect(t.text, bound_to(anchor, t.path))
        if isinstance(t, Indirect)
        else Select(t.text, t.key, bound_to(anchor, t.path))
        if isinstance(t, Select)
        else t
        for t in path.tokens
    )
    return Path(path.text, tokens, links)


def node_prefix(location: Location) -> Location:
    """The location of the node holding `location`: its leading `members/<name>` pairs."""
    i = 0
    while i + 1 < len(location) and location[i] == "members":
        i += 2
    return location[:i]


def holder_of(root: Any, location: Location) -> Location:
    """The node whose members a string at `location` names: the node holding it, or, when
    that is an array (which has no members), the group holding the array: its siblings."""
    prefix = node_prefix(location)
    if prefix and kind_of(value_at(root, prefix)) == "array":
        return prefix[:-2]
    return prefix


def value_at(root: Any, location: Location) -> Any:
    value = root
    for step in location:
        value = value[step]
    return value


def segment_value(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return None


def _is_index(token: str) -> bool:
    return token.isdigit() and (token == "0" or not token.startswith("0"))


def evaluate(
    root: Any,
    path: Path,
    choices: Mapping[int, Choice],
    start: tuple[Location, Any] | None = None,
    taken: Mapping[int, Choice] | None = None,
    outside: bool = False,
) -> list[Reached]:
    """Every (location, value) `path` reaches from `start` (the node's document when empty),
    in document order; `choices` are the anchor's, for the bound `*`s; `taken`, for a path
    inside a segment, the items its outer path's `*`s took (index -> key). With `outside`, a
    `->` that climbs above the document reaches `OUTSIDE` (at the string), else nothing."""
    evaluation = _Evaluation(root, path, choices, outside)
    if taken:
        evaluation.bound.update(taken)
    location, value = start if start is not None else ((), root)
    evaluation.step(0, location, value, {})
    return evaluation.found


_UNBOUND = object()


class _Evaluation:
    """One evaluation of a path. `step` follows the tokens from one place, going on (depth
    first, so in document order) from each place a `*`, `->`, `[words]` or `{path}` leads to;
    the places the last token reaches are collected in `found`."""

    def __init__(
        self, root: Any, path: Path, choices: Mapping[int, Choice], outside: bool = False
    ) -> None:
        self.root = root
        self.outside = outside
        self.path = path
        self.tokens = path.tokens
        self.kinds = path.kinds
        self.choices = choices
        links = path.links
        self.bound = {i: choices[j] for i, j in links.items() if j in choices} if links else {}
        self.found: list[Reached] = []

    def step(self, i: int, location: Location, value: Any, taken: dict[int, Choice]) -> None:
        tokens, kinds, end = self.tokens, self.kinds, len(self.tokens)
        # A run of keys and indexes is followed here, without a call per token: most tokens
        # are (the relations over a 4,000-node plate take 155,000 steps).
        while i < end and kinds[i] <= _INDIRECT:
            token = tokens[i]
            literal = token if isinstance(token, str) else self.indirect(i, taken)
            if literal is None:
                return
            if is_object(value):
                if literal not in value:
                    return
                value = value[literal]
                location = (*location, literal)
            elif is_array(value) and _is_index(literal) and int(literal) < len(value):
                value = value[int(literal)]
                location = (*location, int(literal))
            else:
                return
            i += 1
        if i == end:
            # `taken` is never changed once made (`*` makes a new one for each item)
            self.found.append(Reached(location, value, taken))
            return
        kind = kinds[i]
        if kind == _WILDCARD:
            self.wildcard(i, location, value, taken)
        elif kind == _COLLECT:
            self.collect(i, location, value, taken)
        elif kind == _WORDS:
            if isinstance(value, str):
                for word in _ASCII_SPACE.split(value):
                    if word:
                        self.step(i + 1, location, word, taken)
        elif kind == _SELECTION:
            self.select(i, location, value, taken)
        elif kind == _DESCEND:
            self.descend(i, location, value, taken)
        elif kind == _LAST:
            if is_array(value) and value:
                self.step(i + 1, (*location, len(value) - 1), value[-1], taken)
        elif kind == _NODE:
            # (at the same place: a problem about it stands where the path had arrived)
            names = node_prefix(location)[1::2]
            self.step(i + 1, location, "/".join(str(n) for n in names), taken)
        elif kind == _FILTER:
            token = tokens[i]
            assert isinstance(token, Without)
            if is_object(value) and value.get(token.key) is None:
                self.step(i + 1, location, value, taken)
        else:
            self.follow(i, location, value, taken)

    def inner(self, i: int, taken: dict[int, Choice]) -> list[Reached]:
        """What the path inside segment `i` (`{path}`, `[key={path}]`) reaches: its `*`s bound
        to the anchor's, and, where it shares a prefix with this path, to the items taken."""
        token = self.tokens[i]
        assert isinstance(token, Indirect | Select)
        links = self.path.inner_links.get(i, {})
        own = {j: taken[k] for j, k in links.items() if k in taken}
        return evaluate(self.root, token.path, self.choices, taken=own)

    def indirect(self, i: int, taken: dict[int, Choice]) -> str | None:
        """The segment a `{path}` token stands for: the one string or integer its path reaches."""
        reached = self.inner(i, taken)
        return segment_value(reached[0].value) if len(reached) == 1 else None

    def wildcard(self, i: int, location: Location, value: Any, taken: dict[int, Choice]) -> None:
        """`*`: every item of a list or value of an object (only the anchor's, if bound)."""
        children: Any
        bound: Any = self.bound.get(i, _UNBOUND)
        if is_object(value):
            if bound is _UNBOUND:
                children = value.items()
            else:  # the anchor's key, where this object has it
                children = [(bound, value[bound])] if bound in value else []
        elif is_array(value):
            if bound is _UNBOUND:
                children = enumerate(value)
            else:  # the anchor's index (an object's key never names a list's item)
                inside = type(bound) is int and 0 <= bound < len(value)
                children = [(bound, value[bound])] if inside else []
        else:
            return
        for key, child in children:
            self.step(i + 1, (*location, key), child, {**taken, i: key})

    def select(self, i: int, location: Location, value: Any, taken: dict[int, Choice]) -> None:
        """`[key={path}]`: each item (object) whose `key` equals the one value `path` reaches."""
        token = self.tokens[i]
        assert isinstance(token, Select)
        reached = self.inner(i, taken)
        if len(reached) != 1:
            return
        wanted = reached[0].value
        children: Any
        if is_object(value):
            children = value.items()
        elif is_array(value):
            children = enumerate(value)
        else:
            return
        for key, item in children:
            if is_object(item) and token.key in item and same(item[token.key], wanted):
                self.step(i + 1, (*location, key), item, taken)

    def collect(self, i: int, location: Location, value: Any, taken: dict[int, Choice]) -> None:
        """`[*]`: the list of what the rest of the path reaches in each item, one value each,
        else nothing."""
        if not is_array(value):
            return
        collected: list[Any] = []
        below = _Evaluation(self.root, self.path.rest(i), {})
        for index, item in enumerate(value):
            below.found = []
            below.step(0, (*location, index), item, {})
            if len(below.found) != 1:
                return
            collected.append(below.found[0].value)
        self.found.append(Reached(location, collected, dict(taken)))

    def descend(self, i: int, location: Location, value: Any, taken: dict[int, Choice]) -> None:
        """`**`: the value itself, then every value below it, depth first (document order);
        if bound, only the anchor's (the same keys below this place)."""
        bound: Any = self.bound.get(i, _UNBOUND)
        if bound is not _UNBOUND:
            for key in bound:
                value = _child(value, key)
                if value is _UNBOUND:
                    return
            self.step(i + 1, (*location, *bound), value, {**taken, i: bound})
            return
        # An explicit stack, so a deep document cannot exhaust the C stack
        stack: list[tuple[Location, Any]] = [((), value)]
        while stack:
            below, here = stack.pop()
            self.step(i + 1, (*location, *below), here, {**taken, i: below})
            children: Any = (
                here.items() if is_object(here) else enumerate(here) if is_array(here) else ()
            )
            stack.extend(reversed([((*below, key), child) for key, child in children]))

    def follow(self, i: int, location: Location, value: Any, taken: dict[int, Choice]) -> None:
        """`->`: the member node the string names, relative to the node holding the string;
        `..` climbs to the group above (the spec's default label source is `../../`)."""
        if not isinstance(value, str):
            return
        target = relative_node(self.root, holder_of(self.root, location), value)
        if target is OUTSIDE:
            if self.outside:
                self.found.append(Reached(location, OUTSIDE, taken))
        elif isinstance(target, tuple):
            self.step(i + 1, target, value_at(self.root, target), taken)


def _child(value: Any, key: str | int) -> Any:
    """The item `key` of a list or object, or `_UNBOUND`."""
    if is_object(value) and isinstance(key, str):
        return value.get(key, _UNBOUND)
    if is_array(value) and type(key) is int and 0 <= key < len(value):
        return value[key]
    return _UNBOUND


def relative_node(root: Any, holder: Location, relative: str) -> Location | _Outside | None:
    """The location of the node `relative` names from the node at `holder`: member names
    (`A/1`) and `..`s (a trailing `/` after a `..` allowed: `../../`); `OUTSIDE` if it climbs
    above `root`; None if it names no node."""
    names = relative.split("/")
    if len(names) > 1 and names[-1] == "" and names[-2] == "..":
        names.pop()
    target = list(holder)
    node = value_at(root, holder)
    for name in names:
        if name == "..":
            if not target:
                return OUTSIDE
            del target[-2:]
            node = value_at(root, tuple(target))
            continue
        members = node.get("members") if is_object(node) else None
        if not is_object(members) or name in ("", ".") or name not in members:
            return None
        node = members[name]
        target += ["members", name]
    return tuple(target)


def same(a: Any, b: Any) -> bool:
    """Whether two JSON values are equal as `canonical` writes them (1 and 1.0 alike, true and
    1 not), without writing them out: relations compare thousands of names and shapes."""
    # (the exact type: bool is an int to isinstance, and must not equal 1 here)
    kind_a = cast("type[object]", type(a))
    kind_b = cast("type[object]", type(b))
    if kind_a in _NUMBERS and kind_b in _NUMBERS:
        # NaN (json.loads reads it) equals NaN, as canonical writes both alike
        both_floats = kind_a is float and kind_b is float
        return bool(a == b) or (both_floats and math.isnan(a) and math.isnan(b))
    if kind_a is not kind_b:
        return False
    if kind_a is list:
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if kind_a is dict:
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if kind_a in (str, bool, type(None)):
        return bool(a == b)
    return canonical(a) == canonical(b)


_NUMBERS = (int, float)


def canonical(value: Any) -> str:
    """A text equal for equal JSON values (1 and 1.0 alike, true and 1 not)."""

    def normal(v: Any) -> Any:
        if isinstance(v, float) and v.is_integer():
            return int(v)
        if is_array(v):
            return [normal(x) for x in v]
        if is_object(v):
            return {k: normal(x) for k, x in v.items()}
        return v

    return json.dumps(normal(value), sort_keys=True)


def short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def describe(location: Location, here: Location) -> str:
    """`location` for a message read at `here` (the place of the problem): its pointer, plus
    which node holds it when that is not the problem's node."""
    node, rest = node_prefix(location), location[len(node_prefix(location)) :]
    pointer = to_pointer(rest) or "the document"
    if node == node_prefix(here):
        return pointer
    names = [str(n) for n in node[1::2]]
    below = [str(n) for n in node_prefix(here)[1::2]]
    if names == below[: len(names)]:
        up = len(below) - len(names)
        return f"{pointer} of the group {'above' if up == 1 else f'{up} levels above'}"
    return f"{pointer} of member {'/'.join(names)!r}"
