"""Load schema files (JSON or YAML) and build the offline registry every `$ref` resolves in.

A reference resolves against, in order: the input's own `$id` and location, every schema file
in the input's folder, the folders given with `-I DIR` (searched recursively), and the bundled
base schemas. Nothing is ever fetched: a reference that resolves nowhere is an error. For
targets that have no `$id` but are referenced by URL (common for schemas published on
GitHub), the last resort is a file in the search folders whose path ends like the URL's path.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit
from urllib.request import url2pathname

from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource
from referencing.jsonschema import DRAFT202012
from zomgen_runtime.pointers import escape as escape_pointer

from zomgen.errors import CompileError, InputProblem
from zomgen.resources import base_schemas_dir
from zomgen.schema.documents import SchemaDocument, SchemaSet, draft_of
from zomgen.schema.metaschema import check_document
from zomgen.schema.read import MAX_DEPTH, read_data_file

SCHEMA_SUFFIXES = (".json", ".schema", ".yaml", ".yml")


class OutsideSearchFolders(CompileError):
    """A `$ref` names a file outside every folder zomgen reads schemas from; atoms.py reports
    it at the `$ref`'s pointer."""

    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__([InputProblem(str(path), "", "outside the schema search folders")])


def load_schema_set(schema_path: Path, include_dirs: list[Path]) -> SchemaSet:
    """The input schema and every schema its `$ref`s may reach, in one offline registry."""
    schema_path = schema_path.resolve()
    root = _load_root(schema_path)
    neighbours = [(schema_path.parent, False)] + [(d.resolve(), True) for d in include_dirs]
    neighbours.append((base_schemas_dir().resolve(), False))
    # `$ref` reads files only below these (the schema's folder and below, -I, the bases): a
    # schema from elsewhere must not copy ~/.aws/credentials into the generated package.
    search_folders = [folder for folder, _recursive in neighbours]
    documents, rejected = _load_neighbours(root, neighbours)
    _one_owner_per_id(documents)
    retrieve = _retriever(documents, rejected, search_folders)
    resources = _resources(documents)
    registry: Registry[object] = Registry(retrieve=retrieve).with_resources(resources)  # type: ignore[call-arg]
    registry = registry.crawl()
    schema_set = SchemaSet(root=root, documents=documents, registry=registry)
    schema_set.checked.update(id(doc) for doc in documents)
    return schema_set


def _load_root(schema_path: Path) -> SchemaDocument:
    """The input schema, read and checked: unlike a neighbour, any problem in it is an error."""
    if not schema_path.is_file():
        raise CompileError.one(str(schema_path), "", "no such schema file")
    root_contents = read_data_file(schema_path)
    if not isinstance(root_contents, (dict, bool)):
        raise CompileError.one(str(schema_path), "", "a schema must be a JSON object")
    root = _document(schema_path, root_contents)
    # Checked before anything reads it: a malformed keyword is reported with its pointer,
    # not misread or tripped over.
    check_document(root)
    _check_depth_through_refs(root)
    return root


_Rejected = list[tuple[SchemaDocument, CompileError]]


def _load_neighbours(
    root: SchemaDocument, neighbours: list[tuple[Path, bool]]
) -> tuple[list[SchemaDocument], _Rejected]:
    """`root` then every schema file in the (folder, recursive) `neighbours`, in search order,
    each file once; and the malformed ones, kept aside with their problems."""
    documents = [root]
    rejected: _Rejected = []
    seen = {root.path}
    for folder, recursive in neighbours:
        if not folder.is_dir():
            raise CompileError.one(str(folder), "", "-I needs an existing folder")
        for path in _schema_files(folder, recursive):
            if path in seen:
                continue
            seen.add(path)
            _add_neighbour(path, root.path.parent, folder, documents, rejected)
    return documents, rejected


def _add_neighbour(
    path: Path,
    input_folder: Path,
    folder: Path,
    documents: list[SchemaDocument],
    rejected: _Rejected,
) -> None:
    """Add the schema file at `path` (found in `folder`) to `documents`, or to `rejected` if
    malformed; a file that is no schema zomgen reads is left out silently."""
    contents = _load_optional(path)
    if contents is None:
        return
    try:
        neighbour = _document(path, contents)
    except CompileError:
        return  # another dialect: not a schema zomgen reads
    neighbour.label = _label(neighbour, input_folder, folder)
    try:
        check_document(neighbour)
    except CompileError as exc:
        # A malformed neighbour stays out of the registry; it only matters if
        # referenced, and then its problems are the error.
        rejected.append((neighbour, exc))
        return
    documents.append(neighbour)


def _one_owner_per_id(documents: list[SchemaDocument]) -> None:
    """Two files may declare one `$id` (a vendored copy beside its original): the first in
    search order (input, its folder, -I folders in order, bases) keeps it, and the others are
    known by their file location only, so that no crawl order can swap them."""
    claimed: set[str] = set()
    for doc in documents:
        if doc.uri in claimed and isinstance(doc.contents, dict):
            doc.contents = {k: v for k, v in doc.contents.items() if k != "$id"}
            doc.uri = doc.path.as_uri()
        claimed.add(doc.uri)


def _resources(documents: list[SchemaDocument]) -> list[tuple[str, Resource[object]]]:
    """Each document under its file URI and its `$id` (one entry when they are the same)."""
    resources: list[tuple[str, Resource[object]]] = []
    for doc in documents:
        resource = Resource.from_contents(doc.contents, default_specification=DRAFT202012)
        for uri in dict.fromkeys((doc.path.as_uri(), doc.uri)):
            resources.append((uri, resource))
    return resources


def _retriever(
    documents: list[SchemaDocument], rejected: _Rejected, search_folders: list[Path]
) -> Callable[[str], Resource[object]]:
    """The registry's answer for a URI no loaded document claims: a file below the search
    folders, else a document by path suffix; a rejected document's problems if it is the one
    named, else NoSuchResource."""
    retrieved: dict[str, SchemaDocument] = {}

    def retrieve(uri: str) -> Resource[object]:
        # referencing may ask again for the same URI: answer with the same document, whose
        # objects' identity the compiler relies on.
        found = (
            retrieved.get(uri)
            or _from_disk(uri, documents, search_folders)
            or _by_path_suffix(uri, documents)
        )
        if found is None:
            for doc, problems in rejected:
                if uri in (doc.uri, doc.path.as_uri()) or _by_path_suffix(uri, [doc]):
                    raise problems
            raise NoSuchResource(ref=uri)  # type: ignore[call-arg]
        retrieved[uri] = found
        return Resource.from_contents(found.contents, default_specification=DRAFT202012)

    return retrieve


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
