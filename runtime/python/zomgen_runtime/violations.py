"""What a check keyword's check returns (`Violation`), the type of a compiled check, and the
words its messages share. checks.py and relations.py build on it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Violation:
    """`path`: where in the node's document; `at`: which entry of the keyword's value (a list
    index or an object key), for the schema path; None when the value itself is malformed."""

    path: tuple[str | int, ...]
    message: str
    at: str | int | None


def malformed(keyword: str, why: str) -> Violation:
    """The keyword's value itself is malformed: reported once, at the whole node."""
    return Violation((), f"the schema's {keyword} is malformed: {why}", None)


def n_items(n: int) -> str:
    """`n item(s)`, for messages."""
    return f"{n} item" if n == 1 else f"{n} items"


def n_dims(n: int) -> str:
    """`n dimension(s)`, for messages."""
    return f"{n} dimension" if n == 1 else f"{n} dimensions"


# A compiled check: the keyword's value is parsed once, then the check runs per instance.
Check = Callable[[Any], list[Violation]]
