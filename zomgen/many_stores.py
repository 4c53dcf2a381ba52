"""`zomgen validate` of many stores in one call (issue 57, docs/archives.md): the stores given
as arguments, globs (expanded here, so a quoted pattern works in any shell) and `--stores-from
FILE` (one path or URL a line), checked a few at a time, each exactly as `zomgen validate STORE`
checks one; then one line per problem, a table (store, verdict, problems, places not checked,
conventions and versions), a histogram of the conventions, and the counts.

A store that cannot be read is "unusable" in its row, not the end of the run. The exit status
says the worst found: 1 if any store is invalid, else 2 if any is unusable, else 3 if any is not
fully checked, else 0. `--format json` gives every store's report and the summary at the end;
`--format jsonl` gives each store's report on its own line as soon as it is checked (in the
order they finish), then the summary, for a CI log or a pipe that wants them as they come.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from zomgen_runtime import INVALID, NOT_FULLY_CHECKED, VALID, Problem

from zomgen.catalog.patterns import NodePattern
from zomgen.errors import InputProblem
from zomgen.exits import EXIT_FAILED, EXIT_OK, EXIT_UNCHECKED, EXIT_USAGE
from zomgen.outcome import node_paths, only_matched_nothing, outcome
from zomgen.progress import ProgressLine

UNUSABLE = "unusable"
# The worst verdict decides the exit status: an invalid store first, as CI wants it named.
_WORST_FIRST = ((INVALID, EXIT_FAILED), (UNUSABLE, EXIT_USAGE), (NOT_FULLY_CHECKED, EXIT_UNCHECKED))
_GLOB = set("*?[")


@dataclass(frozen=True)
class StoreVerdict:
    """One store's verdict, its problems (and why it could not be read, where it could not), the
    places not checked (as `--format json` gives them: each with `accepted`), and the conventions
    and versions it was checked against."""

    store: str
    status: str
    problems: tuple[Problem, ...] = ()
    unchecked: tuple[dict[str, object], ...] = ()
    conventions: tuple[str, ...] = ()
    unreadable: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "store": self.store,
            "status": self.status,
            "conventions": list(self.conventions),
            "problems": [p.to_json() for p in self.problems],
            "unchecked": list(self.unchecked),
        }
        if self.unreadable:
            found["unreadable"] = list(self.unreadable)
        return found


def store_arguments(given: list[str], stores_from: str | None) -> list[str] | InputProblem:
    """The stores to check, in order and each once: the arguments (a glob expanded, sorted; a
    path that exists as written taken as it is), then the lines of `stores_from` ("-" for
    standard input; blank lines and `#` comments skipped). An input problem where a glob
    matches nothing or the file cannot be read."""
    stores: list[str] = []
    for argument in given:
        if _GLOB & set(argument) and "://" not in argument and not Path(argument).exists():
            import glob  # imported here: one store's run needs none of this

            matched = sorted(glob.glob(argument))
            if not matched:
                return InputProblem(argument, "", "this pattern matches no file or folder")
            stores += matched
        else:
            stores.append(argument)
    if stores_from is not None:
        try:
            text = sys.stdin.read() if stores_from == "-" else Path(stores_from).read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            return InputProblem(stores_from, "", f"cannot read the list of stores: {exc}")
        lines = (line.strip() for line in text.splitlines())
        stores += [line for line in lines if line and not line.startswith("#")]
    return list(dict.fromkeys(stores))


@dataclass(frozen=True)
class StoreCheck:
    """How each store is checked, as `zomgen validate STORE` checks one: against `schema` (a
    bundled document, named `schema_name` in the reports) or, where it is None, against the
    conventions each node declares. A module-level class, so that a Dask worker unpickles it
    by name; called with a store (and where it lies for the worker, if elsewhere)."""

    schema: dict[str, Any] | None = None
    schema_name: str = ""
    path: str = ""
    catalogs: tuple[Path, ...] = ()
    only: NodePattern | None = None
    strict: bool = False
    use_consolidated: bool = True
    check_consolidated: bool = True
    named_members_only: bool = False
    allow_redirects_to: tuple[str, ...] = ()

    def __call__(self, store: str, location: str | None = None) -> StoreVerdict:
        from zomgen_runtime import StoreError

        try:
            if self.schema is None:
                return self._declared(store, location or store)
            return self._against_schema(store, location or store, self.schema)
        except StoreError as exc:
            return StoreVerdict(store, UNUSABLE, unreadable=tuple(str(p) for p in exc.problems))

    def _against_schema(self, store: str, location: str, schema: dict[str, Any]) -> StoreVerdict:
        from zomgen_runtime import check_hierarchy

        checked = check_hierarchy(
            location,
            schema,
            self.path,
            use_consolidated=self.use_consolidated,
            check_consolidated=self.check_consolidated,
            allow_redirects_to=self.allow_redirects_to,
        )
        problems, unchecked = checked.problems, list(checked.unchecked)
        if self.only is not None:
            problems = [p for p in problems if self.only.covers(p.node_path)]
            unchecked = [u for u in unchecked if self.only.covers(u.node_path)]
            nothing = only_matched_nothing(self.only, node_paths(checked.document))
            unchecked += [nothing] if nothing is not None else []
        result = outcome(problems, unchecked, named_members_only=self.named_members_only)
        places = tuple(result.unchecked_json())
        return StoreVerdict(store, result.status, tuple(problems), places, (self.schema_name,))

    def _declared(self, store: str, location: str) -> StoreVerdict:
        from zomgen.catalog.dispatch import validate_declared

        report = validate_declared(
            location,
            self.path,
            catalogs=self.catalogs,
            only=self.only,
            strict=self.strict,
            use_consolidated=self.use_consolidated,
            check_consolidated=self.check_consolidated,
            named_members_only=self.named_members_only,
            allow_redirects_to=self.allow_redirects_to,
        )
        applied = {a.entry.label for found in report.nodes.values() for a in found}
        places = tuple(report.outcome().unchecked_json())
        return StoreVerdict(
            store, report.status, tuple(report.problems), places, tuple(sorted(applied))
        )


def store_check(
    args: argparse.Namespace, schema: dict[str, Any] | None, only: NodePattern | None
) -> StoreCheck:
    """The check `zomgen validate`'s options ask for."""
    return StoreCheck(
        schema=schema,
        schema_name=str(args.schema) if schema is not None else "",
        path=args.path,
        catalogs=tuple(args.catalog),
        only=only,
        strict=args.strict,
        use_consolidated=not args.no_consolidated,
        check_consolidated=not args.trust_consolidated,
        named_members_only=args.named_members_only,
        allow_redirects_to=tuple(args.allow_redirects_to),
    )


