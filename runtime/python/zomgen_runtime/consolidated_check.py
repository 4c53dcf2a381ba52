"""Whether a store's consolidated metadata says what its nodes' own files say.

A reader that finds consolidated metadata (xarray, zarr-python by default) takes the hierarchy
from it and never reads the nodes' files; a reader that does not (or a tool that refuses it)
reads the files. When the two disagree, the store is two hierarchies at once, and a verdict on
one of them says nothing of the other. So the walk reads both (reading.py) and every place where
they disagree is a problem of its node, at its pointer, with both values; `zomgen consolidate`
writes it again from the files.

Where the store cannot list its groups (a static HTTP server), the files are probed by the
names the consolidated metadata lists, and by those the convention names (`ListedNames`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .diffs import ADDED, CHANGED, REMOVED, Difference, diff, short
from .metadata_files import forbidden_name
from .named_members import Forced, NamedMembers
from .problems import Problem

KEYWORD = "consolidated"


def listed_names(keys: Sequence[str]) -> Forced:
    """The node paths the consolidated metadata lists ("a", "a/b") as nested names; those with
    a forbidden name left out (already reported where the consolidated metadata was read)."""
    names: Forced = {}
    for key in keys:
        parts = key.split("/")
        if any(forbidden_name(name) is not None for name in parts):
            continue
        level = names
        for name in parts:
            level = level.setdefault(name, {})
    return names


class ListedNames(NamedMembers):
    """The members to probe where a group cannot be listed: those the consolidated metadata
    lists, and those the convention names (`tree`, where there is one)."""

    def __init__(self, tree: NamedMembers | None, listed: Forced) -> None:
        self.tree = tree
        self.listed = listed

    def names(self, document: Mapping[str, Any], referenced: bool = False) -> dict[str, Forced]:
        named = dict(self.tree.names(document, referenced)) if self.tree is not None else {}
        for name, below in self.listed.items():
            named.setdefault(name, below)
        return named

    def child(self, name: str, forced: Forced | None = None) -> NamedMembers:
        tree = self.tree.child(name, forced) if self.tree is not None else None
        return ListedNames(tree, self.listed.get(name, {}))


def disagreements(
    consolidated: dict[str, Any], files: dict[str, Any], unreadable: Sequence[str]
) -> list[Problem]:
    """A problem for each place where the hierarchy the consolidated metadata gives differs from
    the one the nodes' files give; none at or below the node paths in `unreadable`, whose files
    could not be read (their own problems say so)."""
    found: list[Problem] = []
    for difference in diff(consolidated, files):
        if any(_at_or_below(difference.node, path) for path in unreadable):
            continue
        found.append(Problem(difference.node, difference.pointer, _said(difference), KEYWORD))
    return found


def _said(difference: Difference) -> str:
    before, after = difference.before, difference.after
    if difference.pointer == "":
        if difference.kind == REMOVED:
            return "the consolidated metadata lists this node, but the store holds no such node"
        return "the store holds this node, but the consolidated metadata does not list it"
    if difference.kind == CHANGED:
        return (
            f"the consolidated metadata says {short(before)}, "
            f"the node's own metadata file says {short(after)}"
        )
    if difference.kind == ADDED:
        return f"the node's own metadata file has {short(after)}, the consolidated metadata nothing"
    return f"the consolidated metadata has {short(before)}, the node's own metadata file nothing"


def _at_or_below(node: str, path: str) -> bool:
    return node == path or path == "/" or node.startswith(path + "/")
