"""JSON pointers (RFC 6901): node paths inside a ZOM tree, and the wildcard paths of the
zomgen check keywords.

A ZOM document nests nodes as `members/<name>/members/<name>/...`. A pointer into the whole tree
is split into the node it lands in (`/labels/cells/0`) and the pointer inside that node's own
document (`/attributes/units`), which is how problems are reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any
from urllib.parse import unquote

from .values import is_array, is_object

WILDCARD = "*"


def escape(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def to_pointer(segments: Iterable[str | int]) -> str:
    return "".join("/" + escape(s) for s in segments)


def parse_pointer(pointer: str) -> list[str]:
    """`/a/b~1c` -> ["a", "b/c"]; "" -> []. A pointer that does not start with `/` is read as
    if it did, so a hand-written `attributes/x` in a schema still means what it says."""
    if pointer == "":
        return []
    return [unescape(t) for t in pointer.removeprefix("/").split("/")]


def node_path(names: Sequence[str]) -> str:
    """Member names from the root -> the node path used in problems ("/" for the root)."""
    return "/" + "/".join(names)


def join_node_path(parent: str, name: str) -> str:
    return parent + name if parent.endswith("/") else f"{parent}/{name}"


def split_node_pointer(segments: Sequence[str | int]) -> tuple[str, str]:
    """Absolute segments in a ZOM tree -> (node path, pointer inside that node's document).

    While the next segment is `members` and one more follows, that one is a child's name:
    `members/labels/members/cells/attributes/x` -> ("/labels/cells", "/attributes/x"). A pointer
    that stops at `members` stays in the parent (the members object itself failed).
    """
    names: list[str] = []
    i = 0
    while i + 1 < len(segments) and segments[i] == "members":
        names.append(str(segments[i + 1]))
        i += 2
    return node_path(names), to_pointer(segments[i:])


def match(document: Any, pattern: Sequence[str]) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Every (concrete path, value) that `pattern` reaches in `document`; a `*` segment stands
    for every item of a list or every value of an object. Absent targets yield nothing: the
    schema's own keywords (`required`, `type`) report those."""
    if WILDCARD not in pattern:  # the common case: a plain pointer, at most one value
        value = document
        steps: list[str | int] = []
        for token in pattern:
            if is_object(value) and token in value:
                value = value[token]
                steps.append(token)
            elif is_array(value) and _is_index(token) and int(token) < len(value):
                value = value[int(token)]
                steps.append(int(token))
            else:
                return
        yield tuple(steps), value
        return
    # Iterative (a stack of partial matches), so a deep document cannot exhaust the C stack.
    stack: list[tuple[tuple[str | int, ...], Any, int]] = [((), document, 0)]
    found: list[tuple[tuple[str | int, ...], Any]] = []
    while stack:
        path, value, depth = stack.pop()
        if depth == len(pattern):
            found.append((path, value))
            continue
        token = pattern[depth]
        if is_object(value):
            if token == WILDCARD:
                for key in reversed(list(value)):
                    stack.append(((*path, key), value[key], depth + 1))
            elif token in value:
                stack.append(((*path, token), value[token], depth + 1))
        elif is_array(value):
            if token == WILDCARD:
                for index in reversed(range(len(value))):
                    stack.append(((*path, index), value[index], depth + 1))
            elif _is_index(token):
                index = int(token)
                if index < len(value):
                    stack.append(((*path, index), value[index], depth + 1))
    # Children are pushed in reverse, so matches come out in document order.
    yield from found


def _is_index(token: str) -> bool:
    """RFC 6901 array index: digits without a leading zero."""
    return token.isdigit() and (token == "0" or not token.startswith("0"))


def resolve_local_ref(root: Any, ref: str) -> Any:
    """A local reference (`#`, `#/$defs/X`) -> its target in `root`; anything else -> None
    (the bundled schema a package ships holds only local references)."""
    if not ref.startswith("#"):
        return None
    node = root
    for token in parse_pointer(unquote(ref[1:])):
        if is_object(node) and token in node:
            node = node[token]
        elif is_array(node) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node
