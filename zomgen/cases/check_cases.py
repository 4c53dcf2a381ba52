"""Run the derived type-check cases of this folder (written by `zomgen cases`), standard library
only: mypy, pyright, pyrefly, ty and tsc must report exactly the expected (file, line, code) on
the case files, and the run times must agree: the package's `parse` (and, with Node, its
validate.ts) accepts the valid hierarchy and refuses every mutated one at its pointer.

    python check_cases.py [--skip-missing] [--checkers mypy,pyright,...] [--tsc PATH] [--exact]

Exit 0 when everything agrees, 1 on any difference or on a checker that is not installed
(unless --skip-missing), 2 on bad arguments. A difference is a case a checker must reject and
accepts, a finding on a line that is no mistake, or a run-time twin that disagrees; a case
rejected with another code than the expected one is a note (with --exact, a difference).

This one file is longer than zomgen's 400-line rule for modules on purpose: `zomgen cases`
copies it verbatim into each output folder, to be run there with nothing but the standard
library, so it cannot import from siblings.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CHECKERS = ("mypy", "pyright", "pyrefly", "ty", "tsc")
PYREFLY_ARGS = ["--preset", "strict", "--min-severity", "warn", "--enabled-ignores", "pyrefly"]
TY_RULES_OFF = (
    "missing-override-decorator",
    "redundant-condition-strict",
    "truthiness-test-of-none-union",
    "unsound-assignment",
    "unsound-return",
    "unsound-yield",
)
TY_RULES = (
    "rules = {" + ", ".join(['all = "error"', *(f'{r} = "ignore"' for r in TY_RULES_OFF)]) + "}"
)
# tsc's "did you mean" form of TS2322 counts as TS2322.
TSC_ALIASES = {"TS2820": "TS2322"}
MYPY_LINE = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+): error: (?P<message>.*)  \[(?P<code>[a-z-]+)\]$"
)
TSC_LINE = re.compile(
    r"^(?P<file>[^(\s][^(]*)\((?P<line>\d+),\d+\): error (?P<code>TS\d+): (?P<message>.*)$"
)

Finding = tuple[str, int, str]  # (file relative to this folder, line, code)
Said = dict[Finding, str]  # each finding -> the checker's own message


def load_cases() -> list[dict[str, Any]]:
    return [json.loads(p.read_text("utf-8")) for p in sorted(HERE.glob("*_cases/cases.json"))]


def expected(
    suites: list[dict[str, Any]], checker: str
) -> tuple[set[Finding], set[tuple[str, int]]]:
    """What `checker` must report, and the lines where it may say anything (mypy's any dict
    below a union holding `_MypyFallback`)."""
    language = "typescript" if checker == "tsc" else "python"
    want: set[Finding] = set()
    loose: set[tuple[str, int]] = set()
    for suite in suites:
        for case in suite["cases"]:
            where = case["lines"].get(language)
            if where is None:
                continue
            codes = case["expect"][checker]
            if codes is None:
                loose.add((where[0], where[1]))
            want.update((where[0], where[1], code) for code in codes or [])
    return want, loose


def _tool(name: str) -> str | None:
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


def _tsc(option: str | None) -> str | None:
    if option:
        return option if Path(option).is_file() else None
    for folder in (HERE, *HERE.parents):
        candidate = folder / "node_modules" / ".bin" / "tsc"
        if candidate.exists():
            return str(candidate)
    return shutil.which("tsc")


def _run(command: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=HERE, capture_output=True, text=True, check=False, env=env)


def _rel(path: str) -> str:
    p = Path(path)
    return (p.resolve().relative_to(HERE) if p.is_absolute() else p).as_posix()


def run_checker(checker: str, files: list[str], tsc: str | None) -> Said | str:
    """The checker's findings with its own message for each, or why it could not run."""
    if checker == "mypy":
        if importlib.util.find_spec("mypy") is None:
            return "not installed"
        result = _run([sys.executable, "-m", "mypy", "--config-file", "mypy.ini", *files])
        return {
            (_rel(m["file"]), int(m["line"]), m["code"]): m["message"]
            for m in _matches(MYPY_LINE, result)
        }
    if checker == "tsc":
        if tsc is None:
            return "not installed"
        result = _run([tsc, "-p", "tsconfig.json", "--pretty", "false"])
        return {
            (_rel(m["file"]), int(m["line"]), TSC_ALIASES.get(m["code"], m["code"])): m["message"]
            for m in _matches(TSC_LINE, result)
        }
    tool = _tool(checker)
    if tool is None:
        return "not installed"
    if checker == "pyright":
        result = _run([tool, "--outputjson", "-p", ".", "--pythonpath", sys.executable])
        report = json.loads(result.stdout or "{}")
        return {
            (_rel(d["file"]), d["range"]["start"]["line"] + 1, d.get("rule", "")): d["message"]
            for d in report.get("generalDiagnostics", [])
            if d["severity"] == "error"
        }
    if checker == "pyrefly":
        command = [tool, "check", "--python-interpreter-path", sys.executable]
        command += ["--output-format", "json", "--summary=none", "--search-path", "."]
        result = _run([*command, *PYREFLY_ARGS, *files])
        report = json.loads(result.stdout or '{"errors": []}')
        return {
            (_rel(e["path"]), e["line"], e["name"]): e.get("concise_description", "")
            for e in report["errors"]
        }
    command = [tool, "check", "--python", sys.executable, "--output-format", "gitlab"]
    command += ["--no-progress", "-c", TY_RULES, "--extra-search-path", ".", *files]
    result = _run(command)
    return {
        (
            _rel(d["location"]["path"]),
            d["location"]["positions"]["begin"]["line"],
            d["check_name"],
        ): d.get("description", "")
        for d in json.loads(result.stdout or "[]")
    }


