"""Load schema files (JSON or YAML) and build the offline registry every `$ref` resolves in.

A reference resolves against, in order: the input's own `$id` and location, every schema file
in the input's folder, the folders given with `-I DIR` (searched recursively), and the bundled
base schemas. Nothing is ever fetched: a reference that resolves nowhere is an error. For
targets that have no `$id` but are referenced by URL (common for schemas published on
GitHub), the last resort is a file in the search folders whose path ends like the URL's path.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urldefrag, urlsplit
from urllib.request import url2pathname

import yaml
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource
from referencing.jsonschema import DRAFT202012

from zomgen.errors import CompileError, InputProblem
from zomgen.resources import base_schemas_dir

SCHEMA_SUFFIXES = (".json", ".schema", ".yaml", ".yml")
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


def read_data_file(path: Path) -> object:
    """Parse a JSON or YAML file; a clear CompileError for anything else."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CompileError.one(str(path), "", f"cannot read the file: {exc}") from None
    if path.suffix in (".yaml", ".yml"):
        try:
            return yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise CompileError.one(str(path), "", f"not valid YAML: {_one_line(exc)}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if path.suffix in (".json", ".schema"):
            raise CompileError.one(
                str(path), "", f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"
            ) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise CompileError.one(str(path), "", f"neither JSON nor YAML: {_one_line(exc)}") from None


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())


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
    # What the compilation could not do exactly but did safely (a type widened, a pattern one
    # run time cannot read): reported by `zomgen build` as warnings, never as a failure.
    warnings: list[InputProblem] = field(default_factory=list)

    indexed: int = 0  # documents already in `locations` (files found on disk come later)

    def locate(self, schema: object) -> tuple[SchemaDocument, str] | None:
        if self.indexed < len(self.documents):
            for doc in self.documents[self.indexed :]:
                _index(doc, doc.contents, "", self.locations)
            self.indexed = len(self.documents)
        return self.locations.get(id(schema))

    def warn(self, file: str, pointer: str, message: str) -> None:
        problem = InputProblem(file, pointer, message)
        if problem not in self.warnings:
            self.warnings.append(problem)


def _schema_files(folder: Path, recursive: bool) -> Iterator[Path]:
    pattern = "**/*" if recursive else "*"
    for candidate in sorted(folder.glob(pattern)):
        if candidate.is_file() and candidate.suffix in SCHEMA_SUFFIXES:
            yield candidate


def _load_optional(path: Path) -> object | None:
    """A neighbour file that is not a schema is simply not part of the registry."""
    try:
        contents = read_data_file(path)
    except CompileError:
        return None
    return contents if isinstance(contents, (dict, bool)) else None


