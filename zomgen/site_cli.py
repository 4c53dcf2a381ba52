"""`zomgen site SCHEMA -o DIR`: the convention's validator page, written to DIR (index.html and
app.js, with a manifest like a package's, so a rebuild replaces only what zomgen wrote)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from zomgen.build_cli import AddInclude
from zomgen.exits import EXIT_FAILED, EXIT_OK


def add_site(sub: argparse._SubParsersAction[Any], include: AddInclude) -> None:
    site = sub.add_parser(
        "site",
        help="write the convention's validator page: one HTML file and its bundled script "
        "(needs esbuild, Ajv and zarrita from npm; see docs/site.md)",
    )
    site.add_argument("schema", type=Path, help="the convention schema (JSON or YAML)")
    site.add_argument("-o", "--out", type=Path, required=True, help="folder to write the page to")
    include(site, "more folders of schemas that $ref may name (repeatable)")
    site.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 with a diff if it is stale"
    )


def run_site(args: argparse.Namespace) -> int:
    from zomgen.pipeline import Options, generate_site
    from zomgen.write import stale, write_package

    generated = generate_site(Options(schema=args.schema, include_dirs=tuple(args.include)))
    for warning in generated.warnings:
        print(f"zomgen: warning: {warning}", file=sys.stderr)
    if args.check:
        diffs = stale(generated.files, args.out)
        if diffs:
            sys.stdout.write("".join(diffs))
            stale_note = (
                f"zomgen: {args.out} is stale: run `zomgen site {args.schema} -o {args.out}`"
            )
            print(stale_note, file=sys.stderr)
            return EXIT_FAILED
        return EXIT_OK
    write_package(generated.files, args.out)
    print(f"zomgen: {args.out / 'index.html'}: the convention's validator page")
    return EXIT_OK