def validate_stores(
    stores: Iterable[str], check: StoreCheck | None = None, *, jobs: int = 4, client: Any = None
) -> Iterator[StoreVerdict]:
    """Each store's verdict as soon as it is found (in the order they finish): `jobs` stores at
    a time in this process (their reads wait on the network or the disk; each store's own reads
    are many at a time already), or, given a `dask.distributed.Client`, each store a task on its
    cluster. A local path is given to the workers whole (they may run elsewhere), and reported
    as it was given."""
    check = check or StoreCheck()
    given = list(stores)
    if client is not None:
        import distributed

        # (distributed has no type hints: its as_completed is typed here as it is used)
        finished = cast("Callable[[list[Any]], Iterable[Any]]", distributed.as_completed)
        locations = [_whole(store) for store in given]
        futures = client.map(check, given, locations, pure=False)
        for future in finished(futures):
            yield future.result()
        return
    from concurrent.futures import ThreadPoolExecutor, as_completed

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for future in as_completed([pool.submit(check, store) for store in given]):
            yield future.result()


def _whole(store: str) -> str:
    """A store's path made absolute where it is a local path that exists; anything else as is."""
    if "://" in store or not Path(store).exists():
        return store
    return str(Path(store).resolve())


def run_many(
    stores: list[str], check: StoreCheck, args: argparse.Namespace, client: Any = None
) -> int:
    """Check every store (`args.jobs` at a time, or on `client`'s cluster); print what
    `args.format` asks; the exit code."""
    found: dict[str, StoreVerdict] = {}
    with ProgressLine(sys.stderr) as progress:
        for verdict in validate_stores(stores, check, jobs=args.jobs, client=client):
            found[verdict.store] = verdict
            if args.format == "jsonl":
                sys.stdout.write(json.dumps(verdict.to_json(), ensure_ascii=False) + "\n")
                sys.stdout.flush()
            if progress.shown:
                progress.show("checked", len(found), f"of {len(stores):,} stores")
    verdicts = [found[store] for store in stores]
    summary = _summary(verdicts)
    if args.format == "jsonl":
        sys.stdout.write(json.dumps({"summary": summary}, ensure_ascii=False) + "\n")
    elif args.format == "json":
        report = {"stores": [v.to_json() for v in verdicts], "summary": summary}
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write("\n".join(_text(verdicts, summary)) + "\n")
    statuses = {v.status for v in verdicts}
    return next((code for status, code in _WORST_FIRST if status in statuses), EXIT_OK)


def _summary(verdicts: list[StoreVerdict]) -> dict[str, Any]:
    counted = Counter(v.status for v in verdicts)
    conventions = Counter(c for v in verdicts for c in v.conventions)
    unchecked = sum(1 for v in verdicts if not v.conventions and v.status != UNUSABLE)
    return {
        "stores": len(verdicts),
        **{status: counted[status] for status in (VALID, INVALID, NOT_FULLY_CHECKED, UNUSABLE)},
        "conventions": dict(sorted(conventions.items(), key=lambda item: (-item[1], item[0]))),
        "checked against none": unchecked,
    }


def _text(verdicts: list[StoreVerdict], summary: dict[str, Any]) -> list[str]:
    """Each store's problems and places not checked (named by store), the table, the
    histogram of conventions, and the counts."""
    lines: list[str] = []
    for v in verdicts:
        lines += [
            f"{v.store}: {p}" + (f" [{p.convention}]" if p.convention else "") for p in v.problems
        ]
        lines += [f"{v.store}: cannot be read: {why}" for why in v.unreadable]
        lines += [
            f"{v.store}: not checked{' (accepted)' if u['accepted'] else ''}: {u['node_path']}: "
            f"{u['message']}"
            for u in v.unchecked
        ]
    rows = [("store", "verdict", "problems", "not checked", "conventions")]
    for v in verdicts:
        held = sum(1 for u in v.unchecked if not u["accepted"])
        conventions = ", ".join(v.conventions) or "-"
        rows.append((v.store, v.status, str(len(v.problems)), str(held), conventions))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines += [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[4] for row in rows
    ]
    histogram = [
        f"{name} ({count} store{'s' if count != 1 else ''})"
        for name, count in summary["conventions"].items()
    ]
    if summary["checked against none"]:
        none = summary["checked against none"]
        histogram.append(f"none ({none} store{'s' if none != 1 else ''})")
    lines.append("conventions: " + (", ".join(histogram) or "none"))
    counts = ", ".join(f"{summary[s]} {s}" for s in (VALID, INVALID, NOT_FULLY_CHECKED, UNUSABLE))
    lines.append(f"{summary['stores']} stores: {counts}")
    return lines