def load_schema_set(schema_path: Path, include_dirs: list[Path]) -> SchemaSet:
    schema_path = schema_path.resolve()
    if not schema_path.is_file():
        raise CompileError.one(str(schema_path), "", "no such schema file")
    root_contents = read_data_file(schema_path)
    if not isinstance(root_contents, (dict, bool)):
        raise CompileError.one(str(schema_path), "", "a schema must be a JSON object")
    root = _document(schema_path, root_contents)
    # Checked before anything reads it: a malformed keyword is reported with its pointer,
    # not misread or tripped over (imported here: check.py needs this module's types).
    from zomgen.schema.check import check_document

    check_document(root)

    documents = [root]
    rejected: list[tuple[SchemaDocument, CompileError]] = []
    seen = {schema_path}
    neighbours = [(schema_path.parent, False)] + [(d.resolve(), True) for d in include_dirs]
    neighbours.append((base_schemas_dir(), False))
    for folder, recursive in neighbours:
        if not folder.is_dir():
            raise CompileError.one(str(folder), "", "-I needs an existing folder")
        for path in _schema_files(folder, recursive):
            if path in seen:
                continue
            seen.add(path)
            contents = _load_optional(path)
            if contents is not None:
                try:
                    neighbour = _document(path, contents)
                except CompileError:
                    continue  # another dialect: not a schema zomgen reads
                try:
                    check_document(neighbour)
                except CompileError as exc:
                    # A malformed neighbour stays out of the registry; it only matters if
                    # referenced, and then its problems are the error.
                    rejected.append((neighbour, exc))
                    continue
                documents.append(neighbour)

    # Two files may declare one `$id` (a vendored copy beside its original): the first in
    # search order (input, its folder, -I folders in order, bases) keeps it, and the others are
    # known by their file location only, so that no crawl order can swap them.
    claimed: set[str] = set()
    for doc in documents:
        if doc.uri in claimed and isinstance(doc.contents, dict):
            doc.contents = {k: v for k, v in doc.contents.items() if k != "$id"}
            doc.uri = doc.path.as_uri()
        claimed.add(doc.uri)
    resources: list[tuple[str, Resource[object]]] = []
    for doc in documents:
        resource = Resource.from_contents(doc.contents, default_specification=DRAFT202012)
        for uri in dict.fromkeys((doc.path.as_uri(), doc.uri)):
            resources.append((uri, resource))

    retrieved: dict[str, SchemaDocument] = {}

    def retrieve(uri: str) -> Resource[object]:
        # referencing may ask again for the same URI: answer with the same document, whose
        # objects' identity the compiler relies on.
        found = retrieved.get(uri) or _from_disk(uri, documents) or _by_path_suffix(uri, documents)
        if found is not None:
            retrieved[uri] = found
        if found is None:
            for doc, problems in rejected:
                if uri in (doc.uri, doc.path.as_uri()) or _by_path_suffix(uri, [doc]):
                    raise problems
            raise NoSuchResource(ref=uri)  # type: ignore[call-arg]
        return Resource.from_contents(found.contents, default_specification=DRAFT202012)

    registry: Registry[object] = Registry(retrieve=retrieve).with_resources(resources)  # type: ignore[call-arg]
    registry = registry.crawl()
    schema_set = SchemaSet(root=root, documents=documents, registry=registry)
    schema_set.checked.update(id(doc) for doc in documents)
    return schema_set


def _document(path: Path, contents: object) -> SchemaDocument:
    uri = path.as_uri()
    if isinstance(contents, dict):
        declared = contents.get("$id")
        if isinstance(declared, str) and declared:
            uri = urldefrag(declared).url
    return SchemaDocument(path=path, uri=uri, contents=contents, draft=draft_of(contents, path))


def _from_disk(uri: str, documents: list[SchemaDocument]) -> SchemaDocument | None:
    """A relative `$ref` from a local file to another local file outside the search folders."""
    if not uri.startswith("file:"):
        return None
    path = Path(url2pathname(urlsplit(uri).path)).resolve()
    for doc in documents:
        if doc.path == path:  # known under another name (a symlink, `..` segments)
            return doc
    if not path.is_file():
        return None
    contents = _load_optional(path)
    if contents is None:
        return None
    doc = _document(path, contents)
    documents.append(doc)
    return doc


def _by_path_suffix(uri: str, documents: list[SchemaDocument]) -> SchemaDocument | None:
    """The document without an `$id` of its own whose file path ends with the longest tail of
    the URI's path (a file with another `$id` is another schema, never a stand-in)."""
    parts = [p for p in urlsplit(uri).path.split("/") if p]
    if not parts:
        return None
    best: SchemaDocument | None = None
    best_len = 0
    for doc in documents:
        if doc.uri != doc.path.as_uri():
            continue
        doc_parts = doc.path.parts
        n = 0
        while n < len(parts) and n < len(doc_parts) and parts[-1 - n] == doc_parts[-1 - n]:
            n += 1
        if n > best_len:
            best, best_len = doc, n
    # A file name alone (`schema.json`) says too little: its folder must match too.
    return best if best_len >= min(2, len(parts)) else None


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


def escape_pointer(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")
