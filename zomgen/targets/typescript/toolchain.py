"""The npm tools zomgen runs, found and version-checked: tsc, which builds an npm package's
`dist/` (run here), and esbuild, which bundles a validator page (run by site.py).

zomgen carries neither. `zomgen build --npm` and `zomgen site` run the ones a project already
has: a `node_modules` folder holding them, and Ajv, re2js, zarrita and @marcbachmann/cel-js,
at the versions below (tsc reads their types, as the TypeScript run time imports them; esbuild
bundles them), and for
`--npm` without `--vendor-runtime` @zomgen/runtime, built. It is looked for, in order, in
`$ZOMGEN_NODE_MODULES`,
in the current folder and its parents, and beside zomgen itself (a source checkout's own
`node_modules`, which `scripts/setup.sh` installs). The versions are pinned, not ranges: the
same schema must give the same bytes on every machine, and tsc's output is only as stable as
its version.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

from zomgen.errors import CompileError
from zomgen.targets.shipped import TS_PACKAGE, RuntimeLink

TYPESCRIPT_VERSION = "7.0.2"
AJV_VERSION = "8.20.0"
ZARRITA_VERSION = "0.7.5"
# RE2 in JavaScript: validate.ts matches every pattern with it, in linear time (patterns.ts)
RE2JS_VERSION = "2.10.0"
ESBUILD_VERSION = "0.28.2"
# CEL in JavaScript: the rules of `x-zomgen-rules` (rules.ts)
CEL_JS = "@marcbachmann/cel-js"
CEL_JS_VERSION = "8.0.0"
NODE_MODULES_VARIABLE = "ZOMGEN_NODE_MODULES"
# The versions a generated npm package and @zomgen/runtime accept of their peers (the same in
# runtime/typescript/package.json: a test says so): the lowest tests/typescript/test_peer_ranges.py
# found to pass, up to the next major version (zarrita, before 1.0: the next minor one).
# (ajv 8.12 has no named export `Ajv2020`; re2js 1.x lacks what patterns.ts calls; zarrita 0.7.1
# is the first 0.7; @marcbachmann/cel-js 8.0.0 is the first 8.)
PEER_RANGES = {CEL_JS: "^8.0.0", "ajv": "^8.13.0", "re2js": "^2.0.0", "zarrita": "^0.7.1"}
# What `--npm` needs (tsc, and the types it reads), and what `zomgen site` needs (esbuild, and
# what it bundles).
NPM_PINS = {
    "typescript": TYPESCRIPT_VERSION,
    CEL_JS: CEL_JS_VERSION,
    "ajv": AJV_VERSION,
    "re2js": RE2JS_VERSION,
    "zarrita": ZARRITA_VERSION,
}


def npm_pins(runtime: RuntimeLink) -> dict[str, str]:
    """What `--npm` needs for a package importing its run time as `runtime`: NPM_PINS, and
    @zomgen/runtime (built: tsc reads its `dist/*.d.ts`) unless the package carries a copy."""
    if runtime.ts_version is None:
        return NPM_PINS
    return {**NPM_PINS, TS_PACKAGE: runtime.ts_version}


SITE_PINS = {
    "esbuild": ESBUILD_VERSION,
    CEL_JS: CEL_JS_VERSION,
    "ajv": AJV_VERSION,
    "re2js": RE2JS_VERSION,
    "zarrita": ZARRITA_VERSION,
}


def _install(pins: dict[str, str]) -> str:
    packages = " ".join(f"{name}@{version}" for name, version in pins.items())
    unpublished = ""
    if TS_PACKAGE in pins:
        unpublished = (
            f" ({TS_PACKAGE} is not on npm yet: `npm pack` runtime/typescript of zomgen's "
            "repository and install the tarball, or build with --vendor-runtime)"
        )
    return (
        f"run `npm install --save-dev {packages}` in this folder{unpublished}, or set "
        f"{NODE_MODULES_VARIABLE} to a node_modules folder that has them"
    )


# Time allowed for one tsc or esbuild run (each takes well under a second).
_TOOL_TIMEOUT_SECONDS = 300


def _candidates() -> list[Path]:
    chosen = os.environ.get(NODE_MODULES_VARIABLE)
    if chosen:
        return [Path(chosen)]
    here = Path.cwd().resolve()
    project = Path(__file__).resolve().parents[3]  # a source checkout's root
    found = [folder / "node_modules" for folder in (here, *here.parents)]
    return [*found, project / "node_modules"]


def _version(package_json: Path) -> str | None:
    try:
        data = json.loads(package_json.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    version = data.get("version") if isinstance(data, dict) else None
    return version if isinstance(version, str) else None


def find_node_modules(pins: dict[str, str], what: str) -> Path:
    """The first `node_modules` with the `pins` (name -> version) and their commands; a
    CompileError saying what was found instead, and how to install them, when there is none.
    `what` names the option that needs them. Checked before anything is written."""
    seen: list[str] = []
    commands = (["tsc"] if "typescript" in pins else []) + (
        ["esbuild"] if "esbuild" in pins else []
    )
    for folder in _candidates():
        found = {name: _version(folder / name / "package.json") for name in pins}
        if not any(found.values()):
            continue
        unbuilt = TS_PACKAGE in pins and not (folder / TS_PACKAGE / "dist").is_dir()
        if unbuilt and found == pins:
            seen.append(f"{folder / TS_PACKAGE} has no dist/: run `npm run build` there")
            continue
        if found == pins and all((folder / ".bin" / c).exists() for c in commands):
            return folder
        versions = ", ".join(f"{name} {version or 'missing'}" for name, version in found.items())
        seen.append(f"{folder} has {versions}")
    where = f" ({'; '.join(seen)})" if seen else ""
    wanted = ", ".join(f"{name} {version}" for name, version in pins.items())
    raise CompileError.one(what, "", f"needs {wanted} from npm{where}: {_install(pins)}")


def run_tool(
    sources: dict[str, str], node_modules: Path, command: list[str], product: str
) -> dict[str, str]:
    """Write `sources` into a scratch folder (never the output folder) beside `node_modules`,
    run `command` (a tool of node_modules/.bin and its arguments) there, and return every file
    under `product` (a folder or a file it writes), by its name. Raises CompileError with the
    tool's messages if it fails: the sources are zomgen's, so that is a zomgen bug, reported
    rather than written."""
    tool = node_modules / ".bin" / command[0]
    with tempfile.TemporaryDirectory(prefix=f"zomgen-{command[0]}-") as scratch:
        work = Path(scratch)
        for name, text in sources.items():
            path = work / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="")
        (work / "node_modules").symlink_to(node_modules, target_is_directory=True)
        try:
            result = subprocess.run(
                [str(tool), *command[1:]],
                cwd=work,
                capture_output=True,
                text=True,
                check=False,
                timeout=_TOOL_TIMEOUT_SECONDS,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            raise CompileError.one(str(tool), "", f"could not run {command[0]}: {error}") from None
        if result.returncode != 0:
            output = (result.stdout + result.stderr).strip()
            message = f"{command[0]} could not build {product} (a zomgen bug):\n{output}"
            raise CompileError.one(product, "", message)
        made = work / product
        paths = sorted(made.rglob("*")) if made.is_dir() else [made]
        return {
            path.relative_to(work).as_posix(): path.read_text("utf-8")
            for path in paths
            if path.is_file()
        }


def compile_dist(sources: dict[str, str], node_modules: Path) -> dict[str, str]:
    """tsc over the package's sources (`tsconfig.json` among them): {"dist/...": text} for
    every JavaScript and declaration file it emits."""
    return run_tool(
        sources, node_modules, ["tsc", "-p", "tsconfig.json", "--pretty", "false"], "dist"
    )
