"""Load schema files (JSON or YAML) and build the offline registry every `$ref` resolves in.

A reference resolves against, in order: the input's own `$id` and location, every schema file
in the input's folder, the folders given with `-I DIR` (searched recursively), and the bundled
base schemas. Nothing is ever fetched: a reference that resolves nowhere is an error. For
targets that have no `$id` but are referenced by URL (common for schemas published on
GitHub), the last resort is a file in the search folders whose path ends like the URL's path.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit
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
    # How generated files name this file (README's run-time checks, comments): its path
    # relative to the input's folder, else its `$id`, else `<-I folder name>/<path inside>`, so
    # that the output never holds a path of the building machine ("" for the input itself).
    label: str = ""


# Limits on what a schema file may hold (docs/input-language.md, "Limits"). Each is reported
# as a problem at the JSON pointer where it was reached, before anything else reads the file.
MAX_FILE_BYTES = 64 * 2**20  # a schema file larger than this is refused unread
MAX_DEPTH = 128  # nesting of objects and arrays: the generated code nests with it
MAX_VALUES = 200_000  # values in a document, each YAML alias counted at every place it stands
MAX_ENUM = 20_000  # values of one `enum`: each is a literal in the generated types
MAX_INT_DIGITS = 309  # past this an integer exceeds every double: JavaScript reads Infinity


@dataclass(frozen=True)
class _NotJson:
    """A value the parser read but JSON cannot hold (NaN, a 5,000-digit integer)."""

    text: str
    why: str


def _parse_int(text: str) -> object:
    if len(text) > MAX_INT_DIGITS + 1:
        return _NotJson(f"{text[:12]}... ({len(text)} digits)", "an integer beyond any double")
    return int(text)


def _parse_float(text: str) -> object:
    value = float(text)
    if math.isinf(value):
        return _NotJson(text[:40], "a number beyond any double")
    return value


def _parse_constant(text: str) -> object:
    return _NotJson(text, "not a JSON number")


class _YamlLoader(yaml.SafeLoader):
    """PyYAML's safe loader, with integers and floats that JSON cannot hold left as markers for
    `_plain` to report by pointer (Python refuses to read integers of more than 4,300 digits)."""


def _yaml_int(loader: yaml.SafeLoader, node: yaml.Node) -> object:
    text = str(node.value)
    if len(text) > MAX_INT_DIGITS + 4:  # a sign, `0x`, `_` separators
        return _NotJson(f"{text[:12]}... ({len(text)} characters)", "an integer beyond any double")
    return yaml.SafeLoader.construct_yaml_int(loader, node)  # type: ignore[arg-type]


def _yaml_float(loader: yaml.SafeLoader, node: yaml.Node) -> object:
    value = yaml.SafeLoader.construct_yaml_float(loader, node)  # type: ignore[arg-type]
    if isinstance(value, float) and not math.isfinite(value):
        return _NotJson(str(node.value)[:40], "not a finite number")
    return value


_YamlLoader.add_constructor("tag:yaml.org,2002:int", _yaml_int)
_YamlLoader.add_constructor("tag:yaml.org,2002:float", _yaml_float)


def read_data_file(path: Path) -> object:
    """Parse a JSON or YAML file into plain JSON values; a clear CompileError for anything else,
    or for anything past the limits above."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise CompileError.one(
                str(path), "", f"the file is larger than {MAX_FILE_BYTES // 2**20} MiB"
            )
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CompileError.one(str(path), "", f"cannot read the file: {_one_line(exc)}") from None
    return _plain(_parse_text(path, text), str(path))


def _parse_text(path: Path, text: str) -> object:
    if path.suffix in (".yaml", ".yml"):
        return _yaml(path, text, "not valid YAML")
    try:
        return json.loads(
            text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant
        )
    except RecursionError:
        raise CompileError.one(str(path), "", _too_deep_in_text(text)) from None
    except json.JSONDecodeError as exc:
        if path.suffix in (".json", ".schema"):
            raise CompileError.one(
                str(path), "", f"not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"
            ) from None
    return _yaml(path, text, "neither JSON nor YAML")


