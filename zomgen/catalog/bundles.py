"""The bundled catalog's schemas with their references bundled in, compiled ahead of time.

`zomgen validate STORE` checks each node against the schemas of the conventions it declares. It
used to bundle them when first needed, which imported the compiler: about 0.23 s of a
one-node validate's 0.4 s (issue 54). The bundled catalog's schemas are fixed, so they are
bundled when the catalog changes (scripts/regenerate.py writes `schemas/bundled/`, and
tests/catalog/test_bundles.py fails until it has) and read here as data. A user's catalog
(`--catalog`) is bundled as before, with the compiler.

Each file is named after its schema's path below `schemas/` (`ome-ngff-05-image--schema.json`)
and records the `include` folders it was bundled with: an entry whose folders differ is bundled
afresh rather than read.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from zomgen.catalog.entries import bundled_catalog, load_catalogs
from zomgen.resources import conventions_dir

BUNDLES = "bundled"  # the folder below schemas/


def bundles_dir() -> Path:
    return conventions_dir() / BUNDLES


def bundle_name(schema: Path) -> str | None:
    """The file name of `schema`'s bundle, or None where it is not one of zomgen's schemas."""
    try:
        relative = schema.resolve().relative_to(conventions_dir().resolve())
    except ValueError:
        return None
    return "--".join(relative.parts)


def _includes(include: tuple[Path, ...]) -> list[str] | None:
    home = conventions_dir().resolve()
    try:
        return [folder.resolve().relative_to(home).as_posix() for folder in include]
    except ValueError:
        return None


def read_bundle(schema: Path, include: tuple[Path, ...]) -> dict[str, Any] | None:
    """The schema bundled ahead of time, or None (not compiled so, or with other folders)."""
    name = bundle_name(schema)
    folders = _includes(include)
    if name is None or folders is None:
        return None
    try:
        data = json.loads((bundles_dir() / name).read_text("utf-8"))
    except FileNotFoundError:
        return None
    if data.get("include") != folders:
        return None
    bundled: dict[str, Any] = data["schema"]
    return bundled


def bundled_ahead(schema: Path) -> dict[str, Any] | None:
    """`schema` bundled ahead of time where it is the schema of a bundled catalog entry (what
    `zomgen validate --schema ome-ngff-05-plate` names), else None. The entry's `include`
    folders are at most the schema's own, which its `$ref`s are resolved in anyway: the bundle
    is what compiling the schema alone gives (tests/catalog/test_bundles.py)."""
    target = schema.resolve()
    for entry in load_catalogs([]):
        if entry.schema == target and entry.catalog == bundled_catalog():
            return read_bundle(entry.schema, entry.include)
    return None


@cache
def bundled_schema(schema: Path, include: tuple[Path, ...]) -> dict[str, Any]:
    """A convention's schema with its references bundled in, once per process (resolved
    offline in its own folder and the entry's `include` folders, as `-I` would): read as
    bundled ahead of time for zomgen's own catalog (above), bundled now for a user's."""
    ahead = read_bundle(schema, include)
    if ahead is not None:
        return ahead
    from zomgen.pipeline import Options, load
    from zomgen.schema.bundle import bundle

    return bundle(load(Options(schema, (schema.parent, *include))))


def bundle_text(schema: Path, include: tuple[Path, ...], bundled: dict[str, Any]) -> str:
    """What `schemas/bundled/` holds for `schema`: the bundle and the folders it used."""
    folders = _includes(include)
    record = {"include": folders, "schema": bundled}
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"


def all_bundles() -> dict[str, str]:
    """Every file `schemas/bundled/` holds, bundled now: the bundled catalog's schemas and
    strict schemas (this imports the compiler; scripts/regenerate.py and the tests call it)."""
    from zomgen.pipeline import Options, load
    from zomgen.schema.bundle import bundle

    files: dict[str, str] = {}
    for entry in load_catalogs([]):
        for schema in (entry.schema, entry.strict_schema):
            name = None if schema is None else bundle_name(schema)
            if schema is None or name is None or name in files:
                continue
            bundled = bundle(load(Options(schema, (schema.parent, *entry.include))))
            files[name] = bundle_text(schema, entry.include, bundled)
    return dict(sorted(files.items()))
