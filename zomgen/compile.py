"""The whole pipeline as one pure function: schema file -> {relative path: file content}.

Nothing here writes files or knows about the command line (see `write.py` and `cli.py`).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from zomgen import ir
from zomgen.errors import InputProblem
from zomgen.format import format_python
from zomgen.ir.flatten import flatten
from zomgen.render import render
from zomgen.resources import runtime_dir
from zomgen.schema.bundle import bundle_with_places, locate_options
from zomgen.schema.documents import SchemaSet
from zomgen.schema.parse import Builder
from zomgen.schema.registry import load_schema_set
from zomgen.targets.python import PythonTarget
from zomgen.targets.typescript import typescript_files


@dataclass(frozen=True)
class Options:
    schema: Path
    include_dirs: tuple[Path, ...] = ()
    package: str = "convention"


def load(options: Options) -> SchemaSet:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))  # `zomgen ir` too
    return load_schema_set(options.schema, list(options.include_dirs))


def build_ir(schema_set: SchemaSet) -> ir.Hierarchy:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
    return flatten(Builder(schema_set).build())


# The compiler recurses once per nesting level of the schema, ~20 frames each; Python's default
# limit (1000) would stop at about 50 levels. Deeper than this is reported as too deep.
RECURSION_LIMIT = 8000


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


def generate_package(options: Options) -> Generated:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
    schema_set = load(options)
    hierarchy = build_ir(schema_set)
    bundled, places = bundle_with_places(schema_set)
    hierarchy = locate_options(hierarchy, places)
    files: dict[str, str] = {}
    view = PythonTarget(hierarchy).package()
    for template, name in (
        ("python/models.py.j2", "models.py"),
        ("python/documents.py.j2", "documents.py"),
        ("python/__init__.py.j2", "__init__.py"),
    ):
        files[name] = format_python(render(template, p=view, package=options.package))
    files["_convert.py"] = format_python(render("python/_convert.py.j2", c=view.convert))
    files["README.md"] = render("python/README.md.j2", p=view, package=options.package)
    files["schema.json"] = _json_text(bundled)
    files["py.typed"] = ""
    files.update(typescript_files(hierarchy, files["schema.json"]))
    for source in sorted(runtime_dir().glob("*.py")):
        files[f"_runtime/{source.name}"] = source.read_text("utf-8")
    return Generated(files, tuple(schema_set.warnings), hierarchy)


def _json_text(data: object) -> str:
    """Readable JSON (non-ASCII kept), escaped only where a character cannot be encoded."""
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(data, indent=2) + "\n"
    return text
