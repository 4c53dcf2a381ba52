"""Reading a hierarchy into ONE ZOM document: every node's document (metadata_files.py), each
group's under its parent's `members`, child name -> child document.

On local stores the walk goes level by level: list every group of one level, then read each
child's files, one node at a time. On remote stores it does not wait for a level (streamed.py):
a group is listed as soon as its metadata arrives, many requests in flight. Neither recurses;
what happens at each node is walk_steps.py. Consolidated metadata, when present and wanted,
gives the hierarchy, and the walk reads the nodes' own files beside it to say where the two
disagree (consolidated_check.py), unless the caller trusts it.

Anything wrong with one node (unreadable, not JSON, NaN, a forbidden name, v2 and v3 metadata
in one folder, a symlink loop, too deep) is a Problem of that node, and the node is left out;
only an unusable root makes the whole read fail (document None).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import Any

from .consolidated import TRUSTED, TRUSTED_MESSAGE, Entries, v2_entries, v3_entries
from .jsontext import DEFAULT_MAX_BYTES, DEFAULT_MAX_CONSOLIDATED_BYTES
from .metadata_files import (
    ALL_FILES,
    V2_FILES,
    V3,
    ZARRAY,
    ZGROUP,
    ZMETADATA,
    forbidden_name,
)
from .named_members import NamedMembers
from .opening import open_source
from .pointers import node_path
from .problems import Problem, StoreError, Unchecked
from .sources import Fetched, Source
from .values import is_object
from .walk_steps import WalkNode, WalkSteps

# Stands for a file known to exist whose content is never used (see read_each).
_PRESENT = b"{}"
# Deeper than this, members are reported instead of read: no real hierarchy comes near it, and
# it bounds what a pathological store can cost (checking a broken hierarchy in detail grows with
# the square of its depth: about 1 s at 300 levels).
DEFAULT_MAX_DEPTH = 256


class _Walk(WalkSteps):
    def __init__(
        self,
        source: Source,
        *,
        use_consolidated: bool,
        check_consolidated: bool = True,
        tree: NamedMembers | None,
        max_depth: int,
        max_bytes: int,
        max_root_bytes: int,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        super().__init__(tree=tree, max_depth=max_depth, max_bytes=max_bytes)
        self.source = source
        self.progress = progress  # told the number of nodes read as the walk goes
        self.use_consolidated = use_consolidated
        self.check_consolidated = check_consolidated
        self.trusted = False  # consolidated metadata taken without reading the nodes' files
        self.own_root_files = True  # False: the root is known only from a v2 .zmetadata
        self.root_entry: dict[str, Any] | None = None  # a v2 root's files as .zmetadata has them
        self.max_root_bytes = max_root_bytes

    # -- the walk

    def run(self, prefix: str) -> dict[str, Any] | None:
        names = list(ALL_FILES) + ([ZMETADATA] if self.use_consolidated else [])
        keys = [prefix + n for n in names]
        fetched = dict(zip(names, self.source.read(keys, self.max_root_bytes)))
        zmetadata = fetched.pop(ZMETADATA, None)
        files = self.parse_files("/", fetched)
        if files is None:
            return None
        entries: Entries | None = None
        self.own_root_files = any(n in files for n in (V3, ZARRAY, ZGROUP))
        if not self.own_root_files and zmetadata is not None:
            # zarr-python opens a consolidated v2 store from .zmetadata alone (GDAL's test
            # stores hold nothing else): the root's own files come from it too.
            self.version = 2
            entries = self.v2_consolidated(zmetadata)
            if entries is not None:
                files = entries.pop("", files)
        root = WalkNode((), "/", prefix, tree=self.tree)
        # build() strips the envelope from the document: keep it for reading
        envelope = files[V3].get("consolidated_metadata") if is_object(files.get(V3)) else None
        document = self.build("/", files)
        if document is None:
            if not self.problems:
                where = f"'{prefix.rstrip('/')}'" if prefix else "the root of the store"
                self.problem(
                    "/", f"no Zarr group or array at {where} (no zarr.json, .zgroup or .zarray)"
                )
            return None
        self.version = 3 if V3 in files else 2
        root.document = document
        if "members" not in document:
            return document
        if entries is None and self.use_consolidated:
            if self.version == 3:
                entries, problems = v3_entries(envelope)
                self.problems.extend(problems)
            elif zmetadata is not None:
                entries = self.v2_consolidated(zmetadata)
                if entries is not None:
                    # the root was read from its own files; its entry is compared with them
                    self.root_entry = entries.pop("", None)
        if entries is None:
            self.walk(root)
        elif not self.own_root_files:
            # A store of .zmetadata alone (GDAL's): the consolidated metadata is the hierarchy,
            # and there are no files for it to disagree with.
            self.from_entries(root, entries)
        elif self.check_consolidated:
            self.from_entries(root, entries)
            self.compare_with_files(prefix, document, entries)
        else:
            self.from_entries(root, entries)
            self.trusted = True
        return document

    def compare_with_files(self, prefix: str, document: dict[str, Any], entries: Entries) -> None:
        """Read the hierarchy again from its nodes' own files, and note every place where they
        disagree with the consolidated metadata `document` was built from."""
        from .consolidated_check import ListedNames, disagreements, listed_names

        files = _Walk(
            self.source,
            use_consolidated=False,
            tree=ListedNames(self.tree, listed_names(list(entries))),
            max_depth=self.max_depth,
            max_bytes=self.max_bytes,
            max_root_bytes=self.max_root_bytes,
        )
        from_files = files.run(prefix)
        seen = set(self.problems)
        self.problems += [p for p in files.problems if p not in seen]
        if self.root_entry is not None:  # v2: what .zmetadata says of the root itself
            root = self.build("/", self.root_entry)
            if root is not None:
                document = root | {"members": document.get("members", {})}
        if from_files is not None:
            unreadable = sorted({p.node_path for p in files.problems})
            self.problems += disagreements(document, from_files, unreadable)

    def v2_consolidated(self, zmetadata: Fetched) -> Entries | None:
        parsed = self.parse_files("/", {ZMETADATA: zmetadata})
        if parsed is None:
            return None
        entries, problems = v2_entries(parsed[ZMETADATA])
        self.problems.extend(problems)
        return entries

    def from_entries(self, root: WalkNode, entries: Entries) -> None:
        """Build the tree from consolidated entries, parents before children."""
        nodes: dict[str, dict[str, Any]] = {"": root.document or {}}
        for key in sorted(entries, key=lambda k: (k.count("/"), k)):
            names = tuple(key.split("/"))
            path = node_path(names)
            bad = next((why for n in names if (why := forbidden_name(n))), None)
            if bad is not None:
                self.problem(path, f"consolidated metadata lists {key!r}: {bad}")
                continue
            if len(names) > self.max_depth:
                self.problem(path, f"deeper than {self.max_depth} levels: not read")
                continue
            parent = nodes.get("/".join(names[:-1]))
            members = parent.get("members") if parent is not None else None
            if not is_object(members):
                message = "consolidated metadata lists this node, but not its parent as a group"
                self.problem(path, message)
                continue
            document = self.build(path, entries[key])
            if document is not None:
                members[names[-1]] = document
                nodes[key] = document
        if self.progress is not None:
            self.progress(len(nodes))

    def walk(self, root: WalkNode) -> None:
        requests = self.source.requests()
        if requests is not None:
            # imported here: only remote stores need it (a local walk is the loop below)
            from .streamed import StreamedWalk

            StreamedWalk(self, requests, self.source.listable, self.progress).run(root)
            return
        level = [root]
        while level:
            listings = self.source.listdir([g.prefix for g in level])
            children = [c for g, got in zip(level, listings) for c in self.members_of(g, got)]
            own: tuple[str, ...] = (V3,) if self.version == 3 else V2_FILES
            other: tuple[str, ...] = V2_FILES if self.version == 3 else (V3,)
            fetched = self.read_each(children, own, other)
            level = [c for c, got in zip(children, fetched) if self.take(c, got)]
            if self.progress is not None:
                self.progress(self.read_nodes)

    def read_each(
        self, children: list[WalkNode], own: tuple[str, ...], other: tuple[str, ...]
    ) -> Iterator[dict[str, Fetched]]:
        """The files of one child at a time, each parsed before the next is read (local
        stores): a level of members whose files are sparse 64 MiB files (4 KiB to make) would
        otherwise be held whole before any is parsed. The other version's files only need to
        be absent: where one is present, the node is mixed or of the wrong version, and
        build() leaves it out without reading it, so a stat is enough."""
        read, exists, limit = self.source.read, self.source.exists, self.max_bytes
        for child in children:
            prefix = child.prefix
            got = dict(zip(own, read([prefix + n for n in own], limit)))
            for name, present in zip(other, exists([prefix + n for n in other])):
                if present:
                    got[name] = _PRESENT
            yield got


@dataclass(frozen=True)
class Read:
    """A hierarchy read: its document (None when the store is unusable), the problems of the
    nodes that could not be read, and the groups the store could not list, whose members were
    found only by the names the convention gives (`unlisted`: node paths)."""

    document: dict[str, Any] | None
    problems: list[Problem]
    unlisted: tuple[str, ...] = ()
    trusted: bool = False  # consolidated metadata read without the nodes' own files

    def unchecked(self) -> list[Unchecked]:
        """The unlisted groups as places not fully read, in tree order (as load.ts gives them);
        first, where consolidated metadata was trusted, the nodes' files left unread."""
        message = (
            "the store cannot list this group's members: only the members the convention "
            "names were read, so others may exist unchecked"
        )
        ordered = sorted(self.unlisted, key=lambda path: path.split("/"))
        trusted = [Unchecked("/", "", TRUSTED_MESSAGE, TRUSTED)] if self.trusted else []
        return trusted + [Unchecked(path, "/members", message, "unlisted") for path in ordered]


