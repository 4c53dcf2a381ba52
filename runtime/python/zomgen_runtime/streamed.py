"""The walk of a remote store: every request in flight as soon as it is known, not level by
level. A group is listed as soon as its own metadata has arrived, and each member it lists is
read at once, so the store always has up to `concurrency` requests to answer (a level-by-level
walk waits, twice per level, for the level's slowest request).

Answers come in whatever order the store gives them; the result does not depend on it. Each
step's problems are noted under the place the level-by-level walk gives them (the depth, the
listing before the reads, the node's `order`) and sorted into that order at the end, and each
group's `members` are put back in the order of its listing.

Each answer is parsed as it comes (`Requests.run` hands it over), so no more answers are held
than there are requests in flight.

Where the store lists, a group's listing is asked for together with the metadata of the members
its convention names (an OME plate's wells, a well's fields, an image's levels): those answers
wait until the listing shows the member, and one round trip per level is saved. A named member
the listing does not show costs one request, and its answer is dropped.

Where the root has no index (a server that lists no folder), no other group's index is asked
for: the members the convention names are probed, each with its own version's file, then (to
report a node of the other version) v2's `.zarray` and `.zgroup`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .metadata_files import V2_FILES, V3, ZARRAY, ZATTRS, ZGROUP
from .problems import Problem
from .sources import Fetched, Job, Listing, Requests
from .walk_steps import WalkNode, WalkSteps

# The progress callback is told the count of nodes read every this many nodes.
_PROGRESS_EVERY = 100


@dataclass(slots=True)
class _Files:
    """The files of one node asked so far, in the order asked (problems name them in it)."""

    node: WalkNode
    got: dict[str, Fetched] = field(default_factory=dict[str, Fetched])
    waiting: int = 0
    stage: int = 0  # 0: the version's own files, 1: v2's .zgroup, 2: the other version's


@dataclass(slots=True)
class _Early:
    """A named member's metadata file asked for before its group's listing came."""

    answer: Fetched = None
    arrived: bool = False
    waiting: list[tuple[_Files, str]] = field(default_factory=list[tuple[_Files, str]])


# The most members of one group whose metadata is asked for before its listing comes.
_EARLY_PER_GROUP = 1024

# problems sort by (depth, 0 for a listing / 1 for a node read, the node's order)
_Place = tuple[int, int, tuple[int, ...]]
# An unlisted group is asked for the names its members' metadata give at most this many times.
_PROBE_ROUNDS = 4


@dataclass
class _Probe:
    """The members of one unlisted group asked for by name, and how many are still out."""

    group: WalkNode
    order: list[str]  # every name asked for so far, in order
    waiting: int = 0
    rounds: int = 0


class StreamedWalk:
    def __init__(
        self,
        steps: WalkSteps,
        requests: Requests,
        listable: bool,
        progress: Callable[[int], None] | None,
    ) -> None:
        self.steps = steps
        self.requests = requests
        self.listable = listable
        self.progress = progress
        self.asked: dict[int, tuple[_Files, str] | WalkNode | _Early] = {}  # tag -> its asker
        self.tags = 0
        self.jobs: list[Job] = []  # the jobs the last step led to
        self.noted: list[tuple[_Place, list[Problem]]] = []
        self.orders: list[tuple[dict[str, Any], list[str]]] = []
        self.told = 0
        # a member probed by name -> its group's probe (unlisted groups only)
        self.probes: dict[int, _Probe] = {}
        # store key -> a named member's file asked for before its group's listing came
        self.early: dict[str, _Early] = {}
        self.asked_early: set[str] = set()  # every such key (a row names the plate's wells too)

    def run(self, root: WalkNode) -> None:
        self.listed(root)
        self.requests.run(self.next_jobs(), self.answered)
        self.finish()

    def answered(self, tag: int, answer: Fetched | Listing) -> list[Job]:
        whose = self.asked.pop(tag)
        if isinstance(whose, WalkNode):
            self.on_listing(whose, answer if not isinstance(answer, bytes) else None)
        elif isinstance(answer, list):
            pass
        elif isinstance(whose, _Early):
            whose.answer, whose.arrived = answer, True
            for files, name in whose.waiting:
                self.on_file(files, name, answer)
            whose.waiting.clear()
        else:
            self.on_file(*whose, answer)
        self.tell()
        return self.next_jobs()

    def next_jobs(self) -> list[Job]:
        jobs = self.jobs
        self.jobs = []
        return jobs

    def tag(self, whose: tuple[_Files, str] | WalkNode | _Early) -> int:
        self.tags += 1
        self.asked[self.tags] = whose
        return self.tags

    # -- the steps

    def listed(self, group: WalkNode) -> None:
        """A group whose document is read: its listing asked for."""
        if self.listable:
            self.jobs.append(Job(self.tag(group), group.prefix, 0, listing=True))
            self.ask_early(group)
        else:
            self.on_listing(group, None)

    def on_listing(self, group: WalkNode, listing: Listing) -> None:
        if listing is None and not group.names:
            # The root has no index: the server lists no folder (a static site without
            # indexes, an object store without listing). Asking every group's index would
            # cost one request each for a 404; the named members are probed instead.
            self.listable = False
        steps = self.steps
        start = len(steps.problems)
        children = steps.members_of(group, listing)
        self.note((len(group.names), 0, group.order), start)
        order = [c.names[-1] for c in children]
        if children and group.document is not None:
            self.orders.append((group.document["members"], order))
        if children and not isinstance(listing, list) and group.tree is not None:
            self.probe(_Probe(group, order), children)
        else:
            self.ask_all(children)

    def ask_all(self, children: list[WalkNode]) -> None:
        own: tuple[str, ...] = (V3,) if self.steps.version == 3 else (ZARRAY, ZATTRS)
        for child in children:
            self.ask(_Files(child), own)

    def probe(self, probe: _Probe, children: list[WalkNode]) -> None:
        """Members of an unlisted group read by the names the convention gives. Once they are
        all read, the group is asked again: a name may come from a member's own metadata
        (bioformats2raw's `OME/.zattrs` names the series beside it)."""
        probe.waiting = len(children)
        probe.rounds += 1
        for child in children:
            self.probes[id(child)] = probe
        self.ask_all(children)

    def probed(self, node: WalkNode) -> None:
        probe = self.probes.pop(id(node), None)
        if probe is None:
            return
        probe.waiting -= 1
        if probe.waiting or probe.rounds >= _PROBE_ROUNDS:
            return
        group, start = probe.group, len(self.steps.problems)
        more = self.steps.members_of(group, None, tried=probe.order)
        self.note((len(group.names), 0, group.order), start)
        if more:
            probe.order.extend(c.names[-1] for c in more)
            self.probe(probe, more)

    def ask(self, files: _Files, names: tuple[str, ...]) -> None:
        prefix, limit = files.node.prefix, self.steps.max_bytes
        files.waiting += len(names)
        for name in names:
            files.got[name] = None  # holds the file's place until its answer comes
        for name in names:
            early = self.early.pop(prefix + name, None)
            if early is None:
                self.jobs.append(Job(self.tag((files, name)), prefix + name, limit))
            elif early.arrived:
                self.on_file(files, name, early.answer)
            else:
                early.waiting.append((files, name))

    def ask_early(self, group: WalkNode) -> None:
        """The metadata of the members the convention names below `group`, asked for while
        its listing is on its way (a member the listing does not show is then not read)."""
        if group.tree is None or group.document is None:
            return
        own: tuple[str, ...] = (V3,) if self.steps.version == 3 else (ZARRAY, ZATTRS)
        limit, count = self.steps.max_bytes, 0
        named = group.tree.names(group.document, referenced=True)
        stack = [(group.prefix, named, len(group.names))]
        while stack and count < _EARLY_PER_GROUP:
            prefix, named, depth = stack.pop()
            if depth >= self.steps.max_depth:
                continue
            for name, below in named.items():
                if name in ("", ".", "..") or "/" in name or count >= _EARLY_PER_GROUP:
                    continue
                for file in own:
                    key = f"{prefix}{name}/{file}"
                    if key not in self.asked_early:
                        self.asked_early.add(key)
                        self.early[key] = early = _Early()
                        self.jobs.append(Job(self.tag(early), key, limit))
                        count += 1
                stack.append((f"{prefix}{name}/", below, depth + 1))

    def on_file(self, files: _Files, name: str, answer: Fetched) -> None:
        files.got[name] = answer
        files.waiting -= 1
        if files.waiting:
            return
        more = self.more_files(files)
        if more:
            self.ask(files, more)
            return
        steps, node = self.steps, files.node
        start = len(steps.problems)
        is_group = steps.take(node, files.got)
        self.note((len(node.names) - 1, 1, node.order), start)
        if is_group:
            self.listed(node)
        self.probed(node)

    def more_files(self, files: _Files) -> tuple[str, ...]:
        """The files to ask for next, once the last asked are in: a v2 node without .zarray
        is asked for .zgroup; a node with nothing of the hierarchy's version, for the other
        version's files (to report it instead of skipping it in silence)."""
        got, version = files.got, self.steps.version
        if files.stage == 0 and version == 2 and got[ZARRAY] is None:
            files.stage = 1
            return (ZGROUP,)
        if files.stage < 2 and all(v is None for v in got.values()):
            files.stage = 2
            if version == 2:
                return (V3,)
            # A member only named, not listed, is most likely absent: two requests tell a v2
            # node (`.zattrs` alone is no node), instead of three for every absent name.
            return V2_FILES if files.node.listed else (ZARRAY, ZGROUP)
        return ()

    # -- order

    def note(self, place: _Place, start: int) -> None:
        """The problems noted since `start`, kept under `place` to be sorted at the end."""
        problems = self.steps.problems
        if len(problems) > start:
            self.noted.append((place, problems[start:]))
            del problems[start:]

    def finish(self) -> None:
        self.noted.sort(key=lambda noted: noted[0])
        for _place, problems in self.noted:
            self.steps.problems.extend(problems)
        for members, names in self.orders:
            if len(members) > 1:
                kept = [(name, members[name]) for name in names if name in members]
                members.clear()
                members.update(kept)
        self.tell(last=True)

    def tell(self, last: bool = False) -> None:
        read = self.steps.read_nodes
        if self.progress is not None and (last or read - self.told >= _PROGRESS_EVERY):
            self.told = read
            self.progress(read)
