"""How a `zomgen validate` run ends, with `--schema` or by declared conventions alike: the
verdict (valid, invalid, not fully checked), what a user accepted to leave unread, the lines
that say what was not checked, and the exit code.

A verdict is "valid" only where every node was read and every rule that applies was checked.
A problem found makes the hierarchy invalid whatever else was left unread. Without problems,
a place left unchecked (a group the store cannot list, a declared convention without a schema,
nothing declared, `--only` matching nothing) makes it "not fully checked", which exits 3, not
0: a CI job that trusts exit 0 is never told "valid" about what zomgen did not look at.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from zomgen_runtime import INVALID, VALID, Problem, Unchecked, verdict

from zomgen.catalog.patterns import NodePattern
from zomgen.exits import EXIT_FAILED, EXIT_OK, EXIT_UNCHECKED

# The reasons a user may accept, each by its option: a server that cannot list is a property
# of where the store is served, which a user may know and accept; an unknown convention is not.
# Consolidated metadata is "trusted" only where the user said so (its option is the acceptance;
# the reason is zomgen_runtime.consolidated.TRUSTED, not imported: a start-up cost for one word).
TRUSTED = "trusted"
ACCEPTED_BY = {"unlisted": "--named-members-only", TRUSTED: "--trust-consolidated"}
# Past this many places left unchecked, the text says how many more there are.
MAX_SHOWN = 20


@dataclass(frozen=True)
class Outcome:
    """The verdict of one run over its problems and unchecked places; `accepted` are the
    unchecked places the user's options accept (listed, but not held against the verdict)."""

    problems: tuple[Problem, ...]
    unchecked: tuple[Unchecked, ...]
    accepted: tuple[Unchecked, ...]

    @property
    def status(self) -> str:
        return verdict(self.problems, self.unchecked)

    @property
    def exit_code(self) -> int:
        return {VALID: EXIT_OK, INVALID: EXIT_FAILED}.get(self.status, EXIT_UNCHECKED)

    def unchecked_json(self) -> list[dict[str, object]]:
        """Each place not checked as JSON, with `accepted`: whether an option accepted it."""
        return [
            {**u.to_json(), "accepted": accepted}
            for group, accepted in ((self.unchecked, False), (self.accepted, True))
            for u in group
        ]

    def unchecked_lines(self) -> list[str]:
        """`not checked: ...` for each place held against the verdict, then the accepted
        ones; at most MAX_SHOWN of each, and how many more."""
        lines = _shown("not checked", self.unchecked)
        for reason, option in ACCEPTED_BY.items():
            of_reason = [u for u in self.accepted if u.reason == reason]
            lines += _shown(f"not checked ({option})", of_reason)
        return lines

    def summary(self) -> str:
        """What the last line says after the store and the checks made: ` (N problems)`
        etc. is the caller's; this is the status with what was left unread."""
        if self.status == INVALID:
            return f"{len(self.problems)} problem(s)"
        if self.unchecked:
            count = len(self.unchecked)
            return f"not fully checked ({count} place{'s' if count != 1 else ''} not checked)"
        if self.accepted:
            count = len(self.accepted)
            return (
                f"valid as far as read ({count} place{'s' if count != 1 else ''} accepted unread)"
            )
        return "valid"


def outcome(
    problems: Iterable[Problem], unchecked: Iterable[Unchecked], *, named_members_only: bool = False
) -> Outcome:
    """The outcome of `problems` found and `unchecked` places, with what the options accept."""
    accepted_reasons = {"unlisted", TRUSTED} if named_members_only else {TRUSTED}
    places = tuple(unchecked)
    held = tuple(u for u in places if u.reason not in accepted_reasons)
    accepted = tuple(u for u in places if u.reason in accepted_reasons)
    return Outcome(tuple(problems), held, accepted)


def only_matched_nothing(only: NodePattern, node_paths: Iterable[str]) -> Unchecked | None:
    """`--only PATTERN` that matches no node of the hierarchy read checks nothing: that is a
    place left unchecked, not a valid hierarchy."""
    if any(only.matches(path) for path in node_paths):
        return None
    message = f"--only {only.text} matches no node of the hierarchy read: nothing was checked"
    return Unchecked("/", "", message, "only")


def node_paths(document: dict[str, Any]) -> Iterator[str]:
    """The node path of every node of a hierarchy's document, the root first."""
    stack: list[tuple[str, dict[str, Any]]] = [("/", document)]
    while stack:
        path, node = stack.pop()
        yield path
        members = node.get("members")
        if isinstance(members, dict):
            for name, member in members.items():
                if isinstance(member, dict):
                    stack.append((f"{path.rstrip('/')}/{name}", member))


def _shown(head: str, unchecked: Sequence[Unchecked]) -> list[str]:
    lines = [f"{head}: {u}" for u in unchecked[:MAX_SHOWN]]
    if len(unchecked) > MAX_SHOWN:
        lines.append(f"{head}: ... and {len(unchecked) - MAX_SHOWN} more")
    return lines
