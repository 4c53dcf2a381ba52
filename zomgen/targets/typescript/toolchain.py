"""The TypeScript compiler that builds an npm package's `dist/`: found, version-checked and run.

zomgen does not carry a TypeScript compiler. `zomgen build --npm` runs the one a project already
has: a `node_modules` folder holding TypeScript and Ajv at the versions below (Ajv's types are
read by tsc, as `_runtime_ts` imports them). It is looked for, in order, in `$ZOMGEN_NODE_MODULES`,
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

TYPESCRIPT_VERSION = "7.0.2"
AJV_VERSION = "8.20.0"
NODE_MODULES_VARIABLE = "ZOMGEN_NODE_MODULES"
_INSTALL = (
    f"run `npm install --save-dev typescript@{TYPESCRIPT_VERSION} ajv@{AJV_VERSION}` in this "
    f"folder, or set {NODE_MODULES_VARIABLE} to a node_modules folder that has them"
)
# Time allowed for one tsc run over a package (it takes well under a second).
_TSC_TIMEOUT_SECONDS = 300


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


def find_node_modules() -> Path:
    """The first `node_modules` with the pinned TypeScript and Ajv; CompileError saying what was
    found instead (and how to install them) when there is none. Checked before anything is
    written."""
    seen: list[str] = []
    for folder in _candidates():
        typescript = _version(folder / "typescript" / "package.json")
        ajv = _version(folder / "ajv" / "package.json")
        if typescript is None and ajv is None:
            continue
        built = (typescript, ajv) == (TYPESCRIPT_VERSION, AJV_VERSION)
        if built and (folder / ".bin" / "tsc").exists():
            return folder
        seen.append(f"{folder} has typescript {typescript or 'missing'}, ajv {ajv or 'missing'}")
    where = f" ({'; '.join(seen)})" if seen else ""
    raise CompileError.one(
        "--npm",
        "",
        f"building the npm package's dist/ needs TypeScript {TYPESCRIPT_VERSION} and Ajv "
        f"{AJV_VERSION} from npm{where}: {_INSTALL}",
    )


def compile_dist(sources: dict[str, str], node_modules: Path) -> dict[str, str]:
    """tsc over the package's sources (`tsconfig.json` among them) in a scratch folder, never in
    the output folder: {"dist/...": text} for every JavaScript and declaration file it emits.
    Raises CompileError with tsc's messages if the generated TypeScript does not compile (a
    zomgen bug, reported rather than written)."""
    with tempfile.TemporaryDirectory(prefix="zomgen-tsc-") as scratch:
        work = Path(scratch)
        for name, text in sources.items():
            path = work / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="")
        (work / "node_modules").symlink_to(node_modules, target_is_directory=True)
        tsc = node_modules / ".bin" / "tsc"
        try:
            result = subprocess.run(
                [str(tsc), "-p", "tsconfig.json", "--pretty", "false"],
                cwd=work,
                capture_output=True,
                text=True,
                check=False,
                timeout=_TSC_TIMEOUT_SECONDS,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            raise CompileError.one(str(tsc), "", f"could not run tsc: {error}") from None
        if result.returncode != 0:
            output = (result.stdout + result.stderr).strip()
            raise CompileError.one(
                "tsconfig.json", "", f"tsc could not build dist/ (a zomgen bug):\n{output}"
            )
        return {
            path.relative_to(work).as_posix(): path.read_text("utf-8")
            for path in sorted((work / "dist").rglob("*"))
            if path.is_file()
        }
