"""`zomgen validate STORE` without `--schema`: read the hierarchy once, find what each node
declares or evidently uses (declarations.py), and check the node, with the hierarchy below it,
against each of those conventions' schemas. A family's schema (OME-Zarr's image, plate, well)
describes the nodes below: inside a subtree one of them checked, the family is not applied
again."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from zomgen_runtime import VALID, Problem, StoreError, Unchecked, read_hierarchy
from zomgen_runtime.jsontext import DEFAULT_MAX_BYTES, parse_object, too_large
from zomgen_runtime.rules import RULE_BUDGET, over_budget

from zomgen.catalog.bundles import bundled_schema
from zomgen.catalog.declarations import Applied, Matcher
from zomgen.catalog.entries import Entry, load_catalogs
from zomgen.catalog.ome_versions import KEYWORD as VERSION_KEYWORD
from zomgen.catalog.other_keys import declared_node_keys, other_keys
from zomgen.catalog.other_keys import warning as other_key_warning
from zomgen.catalog.patterns import NodePattern
from zomgen.catalog.probing import declared_member_tree
from zomgen.outcome import Outcome, node_paths, only_matched_nothing, outcome

# The kinds of note that say a place was not checked (the matcher's keywords): they make a
# report "not fully checked" instead of valid (zomgen/outcome.py).
NOT_CHECKED = frozenset(
    {
        "unknown convention",
        "undeclared",
        "no schema",
        "zarr format",
        "nothing declared",
        RULE_BUDGET,
    }
)
# What the version policy and the undeclared-use notes say of a node, which a family's schema
# judges instead below a node that family checked.
JUDGED = frozenset({"undeclared", "no schema", VERSION_KEYWORD})


@dataclass
class Report:
    """What was applied where, what is wrong, what zomgen could not check, and how many nodes
    it looked at."""

    nodes: dict[str, list[Applied]] = field(default_factory=dict)
    strict: bool = False  # the conventions' strict schemas were applied too
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    unchecked: list[Unchecked] = field(default_factory=list)
    looked_at: int = 0  # nodes of the hierarchy looked at
    named_members_only: bool = False  # unlisted groups accepted (`--named-members-only`)
    document: dict[str, Any] | None = None  # the hierarchy checked (None: one node's attributes)

    def note(self, warning: Problem) -> None:
        """A matcher's note: a place not checked, or a warning about what was checked."""
        if warning.keyword in NOT_CHECKED:
            self.unchecked.append(
                Unchecked(warning.node_path, warning.pointer, warning.message, warning.keyword)
            )
        else:
            self.warnings.append(warning)

    def outcome(self) -> Outcome:
        return outcome(self.problems, self.unchecked, named_members_only=self.named_members_only)

    @property
    def status(self) -> str:
        return self.outcome().status

    @property
    def valid(self) -> bool:
        return self.status == VALID

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "valid": self.valid,
            "strict": self.strict,
            "nodes_read": self.looked_at,
            "nodes": [
                {
                    "node_path": path,
                    "conventions": [a.entry.to_json() | {"how": a.how} for a in applied],
                }
                for path, applied in self.nodes.items()
            ],
            "problems": [p.to_json() for p in self.problems],
            "unchecked": self.outcome().unchecked_json(),
            "warnings": [w.to_json() for w in self.warnings],
        }

    def verdict(self) -> dict[str, Any]:
        """`{"valid": ..., "message": ...}`, what conformance runners read (ngff-spec's
        `ome_zarr_conformance.py`): the message says the first problems, what was not
        checked, or what was. Not fully checked is not valid."""
        if self.problems:
            return {"valid": False, "message": _first(self.problems)}
        result = self.outcome()
        if result.unchecked:
            return {"valid": False, "message": "not fully checked: " + _first(result.unchecked)}
        applied = sorted({a.entry.name for found in self.nodes.values() for a in found})
        checked = ", ".join(applied)
        checked += " (strict)" if self.strict and applied else ""
        notes = "".join(f"; warning: {w}" for w in self.warnings[:2])
        return {"valid": True, "message": f"checked: {checked}{notes}"}

    def text(self, store: str) -> str:
        """What `zomgen validate STORE` prints: the conventions applied per node, the
        warnings, the problems, what was not checked, and a last line with the verdict."""
        lines = [
            f"{path}: " + ", ".join(f"{a.entry.name} ({a.how})" for a in applied)
            for path, applied in self.nodes.items()
        ]
        lines += [f"warning: {w}" for w in self.warnings]
        lines += [f"{p} [{p.convention}]" if p.convention else str(p) for p in self.problems]
        result = self.outcome()
        lines += result.unchecked_lines()
        count = sum(len(applied) for applied in self.nodes.values())
        where = f"{_count(self.looked_at, 'node')} read, "
        where += f"{_count(count, 'convention check')} on {_count(len(self.nodes), 'node')}"
        where += ", strict" if self.strict else ""
        lines.append(f"{store}: {result.summary()} ({where})")
        return "\n".join(lines)


