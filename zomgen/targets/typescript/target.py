"""The TypeScript target: types.ts, validate.ts, load.ts and schema.ts (files.py), the copy of
@zomgen/runtime as `_runtime_ts/` with `--vendor-runtime`, and with `--npm` the npm package
around them (npm.py) and its `dist/`, compiled by the pinned tsc (toolchain.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from zomgen.render import render
from zomgen.targets.target import Build, ReadmePart
from zomgen.targets.typescript.files import typescript_files
from zomgen.targets.typescript.npm import NpmPackage, npm_files
from zomgen.targets.typescript.toolchain import compile_dist

# The package README's rows of this target's files.
_TYPES = "TypeScript types, same names"
_VALIDATE = (
    "TypeScript run-time checks: `validate`, `is{0}`, `assert{0}`, `parse`, `ZomError`, `Problem`"
)
_LOAD = "the TypeScript loader of stores (zarrita): `load`, `validateStore`, `StoreError`"
_SCHEMA = (
    "what `validate.ts` and `load.ts` read: `schema.json` as text (and they import the TypeScript "
    "run time, `@zomgen/runtime`)"
)
_SCHEMA_VENDORED = (
    "what `validate.ts` and `load.ts` read: `schema.json` as text, and zomgen's TypeScript run time"
)
_NPM = "the npm package (`--npm`): `package.json`, `tsconfig.json`, and `dist/` compiled"


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

    def readme(self, build: Build) -> ReadmePart:
        root = build.hierarchy.root
        rows = [("types.ts", _TYPES), ("validate.ts", _VALIDATE.format(root)), ("load.ts", _LOAD)]
        if build.runtime.vendored:
            rows.append(("schema.ts`, `_runtime_ts/", _SCHEMA_VENDORED))
        else:
            rows.append(("schema.ts", _SCHEMA))
        if self.npm is not None:
            rows.append(("package.json", _NPM))
        sections = render("typescript/README.md.j2", root=root, package=build.package)
        return ReadmePart(tuple(rows), sections)
