"""What the walk does at one node, whichever way it goes through the hierarchy (level by level
on local stores, as answers come on remote ones, reading.py and streamed.py): a group's
listing -> its candidate members (`members_of`), a member's fetched files -> its document,
attached to its parent (`take`).

Each node carries its `order`, the place of each of its names in its parent's listing from the
root: problems and members are put in that order, whatever order a remote store answers in.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from .metadata_files import (
    METADATA_NAMES,
    V2_FILES_SET,
    V3,
    ZGROUP,
    NodeReader,
    forbidden_name,
)
from .named_members import Forced, NamedMembers
from .pointers import join_node_path
from .sources import Failure, Fetched, Listing
from .values import is_object


@dataclass(slots=True)
class WalkNode:
    names: tuple[str, ...]  # member names from the document's root
    path: str  # the node path of problems: "/" or "/a/b"
    prefix: str  # store key prefix: "" or "a/b/"
    members: dict[str, Any] | None = None  # the parent's `members`, to attach to
    tree: NamedMembers | None = None  # what the convention says about this node
    forced: Forced = field(default_factory=lambda: _no_names())
    listed: bool = True  # found by listing (else: named by the convention, maybe absent)
    document: dict[str, Any] | None = None
    order: tuple[int, ...] = ()  # the place of each name in its parent's candidates


def _no_names() -> Forced:
    return {}


class WalkSteps(NodeReader):
    def __init__(self, *, tree: NamedMembers | None, max_depth: int, max_bytes: int) -> None:
        super().__init__()
        self.tree = tree
        self.max_depth = max_depth
        self.max_bytes = max_bytes
        self.read_nodes = 1
        # The groups the store could not list (a static HTTP server answering 404 for a
        # folder): only the members the convention names were probed there, so a member no one
        # names may exist unread. Node path -> None, in the order met.
        self.unlisted: dict[str, None] = {}

    def members_of(
        self, group: WalkNode, listing: Listing, tried: Collection[str] = ()
    ) -> list[WalkNode]:
        """The candidate members of one group, from its listing (and, where it cannot be
        listed, the names the convention gives, but those already `tried`); problems of the
        listing noted."""
        document = group.document or {}
        named: dict[str, Forced] = {}
        if group.tree is not None and not isinstance(listing, list):
            named = group.tree.names(document)
        if listing is None:
            self.unlisted[group.path] = None
        if isinstance(listing, Failure):
            if listing.message.startswith("symlink loop"):
                self.problem(group.path, listing.message)
                self.drop(group)
                return []
            self.problem(group.path, f"cannot list the members: {listing.message}")
        if isinstance(listing, list) and group.names and self.mixed(group, listing):
            return []
        names = sorted(set(listing) - METADATA_NAMES) if isinstance(listing, list) else []
        skipped = set(names).union(tried)
        candidates = [(n, True) for n in names] + [(n, False) for n in named if n not in skipped]
        if candidates and len(group.names) >= self.max_depth:
            message = f"the hierarchy is deeper than {self.max_depth} levels: members not read"
            self.problem(group.path, message)
            return []
        members = document.get("members")
        found: list[WalkNode] = []
        for place, (name, listed) in enumerate(candidates, start=len(tried)):
            path = join_node_path(group.path, name)
            if name in ("", ".", "..") or "/" in name:
                self.problem(path, f"forbidden node name {name!r}")
                continue
            child = WalkNode(
                (*group.names, name),
                path,
                group.prefix + name + "/",
                members if is_object(members) else None,
                group.tree,  # the parent's tree: `child()` is taken once it is a group
                named.get(name, {}),
                listed,
                order=(*group.order, place),
            )
            found.append(child)
        return found

    def mixed(self, group: WalkNode, listing: list[str]) -> bool:
        """A remote listing shows the group's own files: where probing each node for both
        versions would cost too much, this is where a mixed group shows (noted, group left out)."""
        other = sorted(set(listing) & (V2_FILES_SET if self.version == 3 else {V3}))
        if not other:
            return False
        own = V3 if self.version == 3 else ZGROUP
        found_files = ", ".join([own, *other])
        self.problem(group.path, f"Zarr v3 and v2 metadata mixed in one node ({found_files})")
        self.drop(group)
        return True

    @staticmethod
    def drop(node: WalkNode) -> None:
        if node.members is not None and node.names:
            node.members.pop(node.names[-1], None)

    def take(self, child: WalkNode, got: dict[str, Fetched]) -> bool:
        """The child's document from its files, attached to its parent; True when it is a
        group, whose members are to be read next."""
        path = child.path
        files = self.parse_files(path, got)
        if files is None:
            return False
        name = child.names[-1]
        document = self.build(path, files)
        if document is None:
            return False
        reason = forbidden_name(name)
        if reason is not None:
            self.problem(path, f"forbidden node name {name!r}: {reason}")
            return False
        if child.members is not None:
            child.members[name] = document
        self.read_nodes += 1
        if "members" not in document:
            return False
        child.document = document
        if child.tree is not None:
            child.tree = child.tree.child(name, child.forced)
        return True