def _matches(pattern: re.Pattern[str], result: subprocess.CompletedProcess[str]) -> list[Any]:
    found = [pattern.match(line) for line in result.stdout.splitlines()]
    return [m for m in found if m is not None]


# Follow-on findings: on a line that fails as expected, pyright may also find the variable's
# inferred type partly unknown (a mutation that empties a dict leaves `dict[Unknown, Unknown]`
# in what it infers). They say nothing new about the mistake, so only the expected code counts.
FOLLOW_ON = {"pyright": frozenset(("reportUnknownVariableType", "reportUnknownArgumentType"))}


def compare(checker: str, said: Said, suites: list[dict[str, Any]]) -> list[str]:
    want, loose = expected(suites, checker)
    got = set(said)
    failing = {(f[0], f[1]) for f in want}
    follow_on = FOLLOW_ON.get(checker, frozenset())
    got = {
        f
        for f in got
        if (f[0], f[1]) not in loose and not (f[2] in follow_on and (f[0], f[1]) in failing)
    }
    names = _names(suites, "typescript" if checker == "tsc" else "python")
    missing = [f"{checker}: missing {_show(f, names)}" for f in sorted(want - got)]
    extra = [f"{checker}: unexpected {_show(f, names, said)}" for f in sorted(got - want)]
    return missing + extra


def compare_lines(
    checker: str, said: Said, suites: list[dict[str, Any]]
) -> tuple[list[str], list[str]]:
    """The default comparison, line by line: (failures, notes). A failure is a case line the
    checker must reject and does not, or a finding on a line that is no mistake (the valid
    hierarchy, an import); a note is a rejection with another code than the expected one, or a
    rejection of a case the expectations call run-time only for this checker (stricter than
    the report says, never wrong about a valid document)."""
    want, loose = expected(suites, checker)
    names = _names(suites, "typescript" if checker == "tsc" else "python")
    expected_at: dict[tuple[str, int], set[str]] = {}
    for file, line, code in want:
        expected_at.setdefault((file, line), set()).add(code)
    got_at: dict[tuple[str, int], set[str]] = {}
    for file, line, code in said:
        if (file, line) not in loose:
            got_at.setdefault((file, line), set()).add(code)
    failures: list[str] = []
    notes: list[str] = []
    for where, codes in sorted(expected_at.items()):
        found = got_at.get(where, set())
        label = _show((*where, ",".join(sorted(codes))), names)
        if not found:
            failures.append(f"{checker}: accepts {label}")
        elif found != codes:
            notes.append(f"{checker}: rejects with [{','.join(sorted(found))}] {label}")
            notes.extend(_saying(where, found, said))
    for where, codes in sorted(got_at.items()):
        if where in expected_at:
            continue
        label = _show((*where, ",".join(sorted(codes))), names)
        if where in names:
            notes.append(f"{checker}: also rejects {label}, called run-time only")
            notes.extend(_saying(where, codes, said))
        else:
            failures.append(f"{checker}: unexpected {label}")
            failures.extend(_saying(where, codes, said))
    return failures, notes


