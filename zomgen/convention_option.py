"""`--schema` of the commands that read stores (validate, diff, consolidate): a schema file, or
the name of one of zomgen's bundled conventions, as the bundled document the run time checks."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from zomgen.errors import InputProblem
from zomgen.exits import report_input
from zomgen.resources import conventions_dir


def add_schema_option(parser: argparse.ArgumentParser, default: str) -> None:
    """`--schema`: a schema file or a bundled convention's name; `default` says what applies
    without it."""
    parser.add_argument(
        "--schema",
        type=Path,
        help=f"the convention: a schema file, or the name of a bundled one (ome-ngff-05-plate); "
        f"default: {default}",
    )


def add_catalog_option(parser: argparse.ArgumentParser, what: str) -> None:
    """`--catalog FILE`, repeatable: conventions besides zomgen's own (`what` they are for)."""
    parser.add_argument(
        "--catalog",
        type=Path,
        action="append",
        default=[],
        metavar="FILE",
        help=f"a catalog of conventions besides zomgen's own, {what} (repeatable)",
    )


def schema_option(given: Path, include: tuple[Path, ...] = ()) -> dict[str, Any] | None:
    """`--schema` as the bundled document; None, reported on stderr, where it names neither a
    file nor a bundled convention."""
    file = schema_file(given)
    if file is None:
        report_input([InputProblem(str(given), "", not_found_message(given))])
        return None
    return convention_document(file, include)


def schema_file(given: Path) -> Path | None:
    """A file, or, where no file has that name, the bundled convention of that name
    (`ome-ngff-05-plate`, a folder of zomgen's schemas/); None where it is neither."""
    if given.exists():
        return given
    if str(given) == given.name and given.name in bundled_names():
        return conventions_dir() / given.name / "schema.json"
    return None


def bundled_names() -> list[str]:
    return sorted(p.parent.name for p in conventions_dir().glob("*/schema.json"))


def not_found_message(given: Path) -> str:
    names = ", ".join(bundled_names())
    return f"no such schema file, nor a bundled convention of that name (one of: {names})"


def convention_document(schema: Path, include: tuple[Path, ...] = ()) -> dict[str, Any]:
    """The schema as one bundled document: one of zomgen's conventions as bundled ahead of time
    (as the catalog reads it); any other (or one with -I) compiled now, which imports the
    compiler. Raises CompileError for a schema that cannot be compiled."""
    from zomgen.catalog.bundles import bundled_ahead

    document = None if include else bundled_ahead(schema)
    if document is None:
        from zomgen.pipeline import Options, load
        from zomgen.schema.bundle import bundle

        document = bundle(load(Options(schema, include)))
    return document
