"""`zomgen validate STORE --schema SCHEMA`: check a store against a convention without
generating a package. Exit 0 valid, 1 invalid, 2 unusable input (schema or store)."""

from __future__ import annotations

import argparse
import sys

from zomgen.runtime import StoreError, format_problems_text, problems_to_json, validate_store
from zomgen.schema.bundle import bundle
from zomgen.schema.registry import load_schema_set


def run(args: argparse.Namespace) -> int:
    schema = bundle(load_schema_set(args.schema, list(args.include)))
    try:
        problems = validate_store(
            args.store,
            schema,
            args.path,
            use_consolidated=not args.no_consolidated,
            allow_redirects_to=args.allow_redirects_to,
        )
    except StoreError as exc:
        for problem in exc.problems:
            # A problem names its node and file within the store; a remote store's reads
            # ("/: zarr.json: ConnectionRefusedError ...") do not say which store that is.
            line = str(problem)
            print(
                f"zomgen: {line}" if args.store in line else f"zomgen: {args.store}: {line}",
                file=sys.stderr,
            )
        return 2
    if args.format == "json":
        sys.stdout.write(problems_to_json(problems) + "\n")
    elif problems:
        sys.stdout.write(format_problems_text(problems) + "\n")
    else:
        print(f"{args.store}: valid ({args.schema})")
    return 1 if problems else 0