def _names(suites: list[dict[str, Any]], language: str) -> dict[tuple[str, int], str]:
    names: dict[tuple[str, int], str] = {}
    for suite in suites:
        for case in suite["cases"]:
            where = case["lines"].get(language)
            if where:
                names[(where[0], where[1])] = f"{case['name']} {case['kind']} ({case['what']})"
    return names


def _show(finding: Finding, names: dict[tuple[str, int], str], said: Said | None = None) -> str:
    """`file:line [code]`, the case on that line (or the line's own text when it holds none),
    and the checker's own message when there is one."""
    label = names.get((finding[0], finding[1])) or f"not a case line: {_source(*finding[:2])}"
    shown = f"{finding[0]}:{finding[1]} [{finding[2]}] {label}"
    if said and said.get(finding):
        shown += f"\n    the checker says: {said[finding]}"
    return shown


def _saying(where: tuple[str, int], codes: set[str], said: Said) -> list[str]:
    """The checker's own message for each of its codes on that line, indented."""
    return [
        f"    the checker says [{code}]: {said[(*where, code)]}"
        for code in sorted(codes)
        if said.get((*where, code))
    ]


def _source(file: str, line: int) -> str:
    """The text of `file` (relative to this folder) at `line`, shortened: what a finding on a
    line that holds no case is about."""
    try:
        text = (HERE / file).read_text("utf-8").splitlines()[line - 1].strip()
    except (OSError, IndexError, UnicodeDecodeError):
        return "(line not found)"
    return repr(text if len(text) <= 100 else text[:97] + "...")


def report_claims(suites: list[dict[str, Any]], checker: str, got: Said) -> list[str]:
    """Every case of a constraint the agreement report (`report.json`) calls static for
    `checker` must be reported by it on its line: a checker that accepts one is a failure."""
    language = "typescript" if checker == "tsc" else "python"
    lines = {(f, line) for f, line, _ in got}
    problems: list[str] = []
    for suite in suites:
        path = HERE / f"{suite['package']}_cases" / "report.json"
        if not path.is_file():
            continue
        where = {c["name"]: c["lines"].get(language) for c in suite["cases"]}
        for row in json.loads(path.read_text("utf-8"))["constraints"]:
            if not row["checkers"][checker].startswith("static"):
                continue
            for case in row["cases"]:
                at = where.get(case["name"])
                if case["expect"][checker] and at and (at[0], at[1]) not in lines:
                    problems.append(
                        f"report: {checker} accepts {suite['package']} {case['name']} "
                        f"({at[0]}:{at[1]}), but the report calls {row['pointer']} "
                        f"{row['keyword']} static for it"
                    )
    return problems


def python_twins(suites: list[dict[str, Any]]) -> list[str]:
    """The package's `parse` accepts the valid hierarchy, rebuilds the valid model, and refuses
    each mutated document at its pointer; a frozen model refuses each assignment."""
    sys.path.insert(0, str(HERE))
    problems: list[str] = []
    for suite in suites:
        package = importlib.import_module(suite["package"])
        name = suite["package"]
        try:
            model = package.parse(suite["valid"])
        except package.ZomError as exc:
            problems.append(f"python run time: {name}: the valid hierarchy is refused: {exc}")
            continue
        built = importlib.import_module(f"{name}_cases.models_cases").valid_model
        if built != model:
            problems.append(f"python run time: {name}: models_cases.valid_model differs from parse")
        for case in suite["cases"]:
            problems.extend(_python_twin(package, model, case, name))
    return problems


