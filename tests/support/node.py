"""Running generated TypeScript under Node: compile with the project's tsc (strict tsconfig) to
ES modules, then feed a harness script JSON on stdin and read JSON from its stdout.

Node 20 cannot run TypeScript itself, so tests compile it: the same tsc and tsconfig that
type-check the output emit it, which also proves the emitted JavaScript is what users get.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import check_document

from tests.support.paths import ROOT

TSC = ROOT / "node_modules" / ".bin" / "tsc"
HARNESS = ROOT / "tests" / "typescript" / "harness"
RUNTIME_TS = ROOT / "runtime" / "typescript" / "src"


def require_toolchain() -> None:
    if not TSC.exists() or not (ROOT / "node_modules" / "ajv").is_dir():
        pytest.fail("TypeScript or Ajv is not installed: run `bash scripts/setup.sh` (npm ci)")
    if shutil.which("node") is None:
        pytest.fail("node is not on PATH")


def link_node_modules(work: Path) -> None:
    """Let tsc and Node resolve `ajv` from a temporary folder, as an app's own install would."""
    link = work / "node_modules"
    if not link.exists():
        link.symlink_to(ROOT / "node_modules", target_is_directory=True)


def _emit(work: Path, include: list[str], out: str) -> subprocess.CompletedProcess[str]:
    """tsc with the project's strict tsconfig over `include` (globs relative to `work`),
    emitting ES modules into `work/out`."""
    require_toolchain()
    link_node_modules(work)
    config = {
        "extends": (ROOT / "tsconfig.json").as_posix(),
        "compilerOptions": {"noEmit": False, "outDir": out, "rootDir": "."},
        "include": include,
    }
    (work / f"tsconfig.{out}.json").write_text(json.dumps(config), encoding="utf-8")
    result = subprocess.run(
        [str(TSC), "-p", f"tsconfig.{out}.json", "--pretty", "false"],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    )
    if (work / out).is_dir():
        (work / out / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    return result


def compile_typescript(work: Path, include: list[str]) -> Path:
    """Compile `include` (globs relative to `work`) into `work/out` as ES modules; fail the
    test with tsc's output on any error. Returns the output folder."""
    result = _emit(work, include, "out")
    assert result.returncode == 0, result.stdout + result.stderr
    return work / "out"


def compiled_runtime(work: Path) -> Path:
    """zomgen's TypeScript runtime compiled on its own, with the harness scripts beside it:
    `work/out/_runtime_ts/*.js` and `work/out/harness/*.mjs`."""
    shutil.copytree(RUNTIME_TS, work / "_runtime_ts", dirs_exist_ok=True)
    out = compile_typescript(work, ["_runtime_ts/*.ts"])
    shutil.copytree(HARNESS, out / "harness", dirs_exist_ok=True)
    return out


def run_node(script: Path, payload: Any, *args: str) -> Any:
    """Run a harness script with `payload` as JSON on stdin; its stdout is JSON."""
    result = subprocess.run(
        ["node", str(script), *args],
        input=json.dumps(payload, allow_nan=False),
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "NODE_NO_WARNINGS": "1"},
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


TS_ERROR = re.compile(r"^(?P<file>[^(\s][^(]*)\(\d+,\d+\): error (?P<code>TS\d+): ")


def check_typescript(folder: Path, packages: Sequence[str]) -> dict[str, list[str]]:
    """One tsc run (the project's strict tsconfig) over every .ts file of `packages` (folders of
    `folder`), emitting JavaScript into `folder/_js`; then each package's validate.js is
    imported and run on two documents, so a schema Ajv cannot compile is found too. Returns
    package -> problems (tsc errors, then run-time failures)."""
    found: dict[str, list[str]] = {}
    if not packages:
        return found
    include = [f"{p}/{pattern}" for p in packages for pattern in ("*.ts", "_runtime_ts/*.ts")]
    result = _emit(folder, include, "_js")
    for line in result.stdout.splitlines():
        match = TS_ERROR.match(line)
        if match:
            found.setdefault(Path(match["file"]).parts[0], []).append(line)
        elif line.strip() and not line.startswith(" "):
            found.setdefault("(tsc)", []).append(line)
    out = folder / "_js"
    if not out.is_dir():
        return found
    loadable = [p for p in packages if p not in found and (out / p / "validate.js").is_file()]
    jobs = [{"package": str(out / p / "validate.js"), "name": p} for p in loadable]
    payload = {"documents": SMOKE_DOCUMENTS, "packages": jobs}
    for name, result in run_node(HARNESS / "smoke.mjs", payload).items():
        if "error" in result:
            found.setdefault(name, []).append(f"validate.js: {result['error']}")
            continue
        text = (folder / name / "schema.json").read_text("utf-8")
        # Node prints 2**64 as 18446744073709552000: both sides read as JavaScript numbers.
        from_node = json.loads(json.dumps(result["schema"]), parse_int=_as_javascript_reads_it)
        if from_node != json.loads(text, parse_int=_as_javascript_reads_it):
            found.setdefault(name, []).append("schema.ts does not hold schema.json")
        schema = json.loads(text)
        for document, problems in zip(SMOKE_DOCUMENTS, result["problems"], strict=True):
            python = sorted(problem_where(p.to_json()) for p in check_document(document, schema))
            typescript = sorted(problem_where(p) for p in problems)
            if python != typescript:
                message = f"validate.js disagrees with Python on {document}: {typescript} {python}"
                found.setdefault(name, []).append(message)
    return found


# Documents every package's validate.js checks once, compared with the Python loader's problems.
SMOKE_DOCUMENTS: list[Any] = [
    {},
    {"zarr_format": 3, "node_type": "group", "attributes": {}, "members": {}},
    {"zarr_format": 2, "attributes": {"a": [1, None]}, "members": {}},
]


def _as_javascript_reads_it(digits: str) -> int | float:
    """A JSON integer as JavaScript holds it: exact up to 2^53, a float beyond."""
    value = int(digits)
    return value if abs(value) <= 2**53 else float(value)


def problem_where(p: Any) -> tuple[str, str, str, str]:
    """Where a problem is (node path, pointer, keyword, schema path): a Python `Problem`, or one
    the TypeScript run time gave as JSON. Messages are each engine's own words."""
    if isinstance(p, dict):
        return p["node_path"], p["pointer"], p["keyword"], p["schema_path"]
    return p.node_path, p.pointer, p.keyword, p.schema_path


def reading_problem(p: Any) -> tuple[str, str, str, str]:
    """A problem of reading a store, with its message (both loaders word these alike); where a
    file is not JSON, the parser's own reason (Python's json, JavaScript's JSON.parse) is left
    out."""
    if isinstance(p, dict):
        where, message = (p["node_path"], p["pointer"], p["keyword"]), p["message"]
    else:
        where, message = (p.node_path, p.pointer, p.keyword), p.message
    return (*where, message.split(" is not JSON: ")[0])


def npm(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """`npm ARGS` in `cwd`, quiet; fails the test with npm's output when it fails."""
    result = subprocess.run(
        ["npm", *args, "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def packed(folder: Path, into: Path) -> Path:
    """`npm pack` of `folder` (@zomgen/runtime runs tsc first): the tarball, in `into`."""
    result = npm(["pack", "--json", "--pack-destination", str(into), str(folder)], into)
    filename: str = json.loads(result.stdout)[0]["filename"]
    return into / filename
