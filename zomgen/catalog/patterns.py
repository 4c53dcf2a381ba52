"""`--only PATTERN`: the node paths a validation is limited to. A pattern is a node path whose
segments may hold `*` (any characters of one member name), `?` (one character), and `**` (any
number of segments, none included): `/A/*` is each member of `/A`, `/**/labels` every labels
group, `/**` everything."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class NodePattern:
    text: str
    regex: re.Pattern[str]

    def matches(self, node_path: str) -> bool:
        return self.regex.fullmatch(node_path) is not None

    def covers(self, node_path: str) -> bool:
        """Is `node_path` a node the pattern names, or below one?"""
        parts = node_path.split("/")
        return any(self.matches("/".join(parts[:n]) or "/") for n in range(1, len(parts) + 1))


def node_pattern(text: str) -> NodePattern:
    """The pattern; ValueError with what to write instead for one that names no node path."""
    if not text.startswith("/"):
        raise ValueError(f"{text!r} is not a node path: it starts with / (the root is /)")
    if text == "/":
        return NodePattern(text, re.compile("/"))
    parts: list[str] = []
    for segment in text.strip("/").split("/"):
        if segment == "**":
            parts.append("(?:/[^/]+)*")
        elif segment == "":
            raise ValueError(f"{text!r} has an empty segment (//)")
        else:
            body = "".join(
                "[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c) for c in segment
            )
            parts.append("/" + body)
    regex = "".join(parts)
    # `/**` alone is every node, the root included
    return NodePattern(text, re.compile(regex if regex != "(?:/[^/]+)*" else "/|(?:/[^/]+)+"))