def _python_twin(package: Any, model: Any, case: dict[str, Any], name: str) -> list[str]:
    label = f"python run time: {name} {case['name']} {case['kind']} ({case['what']})"
    runtime = case["runtime"]
    if "frozen" in runtime:
        *parents, last = runtime["frozen"]
        target = model
        for step in parents:
            target = getattr(target, step)
        try:
            setattr(target, last, getattr(target, last))
        except dataclasses.FrozenInstanceError:
            return []
        return [f"{label}: the assignment succeeded"]
    try:
        package.parse(case["document"])
    except package.ZomError as exc:
        pointers = [_absolute(p.node_path, p.pointer) for p in exc.problems]
        if runtime["pointer"] in pointers:
            return []
        return [f"{label}: refused at {pointers}, not at {runtime['pointer']!r}"]
    return [f"{label}: accepted"]


def _absolute(node_path: str, pointer: str) -> str:
    names = [n for n in node_path.split("/") if n]
    return "".join("/members/" + n.replace("~", "~0").replace("/", "~1") for n in names) + pointer


NODE_SCRIPT = """
import { pathToFileURL } from "node:url";
let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = {};
for (const job of JSON.parse(input)) {
  const pkg = await import(pathToFileURL(job.module).href);
  out[job.package] = job.documents.map((d) => pkg.validate(d));
}
process.stdout.write(JSON.stringify(out));
"""


def typescript_twins(suites: list[dict[str, Any]], tsc: str) -> list[str]:
    """validate.ts, compiled by tsc and run under Node, agrees with the pins."""
    if shutil.which("node") is None:
        return ["typescript run time: node is not installed"]
    not_compiled = _compile_twins(suites, tsc)
    if not_compiled is not None:
        return [not_compiled]
    verdicts = _run_twins(suites)
    if isinstance(verdicts, str):
        return [verdicts]
    problems: list[str] = []
    for suite in suites:
        problems += _typescript_differences(suite, verdicts[suite["package"]])
    return problems


