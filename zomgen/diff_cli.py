"""`zomgen diff A B`: every difference between two hierarchies, each a store or a JSON file of a
ZOM document, at its node path and JSON pointer (zomgen_runtime/diffs.py, docs/diff.md).

Exit 0 the same, 1 different, 2 unusable input, 3 not fully compared: a node of either side
could not be read, or a group's members could not be listed, so the differences shown may not
be all there are; no difference found then is not "the same".
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from zomgen.convention_option import schema_option
from zomgen.errors import InputProblem
from zomgen.exits import EXIT_FAILED, EXIT_OK, EXIT_UNCHECKED, EXIT_USAGE, report_input


def add_diff(sub: argparse._SubParsersAction[Any]) -> None:
    """The `diff` subcommand and its options."""
    diff = sub.add_parser(
        "diff",
        help="list every difference between two hierarchies (stores or ZOM documents)",
        epilog="exit status: 0 the same, 1 different, 2 unusable input, 3 not fully compared "
        "(a node of either side could not be read, or a group's members could not be listed: "
        "each place is listed as 'not compared', with why)",
    )
    diff.add_argument("before", help="a store (path, zip file or fsspec URL) or a .json document")
    diff.add_argument("after", help="the same, compared with the first")
    diff.add_argument(
        "--schema",
        type=Path,
        help="a convention (a schema file, or a bundled one's name): its named members are "
        "read where a store cannot list its groups, and each side's verdict is shown",
    )
    diff.add_argument("--path", default="", help="node path inside each store (default: root)")
    for name, what in (("include", "only these places"), ("exclude", "not these places")):
        diff.add_argument(
            f"--{name}",
            action="append",
            default=[],
            metavar="PATTERN",
            help=f"compare {what} of each node's document: a key name anywhere (history, _NC*) "
            "or a pointer from the top (/attributes/history, /attributes/*/units); repeatable",
        )
    diff.add_argument("--format", choices=("text", "json"), default="text")
    consolidated = diff.add_mutually_exclusive_group()
    consolidated.add_argument(
        "--no-consolidated",
        action="store_true",
        help="walk each store even if it has consolidated metadata",
    )
    consolidated.add_argument(
        "--trust-consolidated",
        action="store_true",
        help="compare what a store's consolidated metadata says, without reading each node's "
        "own files to compare them with it (listed as accepted, not held against the result)",
    )


def run_diff(args: argparse.Namespace) -> int:
    from zomgen_runtime.comparison import compare
    from zomgen_runtime.diffs import place_pattern

    for pattern in (*args.include, *args.exclude):
        try:
            place_pattern(pattern)
        except ValueError as exc:
            return report_input([InputProblem("--include/--exclude", "", str(exc))])
    schema = None
    if args.schema is not None:
        schema = schema_option(args.schema)
        if schema is None:
            return EXIT_USAGE
    sides = []
    for given in (args.before, args.after):
        side = _side(given, schema, args)
        if isinstance(side, int):
            return side
        sides.append(side)
    comparison = compare(*sides, include=args.include, exclude=args.exclude)
    verdicts = None if schema is None else [_verdict(side, schema) for side in sides]
    if args.format == "json":
        _print_json(args, comparison, verdicts)
    else:
        _print_text(args, comparison, verdicts)
    if not comparison.complete:
        return EXIT_UNCHECKED
    return EXIT_FAILED if comparison.differences else EXIT_OK


def _side(given: str, schema: dict[str, Any] | None, args: argparse.Namespace) -> Any:
    """One side read: a `.json` file as a ZOM document, anything else as a store; an exit code
    (the input reported) when it cannot be used."""
    from zomgen_runtime import StoreError
    from zomgen_runtime.comparison import read_side
    from zomgen_runtime.reading import Read

    file = Path(given)
    if given.endswith(".json") and file.is_file():
        try:
            document = json.loads(file.read_text("utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            return report_input([InputProblem(given, "", f"not a JSON document: {exc}")])
        if not isinstance(document, dict):
            return report_input([InputProblem(given, "", "a ZOM document is a JSON object")])
        return Read(document, [])
    try:
        return read_side(
            given,
            schema,
            args.path,
            use_consolidated=not args.no_consolidated,
            check_consolidated=not args.trust_consolidated,
        )
    except StoreError as exc:
        for problem in exc.problems:
            print(f"zomgen: {given}: {problem}", file=sys.stderr)
        return EXIT_USAGE


def _verdict(side: Any, schema: dict[str, Any]) -> dict[str, Any]:
    """A side's verdict under --schema: its status and problems."""
    from zomgen_runtime import Unchecked, check_document, verdict
    from zomgen_runtime.rules import RULE_BUDGET, over_budget

    found = check_document(side.document, schema)
    problems = [*side.problems, *(p for p in found if not over_budget(p))]
    # a rule stopped by its budget found nothing wrong: its place is not checked
    budget = [
        Unchecked(p.node_path, p.pointer, p.message, RULE_BUDGET) for p in found if over_budget(p)
    ]
    held = [u for u in side.unchecked() if not _trusted(u)]  # the user trusted it
    return {"status": verdict(problems, [*held, *budget]), "problems": problems}


def _trusted(place: Any) -> bool:
    """A place the user accepted unread: consolidated metadata trusted (--trust-consolidated)."""
    return getattr(place, "reason", None) == "trusted"


def _not_compared(comparison: Any) -> list[tuple[str, Any]]:
    """(side, place) for every node not read and group not listed, before's first."""
    return [
        (name, place)
        for name, side in (("before", comparison.before), ("after", comparison.after))
        for place in (*side.problems, *side.unchecked())
    ]


def _print_text(args: argparse.Namespace, comparison: Any, verdicts: Any) -> None:
    lines = [str(d) for d in comparison.differences]
    lines += [
        f"not compared{' (--trust-consolidated)' if _trusted(place) else ''} ({name}): {place}"
        for name, place in _not_compared(comparison)
    ]
    for name, given, found in zip(("before", "after"), (args.before, args.after), verdicts or ()):
        problems = found["problems"]
        several = "s" if len(problems) != 1 else ""
        shown = (
            f"{found['status']} ({len(problems)} problem{several})" if problems else found["status"]
        )
        lines.append(f"{name}: {given}: {shown} ({args.schema})")
    differences = len(comparison.differences)
    if not comparison.complete:
        summary = f"not fully compared: {_count(differences)} in what was read"
    elif differences:
        summary = _count(differences)
    else:
        summary = "the same"
    lines.append(f"{args.before} -> {args.after}: {summary}")
    sys.stdout.write("\n".join(lines) + "\n")


def _print_json(args: argparse.Namespace, comparison: Any, verdicts: Any) -> None:
    report: dict[str, Any] = {
        "same": comparison.complete and not comparison.differences,
        "complete": comparison.complete,
        "before": args.before,
        "after": args.after,
        "differences": [d.to_json() for d in comparison.differences],
        "not_compared": [
            {"side": name, **place.to_json(), "accepted": _trusted(place)}
            for name, place in _not_compared(comparison)
        ],
    }
    if verdicts is not None:
        report["schema"] = str(args.schema)
        report["verdicts"] = [
            {"side": name, "status": v["status"], "problems": [p.to_json() for p in v["problems"]]}
            for name, v in zip(("before", "after"), verdicts, strict=True)
        ]
    sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")


def _count(differences: int) -> str:
    return f"{differences} difference{'s' if differences != 1 else ''}"
