"""`zomgen site`: a convention's validator page, or the catalog page, as files. The compiler
gives the convention's IR and TypeScript (pipeline.py, targets/); bundle.py bundles them with
the page's code."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from zomgen.pipeline import Generated, Options, compile_schema
from zomgen.site.bundle import catalog_site_files, site_files
from zomgen.targets.shipped import VENDORED
from zomgen.targets.typescript.files import typescript_files


def generate_site(options: Options) -> Generated:
    """The convention's validator page (index.html, app.js)."""
    hierarchy, schema_text, warnings = compile_schema(options)
    # the page bundles copies of the run time's sources, as a vendored package carries them
    files = site_files(hierarchy, typescript_files(hierarchy, schema_text, VENDORED))
    return Generated(files, warnings, hierarchy)


def generate_catalog_site(catalogs: Sequence[Path], shown: Sequence[str]) -> Generated:
    """The catalog page (each node checked against what it declares), with the user's
    catalogs besides zomgen's."""
    return Generated(catalog_site_files(catalogs, shown), ())