def _compile_twins(suites: list[dict[str, Any]], tsc: str) -> str | None:
    """Compile each package's validate.ts into _twins/ (an ES module); None, or why not."""
    config = {
        "extends": "./tsconfig.json",
        "compilerOptions": {"noEmit": False, "outDir": "_twins", "rootDir": "."},
        "include": [f"{s['package']}/validate.ts" for s in suites],
    }
    (HERE / "tsconfig.twins.json").write_text(json.dumps(config), encoding="utf-8")
    result = _run([tsc, "-p", "tsconfig.twins.json", "--pretty", "false"])
    if result.returncode != 0:
        return f"typescript run time: validate.ts does not compile (is ajv installed?): {result.stdout}"
    (HERE / "_twins" / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    return None


def _run_twins(suites: list[dict[str, Any]]) -> dict[str, list[Any]] | str:
    """Each package's compiled `validate` on its valid hierarchy and its cases' documents, in
    one Node process: its problems for each, by package; or why Node failed."""
    jobs = [
        {
            "package": s["package"],
            "module": str(HERE / "_twins" / s["package"] / "validate.js"),
            "documents": [
                s["valid"],
                *(c["document"] for c in s["cases"] if c["document"] is not None),
            ],
        }
        for s in suites
    ]
    script = HERE / "_twins" / "twins.mjs"
    script.write_text(NODE_SCRIPT, encoding="utf-8")
    env = {**os.environ, "NODE_NO_WARNINGS": "1"}
    ran = subprocess.run(
        ["node", str(script)],
        input=json.dumps(jobs),
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    if ran.returncode != 0:
        return f"typescript run time: node failed: {ran.stderr.strip()}"
    verdicts: dict[str, list[Any]] = json.loads(ran.stdout)
    return verdicts


def _typescript_differences(suite: dict[str, Any], verdicts: list[Any]) -> list[str]:
    """Where `validate`'s problems for one suite (valid hierarchy first) disagree with the pins."""
    problems: list[str] = []
    valid, *rest = verdicts
    if valid:
        problems.append(
            f"typescript run time: {suite['package']}: the valid hierarchy is refused: {valid}"
        )
    cases = [c for c in suite["cases"] if c["document"] is not None]
    for case, found in zip(cases, rest, strict=True):
        pointers = [_absolute(p["node_path"], p["pointer"]) for p in found]
        if case["runtime"]["pointer"] not in pointers:
            problems.append(
                f"typescript run time: {suite['package']} {case['name']} {case['kind']} "
                f"({case['what']}): refused at {pointers}, not at {case['runtime']['pointer']!r}"
            )
    return problems


def main() -> int:
    args = _arguments()
    suites = load_cases()
    if not suites:
        print("check_cases: no *_cases/cases.json here")
        return 1
    tsc = _tsc(args.tsc)
    total = sum(len(s["cases"]) for s in suites)
    print(f"check_cases: {len(suites)} convention(s), {total} cases")
    failures, notes = _static_checks(args, suites, tsc)
    if not args.no_runtime:
        failures += _runtime_checks(suites, tsc, args.skip_missing)
    for note in notes:
        print(f"note: {note}")
    for failure in failures:
        print(failure)
    print("check_cases: " + ("FAILED" if failures else "ok"))
    return 1 if failures else 0


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--skip-missing", action="store_true", help="pass over checkers not installed"
    )
    parser.add_argument("--checkers", default=",".join(CHECKERS), help="comma-separated subset")
    parser.add_argument("--tsc", help="the TypeScript compiler (default: node_modules/.bin/tsc)")
    parser.add_argument("--no-runtime", action="store_true", help="skip the run-time twins")
    parser.add_argument(
        "--exact",
        action="store_true",
        help="compare (file, line, code) exactly (a different code, or a case called run-time "
        "only rejected, is a failure, not a note)",
    )
    args = parser.parse_args()
    args.chosen = [c for c in args.checkers.split(",") if c]
    if not set(args.chosen) <= set(CHECKERS):
        parser.error(f"--checkers: choose among {', '.join(CHECKERS)}")
    return args


def _static_checks(
    args: argparse.Namespace, suites: list[dict[str, Any]], tsc: str | None
) -> tuple[list[str], list[str]]:
    """Run the chosen checkers on the case files: the failures and the notes, each line of the
    summary printed on the way."""
    files = [f"{s['package']}_cases" for s in suites]
    # Two checkers run at a time (mypy, pyright and tsc each keep one core busy); their
    # findings are compared and printed in the order chosen.
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = [pool.submit(run_checker, checker, files, tsc) for checker in args.chosen]
        results = [run.result() for run in runs]
    failures: list[str] = []
    all_notes: list[str] = []
    for checker, got in zip(args.chosen, results, strict=True):
        if isinstance(got, str):
            print(f"  {checker}: {got}" + (" (skipped)" if args.skip_missing else ""))
            if not args.skip_missing:
                failures.append(f"{checker}: {got}")
            continue
        differences, notes = _checker_verdict(checker, got, suites, args.exact)
        all_notes.extend(notes)
        failures.extend(differences)
        claims = report_claims(suites, checker, got)
        if claims:
            print(f"  {checker}: {len(claims)} static claims of the report not held")
        failures.extend(claims)
    return failures, all_notes


def _checker_verdict(
    checker: str, got: Said, suites: list[dict[str, Any]], exact: bool
) -> tuple[list[str], list[str]]:
    """The differences and notes of one checker's findings, its summary line printed."""
    notes: list[str] = []
    if exact:
        differences = compare(checker, got, suites)
    else:
        differences, notes = compare_lines(checker, got, suites)
    want, loose = expected(suites, checker)
    status = "as expected" if not differences else f"{len(differences)} differences"
    print(f"  {checker}: {status} ({len(want)} expected errors, {len(loose)} lines not compared)")
    if notes:
        print(f"  {checker}: {len(notes)} notes (rejected with another code, or stricter)")
    return differences, notes


def _runtime_checks(suites: list[dict[str, Any]], tsc: str | None, skip_missing: bool) -> list[str]:
    """The run-time twins' failures, Python's then TypeScript's, each summary line printed."""
    failures = python_twins(suites)
    print(f"  python run time: {'as expected' if not failures else f'{len(failures)} differences'}")
    if tsc is None:
        print("  typescript run time: tsc not installed" + (" (skipped)" if skip_missing else ""))
        if not skip_missing:
            failures.append("typescript run time: tsc not installed")
        return failures
    ts_twins = typescript_twins(suites, tsc)
    print(
        f"  typescript run time: {'as expected' if not ts_twins else f'{len(ts_twins)} differences'}"
    )
    return failures + ts_twins


if __name__ == "__main__":
    raise SystemExit(main())
