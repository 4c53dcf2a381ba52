"""OME-Zarr's version policy: what zomgen says of a node's declared OME-Zarr version besides the
check its version's schema makes (docs/catalog.md, "OME-Zarr versions").

A node declares its version in one of two layouts: 0.4 and earlier put the metadata in the
attributes themselves (`multiscales[].version`, `plate.version`, `well.version`) of a Zarr v2
node; 0.5 and later put it under `ome` (`ome.version`) of a Zarr v3 node. For each declared
version:

- not a published version, nor a newer one in the spec's forms (`0.6rc02`, `0.6.dev42`,
  `foo`): a problem at its pointer; a reader cannot know which rules the writer meant;
- a version whose layout is not the one declared (`ome.version: "0.4"`, a v2 multiscale saying
  `"0.5"`), or stored in the other Zarr version: a problem; the metadata contradicts itself;
- a published or newer version the catalog has no schema for (`0.6.dev4`,
  `0.3`, `1.0`): not checked, at its pointer, naming the version;
- a version the catalog checks: nothing here (the version's schema does the rest).

The twin of `omeVersionNotes` in zomgen/site/declared.ts (tested side by side).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from zomgen_runtime import Problem

# Every OME-Zarr version the specification has published (ngff-spec's tags and releases),
# oldest first: the list an unknown version is told against.
PUBLISHED = (
    "0.1", "0.2", "0.3", "0.4", "0.5",
    "0.6.dev1", "0.6.dev2", "0.6.dev3", "0.6.dev4", "0.6rc0", "0.6",
    "0.9.dev1",
)  # fmt: skip
# The spec's forms of a version: `0.6`, `0.6.dev4`, `0.6rc0` (no leading zeros).
_FORM = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:\.dev[1-9][0-9]*|rc(?:0|[1-9][0-9]*))?")
# Versions past the newest published series are a future zomgen cannot judge: not checked.
_NEWEST_SERIES = (0, 9)
# Before this series the metadata sits in the attributes of a Zarr v2 node, from it under
# `ome` of a Zarr v3 node.
_OME_LAYOUT_SERIES = (0, 5)

KEYWORD = "ome-zarr version"
# The convention its problems name (the policy is OME-Zarr's, whichever version is declared).
CONVENTION = "OME-Zarr"


def declared_versions(attributes: dict[str, Any]) -> list[tuple[str, object, bool]]:
    """(pointer, version, under `ome`) of each OME-Zarr version the attributes declare."""
    found: list[tuple[str, object, bool]] = []
    ome = attributes.get("ome")
    if isinstance(ome, dict) and "version" in ome:
        found.append(("/attributes/ome/version", ome["version"], True))
    multiscales = attributes.get("multiscales")
    if isinstance(multiscales, list):
        for index, item in enumerate(multiscales):
            if isinstance(item, dict) and "version" in item:
                found.append((f"/attributes/multiscales/{index}/version", item["version"], False))
    for key in ("plate", "well"):
        value = attributes.get(key)
        if isinstance(value, dict) and "version" in value:
            found.append((f"/attributes/{key}/version", value["version"], False))
    return found


def _series(version: str) -> tuple[int, int] | None:
    """(major, minor) of a version in the spec's forms; None for any other text."""
    form = _FORM.fullmatch(version)
    return None if form is None else (int(form.group(1)), int(form.group(2)))


def version_notes(
    path: str, document: dict[str, Any], checked: Iterable[str]
) -> tuple[list[Problem], list[Problem]]:
    """(problems, places not checked) of the OME-Zarr versions the node at `path` declares;
    `checked` are the versions the catalog has a schema for. Each not-checked place is a
    Problem whose keyword is "no schema" (dispatch.py's NOT_CHECKED)."""
    attributes = document.get("attributes")
    if not isinstance(attributes, dict):
        return [], []
    known = set(checked)
    zarr_format = document.get("zarr_format")
    problems: list[Problem] = []
    unchecked: list[Problem] = []
    for pointer, version, under_ome in declared_versions(attributes):
        if not isinstance(version, str):
            problems.append(_problem(path, pointer, "an OME-Zarr version is a string"))
            continue
        series = _series(version)
        published = version in PUBLISHED
        newer = series is not None and series >= _NEWEST_SERIES and not published
        if not (published or newer):
            message = (
                f"{version!r} is not an OME-Zarr version: the published ones are "
                f"{', '.join(PUBLISHED)}"
            )
            problems.append(_problem(path, pointer, message))
            continue
        ome_layout = series is not None and series >= _OME_LAYOUT_SERIES
        if under_ome and not ome_layout:
            message = (
                f"OME-Zarr {version} keeps its metadata in the attributes themselves; under "
                "`ome` the version is 0.5 or later"
            )
            problems.append(_problem(path, pointer, message))
        elif not under_ome and ome_layout:
            message = (
                f"OME-Zarr {version} keeps its metadata under `ome` (/attributes/ome/version), "
                "not in the attributes themselves"
            )
            problems.append(_problem(path, pointer, message))
        elif zarr_format in (2, 3) and zarr_format != (3 if ome_layout else 2):
            message = f"OME-Zarr {version} is stored in Zarr v{3 if ome_layout else 2} only"
            problems.append(_problem(path, "/zarr_format", message))
        elif version not in known:
            why = "newer than any version zomgen's catalog knows" if newer else "a version"
            why += "" if newer else " zomgen's catalog has no schema for"
            message = f"declares OME-Zarr {version}, {why}; not checked"
            unchecked.append(Problem(path, pointer, message, "no schema"))
    return problems, unchecked


def _problem(path: str, pointer: str, message: str) -> Problem:
    return Problem(path, pointer, message, KEYWORD, convention=CONVENTION)
