"""`zomgen build`: arguments, the npm options, and writing (or `--check`ing) the package.

The folder's name names both halves: the Python package imports as it (so it must be an
identifier) and the npm package is called after it (`ome_image` -> `ome-image`), unless
`--npm-name` says otherwise. With `--npm-only` no Python is written, and the folder's name need
only make an npm name.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zomgen.errors import InputProblem
from zomgen.exits import EXIT_FAILED, EXIT_OK, report_input

AddInclude = Callable[[argparse.ArgumentParser, str | None], None]


def add_build(sub: argparse._SubParsersAction[Any], include: AddInclude) -> None:
    build = sub.add_parser("build", help="compile a convention schema into a typed package")
    build.add_argument("schema", type=Path, help="the convention schema (JSON or YAML)")
    build.add_argument("-o", "--out", type=Path, required=True, help="package folder to write")
    include(build, "more folders of schemas that $ref may name (repeatable)")
    build.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 with a diff if the package is stale",
    )
    build.add_argument(
        "--cases",
        type=Path,
        metavar="DIR",
        help="also derive the type-check cases into DIR (as `zomgen cases`) and put the "
        "agreement table in the package README",
    )
    build.add_argument(
        "--vendor-runtime",
        action="store_true",
        help="copy the Python run time into the package as _runtime/ instead of importing the "
        "zomgen-runtime distribution (a self-contained package)",
    )
    npm = build.add_mutually_exclusive_group()
    npm.add_argument(
        "--npm",
        action="store_true",
        help="also make the folder an npm package: package.json, index.ts, and dist/ built by "
        "tsc (needs TypeScript and Ajv from npm; see docs/typescript.md)",
    )
    npm.add_argument(
        "--npm-only", action="store_true", help="write the npm package alone, without the Python"
    )
    build.add_argument("--npm-name", metavar="NAME", help="the npm package's name")
    build.add_argument(
        "--npm-version", metavar="VERSION", help="the npm package's version (default: 0.0.0)"
    )


def _argument_problems(args: argparse.Namespace) -> list[InputProblem]:
    from zomgen.targets.typescript.npm import name_problem, npm_name, version_problem

    problems: list[InputProblem] = []
    npm = args.npm or args.npm_only
    folder = args.out.resolve().name
    if not args.npm_only and not folder.isidentifier():
        message = (
            "the folder's name is the package's import name, so it must be a Python identifier"
        )
        problems.append(InputProblem(str(args.out), "", message))
    if not npm and (args.npm_name is not None or args.npm_version is not None):
        message = "--npm-name and --npm-version describe the npm package: add --npm or --npm-only"
        problems.append(InputProblem("--npm-name", "", message))
    if npm and args.cases is not None:
        message = "--cases derives from the Python package: build the npm package separately"
        problems.append(InputProblem("--cases", "", message))
    name_wrong = name_problem(args.npm_name or npm_name(folder)) if npm else None
    if name_wrong is not None:
        problems.append(InputProblem("--npm-name", "", f"{name_wrong}; choose one with --npm-name"))
    if npm and args.npm_version is not None:
        version_wrong = version_problem(args.npm_version)
        if version_wrong is not None:
            problems.append(InputProblem("--npm-version", "", version_wrong))
    return problems


def run_build(args: argparse.Namespace) -> int:
    from zomgen.pipeline import Options, generate_package
    from zomgen.targets.typescript.npm import DEFAULT_VERSION, NpmPackage, npm_name
    from zomgen.write import stale, write_package

    problems = _argument_problems(args)
    if problems:
        return report_input(problems)
    folder = args.out.resolve().name
    if args.cases is not None:
        return _build_with_cases(args, folder)
    npm = None
    if args.npm or args.npm_only:
        npm = NpmPackage(args.npm_name or npm_name(folder), args.npm_version or DEFAULT_VERSION)
    options = Options(
        schema=args.schema,
        include_dirs=tuple(args.include),
        package=folder if folder.isidentifier() else "convention",
        npm=npm,
        python=not args.npm_only,
        vendor_runtime=args.vendor_runtime,
    )
    generated = generate_package(options)
    for warning in generated.warnings:
        print(f"zomgen: warning: {warning}", file=sys.stderr)
    files = generated.files
    if args.check:
        diffs = stale(files, args.out)
        if diffs:
            sys.stdout.write("".join(diffs))
            print(f"zomgen: {args.out} is stale: run {_command(args)}", file=sys.stderr)
            return EXIT_FAILED
        return EXIT_OK
    written = write_package(files, args.out)
    print(f"zomgen: {args.out}: {len(written)} files written or removed ({len(files)} generated)")
    return EXIT_OK


def _command(args: argparse.Namespace) -> str:
    """The build that would refresh the package, as the user would type it."""
    words = ["zomgen", "build", str(args.schema), "-o", str(args.out)]
    words += [w for folder in args.include for w in ("-I", str(folder))]
    if args.npm or args.npm_only:
        words.append("--npm" if args.npm else "--npm-only")
        words += ["--npm-name", args.npm_name] if args.npm_name else []
        words += ["--npm-version", args.npm_version] if args.npm_version else []
    return "`" + " ".join(words) + "`"


def _build_with_cases(args: argparse.Namespace, name: str) -> int:
    """`zomgen build --cases DIR`: the cases are derived into DIR exactly as `zomgen cases -o DIR
    --package NAME` does, which checks them against the package at DIR/NAME; the package at -o
    is the same files (one and the same folder when DIR is its parent)."""
    from zomgen.cases.derive import derive
    from zomgen.write import differences, stale, write_package

    include = tuple(args.include)
    if args.check:
        import tempfile  # here: every zomgen command imports this module, few build cases

        with tempfile.TemporaryDirectory(prefix="zomgen-cases-") as scratch:
            derived = derive(args.schema, Path(scratch), include, name)
        diffs = stale(derived.package_files, args.out)
        diffs += differences(derived.case_files, args.cases)
        if diffs:
            sys.stdout.write("".join(diffs))
            print(
                f"zomgen: {args.out} or {args.cases} is stale: run `zomgen build {args.schema} "
                f"-o {args.out} --cases {args.cases}`",
                file=sys.stderr,
            )
            return EXIT_FAILED
        return EXIT_OK
    derived = derive(args.schema, args.cases, include, name)
    for warning in derived.warnings:
        print(f"zomgen: warning: {warning}", file=sys.stderr)
    if (args.cases / name).resolve() != args.out.resolve():
        write_package(derived.package_files, args.out)
    for note in derived.notes:
        print(f"zomgen: note: {note}", file=sys.stderr)
    print(
        f"zomgen: {args.out}: package with its agreement report; {args.cases}: {derived.cases} "
        f"cases of {derived.root} ({derived.source} valid hierarchy); run "
        f"`python {args.cases / 'check_cases.py'}`"
    )
    return EXIT_OK
