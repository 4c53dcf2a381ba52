"""What one node says it follows: the conventions it declares (a `zarr_conventions` entry, or
a convention's own declaration such as OME-Zarr's `ome.version`) and those it evidently uses
(a known convention's keys), matched against the catalog, with a warning for every
declaration the catalog cannot match and every use left undeclared.

Malformed `zarr_conventions` (not a list, an entry with none of uuid, schema_url and spec_url,
a value of the wrong type) are problems of the node at their pointer, never a crash.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from zomgen_runtime import Problem

from zomgen.catalog.entries import Entry, bundled_catalog
from zomgen.catalog.ome_versions import version_notes
from zomgen.catalog.predicates import Predicate

# The most `zarr_conventions` entries of one node that are read: a node declaring more is a
# problem, and only these are matched.
MAX_DECLARATIONS = 64
DECLARATIONS = "/attributes/zarr_conventions"
_IDENTITY = ("uuid", "schema_url", "spec_url")
_CMO_KEYS = frozenset({*_IDENTITY, "name", "description"})
# A version in a URL path: `/v1/`, `/tags/v0.1/`, `/0.5/`.
_VERSION = re.compile(r"/v?\d+(?:\.\d+)*(?=/|$)")


@dataclass(frozen=True)
class Applied:
    """A convention a node is checked against, and why: "declared" or "used"."""

    entry: Entry
    how: str


@dataclass(frozen=True)
class NodeConventions:
    applied: tuple[Applied, ...]
    problems: tuple[Problem, ...]  # malformed declarations
    warnings: tuple[Problem, ...]


class Matcher:
    """Matches nodes against one set of catalog entries (their schemas compiled once)."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = entries
        self._by_identity: dict[str, Entry] = {}
        for entry in entries:
            for key in (entry.uuid, entry.schema_url, entry.spec_url):
                if key is not None:
                    self._by_identity.setdefault(key, entry)
        # each entry with its tests, compiled once where some node could pass them
        # (predicates.py); a user's catalog's at once, so that a schema the engine cannot
        # compile is refused before any store is read
        bundled = bundled_catalog()
        users = {id(e) for e in entries if e.catalog != bundled}
        self._declared_when = [
            (e, _test(e.declared_when, id(e) in users))
            for e in entries
            if e.declared_when is not None
        ]
        self._used_when = [
            (e, None if e.used_when is None else _test(e.used_when, id(e) in users))
            for e in entries
        ]
        # the OME-Zarr versions some entry has a schema for (ome_versions.py)
        self._ome_checked = frozenset(
            e.version
            for e in entries
            if e.version is not None and (e.family or "").startswith("ome-zarr")
        )

    def node(self, path: str, document: dict[str, Any]) -> NodeConventions:
        attributes = document.get("attributes")
        attributes = attributes if isinstance(attributes, dict) else {}
        applied: dict[int, Applied] = {}
        problems: list[Problem] = []
        warnings: list[Problem] = []
        for entry in self._declared(path, attributes, problems, warnings):
            applied.setdefault(id(entry), Applied(entry, "declared"))
        wrong_versions, unchecked_versions = version_notes(path, document, self._ome_checked)
        problems += wrong_versions
        warnings += unchecked_versions
        for entry, declares in self._declared_when:
            if declares(document):
                applied.setdefault(id(entry), Applied(entry, "declared"))
        for entry, uses in self._used_when:
            if id(entry) in applied:
                continue
            # Its `used_when` where it has one (a key of its namespace may be another
            # convention's: OME-Zarr 0.4's `multiscales` list), else its namespace's keys.
            keys: list[str] = []
            if uses is not None:
                evident = uses(document)
            else:
                keys = entry.namespace.used_by(attributes) if entry.namespace else []
                evident = bool(keys)
            if evident and not _declarable(entry):
                applied[id(entry)] = Applied(entry, "used")
            elif evident:
                # Its schema asks for the declaration: checked where declared, reported here.
                what = f"keys {', '.join(keys[:3])}" if keys else "what it describes"
                message = (
                    f"uses {entry.name} ({what}) without declaring it; not checked as {entry.name}"
                )
                warnings.append(Problem(path, "/attributes", message, "undeclared"))
        return NodeConventions(tuple(applied.values()), tuple(problems), tuple(warnings))

    def _declared(
        self,
        path: str,
        attributes: dict[str, Any],
        problems: list[Problem],
        warnings: list[Problem],
    ) -> list[Entry]:
        if "zarr_conventions" not in attributes:
            return []
        declared = attributes["zarr_conventions"]
        if not isinstance(declared, list):
            problems.append(_problem(path, DECLARATIONS, "must be a list of convention objects"))
            return []
        if len(declared) > MAX_DECLARATIONS:
            message = (
                f"declares {len(declared)} conventions; only the first {MAX_DECLARATIONS} are read"
            )
            problems.append(_problem(path, DECLARATIONS, message))
        found: list[Entry] = []
        first_at: dict[int, str] = {}  # id(entry) -> the declaration that named it first
        for index, item in enumerate(declared[:MAX_DECLARATIONS]):
            pointer = f"{DECLARATIONS}/{index}"
            if not isinstance(item, dict):
                problems.append(_problem(path, pointer, "must be a convention metadata object"))
                continue
            wrong = [(f"{pointer}/{key}", message) for key, message in _malformed(item)]
            problems += [_problem(path, where, message) for where, message in wrong]
            if not any(isinstance(item.get(key), str) for key in _IDENTITY):
                if not wrong:
                    message = "needs at least one of uuid, schema_url, spec_url"
                    problems.append(_problem(path, pointer, message))
                continue
            entry = self._match(item)
            if entry is None:
                warnings.append(Problem(path, pointer, self._unknown(item), "unknown convention"))
                continue
            if id(entry) in first_at:
                message = f"declares {entry.name} again (as {first_at[id(entry)]} does); read once"
                warnings.append(Problem(path, pointer, message, "repeated"))
                continue
            first_at[id(entry)] = pointer
            found.append(entry)
            name = item.get("name")
            if isinstance(name, str) and name != entry.name:
                # the zarr-conventions spec: the name "MUST NOT be used by tools to identify the
                # Convention"; the identity decides, and a name that disagrees is worth saying
                # (NZ-1.0 was first published as NZUG-1.0, under the same uuid)
                message = (
                    f"names the convention {name!r}, but its identity is {entry.name}'s; "
                    f"checked as {entry.name}"
                )
                warnings.append(Problem(path, f"{pointer}/name", message, "name"))
            url = item.get("schema_url")
            if isinstance(url, str) and entry.schema_url and url != entry.schema_url:
                message = (
                    f"declares {entry.name} by its uuid with schema_url {url}; checked against "
                    f"the catalog's {entry.schema_url}"
                )
                warnings.append(Problem(path, f"{pointer}/schema_url", message, "version"))
        return found

    def _match(self, item: dict[str, Any]) -> Entry | None:
        """The entry `item` names, by the first of uuid, schema_url and spec_url it has (the
        zarr-conventions spec's order of identity)."""
        for key in _IDENTITY:
            if isinstance(item.get(key), str):
                return self._by_identity.get(item[key])
        return None

    def _unknown(self, item: dict[str, Any]) -> str:
        key = next(k for k in _IDENTITY if isinstance(item.get(k), str))
        name = item.get("name")
        named = f"{key} {item[key]}" + (f" ({name})" if isinstance(name, str) else "")
        url = item.get("schema_url")
        if isinstance(url, str):
            for entry in self.entries:
                if entry.schema_url and _VERSION.sub("/*", entry.schema_url) == _VERSION.sub(
                    "/*", url
                ):
                    return (
                        f"declares {named}, another version of {entry.name} than the catalog "
                        f"knows ({entry.schema_url}); not checked"
                    )
        return f"declares {named}, which the catalog does not know; not checked"


def _declarable(entry: Entry) -> bool:
    """Does the convention say how a node declares it (so that using it undeclared is worth a
    warning)?"""
    return any((entry.uuid, entry.schema_url, entry.spec_url, entry.declared_when is not None))


def _test(schema: dict[str, Any], compile_now: bool) -> Predicate:
    predicate = Predicate(schema)
    if compile_now:
        predicate.compiled()
    return predicate


def _malformed(item: dict[str, Any]) -> list[tuple[str, str]]:
    """(key, what is wrong) for each field of one convention metadata object that breaks the
    zarr-conventions spec: a field it does not define, or a value that is not a string."""
    wrong: list[tuple[str, str]] = []
    for key, value in item.items():
        if key not in _CMO_KEYS:
            wrong.append((key, f"{key!r} is not a field of a convention metadata object"))
        elif not isinstance(value, str):
            wrong.append((key, f"{key} must be a string"))
    return wrong


def _problem(path: str, pointer: str, message: str) -> Problem:
    return Problem(path, pointer, message, "zarr_conventions", convention="zarr-conventions")
