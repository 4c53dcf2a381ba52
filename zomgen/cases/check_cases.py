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
    below a union holding `MypyFallback`)."""
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


# (package, case name) -> the problems Python's `parse` gave, as JSON: what validate.ts's must
# equal (typescript_twins)
PythonSaid = dict[tuple[str, str], list[dict[str, str]]]


def python_twins(suites: list[dict[str, Any]], said: PythonSaid | None = None) -> list[str]:
    """The package's `parse` accepts the valid hierarchy, rebuilds the valid model, and refuses
    each mutated document at its pointer; a frozen model refuses each assignment. The problems
    of each document go into `said`."""
    sys.path.insert(0, str(HERE))
    said = {} if said is None else said
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
            problems.extend(_python_twin(package, model, case, name, said))
    return problems


def _python_twin(
    package: Any, model: Any, case: dict[str, Any], name: str, said: PythonSaid
) -> list[str]:
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
        said[(name, case["name"])] = [p.to_json() for p in exc.problems]
        pointers = [_absolute(p.node_path, p.pointer) for p in exc.problems]
        if runtime["pointer"] in pointers:
            return []
        return [f"{label}: refused at {pointers}, not at {runtime['pointer']!r}"]
    return [f"{label}: accepted"]


def _absolute(node_path: str, pointer: str) -> str:
    names = [n for n in node_path.split("/") if n]
    return "".join("/members/" + n.replace("~", "~0").replace("/", "~1") for n in names) + pointer


# ---------------------------------------------------------------- what a problem's message says
#
# The two run times word a problem each its own way (python-jsonschema's words, Ajv's), but
# say the same things: its *content*, which the twin tests compare, is
#
# - for a keyword about the value itself (`type`, `const`, `enum`, `pattern`, bounds, sizes,
#   `uniqueItems`, `contains`, `not`, ...): the value given, as both show it: Python-style repr
#   up to 100 characters, past that a list or an object by its size (`[...] (a list of 3
#   items)`), anything else cut short (`'abc...`). Python shows it where python-jsonschema
#   puts it, first (`[] is not of type 'object'`), or after the words (`'a' was expected
#   (given: 'A')`); validate.ts after Ajv's words (`must be object (given: [])`).
# - for a keyword about keys (`required`, `dependentRequired`, `additionalProperties`,
#   `unevaluatedProperties`, a key a `false` forbids): the key names quoted, in order.
# - for a failed `anyOf` / `oneOf` given one part per option: the value (as above), and each
#   option's label and where it first fails (`option 0`, `/attributes/encoding-type`).
# - for anything else (the zomgen checks, a file that cannot be read): the words themselves.
#
# Numbers are compared as numbers (Python writes the JSON value 1.0 as `1.0`, JavaScript as
# `1`), and a list or object one run time shows in full and the other by its size (their reprs
# straddle the 100 characters because of that) counts as the same value.

VALUE_KEYWORDS = frozenset(
    (
        "type", "const", "enum", "pattern", "format", "minimum", "maximum",
        "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength",
        "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "contains",
        "minContains", "maxContains", "not", "items", "unevaluatedItems", "anyOf", "oneOf",
        "false schema",
    )
)  # fmt: skip
KEY_KEYWORDS = frozenset(
    (
        "required", "dependentRequired", "dependencies", "additionalProperties",
        "unevaluatedProperties",
    )
)  # fmt: skip
_GIVEN_AFTER = re.compile(r" \(given: (?P<given>.*)\)$", re.DOTALL)
_FALSE = re.compile(r"^False schema does not allow (?P<given>.*)$", re.DOTALL)
_SUMMARY = re.compile(
    r"^(\[\.\.\.\] \(a list of (?P<items>\d+) items\)|\{\.\.\.\} \(an object with (?P<keys>\d+) keys\))"
)
_QUOTED = r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\""
_KEY_FORMS = (
    re.compile(rf"^(?P<names>{_QUOTED}) is not allowed here: its schema is false$"),
    re.compile(rf"^(?P<names>{_QUOTED}) is a required property$"),
    re.compile(rf"^must have required property (?P<names>{_QUOTED})$"),
    re.compile(rf"^(?P<names>{_QUOTED}) is a dependency of (?P<more>{_QUOTED})$"),
    re.compile(
        rf"^must have property (?P<names>{_QUOTED}) when property (?P<more>{_QUOTED}) is present$"
    ),
    re.compile(
        r"\((?P<names>.*) (?:was|were) (?:unexpected|unevaluated and invalid)\)$", re.DOTALL
    ),
    re.compile(r"^(?P<names>.*) (?:does|do) not match any of the regexes: ", re.DOTALL),
)
_OPTIONS = re.compile(
    r"^(?P<given>.*?) matches none of the (?:anyOf|oneOf) options; (?P<parts>.*)$", re.DOTALL
)
_OPTION = re.compile(r"(?:^|; )(?P<label>option \d+|a `false` option): (?P<where>itself|/.*?): ")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.])")


def message_content(keyword: str, message: str) -> tuple[Any, ...]:
    """What a problem's message says (see above), as a value to compare; ("unread", message)
    where the message does not say it in a form known here."""
    if keyword in ("anyOf", "oneOf"):
        found = _OPTIONS.match(message)
        if found is not None:
            parts = tuple(
                (m["label"], _numbers(m["where"])) for m in _OPTION.finditer(found["parts"])
            )
            return ("options", _given(found["given"]), parts)
    if keyword in KEY_KEYWORDS or keyword == "false schema":
        for form in _KEY_FORMS:
            named = form.search(message)
            if named is not None:
                names = _literal(f"[{named['names']}]")
                more = _literal(named["more"]) if "more" in named.groupdict() else None
                if isinstance(names, list):
                    return ("names", (*names, *([more] if more is not None else [])))
    if keyword in VALUE_KEYWORDS:
        given = _GIVEN_AFTER.search(message) or _FALSE.match(message)
        text = given["given"] if given is not None else _leading(message)
        if text is not None:
            return ("given", _given(text))
    if keyword in VALUE_KEYWORDS or keyword in KEY_KEYWORDS:
        return ("unread", message)
    return ("words", _numbers(message))


def same_content(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Whether two contents (message_content) say the same."""
    if a[0] != b[0] or a[0] == "unread":
        return False
    if a[0] == "given":
        return _same_given(a[1], b[1])
    if a[0] == "options":
        return _same_given(a[1], b[1]) and a[2] == b[2]
    return a == b