def _yaml(path: Path, text: str, what: str) -> object:
    try:
        return yaml.load(text, Loader=_YamlLoader)  # a SafeLoader
    except RecursionError:
        raise CompileError.one(str(path), "", _too_deep_in_text(text)) from None
    except (yaml.YAMLError, ValueError, TypeError, OverflowError) as exc:
        raise CompileError.one(str(path), "", f"{what}: {_one_line(exc)}") from None


def _too_deep_in_text(text: str) -> str:
    """Where a document too deep to parse passes MAX_DEPTH (line and column: no pointer can be
    built from a document that was not read)."""
    depth, line, column, quote, escaped = 0, 1, 0, "", False
    for char in text:
        column += 1
        if char == "\n":
            line, column = line + 1, 0
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return (
                    f"nests deeper than {MAX_DEPTH} levels of objects and arrays (line {line}, "
                    f"column {column}); zomgen's limit (docs/input-language.md, Limits)"
                )
        elif char in "]}":
            depth -= 1
    return f"nests deeper than {MAX_DEPTH} levels of objects and arrays"


def _plain(data: object, file: str) -> object:
    """A copy of `data` made only of JSON values (dict with str keys, list, str, int, float,
    bool, None), every limit checked, each problem reported at its pointer. Iterative, so any
    depth is safe; a YAML alias is copied at each place it stands (the compiler tells schemas
    apart by identity), counted against MAX_VALUES, and an alias inside itself is refused."""
    problems: list[InputProblem] = []
    count = 0

    def refuse(pointer: str, message: str) -> None:
        problems.append(InputProblem(file, pointer, message))

    def scalar(value: object, pointer: str) -> object:
        if value is None or isinstance(value, (bool, int)):
            if isinstance(value, int) and value.bit_length() > 1024:
                refuse(pointer, "an integer beyond any double (JavaScript reads it as Infinity)")
            return value
        if isinstance(value, float):
            if not math.isfinite(value):
                refuse(pointer, f"{value} is not a JSON number")
            return value
        if isinstance(value, str):
            bad = _unencodable(value)
            if bad is not None:
                refuse(pointer, f"the text holds {bad}, which UTF-8 cannot encode; remove it")
            return value
        if isinstance(value, _NotJson):
            refuse(pointer, f"{value.text} is {value.why}: JSON run times cannot read it")
            return None
        kind = type(value).__name__
        refuse(pointer, f"a YAML {kind} is not a JSON value: quote it to make it a string")
        return None

    root: list[object] = [None]
    seen: set[int] = set()  # containers met before: YAML aliases
    # (source, destination container, key in it, pointer, depth)
    stack: list[tuple[object, object, object, str, int]] = [(data, root, 0, "", 0)]
    while stack and not problems:
        value, into, key, pointer, depth = stack.pop()
        count += 1
        if count > MAX_VALUES:
            refuse(
                pointer,
                f"the document holds more than {MAX_VALUES:,} values (YAML aliases counted "
                "at each place they stand); zomgen's limit",
            )
            break
        copy: object
        if isinstance(value, (dict, list)):
            if depth >= MAX_DEPTH:
                alias = (
                    " (or a YAML alias stands inside the node it names)"
                    if id(value) in seen
                    else ""
                )
                refuse(
                    pointer,
                    f"nests deeper than {MAX_DEPTH} levels of objects and arrays{alias}; "
                    "zomgen's limit (generated code nests with the schema)",
                )
                break
            seen.add(id(value))
            if isinstance(value, dict):
                mapping: dict[str, object] = {}
                children: list[tuple[str, object]] = []
                for k, v in value.items():
                    if not isinstance(k, str):
                        refuse(
                            f"{pointer}/{escape_pointer(str(k))}",
                            f"the key {k!r} is a YAML {type(k).__name__}: JSON keys are "
                            "strings, quote it",
                        )
                        continue
                    bad = _unencodable(k)
                    if bad is not None:
                        refuse(
                            f"{pointer}/{escape_pointer(k.encode('utf-8', 'backslashreplace').decode())}",
                            f"the key holds {bad}, which UTF-8 cannot encode; remove it",
                        )
                        continue
                    mapping[k] = None
                    children.append((k, v))
                enum = value.get("enum")
                if isinstance(enum, list) and len(enum) > MAX_ENUM:
                    refuse(
                        f"{pointer}/enum",
                        f"{len(enum):,} values, more than zomgen's limit of {MAX_ENUM:,} (each "
                        "is a literal of the generated types): use `type` and a `pattern`",
                    )
                copy = mapping
                for k, v in reversed(children):
                    stack.append((v, copy, k, f"{pointer}/{escape_pointer(k)}", depth + 1))
            else:
                copy = [None] * len(value)
                for i in reversed(range(len(value))):
                    stack.append((value[i], copy, i, f"{pointer}/{i}", depth + 1))
        else:
            copy = scalar(value, pointer)
        into[key] = copy  # type: ignore[index]
    if problems:
        raise CompileError(problems[:1])
    return root[0]


