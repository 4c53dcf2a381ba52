"""`zomgen validate`: its options, and the run: a store against one convention (`--schema`),
or each node against the conventions it declares (zomgen/catalog, docs/catalog.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from zomgen.catalog.patterns import NodePattern, node_pattern
from zomgen.convention_option import add_catalog_option, add_schema_option, schema_option
from zomgen.errors import InputProblem
from zomgen.exits import EXIT_OK, EXIT_USAGE, report_input
from zomgen.many_stores import run_many, store_arguments, store_check
from zomgen.outcome import node_paths, only_matched_nothing, outcome
from zomgen.progress import ProgressLine


def add_validate(
    sub: argparse._SubParsersAction[Any], add_include: Callable[[argparse.ArgumentParser], None]
) -> None:
    """The `validate` subcommand and its options (`add_include`: cli.py's `-I`)."""
    validate = sub.add_parser(
        "validate",
        help="check a store against a convention schema, or (without --schema) against each "
        "convention its nodes declare or use",
        epilog="exit status: 0 valid (every node read, every rule that applies checked), "
        "1 invalid (a problem found), 2 unusable input, 3 not fully checked (nothing wrong "
        "found, but some place could not be read or checked: each is listed as 'not checked', "
        "with why; a group the store cannot list, a convention or OME-Zarr version without a "
        "schema, nothing declared, --only matching no node)",
    )
    validate.add_argument(
        "stores",
        nargs="*",
        metavar="STORE",
        help="a path, a zip file or an fsspec URL; several, or a glob ('data/*.zarr'), are "
        "checked a few at a time and summed up in a table (docs/archives.md)",
    )
    validate.add_argument(
        "--stores-from",
        metavar="FILE",
        help="also check the stores listed in FILE, one path or URL a line ('-': standard input)",
    )
    validate.add_argument(
        "--jobs", type=int, default=4, metavar="N", help="stores checked at once (default 4)"
    )
    validate.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="check the stores on the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://host:8786), each store a task (needs `pip install distributed`)",
    )
    add_schema_option(validate, "what the store declares")
    add_include(validate)
    add_catalog_option(validate, "without --schema")
    validate.add_argument("--path", default="", help="node path inside the store (default: root)")
    validate.add_argument(
        "--only",
        metavar="PATTERN",
        help="check only the nodes whose path matches (`/A/*`, `/**/labels`; `**` spans "
        "levels); with --schema, report only their problems",
    )
    validate.add_argument(
        "--format",
        choices=("text", "json", "verdict", "jsonl"),
        default="text",
        help='verdict: one line {"valid": ..., "message": ...} and exit 0 whatever the verdict, '
        "for conformance runners (one store, without --schema); jsonl (several stores): each "
        "store's report on a line as it is checked, then the summary",
    )
    _add_declared_only(validate)
    validate.add_argument(
        "--named-members-only",
        action="store_true",
        help="accept that a store which cannot list its groups (a static HTTP server) is read "
        "by the members the conventions name: valid, not 'not fully checked', and those groups "
        "still listed as not checked",
    )
    consolidated = validate.add_mutually_exclusive_group()
    consolidated.add_argument(
        "--no-consolidated",
        action="store_true",
        help="walk the store even if it has consolidated metadata",
    )
    consolidated.add_argument(
        "--trust-consolidated",
        action="store_true",
        help="take a store's consolidated metadata without reading each node's own files to "
        "compare (one request, not one per node): valid, not 'not fully checked', and the "
        "nodes' files still listed as not checked",
    )
    validate.add_argument(
        "--allow-redirects-to",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="an origin (https://host[:port]) besides the store's own that HTTP redirects may "
        "lead to; '*' for any (repeatable)",
    )


def _add_declared_only(validate: argparse.ArgumentParser) -> None:
    """The options of `zomgen validate STORE` without `--schema` (docs/catalog.md)."""
    validate.add_argument(
        "--attributes",
        action="store_true",
        help="STORE is a JSON file of one node's attributes (without --schema): checked as a "
        "group whose members are not known",
    )
    validate.add_argument(
        "--zarr-format", type=int, choices=(2, 3), default=3, help="of --attributes' group"
    )
    validate.add_argument(
        "--strict",
        action="store_true",
        help="also apply the conventions' strict schemas, where the catalog has them "
        "(OME-Zarr 0.6; without --schema)",
    )


