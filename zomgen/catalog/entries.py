"""The catalog: what zomgen knows of each convention, offline.

An entry has the shape of the zarr-conventions registry's entries (`uuid`, `name`,
`schema_url`, `spec_url`, `maturity`, `version`, `namespace`, `composes`), plus what zomgen
needs to check a node against it:

- `schema`: the convention's schema, a path relative to the catalog file, resolved offline
  like `-I` (its folder is searched for the files its `$ref`s name). Absent: the convention
  is known but cannot be checked here (its schemas are not local); a node declaring it is
  reported, not checked.
- `strict_schema`: a convention's stricter rules (OME-Zarr publishes strict schemas beside its
  specification's), a schema over one node's document applied, with `--strict`, to every
  node that declares the convention, in addition to its schema.
- `include`: more folders, relative to the catalog file, where the schemas' `$ref`s are
  resolved (as `-I`), besides each schema's own folder.
- `declared_when`: a JSON Schema over a node's document that says the node declares the
  convention in its own way (OME-Zarr's `ome.version`), for conventions not declared through
  `zarr_conventions`.
- `used_when`: a JSON Schema saying the node evidently uses it (xarray's dimension names);
  without it, a key of its `namespace` in the node's attributes says so. A convention that
  says how it is declared (a uuid, a URL, `declared_when`) and is used undeclared is reported,
  not checked: its schema would find only the missing declaration.
- `family`: conventions whose schemas describe the hierarchy below a node (OME-Zarr's image,
  plate, well): a node inside a subtree a family member already checked is not checked again.

The bundled catalog is schemas/catalog.json; `--catalog FILE` adds a user's.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zomgen.catalog.inline_schemas import inline_schema_problems
from zomgen.errors import CompileError, InputProblem
from zomgen.resources import conventions_dir

# The most entries one catalog file may hold: past it the file is refused, not read slowly.
MAX_ENTRIES = 1000
_STRINGS = ("uuid", "name", "schema_url", "spec_url", "maturity", "version", "family")
_FILES = ("schema", "strict_schema")
_SCHEMAS = ("declared_when", "used_when")


@dataclass(frozen=True)
class Namespace:
    """Where a convention's attributes are: under one key (`nested`) or prefixed keys."""

    style: str  # "nested" or "prefixed"
    key: str

    def used_by(self, attributes: dict[str, Any]) -> list[str]:
        """The attribute keys of this namespace that `attributes` holds."""
        if self.style == "nested":
            return [self.key] if self.key in attributes else []
        return [key for key in attributes if key.startswith(self.key)]


@dataclass(frozen=True)
class Entry:
    name: str
    catalog: Path  # the file the entry comes from
    pointer: str  # where in it
    uuid: str | None = None
    schema_url: str | None = None
    spec_url: str | None = None
    maturity: str | None = None
    version: str | None = None
    namespace: Namespace | None = None
    schema: Path | None = None
    strict_schema: Path | None = None
    include: tuple[Path, ...] = ()
    family: str | None = None
    declared_when: dict[str, Any] | None = None
    used_when: dict[str, Any] | None = None
    composes: tuple[str, ...] = field(default=())
    # the Zarr versions of the nodes its schema describes (zarr-conventions' schemas require a
    # v3 node's `node_type`): a node of another version is reported not checked
    zarr_formats: tuple[int, ...] = (2, 3)

    @property
    def identity(self) -> str:
        """How the zarr-conventions spec identifies it: uuid, else schema_url, else spec_url,
        else (a convention declared its own way) its name."""
        return self.uuid or self.schema_url or self.spec_url or self.name

    @property
    def label(self) -> str:
        """How problems name it: its name, and its version where the name does not say it."""
        if self.version is None or self.version in self.name:
            return self.name
        return f"{self.name} {self.version}"

    def to_json(self) -> dict[str, str]:
        shown = {"name": self.name, "uuid": self.uuid, "schema_url": self.schema_url}
        return {key: value for key, value in shown.items() if value is not None}


def bundled_catalog() -> Path:
    return conventions_dir() / "catalog.json"