def _check_depth_through_refs(doc: SchemaDocument) -> None:
    """MAX_DEPTH again, counting each local `$ref` (`#/...`) as the schema it names: a chain of
    `$defs` nests the generated types as deeply as inline nesting does (300 chained objects
    overflowed pyright's stack). Recursion (a `$ref` back to a schema on the way) is not
    nesting. Linear: each object or array is measured once."""
    where: dict[int, str] = {}
    kids: dict[int, list[object]] = {}
    containers: list[object] = []
    stack: list[tuple[object, str]] = [(doc.contents, "")]
    while stack:
        node, pointer = stack.pop()
        if not isinstance(node, (dict, list)) or id(node) in where:
            continue
        where[id(node)] = pointer
        containers.append(node)
        pairs = (
            [(f"{pointer}/{escape_pointer(k)}", v) for k, v in node.items()]
            if isinstance(node, dict)
            else [(f"{pointer}/{i}", v) for i, v in enumerate(node)]
        )
        kids[id(node)] = [v for _, v in pairs if isinstance(v, (dict, list))]
        stack.extend((v, p) for p, v in pairs)
    for node in containers:
        if isinstance(node, dict) and isinstance(node.get("$ref"), str):
            target = _local_target(doc.contents, str(node["$ref"]))
            if isinstance(target, (dict, list)) and id(target) in where:
                kids[id(node)].append(target)
    depth: dict[int, int] = {}
    on_path: set[int] = set()
    walk: list[tuple[object, int]] = [(doc.contents, 0)]
    while walk:
        node, state = walk.pop()
        key = id(node)
        children = kids.get(key, [])
        if state == 0:
            if key in depth or key in on_path:
                continue
            on_path.add(key)
            walk.append((node, 1))
            walk.extend((c, 0) for c in children if id(c) not in depth and id(c) not in on_path)
        else:
            on_path.discard(key)
            depth[key] = 1 + max((depth.get(id(c), 0) for c in children), default=0)
    if depth.get(id(doc.contents), 0) <= MAX_DEPTH:
        return
    node = doc.contents
    for _ in range(MAX_DEPTH):
        node = max(kids[id(node)], key=lambda c: depth.get(id(c), 0))
    raise CompileError.one(
        str(doc.path),
        where[id(node)],
        f"nests deeper than {MAX_DEPTH} levels of objects and arrays, counting each `$ref` as "
        "the schema it names; zomgen's limit (generated types nest with the schema)",
    )


def _local_target(contents: object, ref: str) -> object:
    """What a `#/...` reference names in the same document (None if anything else)."""
    if not ref.startswith("#/"):
        return None
    node = contents
    for token in ref[2:].split("/"):
        token = unquote(token).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            node = node.get(token)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())


