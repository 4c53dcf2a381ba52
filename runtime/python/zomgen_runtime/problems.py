"""What the loader reports: `Problem` (plain data), and the error types that carry them.

A problem names the node (`/labels/cells/0`, `/` for the root), the JSON pointer of the offending
value inside that node's document, and the keyword that failed, so a user can find it without
reading the whole hierarchy. Problems are frozen, printable and JSON-serialisable: CI turns them
into annotations, and tests compare them as values.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# Past this many problems an error message says how many more there are instead of listing
# them: a broken 10,000-node store must not produce a 10,000-line exception text.
MAX_LISTED = 50


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one node.

    `keyword` is the JSON Schema keyword that failed (`type`, `required`, ...), a zomgen check
    (`x-zomgen-ndim-length`, ...), or `read` / `write` for a node that could not be read or
    written. `schema_path` is a JSON pointer into the bundled schema ("" when no schema is
    involved). `convention` names the convention (and its version) whose rule found it, where
    a check applies several (`zomgen validate` by declared conventions); "" elsewhere.
    `rule` is the CEL text of the rule that found it, for `x-zomgen-rules`; "" elsewhere.
    """

    node_path: str
    pointer: str
    message: str
    keyword: str = "read"
    schema_path: str = ""
    convention: str = ""
    rule: str = ""

    def __str__(self) -> str:
        where = f"{self.node_path}: {self.pointer}" if self.pointer else self.node_path
        return _one_line(f"{where}: {self.message}")

    def to_json(self) -> dict[str, str]:
        found = {
            "node_path": self.node_path,
            "pointer": self.pointer,
            "message": self.message,
            "keyword": self.keyword,
            "schema_path": self.schema_path,
        }
        found |= {"convention": self.convention} if self.convention else {}
        return found | ({"rule": self.rule} if self.rule else {})


def format_problems_text(problems: Iterable[Problem], limit: int | None = None) -> str:
    """One problem per line; with `limit`, the lines past it are counted, not listed."""
    items = list(problems)
    shown = items if limit is None else items[:limit]
    lines = [str(p) for p in shown]
    if len(items) > len(shown):
        lines.append(f"... and {len(items) - len(shown)} more problems")
    return "\n".join(lines)


def problems_to_json(problems: Iterable[Problem]) -> str:
    """A JSON list of problem objects (`node_path`, `pointer`, `message`, `keyword`,
    `schema_path`), in report order: what `zomgen validate --format json` prints."""
    return json.dumps([p.to_json() for p in problems], indent=2, ensure_ascii=False)


class ZomError(ValueError):
    """A hierarchy that breaks its convention (or could not be read): lists every problem."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: list[Problem] = list(problems)
        count = len(self.problems)
        head = f"{count} problem{'s' if count != 1 else ''}"
        super().__init__(f"{head}:\n{format_problems_text(self.problems, MAX_LISTED)}")


class StoreError(ZomError):
    """The store itself is unusable: not found, not a Zarr store, or its root unreadable."""


@dataclass(frozen=True)
class Unchecked:
    """One place the check could not look, and why: not a fault of the hierarchy, but a reason
    it cannot be called valid (a group whose members the store cannot list, a declared
    convention or version without a schema, nothing declared at all).

    `reason` is a short kind (`unlisted`, `unknown convention`, `no schema`, `undeclared`,
    `nothing declared`, `only`), what `--format json` and a program switch on."""

    node_path: str
    pointer: str
    message: str
    reason: str

    def __str__(self) -> str:
        where = f"{self.node_path}: {self.pointer}" if self.pointer else self.node_path
        return _one_line(f"{where}: {self.message}")

    def to_json(self) -> dict[str, str]:
        return {
            "node_path": self.node_path,
            "pointer": self.pointer,
            "message": self.message,
            "reason": self.reason,
        }


# The three verdicts, the same in every surface (CLI, Python API, validate.ts, the page).
VALID, INVALID, NOT_FULLY_CHECKED = "valid", "invalid", "not fully checked"


def verdict(problems: Sequence[object], unchecked: Sequence[object]) -> str:
    """A problem found makes a hierarchy invalid whatever was left unread; with none, it is
    valid only where nothing was left unchecked."""
    if problems:
        return INVALID
    return NOT_FULLY_CHECKED if unchecked else VALID


class NotFullyChecked(ZomError):
    """Nothing wrong was found in what was read, but not everything could be read or checked:
    `unchecked` says where and why. A caller that accepts a partial check says so (a loader's
    `named_members_only=True` for a store that cannot list its groups)."""

    def __init__(self, unchecked: Iterable[Unchecked]) -> None:
        self.unchecked: list[Unchecked] = list(unchecked)
        self.problems = []
        count = len(self.unchecked)
        shown = [str(u) for u in self.unchecked[:MAX_LISTED]]
        if count > len(shown):
            shown.append(f"... and {count - len(shown)} more")
        head = f"not fully checked: {count} place{'s' if count != 1 else ''} not read or checked"
        ValueError.__init__(self, "\n".join([head + ":", *shown]))


# Control characters (a node name may hold a line break: a zip entry's, a folder's) are written
# as escapes, so that one problem stays one line of text.
_CONTROL = re.compile("[\x00-\x1f\x7f]")


def _one_line(text: str) -> str:
    return _CONTROL.sub(lambda found: found.group().encode("unicode_escape").decode("ascii"), text)
