"""Command line: `zomgen build`, `zomgen site`, `zomgen cases`, `zomgen ir`, `zomgen validate`.

Only argument handling and exit codes live here. Exit codes: 0 success (valid), 1 stale
package (`--check`) or invalid store (`validate`), 2 unusable input. Bad input is reported as
one `file:pointer: message` line per problem on stderr, never as a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from zomgen import __version__
from zomgen.build_cli import add_build, run_build
from zomgen.errors import CompileError, InputProblem
from zomgen.exits import EXIT_OK, EXIT_USAGE, report_input
from zomgen.site_cli import add_site, run_site
from zomgen.terminal import escaped_output
from zomgen.validate_cli import add_validate, run_validate


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"zomgen: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="zomgen", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--version", action="version", version=f"zomgen {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    add_build(sub, _add_include)
    add_site(sub, _add_include)
    _add_cases(sub)
    _add_ir(sub)
    add_validate(sub, _add_include)
    return parser


def _add_include(parser: argparse.ArgumentParser, help: str | None = None) -> None:
    """`-I DIR`, repeatable: the folders of schemas besides the input's that `$ref` may name."""
    parser.add_argument(
        "-I", dest="include", type=Path, action="append", default=[], metavar="DIR", help=help
    )


def _add_cases(sub: argparse._SubParsersAction[_Parser]) -> None:
    cases = sub.add_parser("cases", help="build the package and derive its type-check cases")
    cases.add_argument("schema", type=Path)
    cases.add_argument("-o", "--out", type=Path, required=True, help="folder for package and cases")
    _add_include(cases)
    cases.add_argument("--package", default="convention", help="package name (default: convention)")
    cases.add_argument(
        "--report",
        action="store_true",
        help="print the agreement report (which checker and run time enforces each constraint)",
    )
    cases.add_argument("--format", choices=("text", "json"), default="text", help="of --report")


def _add_ir(sub: argparse._SubParsersAction[_Parser]) -> None:
    show = sub.add_parser("ir", help="print the intermediate representation as JSON")
    show.add_argument("schema", type=Path)
    _add_include(show)


def _ir(args: argparse.Namespace) -> int:
    from zomgen import ir
    from zomgen.pipeline import Options, build_ir, load

    hierarchy = build_ir(load(Options(schema=args.schema, include_dirs=tuple(args.include))))
    print(json.dumps(ir.to_json(hierarchy), indent=2, ensure_ascii=False))
    return EXIT_OK


def _cases(args: argparse.Namespace) -> int:
    from zomgen.cases.derive import derive

    if not args.package.isidentifier():
        problem = InputProblem(args.package, "", "--package must be a Python identifier")
        return report_input([problem])
    derived = derive(args.schema, args.out, tuple(args.include), args.package)
    if args.report:
        from zomgen.cases import report

        shown = report.as_json if args.format == "json" else report.text
        sys.stdout.write(shown(derived.report))
        return EXIT_OK
    for note in derived.notes:
        print(f"zomgen: note: {note}", file=sys.stderr)
    print(
        f"zomgen: {args.out}: {derived.cases} cases of {derived.root} ({derived.source} valid "
        f"hierarchy); run `python {args.out / 'check_cases.py'}`"
    )
    return EXIT_OK


def _printable_streams() -> None:
    """A folder name that is not UTF-8 reaches Python as lone surrogates: print them as
    `\\udcff` (valid UTF-8, and a JSON escape inside `--format json`) instead of raising
    UnicodeEncodeError half way through a report."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    _printable_streams()
    with escaped_output():  # a store's names and values may hold terminal controls
        return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    handlers = {
        "build": run_build,
        "site": run_site,
        "cases": _cases,
        "ir": _ir,
        "validate": run_validate,
    }
    try:
        return handlers[args.command](args)
    except CompileError as exc:
        return report_input(exc.problems)
    except RecursionError:
        return report_input(
            [
                InputProblem(
                    str(getattr(args, "schema", "")), "", "the schema nests too deeply to compile"
                )
            ]
        )
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