def _leading(message: str) -> str | None:
    """The value python-jsonschema's message starts with (`[] is not of type 'object'`): a
    summary, or the longest start of the message, up to a space, that is a Python literal."""
    summary = _SUMMARY.match(message)
    if summary is not None:
        return summary.group()
    if message[97:100] == "..." and message[100:101] in ("", " "):
        return message[:100]  # a value cut short: 97 characters and "..."
    best = None
    for end in [i for i, c in enumerate(message) if c == " "]:
        if _literal(message[:end]) is not _UNREAD:
            best = message[:end]
    return best


_UNREAD = object()


def _literal(text: str) -> Any:
    import ast

    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _UNREAD


def _given(text: str) -> tuple[Any, ...]:
    """A value as a message shows it: ("value", the JSON value), ("size", "list" or "object",
    how many), or ("cut", the text before `...`)."""
    summary = _SUMMARY.fullmatch(text)
    if summary is not None:
        kind = "list" if summary["items"] is not None else "object"
        return ("size", kind, int(summary["items"] or summary["keys"]))
    value = _literal(text)
    if value is not _UNREAD:
        return ("value", value)
    return ("cut", _numbers(text.removesuffix("...")))


def _same_given(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    if a[0] == b[0] == "value":
        return _same_json(a[1], b[1])
    if a[0] == "value" and b[0] == "size" or a[0] == "size" and b[0] == "value":
        value, size = (a[1], b) if a[0] == "value" else (b[1], a)
        kind = "list" if isinstance(value, list) else "object" if isinstance(value, dict) else ""
        return (kind, len(value) if kind else -1) == size[1:]
    if a[0] == "value" and b[0] == "cut" or a[0] == "cut" and b[0] == "value":
        value, cut = (a[1], b[1]) if a[0] == "value" else (b[1], a[1])
        return _numbers(repr(value)).startswith(cut)
    return a == b


def _same_json(a: Any, b: Any) -> bool:
    """JSON equality: 1 and 1.0 are one number, True and 1 are not."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _numbers(text: str) -> str:
    """`text` with each number written as a float (`1` and `1.0` alike)."""
    return _NUMBER.sub(lambda m: repr(float(m.group())), text)


def problem_row(problem: dict[str, str]) -> tuple[Any, ...]:
    """A problem (as JSON, either run time's) as what the twins compare: node path, pointer,
    keyword, schema path, and its message's content."""
    keyword = problem["keyword"]
    where = (problem["node_path"], problem["pointer"], keyword, problem["schema_path"])
    return (*where, message_content(keyword, problem["message"]))


def twin_differences(python: list[dict[str, str]], typescript: list[dict[str, str]]) -> list[str]:
    """How two run times' problems (as JSON) for one document differ ([] when they agree):
    problems at different places, or at the same place saying different things."""
    left = sorted(((problem_row(p), p["message"]) for p in python), key=repr)
    right = sorted(((problem_row(p), p["message"]) for p in typescript), key=repr)
    if [r[:4] for r, _m in left] != [r[:4] for r, _m in right]:
        return [f"python {[r[:4] for r, _m in left]} != typescript {[r[:4] for r, _m in right]}"]
    return [
        f"{a[:3]}: python says {a[4]}, typescript {b[4]} ({said_a!r} / {said_b!r})"
        for (a, said_a), (b, said_b) in zip(left, right, strict=True)
        if not same_content(a[4], b[4])
    ]


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


def typescript_twins(
    suites: list[dict[str, Any]], tsc: str, said: PythonSaid | None = None
) -> list[str]:
    """validate.ts, compiled by tsc and run under Node, agrees with the pins, and gives the
    problems Python's `parse` gave (`said`): at the same places, saying the same."""
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
        problems += _typescript_differences(suite, verdicts[suite["package"]], said or {})
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
        return f"typescript run time: validate.ts does not compile (are ajv and @zomgen/runtime installed?): {result.stdout}"
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


def _typescript_differences(
    suite: dict[str, Any], verdicts: list[Any], said: PythonSaid
) -> list[str]:
    """Where `validate`'s problems for one suite (valid hierarchy first) disagree with the pins
    or with Python's."""
    problems: list[str] = []
    valid, *rest = verdicts
    if valid:
        problems.append(
            f"typescript run time: {suite['package']}: the valid hierarchy is refused: {valid}"
        )
    cases = [c for c in suite["cases"] if c["document"] is not None]
    for case, found in zip(cases, rest, strict=True):
        label = f"typescript run time: {suite['package']} {case['name']} {case['kind']} ({case['what']})"
        pointers = [_absolute(p["node_path"], p["pointer"]) for p in found]
        if case["runtime"]["pointer"] not in pointers:
            problems.append(
                f"{label}: refused at {pointers}, not at {case['runtime']['pointer']!r}"
            )
        python = said.get((suite["package"], case["name"]))
        if python is not None:
            problems.extend(f"{label}: {d}" for d in twin_differences(python, found))
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
    said: PythonSaid = {}
    failures = python_twins(suites, said)
    print(f"  python run time: {'as expected' if not failures else f'{len(failures)} differences'}")
    if tsc is None:
        print("  typescript run time: tsc not installed" + (" (skipped)" if skip_missing else ""))
        if not skip_missing:
            failures.append("typescript run time: tsc not installed")
        return failures
    ts_twins = typescript_twins(suites, tsc, said)
    print(
        f"  typescript run time: {'as expected' if not ts_twins else f'{len(ts_twins)} differences'}"
    )
    return failures + ts_twins


if __name__ == "__main__":
    raise SystemExit(main())