def _unencodable(text: str) -> str | None:
    """The first character of `text` UTF-8 cannot encode (a lone surrogate), spelled."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"the lone surrogate U+{ord(text[exc.start]):04X} at character {exc.start}"
    return None


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

    def pointer_text(self, schema: object) -> str:
        """Where `schema` is, as the IR writes it: `label#pointer` ("" for the input file, else
        its path relative to the input's folder, its `$id` or its path in its -I folder: never
        a path of the building machine), or "#" for a schema no document holds."""
        found = self.locate(schema)
        return "#" if found is None else self.text_of(*found)

    def text_of(self, doc: SchemaDocument, pointer: str) -> str:
        label = "" if doc is self.root else doc.label or doc.path.as_posix()
        return f"{label}#{pointer}"

    def warn(self, file: str, pointer: str, message: str) -> None:
        problem = InputProblem(file, pointer, message)
        if problem not in self.warnings:
            self.warnings.append(problem)


def _schema_files(folder: Path, recursive: bool) -> Iterator[Path]:
    pattern = "**/*" if recursive else "*"
    for candidate in sorted(folder.glob(pattern)):
        if candidate.is_file() and candidate.suffix in SCHEMA_SUFFIXES:
            yield candidate


class OutsideSearchFolders(CompileError):
    """A `$ref` names a file outside every folder zomgen reads schemas from; atoms.py reports
    it at the `$ref`'s pointer."""

    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__([InputProblem(str(path), "", "outside the schema search folders")])


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
    _check_depth_through_refs(root)

    documents = [root]
    rejected: list[tuple[SchemaDocument, CompileError]] = []
    seen = {schema_path}
    neighbours = [(schema_path.parent, False)] + [(d.resolve(), True) for d in include_dirs]
    neighbours.append((base_schemas_dir().resolve(), False))
    # `$ref` reads files only below these (the schema's folder and below, -I, the bases): a
    # schema from elsewhere must not copy ~/.aws/credentials into the generated package.
    search_folders = [folder for folder, _recursive in neighbours]
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
                neighbour.label = _label(neighbour, schema_path.parent, folder)
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
        found = (
            retrieved.get(uri)
            or _from_disk(uri, documents, search_folders)
            or _by_path_suffix(uri, documents)
        )
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
    _lists_first_in_dependencies(contents)
    uri = path.as_uri()
    if isinstance(contents, dict):
        declared = contents.get("$id")
        if isinstance(declared, str) and declared:
            uri = urldefrag(declared).url
    return SchemaDocument(path=path, uri=uri, contents=contents, draft=draft_of(contents, path))


def _lists_first_in_dependencies(contents: object) -> None:
    """Draft-07 `dependencies` mixes schemas and lists of names. referencing 0.37 reads the
    values as schemas when the first one is (and then fails on a list): put the lists first,
    an order JSON Schema does not see. The objects are zomgen's own copies (`_plain`)."""
    stack = [contents]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            deps = node.get("dependencies")
            if isinstance(deps, dict) and any(not isinstance(v, dict) for v in deps.values()):
                lists = {k: v for k, v in deps.items() if not isinstance(v, dict)}
                node["dependencies"] = lists | {k: v for k, v in deps.items() if k not in lists}
            stack.extend(node.values())


def _from_disk(
    uri: str, documents: list[SchemaDocument], search_folders: list[Path]
) -> SchemaDocument | None:
    """A `$ref` from a local file to a file below a search folder that the folder scan did not
    load (a subfolder of the schema's folder); OutsideSearchFolders for any file elsewhere.
    The path counts as inside when it is, as written (`..` folded: a symlink someone put in a
    search folder is a file of that folder, as the bundled conventions share files) or once
    symlinks are resolved (a link to a folder given with -I)."""
    if not uri.startswith("file:"):
        return None
    named = Path(os.path.normpath(url2pathname(urlsplit(uri).path)))
    path = named.resolve()
    if not any(p.is_relative_to(f) for p in (named, path) for f in search_folders):
        raise OutsideSearchFolders(named)
    for doc in documents:
        if doc.path == path:  # known under another name (a symlink, `..` segments)
            return doc
    if not path.is_file():
        return None
    contents = _load_optional(path)
    if contents is None:
        return None
    doc = _document(path, contents)
    doc.label = _label(doc, documents[0].path.parent, None)
    documents.append(doc)
    return doc


def _label(doc: SchemaDocument, input_folder: Path, found_in: Path | None) -> str:
    try:
        return doc.path.relative_to(input_folder).as_posix()
    except ValueError:
        pass
    if doc.uri != doc.path.as_uri():
        return doc.uri
    if found_in is not None:
        return f"{found_in.name}/{doc.path.relative_to(found_in).as_posix()}"
    return Path(os.path.relpath(doc.path, input_folder)).as_posix()


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