def load_catalogs(extra: list[Path]) -> list[Entry]:
    """The bundled catalog's entries, then each user catalog's, in order. Raises CompileError
    naming the file and pointer of every problem (nothing is checked with a broken catalog)."""
    entries: list[Entry] = []
    problems: list[InputProblem] = []
    for path in [bundled_catalog(), *extra]:
        found, wrong = _read_catalog(path, bundled=path == bundled_catalog())
        entries += found
        problems += wrong
    problems += _composition_cycles(entries)
    if problems:
        raise CompileError(problems)
    return entries


def _read_catalog(path: Path, *, bundled: bool) -> tuple[list[Entry], list[InputProblem]]:
    where = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [], [InputProblem(where, "", f"cannot read the catalog: {exc}")]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return [], [InputProblem(where, "", f"not JSON: {exc}")]
    items = data.get("conventions") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return [], [InputProblem(where, "", 'a catalog is an object with a "conventions" list')]
    if len(items) > MAX_ENTRIES:
        return [], [InputProblem(where, "/conventions", f"more than {MAX_ENTRIES} entries")]
    entries: list[Entry] = []
    problems: list[InputProblem] = []
    home = path.parent.resolve()  # once: every entry's files are relative to it
    for index, item in enumerate(items):
        pointer = f"/conventions/{index}"
        entry, wrong = _entry(path, home, pointer, item, bundled=bundled)
        problems += wrong
        if entry is not None:
            entries.append(entry)
    return entries, problems


def _entry(
    path: Path, home: Path, pointer: str, item: object, *, bundled: bool
) -> tuple[Entry | None, list[InputProblem]]:
    where = str(path)
    if not isinstance(item, dict):
        return None, [InputProblem(where, pointer, "an entry is an object")]
    problems = [
        InputProblem(where, f"{pointer}/{key}", "must be a string")
        for key in (*_STRINGS, *_FILES)
        if key in item and not isinstance(item[key], str)
    ]
    for key in _SCHEMAS:
        if key in item and not isinstance(item[key], dict):
            message = "must be a JSON Schema (an object)"
            problems.append(InputProblem(where, f"{pointer}/{key}", message))
        elif key in item and not bundled:
            # the bundled catalog's are checked by its tests, not at each start (30 ms)
            problems += inline_schema_problems(where, f"{pointer}/{key}", item[key])
    if not isinstance(item.get("name"), str):
        problems.append(InputProblem(where, f"{pointer}/name", "every entry needs a name"))
    if not any(key in item for key in ("uuid", "schema_url", "spec_url", *_SCHEMAS)):
        problems.append(
            InputProblem(
                where,
                pointer,
                "an entry is found by its uuid, schema_url or spec_url, or by declared_when "
                "or used_when: give at least one",
            )
        )
    namespace, wrong = _namespace(where, pointer, item.get("namespace"))
    problems += wrong
    files, folders, wrong = _paths(path, home, pointer, item)
    problems += wrong
    composes = item.get("composes", [])
    if not isinstance(composes, list) or not all(isinstance(c, str) for c in composes):
        problems.append(InputProblem(where, f"{pointer}/composes", "must be a list of uuids"))
    zarr_formats = item.get("zarr_formats", [2, 3])
    if not (
        isinstance(zarr_formats, list)
        and zarr_formats
        and all(f in (2, 3) and not isinstance(f, bool) for f in zarr_formats)
    ):
        message = "must be a non-empty list of Zarr versions (2, 3)"
        problems.append(InputProblem(where, f"{pointer}/zarr_formats", message))
        zarr_formats = [2, 3]
        composes = []
    if problems:
        return None, problems
    return Entry(
        name=item["name"],
        catalog=path,
        pointer=pointer,
        uuid=item.get("uuid"),
        schema_url=item.get("schema_url"),
        spec_url=item.get("spec_url"),
        maturity=item.get("maturity"),
        version=item.get("version"),
        namespace=namespace,
        schema=files.get("schema"),
        strict_schema=files.get("strict_schema"),
        include=folders,
        family=item.get("family"),
        declared_when=item.get("declared_when"),
        used_when=item.get("used_when"),
        composes=tuple(composes),
        zarr_formats=tuple(sorted(set(zarr_formats))),
    ), []


