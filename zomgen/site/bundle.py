"""`zomgen site`: a validator page, one HTML file and one bundled script: a convention's, or
the catalog's (each node checked against what it declares, as `zomgen validate STORE`).

The page's TypeScript is the npm package's (types, checks, loader: `targets/typescript`) plus
the page's modules beside this one (page.ts, checker.ts, worker.ts, described.ts; declared.ts and
catalog_page.ts for the catalog page, with catalog.py's `catalog.ts`) and an entry point;
esbuild, from npm like tsc for `--npm`
(toolchain.py), bundles it with Ajv and zarrita into `app.js`, minified, as a classic script,
so the page also opens from a file. Nothing is fetched at run time but the store's URL.

The script is wrapped in one named function, `zomgenPage`, whose source the page runs again in
a worker from a blob: URL (worker.ts: the checks run there, not on the page's thread; a worker
from a file is refused on file://): one script in both places, nothing bundled twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from zomgen import ir
from zomgen.render import render
from zomgen.site.catalog import catalog_module
from zomgen.targets.shipped import runtime_ts_files
from zomgen.targets.typescript.files import checks_view
from zomgen.targets.typescript.toolchain import SITE_PINS, find_node_modules, run_tool

_HERE = Path(__file__).resolve().parent


def site_files(hierarchy: ir.Hierarchy, typescript: dict[str, str]) -> dict[str, str]:
    """index.html and app.js, from the package's TypeScript files (`typescript_files`)."""
    node_modules = find_node_modules(SITE_PINS, "zomgen site")
    view = checks_view(hierarchy)
    sources = {
        **typescript,
        **_page_sources("page.ts", "checker.ts", "worker.ts", "described.ts"),
        "site.ts": render("typescript/site.ts.j2", t=view),
    }
    lead = f"Checks a Zarr store (v2 or v3) against the {hierarchy.root} convention."
    page = render(
        "site/index.html.j2", title=hierarchy.root, lead=lead, source=hierarchy.source, strict=False
    )
    return {"index.html": page, "app.js": _bundle(sources, node_modules)}


def catalog_site_files(catalogs: Sequence[Path], shown: Sequence[str]) -> dict[str, str]:
    """The catalog page: zomgen's catalog and the user's `catalogs` (named `shown` on the
    page: as the user gave them, never this machine's absolute paths)."""
    node_modules = find_node_modules(SITE_PINS, "zomgen site")
    sources = {
        **runtime_ts_files(),
        **_page_sources(
            "page.ts", "checker.ts", "worker.ts", "described.ts", "declared.ts", "other_keys.ts"
        ),
        "catalog.ts": catalog_module(catalogs),
        "site.ts": (_HERE / "catalog_page.ts").read_text("utf-8"),
    }
    lead = (
        "Checks each node of a Zarr store (v2 or v3) against the conventions it declares or "
        "evidently uses, as zomgen validate does: OME-Zarr 0.4 to 0.6 and 0.9.dev1, "
        "xarray, CF and the zarr-conventions."
    )
    source = " and ".join(["zomgen's catalog", *shown])
    page = render(
        "site/index.html.j2", title="Zarr conventions", lead=lead, source=source, strict=True
    )
    return {"index.html": page, "app.js": _bundle(sources, node_modules)}


def _page_sources(*names: str) -> dict[str, str]:
    return {name: (_HERE / name).read_text("utf-8") for name in names}


# The name worker.ts's `startWorker` reads the script's own source by.
_SELF = "zomgenPage"


def _bundle(sources: dict[str, str], node_modules: Path) -> str:
    command = [
        "esbuild",
        "site.ts",
        "--bundle",
        "--minify",
        "--format=iife",
        "--platform=browser",
        "--target=es2022",
        "--legal-comments=eof",
        "--preserve-symlinks",
        "--charset=utf8",
        "--log-level=error",
        # Node's own modules, which the browser never reaches: unzipit's worker threads, a
        # local folder's node:fs.
        "--external:worker_threads",
        "--external:node:*",
        "--outfile=app.js",
    ]
    bundled = run_tool(sources, node_modules, command, "app.js")["app.js"]
    body = bundled.rstrip("\n")
    return f"(function {_SELF}(){{\n{body}\n}})();\n"
