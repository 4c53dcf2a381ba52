"""A short string a regular expression matches: the value a refused `pattern` asks for.

The pattern is read with Python's own regular-expression parser (`re._parser`, the parse tree
`re.compile` builds from), which reads the common subset of ECMA-262 patterns that JSON Schema
uses; a pattern it cannot read gives no string. From the tree the shortest choice is taken at
each step (each repeat its minimum, each alternative the first that yields something, each
character class its first member), then the result is checked as the run time matches it (RE2, in linear time), and, when a
lookaround or a back-reference spoiled it, tried again with every repeat taken once more.
"""

from __future__ import annotations

import importlib
import re
import string
from typing import Any

from zomgen.schema.patterns import matches

# The parser and the opcodes of its tree (private modules of `re`, without type stubs).
sre_parse: Any = importlib.import_module("re._parser")
sre: Any = importlib.import_module("re._constants")

# Characters tried, in order, for a class or a "not this character".
PREFERRED = string.ascii_lowercase + string.digits + string.ascii_uppercase + "_-. "
CATEGORY_CHARS = {
    sre.CATEGORY_DIGIT: "0",
    sre.CATEGORY_NOT_DIGIT: "a",
    sre.CATEGORY_SPACE: " ",
    sre.CATEGORY_NOT_SPACE: "a",
    sre.CATEGORY_WORD: "a",
    sre.CATEGORY_NOT_WORD: "-",
}
MAX_LENGTH = 1000  # longer than this is not a "short" example; give up


def matching(pattern: str) -> str | None:
    """A string `pattern` matches, or None when none is found."""
    try:
        re.compile(pattern)  # what `re._parser` reads
        tree = sre_parse.parse(pattern)
    except (re.error, RecursionError, ValueError, OverflowError):
        return None
    for extra in (0, 1):
        text = _Generator(extra).sequence(tree)
        if text is not None and len(text) <= MAX_LENGTH and matches(pattern, text):
            return text
    return None


class _Generator:
    def __init__(self, extra_repeats: int) -> None:
        self.extra = extra_repeats
        self.groups: dict[int, str] = {}

    def sequence(self, items: Any) -> str | None:
        out: list[str] = []
        for op, arg in items:
            part = self.item(op, arg)
            if part is None:
                return None
            out.append(part)
        return "".join(out)

    def item(self, op: Any, arg: Any) -> str | None:
        if op is sre.LITERAL:
            return chr(arg)
        if op is sre.NOT_LITERAL:
            return next((c for c in PREFERRED if ord(c) != arg), None)
        if op is sre.ANY:
            return "a"
        if op is sre.IN:
            return _in_class(arg)
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            low, high, body = arg
            count = low if high == low else min(low + self.extra, high)
            if count > MAX_LENGTH:
                return None
            parts = [self.sequence(body) for _ in range(count)]
            return None if any(p is None for p in parts) else "".join(p or "" for p in parts)
        if op is sre.SUBPATTERN:
            group, _add, _del, body = arg
            text = self.sequence(body)
            if text is not None and group is not None:
                self.groups[group] = text
            return text
        if op is sre.BRANCH:
            for branch in arg[1]:
                text = self.sequence(branch)
                if text is not None:
                    return text
            return None
        if op is sre.GROUPREF:
            return self.groups.get(arg, "")
        if op is sre.CATEGORY:
            return CATEGORY_CHARS.get(arg)
        if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
            return ""  # anchors and lookarounds take no characters; re.search judges them
        if op is sre.ATOMIC_GROUP:
            return self.sequence(arg)
        return None


def _in_class(members: Any) -> str | None:
    """The first character of a character class (`[...]`), or one outside a negated one."""
    if members and members[0][0] is sre.NEGATE:
        pattern = _class_source(members[1:])
        return next((c for c in PREFERRED if not re.fullmatch(pattern, c)), None)
    for op, arg in members:
        if op is sre.LITERAL:
            return chr(arg)
        if op is sre.RANGE:
            return chr(arg[0])
        if op is sre.CATEGORY:
            return CATEGORY_CHARS.get(arg)
    return None


def _class_source(members: Any) -> str:
    """A regular expression for the class `members` (without its negation)."""
    parts: list[str] = []
    for op, arg in members:
        if op is sre.LITERAL:
            parts.append(re.escape(chr(arg)))
        elif op is sre.RANGE:
            parts.append(f"{re.escape(chr(arg[0]))}-{re.escape(chr(arg[1]))}")
        elif op is sre.CATEGORY:
            parts.append({v: k for k, v in _CATEGORY_ESCAPES.items()}.get(arg, ""))
    return "[" + "".join(parts) + "]" if parts else "(?!)"


_CATEGORY_ESCAPES = {
    r"\d": sre.CATEGORY_DIGIT,
    r"\D": sre.CATEGORY_NOT_DIGIT,
    r"\s": sre.CATEGORY_SPACE,
    r"\S": sre.CATEGORY_NOT_SPACE,
    r"\w": sre.CATEGORY_WORD,
    r"\W": sre.CATEGORY_NOT_WORD,
}