def read_document(
    store: object,
    path: str = "",
    *,
    use_consolidated: bool = True,
    check_consolidated: bool = True,
    expected: NamedMembers | None = None,
    max_depth: int = DEFAULT_MAX_DEPTH,
    max_document_bytes: int = DEFAULT_MAX_BYTES,
    max_consolidated_bytes: int = DEFAULT_MAX_CONSOLIDATED_BYTES,
    allow_redirects_to: Collection[str] = (),
    progress: Callable[[int], None] | None = None,
) -> tuple[dict[str, Any] | None, list[Problem]]:
    """`read_hierarchy` as (document, problems), for callers that need not know which groups
    could not be listed, or whether consolidated metadata was trusted."""
    read = read_hierarchy(
        store,
        path,
        use_consolidated=use_consolidated,
        check_consolidated=check_consolidated,
        expected=expected,
        max_depth=max_depth,
        max_document_bytes=max_document_bytes,
        max_consolidated_bytes=max_consolidated_bytes,
        allow_redirects_to=allow_redirects_to,
        progress=progress,
    )
    return read.document, read.problems


def read_hierarchy(
    store: object,
    path: str = "",
    *,
    use_consolidated: bool = True,
    check_consolidated: bool = True,
    expected: NamedMembers | None = None,
    max_depth: int = DEFAULT_MAX_DEPTH,
    max_document_bytes: int = DEFAULT_MAX_BYTES,
    max_consolidated_bytes: int = DEFAULT_MAX_CONSOLIDATED_BYTES,
    allow_redirects_to: Collection[str] = (),
    progress: Callable[[int], None] | None = None,
) -> Read:
    """Read the hierarchy at `path` of `store` into one ZOM document.

    The document is None when the store is unusable (not found, not a store, no node or an
    unreadable one at `path`). `expected` (see `named_member_tree`) names the members to probe
    where the store cannot list; the groups read that way are `unlisted`. Never writes to the store.
    Each metadata file over `max_document_bytes` is a problem of its node, except the root's
    files, which may hold the whole hierarchy's consolidated metadata: `max_consolidated_bytes`.
    An HTTP store's redirects are followed only to its own origin and to `allow_redirects_to`
    (`"https://host[:port]"`, or `"*"` for any). `progress`, where given, is told how many
    nodes have been read as the walk goes (after each level of a local store, every 100 nodes
    of a remote one; a terminal's progress line).
    """
    try:
        source, prefix = open_source(store, path, allow_redirects_to)
    except StoreError as exc:
        return Read(None, list(exc.problems))
    walk = _Walk(
        source,
        use_consolidated=use_consolidated,
        check_consolidated=check_consolidated,
        tree=expected,
        max_depth=max_depth,
        max_bytes=max_document_bytes,
        # the root's files may hold the whole hierarchy's metadata (consolidated)
        max_root_bytes=max(max_document_bytes, max_consolidated_bytes),
        progress=progress,
    )
    # The walk allocates a few containers per node and never a cycle, so the cyclic garbage
    # collector's passes over them are pure cost (a third of the time for 10,000 nodes).
    collecting = gc.isenabled()
    gc.disable()
    try:
        document = walk.run(prefix)
    finally:
        if collecting:
            gc.enable()
        source.close()
    if document is None:
        return Read(None, walk.problems)
    return Read(document, walk.problems, tuple(walk.unlisted), walk.trusted)