def _first(found: Sequence[Problem | Unchecked]) -> str:
    shown = "; ".join(str(p) for p in found[:3])
    more = len(found) - 3
    return shown + (f"; and {more} more" if more > 0 else "")


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'s' if number != 1 else ''}"


# Told how far a long run is: ("read", nodes read so far) as the walk goes,
# then ("checked", nodes looked at so far) as the checks go.
Progress = Callable[[str, int], None]


def validate_declared(
    store: object,
    path: str = "",
    *,
    catalogs: Collection[Path] = (),
    only: NodePattern | None = None,
    strict: bool = False,
    use_consolidated: bool = True,
    check_consolidated: bool = True,
    named_members_only: bool = False,
    allow_redirects_to: Collection[str] = (),
    progress: Progress | None = None,
) -> Report:
    """Every node of the hierarchy at `path` of `store` (those `only` matches, where given)
    checked against each convention it declares or evidently uses, and with `strict` against
    their strict schemas too. A group the store cannot list is read by the members its
    conventions name and reported as not checked, unless `named_members_only` accepts it.
    Raises StoreError for an unusable store and CompileError for a broken catalog or
    convention schema."""
    matcher = Matcher(load_catalogs(list(catalogs)))
    read = read_hierarchy(
        store,
        path,
        use_consolidated=use_consolidated,
        check_consolidated=check_consolidated,
        # where the store cannot list: the members the conventions each node declares name
        expected=declared_member_tree(matcher),
        allow_redirects_to=allow_redirects_to,
        progress=None if progress is None else (lambda count: progress("read", count)),
    )
    if read.document is None:
        raise StoreError(read.problems)
    report = check_declared(read.document, matcher, only=only, strict=strict, progress=progress)
    read_problems, unlisted = read.problems, read.unchecked()
    if only is not None:
        read_problems = [p for p in read_problems if only.covers(p.node_path)]
        unlisted = [u for u in unlisted if only.covers(u.node_path)]
    report.problems[:0] = read_problems
    report.unchecked[:0] = unlisted
    report.named_members_only = named_members_only
    report.document = read.document
    return report


class UnreadableFile(StoreError):
    """The file of `--attributes` cannot be read at all (missing, a folder, no permission): a
    mistake in the command, not a verdict on the file."""


def validate_attributes(
    path: Path, *, zarr_format: int = 3, catalogs: Collection[Path] = (), strict: bool = False
) -> Report:
    """A node's attributes alone, in a JSON file (as conformance suites give them), checked as a
    group of `zarr_format` whose members are not known. Raises StoreError for a file that
    cannot be read or is not a JSON object."""
    matcher = Matcher(load_catalogs(list(catalogs)))
    try:
        with path.open("rb") as file:
            data = file.read(DEFAULT_MAX_BYTES + 1)
    except OSError as exc:
        message = f"{path}: cannot read the attributes: {exc}"
        raise UnreadableFile([Problem("/", "", message)]) from None
    if len(data) > DEFAULT_MAX_BYTES:
        message = too_large(str(path), len(data), DEFAULT_MAX_BYTES)
        raise StoreError([Problem("/", "", message)])
    # As a store's metadata files are read: no NaN, no integer Python cannot hold, bounded
    # nesting, an object.
    attributes = parse_object(data, str(path))
    if isinstance(attributes, str):
        raise StoreError([Problem("/", "", attributes)])
    node: dict[str, Any] = {"zarr_format": zarr_format, "attributes": attributes}
    if zarr_format == 3:
        node = {"zarr_format": 3, "node_type": "group", "attributes": attributes}
    return check_declared(node, matcher, strict=strict)


