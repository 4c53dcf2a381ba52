"""`zomgen consolidate STORE`: write consolidated metadata for a hierarchy only once it has been
read from its nodes' own files and found valid, against `--schema` or the conventions it
declares (zomgen_runtime/consolidating.py, docs/consolidate.md).

Exit 0 written, 1 invalid (nothing written), 2 unusable input, 3 not fully checked (nothing
written): consolidated metadata says "this is the hierarchy" to every reader after, so it is
written only where the check looked everywhere.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from zomgen.convention_option import add_catalog_option, add_schema_option, schema_option
from zomgen.errors import InputProblem
from zomgen.exits import EXIT_OK, EXIT_USAGE, report_input
from zomgen.outcome import outcome


def add_consolidate(sub: argparse._SubParsersAction[Any]) -> None:
    """The `consolidate` subcommand and its options."""
    consolidate = sub.add_parser(
        "consolidate",
        help="write a store's consolidated metadata (v3 inline, v2 .zmetadata), only if the "
        "hierarchy its files make is valid",
        epilog="exit status: 0 written, 1 invalid (nothing written), 2 unusable input, "
        "3 not fully checked (nothing written: each place is listed as 'not checked')",
    )
    consolidate.add_argument("store", help="a folder, a zip file or a writable fsspec URL")
    add_schema_option(
        consolidate, "the conventions the store declares, as `zomgen validate` finds them"
    )
    add_catalog_option(consolidate, "without --schema")
    consolidate.add_argument(
        "--path", default="", help="the group to consolidate, inside the store (default: root)"
    )
    consolidate.add_argument("--format", choices=("text", "json"), default="text")


def run_consolidate(args: argparse.Namespace) -> int:
    from zomgen_runtime import StoreError
    from zomgen_runtime.consolidating import consolidate_store

    if args.schema is not None and args.catalog:
        message = "--catalog applies where the store says its conventions: drop --schema"
        return report_input([InputProblem(str(args.catalog[0]), "", message)])
    check = _check(args)
    if isinstance(check, int):
        return check
    try:
        done = consolidate_store(args.store, args.path, check=check)
    except StoreError as exc:
        for problem in exc.problems:
            print(f"zomgen: {args.store}: {problem}", file=sys.stderr)
        return EXIT_USAGE
    result = outcome(done.checked.problems, done.checked.unchecked)
    if args.format == "json":
        report = {
            "status": result.status,
            "written": done.written,
            "nodes": done.nodes,
            "problems": [p.to_json() for p in result.problems],
            "unchecked": result.unchecked_json(),
        }
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        lines = [str(p) for p in result.problems] + result.unchecked_lines()
        if done.written is not None:
            several = "s" if done.nodes != 1 else ""
            lines.append(
                f"{args.store}: consolidated {done.nodes} node{several} into {done.written}"
            )
        else:
            lines.append(f"{args.store}: {result.summary()}: nothing written")
        sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_OK if done.written is not None else result.exit_code


def _check(args: argparse.Namespace) -> Any:
    """What reads the hierarchy from its files and checks it, or an exit code (input reported)."""
    from zomgen_runtime import Checked, StoreError, check_hierarchy

    if args.schema is not None:
        schema = schema_option(args.schema)
        if schema is None:
            return EXIT_USAGE
        return lambda: check_hierarchy(args.store, schema, args.path, use_consolidated=False)

    from zomgen.catalog.dispatch import validate_declared

    def declared() -> Checked:
        report = validate_declared(
            args.store, args.path, catalogs=args.catalog, use_consolidated=False
        )
        if report.document is None:  # never: validate_declared raises for an unusable store
            raise StoreError([])
        return Checked(report.document, report.problems, report.unchecked)

    return declared
