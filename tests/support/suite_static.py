"""Run the five type checkers over the JSON-Schema-Test-Suite instances written as literals.

For every group that builds, a types-only copy of its package (`documents.py`, `models.py`,
`types.ts`: nothing of the run time, so the checkers read only what a type-only user imports)
and one case file per language:

- Python: each instance as a literal of `documents.Case`, one statement per line; each valid
  instance also built through the dataclass constructors (`models.Case(...)`) from what `parse`
  returned;
- TypeScript: each instance as a literal of `Case`.

Each checker runs once over all of them; its errors are mapped back to (instance, form) by file
and line. An error anywhere else (in a generated file) is reported as such.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.checkers import MYPY_AS_USERS_RUN_IT
from tests.support.paths import ROOT
from tests.support.suite_build import Suite
from tests.support.suite_cases import (
    ROOT_TYPE,
    document,
    model_source,
    python_literal,
    typescript_literal,
)

PYTHON = sys.executable
BIN = Path(PYTHON).parent
CHECKERS = ("mypy", "pyright", "pyrefly", "ty", "tsc")


@dataclass
class Layout:
    """Where each (instance, form) stands: (file, line) -> (instance id, "document"|"model")."""

    folder: Path
    lines: dict[tuple[str, int], tuple[str, str]] = field(default_factory=dict)
    python_files: list[str] = field(default_factory=list)


@dataclass
class Verdicts:
    """Per checker: the (instance, form) pairs it rejected, and errors outside the cases."""

    rejected: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    stray: dict[str, list[str]] = field(default_factory=dict)


def write_cases(suite: Suite) -> Layout:
    folder = suite.folder / "static"
    layout = Layout(folder)
    (folder / "cases").mkdir(parents=True, exist_ok=True)
    for built in suite.packages():
        name = built.group.package
        source = suite.folder / name
        target = folder / name
        target.mkdir(exist_ok=True)
        (target / "__init__.py").write_text("", encoding="utf-8")
        for part in ("documents.py", "models.py", "types.ts"):
            shutil.copyfile(source / part, target / part)
        package = suite.module(built)
        uses_models = any(i.valid for i in built.group.instances)
        py = [
            "from __future__ import annotations",
            "",
            f"from {name} import documents{', models' if uses_models else ''}",
            "",
        ]
        ts = [f'import type {{ {ROOT_TYPE} }} from "../{name}/types.js";', ""]
        py_file, ts_file = f"cases/{name}.py", f"cases/{name}.ts"
        for n, instance in enumerate(built.group.instances):
            doc = document(instance.data)
            layout.lines[(py_file, len(py) + 1)] = (instance.id, "document")
            py.append(f"d{n}: documents.{ROOT_TYPE} = {python_literal(doc)}")
            layout.lines[(ts_file, len(ts) + 1)] = (instance.id, "document")
            ts.append(f"export const d{n}: {ROOT_TYPE} = {typescript_literal(doc)};")
            if instance.valid:
                try:
                    model = package.parse(doc)
                except package.ZomError:
                    continue  # a run-time disagreement: test_suite_runtime reports it
                layout.lines[(py_file, len(py) + 1)] = (instance.id, "model")
                py.append(f"m{n}: models.{ROOT_TYPE} = {model_source(model, 'models')}")
        (folder / py_file).write_text("\n".join(py) + "\n", encoding="utf-8")
        (folder / ts_file).write_text("\n".join(ts) + "\n", encoding="utf-8")
        layout.python_files.append(py_file)
    (folder / "pyrightconfig.json").write_text(
        json.dumps({"typeCheckingMode": "strict", "pythonVersion": "3.11"}), encoding="utf-8"
    )
    (folder / "tsconfig.json").write_text(
        json.dumps({"extends": (ROOT / "tsconfig.json").as_posix(), "include": ["cases/*.ts"]}),
        encoding="utf-8",
    )
    return layout


# file:line of an error, per checker's one-line output format.
_PATTERNS = {
    "mypy": re.compile(r"^(?P<file>[^:\s]+\.py):(?P<line>\d+): error: "),
    "pyright": re.compile(r"^\s*(?P<file>/\S+\.py):(?P<line>\d+):\d+ - error: "),
    "pyrefly": re.compile(r"^ERROR (?P<file>\S+\.py):(?P<line>\d+):"),
    "ty": re.compile(r"^(?P<file>\S+\.py):(?P<line>\d+):\d+: error\["),
    "tsc": re.compile(r"^(?P<file>[^(\s]+\.ts)\((?P<line>\d+),\d+\): error "),
}


def _command(checker: str, layout: Layout) -> list[str]:
    files = layout.python_files
    if checker == "mypy":
        return [PYTHON, "-m", "mypy", "--strict", *MYPY_AS_USERS_RUN_IT, "--no-incremental", *files]
    if checker == "pyright":
        return [str(BIN / "pyright"), "--pythonpath", PYTHON, *files]
    if checker == "pyrefly":
        return [
            str(BIN / "pyrefly"),
            "check",
            "--preset",
            "default",
            "--output-format",
            "min-text",
            "--python-interpreter-path",
            PYTHON,
            *files,
        ]
    if checker == "ty":
        venv = str(Path(PYTHON).parent.parent)
        return [str(BIN / "ty"), "check", "--python", venv, "--output-format", "concise", *files]
    return [str(ROOT / "node_modules" / ".bin" / "tsc"), "-p", "tsconfig.json", "--pretty", "false"]


def run_checkers(layout: Layout, checkers: Iterable[str] = CHECKERS) -> Verdicts:
    verdicts = Verdicts()
    for checker in checkers:
        result = subprocess.run(
            _command(checker, layout),
            cwd=layout.folder,
            capture_output=True,
            text=True,
            check=False,
        )
        rejected: set[tuple[str, str]] = set()
        stray: list[str] = []
        for line in (result.stdout + result.stderr).splitlines():
            match = _PATTERNS[checker].match(line)
            if match is None:
                continue
            path = Path(match["file"])
            if path.is_absolute():
                path = path.relative_to(layout.folder)
            where = layout.lines.get((path.as_posix(), int(match["line"])))
            if where is None:
                stray.append(line)
            else:
                rejected.add(where)
        verdicts.rejected[checker] = rejected
        verdicts.stray[checker] = stray
    return verdicts