def check_declared(
    document: dict[str, Any],
    matcher: Matcher,
    *,
    only: NodePattern | None = None,
    strict: bool = False,
    progress: Progress | None = None,
) -> Report:
    """The same for a hierarchy's document already read."""
    report = Report(strict=strict)
    looked_at = 0
    matched: list[str] = []  # the nodes `only` matched
    seen: set[tuple[str, str, str]] = set()
    writers_keys: list[tuple[str, dict[str, Any], str]] = []  # v2 keys outside the spec
    # (node path, node, the families an ancestor was checked by), depth first in order
    stack: list[tuple[str, dict[str, Any], frozenset[str]]] = [("/", document, frozenset())]
    while stack:
        node_path, node, skipped = stack.pop()
        looked_at += 1
        if progress is not None and looked_at % 100 == 0:
            progress("checked", looked_at)
        if only is not None and not only.matches(node_path):
            _push_members(stack, node_path, node, skipped)
            continue
        matched.append(node_path)
        writers_keys += [(node_path, node, key) for key in other_keys(node)]
        found = matcher.node(node_path, node)
        # Below a node a family checked, its schema describes what the node holds, and judges
        # it: keys of a convention used there undeclared (ome-zarr-py's 0.5 labels group has no
        # version), and the OME-Zarr version a node declares (SpatialData's images say
        # "0.5-dev-spatialdata", which its convention requires; an OME-Zarr plate's schema
        # requires its own version of each well).
        report.problems += [p for p in found.problems if not (skipped and p.keyword in JUDGED)]
        for warning in found.warnings:
            if not (skipped and warning.keyword in JUDGED):
                report.note(warning)
        applied = [a for a in found.applied if a.entry.family not in skipped]
        if applied:
            report.nodes[node_path] = applied
        for a in applied:
            _add_new(report, seen, _check(node_path, node, a.entry, report))
        if strict:
            _add_new(report, seen, _check_strict(node_path, node, found.applied))
        below = skipped | {a.entry.family for a in applied if a.entry.family is not None}
        _push_members(stack, node_path, node, below)
    if progress is not None:
        progress("checked", looked_at)
    report.looked_at = looked_at
    declared = _declared_node_keys(report)
    report.warnings += [
        other_key_warning(path, node, key)
        for path, node, key in writers_keys
        if key not in declared
    ]
    if only is not None and not matched:
        nothing = only_matched_nothing(only, node_paths(document))
        report.unchecked += [nothing] if nothing is not None else []
    elif not (report.nodes or report.unchecked or report.problems):
        # where --only chose the nodes, at the first of them: the node the user meant
        where = matched[0] if only is not None else "/"
        message = "no convention of the catalog is declared or used here: nothing was checked"
        if only is not None and len(matched) > 1:
            message += f" (nor at the {len(matched) - 1} other nodes --only {only.text} matches)"
        report.note(Problem(where, "", message, "nothing declared"))
    return report


def _push_members(
    stack: list[tuple[str, dict[str, Any], frozenset[str]]],
    node_path: str,
    node: dict[str, Any],
    skipped: frozenset[str],
) -> None:
    """The node's members, to be visited next in their order."""
    members = node.get("members")
    if isinstance(members, dict):
        children = [(name, m) for name, m in members.items() if isinstance(m, dict)]
        for name, member in reversed(children):
            stack.append((f"{node_path.rstrip('/')}/{name}", member, skipped))


