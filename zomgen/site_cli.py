"""`zomgen site SCHEMA -o DIR`: the convention's validator page, written to DIR (index.html and
app.js, with a manifest like a package's, so a rebuild replaces only what zomgen wrote).
`zomgen site -o DIR` (no schema): the catalog page, which checks each node against the
conventions it declares, as `zomgen validate STORE` does; `--catalog FILE` adds a catalog."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from zomgen.build_cli import AddInclude
from zomgen.convention_option import add_catalog_option
from zomgen.errors import InputProblem
from zomgen.exits import EXIT_FAILED, EXIT_OK, report_input


def add_site(sub: argparse._SubParsersAction[Any], include: AddInclude) -> None:
    site = sub.add_parser(
        "site",
        help="write a validator page: one HTML file and its bundled script; without a schema, "
        "the catalog page (needs esbuild, Ajv and zarrita from npm; see docs/site.md)",
    )
    site.add_argument(
        "schema",
        type=Path,
        nargs="?",
        help="the convention schema (JSON or YAML); without it, the page checks what each node "
        "declares",
    )
    site.add_argument("-o", "--out", type=Path, required=True, help="folder to write the page to")
    include(site, "more folders of schemas that $ref may name (repeatable)")
    add_catalog_option(site, "for the catalog page")
    site.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 with a diff if it is stale"
    )


def run_site(args: argparse.Namespace) -> int:
    from zomgen.pipeline import Generated, Options
    from zomgen.site.generate import generate_catalog_site, generate_site
    from zomgen.write import stale, write_package

    if args.schema is not None and args.catalog:
        message = "--catalog is for the catalog page: drop the schema, or drop --catalog"
        return report_input([InputProblem(str(args.catalog[0]), "", message)])
    if args.schema is None and args.include:
        message = "-I names folders for a schema's $refs: give the schema, or drop -I"
        return report_input([InputProblem(str(args.include[0]), "", message)])
    generated: Generated
    if args.schema is None:
        import html  # here: every zomgen command imports this module

        shown = [html.escape(str(path)) for path in args.catalog]
        generated = generate_catalog_site(args.catalog, shown)
        again = " ".join(["zomgen site", *(f"--catalog {c}" for c in args.catalog)])
    else:
        generated = generate_site(Options(schema=args.schema, include_dirs=tuple(args.include)))
        again = f"zomgen site {args.schema}"
    for warning in generated.warnings:
        print(f"zomgen: warning: {warning}", file=sys.stderr)
    if args.check:
        diffs = stale(generated.files, args.out)
        if diffs:
            sys.stdout.write("".join(diffs))
            print(f"zomgen: {args.out} is stale: run `{again} -o {args.out}`", file=sys.stderr)
            return EXIT_FAILED
        return EXIT_OK
    write_package(generated.files, args.out)
    what = "the convention's" if args.schema is not None else "the catalog's"
    print(f"zomgen: {args.out / 'index.html'}: {what} validator page")
    return EXIT_OK
