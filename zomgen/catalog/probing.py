"""The members to probe where a store cannot be listed (an HTTP server without folder
indexes, an object store's static website), for `zomgen validate STORE` without `--schema`.

With `--schema`, the convention names the members (runtime/members.py). Without it, each
node is read first; what it declares (declarations.py's Matcher, as the checks will see it)
says which conventions start there, and each of those names members the same way (an OME-Zarr
plate its wells, a well its fields, an image its levels and `labels`). A convention that
started at an ancestor goes on naming members below it. Nodes that nothing names are found only
in a listing or consolidated metadata, as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from zomgen_runtime.named_members import Forced

from zomgen.catalog.declarations import Matcher
from zomgen.catalog.entries import Entry

if TYPE_CHECKING:
    # imported where a store cannot be listed: a listed one never needs the member trees (and
    # their import of the cross-node checks is a tenth of a small store's validate)
    from zomgen_runtime.members import MemberTree


class DeclaredMemberTree:
    """The member trees of the conventions that apply at one node: those an ancestor's
    conventions give it, and (once the node is read) those it declares itself. Has the
    interface of MemberTree that the walk uses: `names(document)` and `child(name, forced)`."""

    def __init__(
        self,
        matcher: Matcher,
        trees: dict[int, MemberTree],
        inherited: tuple[MemberTree, ...] = (),
        forced: Forced | None = None,
    ) -> None:
        self._matcher = matcher
        self._trees = trees  # id(entry) -> its schema's member tree, shared by every node
        self._inherited = inherited
        self._forced: Forced = forced or {}
        self._started: tuple[MemberTree, ...] = ()

    def names(self, document: Mapping[str, Any], referenced: bool = False) -> dict[str, Forced]:
        from zomgen_runtime.members import merge_forced

        applied = self._matcher.node("/", dict(document)).applied
        self._started = tuple(self._tree(a.entry) for a in applied if a.entry.schema is not None)
        found: Forced = {}
        for tree in (*self._inherited, *self._started):
            merge_forced(found, tree.names(document, referenced))
        merge_forced(found, self._forced)
        return found

    def child(self, name: str, forced: Forced | None = None) -> DeclaredMemberTree:
        below = tuple(tree.child(name) for tree in (*self._inherited, *self._started))
        return DeclaredMemberTree(self._matcher, self._trees, below, forced)

    def _tree(self, entry: Entry) -> MemberTree:
        from zomgen_runtime.members import named_member_tree

        from zomgen.catalog.bundles import bundled_schema

        tree = self._trees.get(id(entry))
        if tree is None and entry.schema is not None:
            tree = named_member_tree(bundled_schema(entry.schema, entry.include))
            self._trees[id(entry)] = tree
        assert tree is not None
        return tree


def declared_member_tree(matcher: Matcher) -> DeclaredMemberTree:
    """The tree for a hierarchy's root."""
    return DeclaredMemberTree(matcher, {})