def _add_new(report: Report, seen: set[tuple[str, str, str]], problems: list[Problem]) -> None:
    """Report each problem once, however many schemas find it (a strict schema repeats the
    specification's rules: the same place and message is the same problem)."""
    for problem in problems:
        key = (problem.node_path, problem.pointer, problem.message)
        if key not in seen:
            seen.add(key)
            report.problems.append(problem)


def _check_strict(
    node_path: str, node: dict[str, Any], applied: Collection[Applied]
) -> list[Problem]:
    """The strict rules of each convention the node declares, whether or not an ancestor of
    its family already checked it: they are rules on the node's own metadata."""
    problems: list[Problem] = []
    for a in applied:
        if a.entry.strict_schema is not None:
            found = _check_document(node, bundled_schema(a.entry.strict_schema, a.entry.include))
            problems += [_rooted(node_path, p, f"{a.entry.label} (strict)") for p in found]
    return problems


def _check(node_path: str, node: dict[str, Any], entry: Entry, report: Report) -> list[Problem]:
    if entry.schema is None:
        message = f"{entry.name} is known but its schema is not available offline; not checked"
        report.note(Problem(node_path, "", message, "no schema"))
        return []
    zarr_format = node.get("zarr_format")
    if zarr_format in (2, 3) and zarr_format not in entry.zarr_formats:
        versions = " and ".join(f"v{f}" for f in entry.zarr_formats)
        message = (
            f"{entry.name} is defined for Zarr {versions} nodes only (its catalog entry's "
            f"zarr_formats); this Zarr v{zarr_format} node is not checked as {entry.name}"
        )
        report.note(Problem(node_path, "/zarr_format", message, "zarr format"))
        return []
    problems = _check_document(node, bundled_schema(entry.schema, entry.include))
    if _no_members(node):
        # A node's metadata alone (`--attributes`, a convention's examples): every rule of the
        # convention that needs only the metadata is checked, and the members it names are
        # not judged (absent, the relations that reach into them find nothing to compare).
        problems = [p for p in problems if not _members_required(p)]
    for problem in problems:
        if over_budget(problem):  # a rule left unevaluated: its place is not checked
            report.note(replace(_rooted(node_path, problem, entry.label), keyword=RULE_BUDGET))
    return [_rooted(node_path, p, entry.label) for p in problems if not over_budget(p)]


def _check_document(node: dict[str, Any], schema: dict[str, Any]) -> list[Problem]:
    # imported at the first check: a store no convention applies to needs none of the checks
    # (their import is a sixth of `zomgen validate` of a one-node store)
    from zomgen_runtime import check_document

    return check_document(node, schema)


def _members_required(problem: Problem) -> bool:
    return problem.keyword == "required" and problem.message == "'members' is a required property"


def _no_members(node: dict[str, Any]) -> bool:
    """A group's document given without its members (a node's metadata alone)."""
    is_group = node.get("node_type") == "group" or (
        node.get("zarr_format") == 2 and "shape" not in node
    )
    return is_group and "members" not in node


def _declared_node_keys(report: Report) -> frozenset[str]:
    """The node keys the conventions applied anywhere in the run declare."""
    schemas = {
        (a.entry.schema, a.entry.include)
        for applied in report.nodes.values()
        for a in applied
        if a.entry.schema is not None
    }
    return frozenset(key for schema in schemas for key in _keys_declared_by(*schema))


@cache
def _keys_declared_by(schema: Path, include: tuple[Path, ...]) -> frozenset[str]:
    return declared_node_keys(bundled_schema(schema, include))


def _rooted(base: str, problem: Problem, convention: str) -> Problem:
    """A problem of the node at `base`'s document as one of the hierarchy, naming the
    convention whose rule found it."""
    inner = "" if problem.node_path == "/" else problem.node_path
    where = problem.node_path if base == "/" else base + inner
    return replace(problem, node_path=where, convention=convention)
