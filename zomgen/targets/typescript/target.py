"""The TypeScript target: types.ts, validate.ts, load.ts and schema.ts (files.py), the copy of
@zomgen/runtime as `_runtime_ts/` with `--vendor-runtime`, and with `--npm` the npm package
around them (npm.py) and its `dist/`, compiled by the pinned tsc (toolchain.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from zomgen.targets.target import Build
from zomgen.targets.typescript.files import typescript_files
from zomgen.targets.typescript.npm import NpmPackage, npm_files
from zomgen.targets.typescript.toolchain import compile_dist


@dataclass(frozen=True)
class TypeScriptTarget:
    """`npm` and `node_modules` (where the pinned tsc is, found before any work so that a missing
    toolchain is named at once) are given for `--npm` only."""

    npm: NpmPackage | None = None
    node_modules: Path | None = None

    def files(self, build: Build) -> dict[str, str]:
        files = typescript_files(build.hierarchy, build.schema_text, build.runtime)
        if self.npm is not None and self.node_modules is not None:
            files |= npm_files(build.hierarchy, self.npm, build.runtime)
            files |= compile_dist(files, self.node_modules)
        return files
