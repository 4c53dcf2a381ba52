"""The schema documents a compilation reads, and the set of them its `$ref`s resolve in.

Types only (plus the dialect a document declares): the reader (read.py), the registry
(registry.py), the meta-schema check (metaschema.py) and the parser all speak of these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from referencing import Registry
from zomgen_runtime.pointers import escape as escape_pointer

from zomgen.errors import CompileError

SUPPORTED_DIALECTS = {
    "https://json-schema.org/draft/2020-12/schema": "2020-12",
    "https://json-schema.org/draft/2019-09/schema": "2019-09",
    "http://json-schema.org/draft-07/schema": "draft-07",
}


@dataclass
class SchemaDocument:
    """One loaded schema file."""

    path: Path
    uri: str
    contents: object
    draft: str
    # How generated files name this file (README's run-time checks, comments): its path
    # relative to the input's folder, else its `$id`, else `<-I folder name>/<path inside>`, so
    # that the output never holds a path of the building machine ("" for the input itself).
    label: str = ""


def draft_of(contents: object, path: Path) -> str:
    if not isinstance(contents, dict):
        return "2020-12"
    dialect = contents.get("$schema")
    if dialect is None:
        return "2020-12"
    if not isinstance(dialect, str):
        raise CompileError.one(str(path), "/$schema", "`$schema` must be a string")
    draft = SUPPORTED_DIALECTS.get(dialect.rstrip("#"))
    if draft is None:
        raise CompileError.one(
            str(path),
            "/$schema",
            f"unsupported dialect {dialect!r}: use JSON Schema 2020-12, 2019-09 or draft-07",
        )
    return draft


@dataclass
class SchemaSet:
    """The input schema and everything its references may reach, with one registry."""

    root: SchemaDocument
    documents: list[SchemaDocument]
    registry: Registry[object]
    # id() of every dict inside a loaded document -> (document, JSON pointer). Referencing
    # hands back the very objects we loaded, so identity is a cheap, exact location.
    locations: dict[int, tuple[SchemaDocument, str]] = field(default_factory=dict)
    checked: set[int] = field(default_factory=set)  # documents checked against their meta-schema

    indexed: int = 0  # documents already in `locations` (files found on disk come later)

    def locate(self, schema: object) -> tuple[SchemaDocument, str] | None:
        if self.indexed < len(self.documents):
            for doc in self.documents[self.indexed :]:
                _index(doc, doc.contents, "", self.locations)
            self.indexed = len(self.documents)
        return self.locations.get(id(schema))

    def pointer_text(self, schema: object) -> str:
        """Where `schema` is, as the IR writes it: `label#pointer` ("" for the input file, else
        its path relative to the input's folder, its `$id` or its path in its -I folder: never
        a path of the building machine), or "#" for a schema no document holds."""
        found = self.locate(schema)
        return "#" if found is None else self.text_of(*found)

    def text_of(self, doc: SchemaDocument, pointer: str) -> str:
        label = "" if doc is self.root else doc.label or doc.path.as_posix()
        return f"{label}#{pointer}"


def _index(
    doc: SchemaDocument, node: object, pointer: str, out: dict[int, tuple[SchemaDocument, str]]
) -> None:
    if isinstance(node, dict):
        out.setdefault(id(node), (doc, pointer))
        for key, value in node.items():
            _index(doc, value, f"{pointer}/{escape_pointer(str(key))}", out)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            _index(doc, value, f"{pointer}/{i}", out)