def run_validate(args: argparse.Namespace) -> int:
    """Exit 0 valid, 1 invalid, 2 unusable input (schema, catalog or store), 3 not fully
    checked (zomgen/outcome.py)."""
    only = None
    if args.only is not None:
        try:
            only = node_pattern(args.only)
        except ValueError as exc:
            return report_input([InputProblem("--only", "", str(exc))])
    stores = store_arguments(args.stores, args.stores_from)
    if isinstance(stores, InputProblem):
        return report_input([stores])
    if len(stores) != 1 or args.stores_from is not None or args.format == "jsonl" or args.dask:
        return _validate_many(args, stores, only)
    args.store = stores[0]
    if args.schema is None:
        return _validate_declared(args, only)
    if args.catalog:
        message = "--catalog applies where the store says its conventions: drop --schema"
        return report_input([InputProblem(str(args.catalog[0]), "", message)])
    if args.attributes or args.strict or args.format == "verdict":
        which = "--attributes" if args.attributes else "--strict" if args.strict else ""
        which = which or "--format verdict"
        message = f"{which} applies where the store says its conventions: drop --schema"
        return report_input([InputProblem(str(args.schema), "", message)])
    from zomgen_runtime import VALID, StoreError, check_hierarchy

    document = schema_option(args.schema, tuple(args.include))
    if document is None:
        return EXIT_USAGE
    try:
        checked = check_hierarchy(
            args.store,
            document,
            args.path,
            use_consolidated=not args.no_consolidated,
            check_consolidated=not args.trust_consolidated,
            allow_redirects_to=args.allow_redirects_to,
        )
    except StoreError as exc:
        return _unusable_store(args.store, exc)
    problems, unchecked = checked.problems, list(checked.unchecked)
    if only is not None:
        problems = [p for p in problems if only.covers(p.node_path)]
        unchecked = [u for u in unchecked if only.covers(u.node_path)]
        nothing = only_matched_nothing(only, node_paths(checked.document))
        unchecked += [nothing] if nothing is not None else []
    result = outcome(problems, unchecked, named_members_only=args.named_members_only)
    if args.format == "json":
        report = {
            "status": result.status,
            "valid": result.status == VALID,
            "schema": str(args.schema),
            "problems": [p.to_json() for p in problems],
            "unchecked": result.unchecked_json(),
        }
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        lines = [str(p) for p in problems] + result.unchecked_lines()
        lines.append(f"{args.store}: {result.summary()} ({args.schema})")
        sys.stdout.write("\n".join(lines) + "\n")
    return result.exit_code


def _validate_many(args: argparse.Namespace, stores: list[str], only: NodePattern | None) -> int:
    """Several stores (zomgen/many_stores.py): each checked as one is, then the table."""
    if not stores:
        print("zomgen validate: give a store (a path, a zip or an fsspec URL)", file=sys.stderr)
        return EXIT_USAGE
    refused = "--attributes" if args.attributes else ""
    refused = refused or ("--format verdict" if args.format == "verdict" else "")
    if refused:
        return report_input([InputProblem(refused, "", "checks one store: give one")])
    schema = None
    if args.schema is None and args.include:
        message = "-I resolves a --schema's references; a catalog's are resolved beside it"
        return report_input([InputProblem(str(args.include[0]), "", message)])
    if args.schema is not None:
        if args.catalog or args.strict:
            which = "--catalog" if args.catalog else "--strict"
            message = f"{which} applies where the store says its conventions: drop --schema"
            return report_input([InputProblem(str(args.schema), "", message)])
        schema = schema_option(args.schema, tuple(args.include))
        if schema is None:
            return EXIT_USAGE
    check = store_check(args, schema, only)
    if args.dask is None:
        return run_many(stores, check, args)
    client = _dask_client(args.dask)
    if isinstance(client, int):
        return client
    try:
        return run_many(stores, check, args, client)
    finally:
        client.close()


def _dask_client(address: str) -> Any:
    """A client of the Dask scheduler at `address`, or an exit code (the reason printed)."""
    try:
        import distributed
    except ImportError:
        message = "needs Dask's distributed scheduler: pip install distributed"
        return report_input([InputProblem("--dask", "", message)])
    try:
        # (distributed has no type hints: its Client is typed here as it is used)
        client = cast("Callable[..., Any]", distributed.Client)
        return client(address, timeout=10)
    except (OSError, TimeoutError, ValueError) as exc:
        message = f"no Dask scheduler answers at {address}: {exc}"
        return report_input([InputProblem("--dask", "", message)])


def _validate_declared(args: argparse.Namespace, only: NodePattern | None) -> int:
    """`zomgen validate STORE` without `--schema`: each node against what it declares."""
    from zomgen_runtime import StoreError

    from zomgen.catalog.dispatch import UnreadableFile, validate_attributes, validate_declared

    if args.include:
        message = "-I resolves a --schema's references; a catalog's are resolved beside it"
        return report_input([InputProblem(str(args.include[0]), "", message)])
    try:
        if args.attributes:
            report = validate_attributes(
                Path(args.store),
                zarr_format=args.zarr_format,
                catalogs=args.catalog,
                strict=args.strict,
            )
        else:
            with ProgressLine(sys.stderr) as progress:
                report = validate_declared(
                    args.store,
                    args.path,
                    catalogs=args.catalog,
                    only=only,
                    strict=args.strict,
                    use_consolidated=not args.no_consolidated,
                    check_consolidated=not args.trust_consolidated,
                    named_members_only=args.named_members_only,
                    allow_redirects_to=args.allow_redirects_to,
                    progress=progress.show if progress.shown else None,
                )
    except StoreError as exc:
        if args.format == "verdict" and exc.problems:
            # A store or file that cannot be read is no valid hierarchy: a verdict too.
            message = "; ".join(str(p) for p in exc.problems[:3])
            sys.stdout.write(json.dumps({"valid": False, "message": message}) + "\n")
            # ...but a file that is not there is the command's mistake (docs/catalog.md)
            return EXIT_USAGE if isinstance(exc, UnreadableFile) else EXIT_OK
        return _unusable_store(args.store, exc)
    if args.format == "verdict":
        sys.stdout.write(json.dumps(report.verdict(), ensure_ascii=False) + "\n")
        return EXIT_OK
    if args.format == "json":
        sys.stdout.write(json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(report.text(args.store) + "\n")
    return report.outcome().exit_code


def _unusable_store(store: str, exc: Exception) -> int:
    for problem in getattr(exc, "problems", ()):
        # A problem names its node and file within the store; a remote store's reads
        # ("/: zarr.json: ConnectionRefusedError ...") do not say which store that is.
        line = str(problem)
        print(f"zomgen: {line}" if store in line else f"zomgen: {store}: {line}", file=sys.stderr)
    return EXIT_USAGE
