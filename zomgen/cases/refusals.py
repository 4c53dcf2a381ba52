"""What a package's run time refuses in a document, as the repairs (repair.py, indices.py) and
the derivation (derive.py) speak of it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from zomgen.cases.raw import escape


@dataclass(frozen=True)
class Refusal:
    """One problem the run time reports: where in the document, and which schema keyword."""

    pointer: str  # absolute JSON pointer into the document
    keyword: str
    schema_path: str  # JSON pointer into the bundled schema
    message: str
    rule: str = ""  # the text of the rule in CEL that refused it (x-zomgen-rules)


# What the run time refuses in a document: its problems, as refusals.
Check = Callable[[Any], Sequence[Refusal]]


def absolute(node_path: str, pointer: str) -> str:
    """The document pointer of a problem given as (node path, pointer inside the node)."""
    names = [n for n in node_path.split("/") if n]
    return "".join(f"/members/{escape(n)}" for n in names) + pointer
