"""Two hierarchies compared, each a store or a document, and whether everything was read.

A diff that could not read a node, or list a group's members, cannot say two stores are the
same: `Comparison.complete` is false, and `unread` names the places, side by side, as
`zomgen validate` names what it could not check.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from .consolidated import TRUSTED
from .diffs import Difference, diff
from .members import named_member_tree
from .problems import NotFullyChecked, Problem, StoreError, Unchecked, ZomError
from .reading import Read, read_hierarchy


@dataclass(frozen=True)
class Comparison:
    """The differences of `before` and `after` (each as read), and what of each could not be
    read: `problems` (a node not read) and `unchecked` (a group not listed), by side."""

    differences: list[Difference]
    before: Read
    after: Read

    @property
    def complete(self) -> bool:
        """Whether both sides were read whole, so that `differences` are all there are."""
        return not any(side.problems or side.unlisted for side in (self.before, self.after))


def read_side(
    side: object,
    schema: dict[str, Any] | None = None,
    path: str = "",
    *,
    dump: Callable[[Any], Mapping[str, Any]] | None = None,
    use_consolidated: bool = True,
    check_consolidated: bool = True,
    allow_redirects_to: Collection[str] = (),
) -> Read:
    """One side of a comparison as a document: a mapping (a ZOM document) as it is, a model
    (a dataclass instance) through `dump`, anything else read as a store, by the members
    `schema` names where the store cannot list; raises StoreError when the store is unusable."""
    if isinstance(side, Mapping):
        return Read(dict(cast("Mapping[str, Any]", side)), [])
    if dump is not None and dataclasses.is_dataclass(side) and not isinstance(side, type):
        return Read(dict(dump(side)), [])
    read = read_hierarchy(
        side,
        path,
        use_consolidated=use_consolidated,
        check_consolidated=check_consolidated,
        expected=None if schema is None else named_member_tree(schema),
        allow_redirects_to=allow_redirects_to,
    )
    if read.document is None:
        raise StoreError(read.problems)
    return read


def compare(
    before: Read, after: Read, *, include: Sequence[str] = (), exclude: Sequence[str] = ()
) -> Comparison:
    """The two sides' differences (`diffs.diff`), with what each side could not read. A node
    that one side could not read is left out of its document; it is not "removed", so no
    difference at or below it is given: it is in `problems` instead."""
    assert before.document is not None and after.document is not None
    found = diff(before.document, after.document, include=include, exclude=exclude)
    unread = {p.node_path for side in (before, after) for p in side.problems}
    if unread:
        found = [d for d in found if not any(_at_or_below(d.node, node) for node in unread)]
    return Comparison(found, before, after)


def _at_or_below(node: str, above: str) -> bool:
    return node == above or node.startswith(above.rstrip("/") + "/")


def complete_differences(comparison: Comparison, *, named_members_only: bool) -> list[Difference]:
    """The differences, or the error a caller who asked for all of them gets: ZomError listing
    the nodes not read, NotFullyChecked the groups not listed (unless `named_members_only`).
    Consolidated metadata read with `check_consolidated=False` was trusted by the caller."""
    unread: list[Problem] = [
        dataclasses.replace(p, message=f"({name}) {p.message}")
        for name, side in (("before", comparison.before), ("after", comparison.after))
        for p in side.problems
    ]
    if unread:
        raise ZomError(unread)
    unlisted: list[Unchecked] = [
        dataclasses.replace(u, message=f"({name}) {u.message}")
        for name, side in (("before", comparison.before), ("after", comparison.after))
        for u in side.unchecked()
        if u.reason != TRUSTED
    ]
    if unlisted and not named_members_only:
        raise NotFullyChecked(unlisted)
    return comparison.differences
