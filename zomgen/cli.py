"""Command line: `zomgen build`, `zomgen site`, `zomgen cases`, `zomgen ir`, `zomgen validate`.

Only argument handling and exit codes live here. Exit codes: 0 success (valid), 1 stale
package (`--check`) or invalid store (`validate`), 2 unusable input. Bad input is reported as
one `file:pointer: message` line per problem on stderr, never as a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from zomgen import __version__
from zomgen.errors import CompileError, InputProblem
from zomgen.exits import EXIT_OK, EXIT_USAGE, report_input
from zomgen.terminal import escaped_output

COMMANDS = ("build", "site", "cases", "ir", "validate", "diff", "consolidate")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"zomgen: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; given the command asked for, with that command alone: a
    command's module is imported only where it is parsed, so `zomgen validate` does not import
    the modules of build and site (docs/performance.md, "Start-up")."""
    parser = _Parser(prog="zomgen", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--version", action="version", version=f"zomgen {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    wanted = COMMANDS if command is None else (command,)
    if "build" in wanted:
        from zomgen.build_cli import add_build

        add_build(sub, _add_include)
    if "site" in wanted:
        from zomgen.site_cli import add_site

        add_site(sub, _add_include)
    if "cases" in wanted:
        _add_cases(sub)
    if "ir" in wanted:
        _add_ir(sub)
    if "validate" in wanted:
        from zomgen.validate_cli import add_validate

        add_validate(sub, _add_include)
    if "diff" in wanted:
        from zomgen.diff_cli import add_diff

        add_diff(sub)
    if "consolidate" in wanted:
        from zomgen.consolidate_cli import add_consolidate

        add_consolidate(sub)
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


def _handler(command: str) -> Callable[[argparse.Namespace], int]:
    """The function that runs `command`, its module imported now."""
    if command == "build":
        from zomgen.build_cli import run_build

        return run_build
    if command == "site":
        from zomgen.site_cli import run_site

        return run_site
    if command == "validate":
        from zomgen.validate_cli import run_validate

        return run_validate
    if command == "diff":
        from zomgen.diff_cli import run_diff

        return run_diff
    if command == "consolidate":
        from zomgen.consolidate_cli import run_consolidate

        return run_consolidate
    return _cases if command == "cases" else _ir


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
    given = list(sys.argv[1:] if argv is None else argv)
    command = given[0] if given and given[0] in COMMANDS else None
    args = _parser(command).parse_args(given)
    try:
        return _handler(args.command)(args)
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
