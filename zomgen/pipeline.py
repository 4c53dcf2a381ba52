"""The whole pipeline, orchestrated: schema file -> IR -> {relative path: file content}, and
schema + store -> problems. Each step lives in its own folder; this module only calls them.

    schema/registry  files and the `$ref` registry (schema/read, schema/metaschema)
    schema/parse     the IR, checked for schemas that admit no value
    ir/flatten       deep types named
    schema/bundle    the package's schema.json, and where each union option's subschema is in it
    targets/python, targets/typescript, targets/shipped   the files
    targets/typescript/npm, toolchain   `--npm`: package.json, index.ts, and dist/ built by tsc

Nothing here writes files or knows about the command line (see `write.py` and `cli.py`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from zomgen import ir
from zomgen.errors import InputProblem
from zomgen.ir.flatten import flatten
from zomgen.schema.atoms import Expander
from zomgen.schema.bundle import bundle_with_places, locate_options
from zomgen.schema.documents import SchemaSet
from zomgen.schema.parse import parse
from zomgen.schema.registry import load_schema_set
from zomgen.targets.package import assemble
from zomgen.targets.python.target import PythonTarget
from zomgen.targets.shipped import runtime_link
from zomgen.targets.target import Build, Target
from zomgen.targets.typescript.npm import NpmPackage
from zomgen.targets.typescript.target import TypeScriptTarget
from zomgen.targets.typescript.toolchain import find_node_modules, npm_pins

# The compiler recurses once per nesting level of the schema, ~20 frames each; Python's default
# limit (1000) would stop at about 50 levels. Deeper than this is reported as too deep.
RECURSION_LIMIT = 8000


def _allow_deep_schemas() -> None:
    """Every entry point below starts here (`zomgen ir`, `build`, `cases` and `validate` each
    reach the compiler through one of them)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))


@dataclass(frozen=True)
class Options:
    schema: Path
    include_dirs: tuple[Path, ...] = ()
    package: str = "convention"
    # `--npm`: also the npm package (package.json, index.ts, dist/); `python=False` is
    # `--npm-only`, the TypeScript half alone
    npm: NpmPackage | None = None
    python: bool = True
    # `--vendor-runtime`: copies of the run times (`_runtime/`, `_runtime_ts/`) in the package,
    # not imports of zomgen-runtime and @zomgen/runtime
    vendor_runtime: bool = False


def load(options: Options) -> SchemaSet:
    _allow_deep_schemas()
    return load_schema_set(options.schema, list(options.include_dirs))


def build_ir(schema_set: SchemaSet) -> ir.Hierarchy:
    """The IR alone (`zomgen ir`), without the warnings."""
    _allow_deep_schemas()
    hierarchy, _warnings = parse(schema_set, Expander(schema_set))
    return flatten(hierarchy)


@dataclass(frozen=True)
class Generated:
    """A package's files, and what the compiler did safely but not exactly (a type left wider
    than the schema, a pattern one run time cannot read), each with its file and pointer."""

    files: dict[str, str]
    warnings: tuple[InputProblem, ...]
    # what the files were generated from; union options' subschemas point into schema.json
    hierarchy: ir.Hierarchy | None = None


def generate(options: Options) -> dict[str, str]:
    return generate_package(options).files


def compile_schema(options: Options) -> tuple[ir.Hierarchy, str, tuple[InputProblem, ...]]:
    """The IR, the bundled schema.json's text, and the warnings of both."""
    schema_set = load(options)
    expander = Expander(schema_set)  # one for both: the parser and the bundler resolve alike
    hierarchy, type_warnings = parse(schema_set, expander)
    bundled = bundle_with_places(schema_set, expander)
    hierarchy = locate_options(flatten(hierarchy), bundled.places)
    warnings = tuple(dict.fromkeys(type_warnings + bundled.warnings))
    return hierarchy, _json_text(bundled.schema), warnings


def generate_package(options: Options, extra_targets: Sequence[Target] = ()) -> Generated:
    """The package `options` describe: the Python target's files (unless `--npm-only`), the
    TypeScript target's and those of `extra_targets`, beside the package's own schema.json,
    README.md and manifest (targets/package.py)."""
    # Before any work: a missing TypeScript toolchain is the user's to fix, named at once.
    runtime = runtime_link(options.vendor_runtime)
    node_modules = None
    if options.npm is not None:
        node_modules = find_node_modules(npm_pins(runtime), "--npm")
    hierarchy, schema_text, warnings = compile_schema(options)
    build = Build(hierarchy, schema_text, options.package, runtime)
    # the README shows the targets' parts in this order: Python first, as zomgen is a Python tool
    targets: list[Target] = [PythonTarget()] if options.python else []
    targets.append(TypeScriptTarget(options.npm, node_modules))
    return Generated(assemble(build, [*targets, *extra_targets]), warnings, hierarchy)


def _json_text(data: object) -> str:
    """Readable JSON (non-ASCII kept), escaped only where a character cannot be encoded."""
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(data, indent=2) + "\n"
    return text