def _paths(
    path: Path, home: Path, pointer: str, item: dict[str, Any]
) -> tuple[dict[str, Path], tuple[Path, ...], list[InputProblem]]:
    """An entry's schema files and `include` folders, relative to its catalog (in `home`, its
    folder resolved), each of which must exist."""
    where = str(path)
    problems: list[InputProblem] = []
    files: dict[str, Path] = {}
    for key in _FILES:
        if isinstance(item.get(key), str):
            files[key] = _resolved(home, item[key])
            if not files[key].is_relative_to(home):
                problems.append(InputProblem(where, f"{pointer}/{key}", _outside(item[key], home)))
            elif not files[key].is_file():
                message = f"no such schema file: {files[key]}"
                problems.append(InputProblem(where, f"{pointer}/{key}", message))
    include = item.get("include", [])
    if not isinstance(include, list) or not all(isinstance(i, str) for i in include):
        problems.append(InputProblem(where, f"{pointer}/include", "must be a list of folders"))
        include = []
    folders = tuple(_resolved(home, folder) for folder in include)
    for index, folder in enumerate(folders):
        if not folder.is_relative_to(home):
            message = _outside(include[index], home)
            problems.append(InputProblem(where, f"{pointer}/include/{index}", message))
        elif not folder.is_dir():
            message = f"no such folder: {folder}"
            problems.append(InputProblem(where, f"{pointer}/include/{index}", message))
    return files, folders, problems


def _resolved(home: Path, given: str) -> Path:
    """`home / given` with its links followed, `home` being resolved already: where `given`
    is a plain relative path, only its own parts are looked at (a catalog's entries would
    otherwise spend 5 ms of a 100 ms `zomgen validate` resolving the same folders again)."""
    parts = given.split("/")
    if os.path.isabs(given) or any(part in ("", ".", "..") for part in parts):
        return (home / given).resolve()
    path = home
    for part in parts:
        path = path / part
        if path.is_symlink():
            return (home / given).resolve()
    return path


def _outside(given: str, home: Path) -> str:
    """A catalog reads only what its own folder holds, as a schema's `$ref`s stay in theirs: a
    path out of it (`../`, an absolute path, a link that leads out) is refused, not read."""
    return (
        f"{given!r} is outside the catalog's folder {home}: a catalog may name only files "
        "and folders inside its own folder"
    )


def _namespace(
    where: str, pointer: str, value: object
) -> tuple[Namespace | None, list[InputProblem]]:
    if value is None:
        return None, []
    if (
        isinstance(value, dict)
        and value.get("style") in ("nested", "prefixed")
        and isinstance(value.get("key"), str)
        and value["key"]
    ):
        return Namespace(value["style"], value["key"]), []
    message = 'must be {"style": "nested" or "prefixed", "key": a non-empty string}'
    return None, [InputProblem(where, f"{pointer}/namespace", message)]


def _composition_cycles(entries: list[Entry]) -> list[InputProblem]:
    """A convention that composes itself, through others or directly, cannot be checked: each
    check would ask for the next."""
    by_uuid = {entry.uuid: entry for entry in entries if entry.uuid}
    problems: list[InputProblem] = []
    state: dict[str, str] = {}  # uuid -> "open" while its compositions are followed, "done"

    def visit(uuid: str, chain: list[str]) -> None:
        if state.get(uuid) == "done" or uuid not in by_uuid:
            return
        if state.get(uuid) == "open":
            cycle = chain[chain.index(uuid) :] + [uuid]
            entry = by_uuid[uuid]
            names = " -> ".join(by_uuid[u].name for u in cycle)
            problems.append(
                InputProblem(str(entry.catalog), f"{entry.pointer}/composes", f"cycle: {names}")
            )
            return
        state[uuid] = "open"
        for other in by_uuid[uuid].composes:
            visit(other, [*chain, uuid])
        state[uuid] = "done"

    for uuid in by_uuid:
        visit(uuid, [])
    return problems
