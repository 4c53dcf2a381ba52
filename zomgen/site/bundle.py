"""`zomgen site`: a convention's validator page, one HTML file and one bundled script.

The page's TypeScript is the npm package's (types, checks, loader: `targets/typescript`) plus
`page.ts` beside this module and an entry point; esbuild, from npm like tsc for `--npm`
(toolchain.py), bundles it with Ajv and zarrita into `app.js`, minified, as a classic script,
so the page also opens from a file. Nothing is fetched at run time but the store's URL.
"""

from __future__ import annotations

from pathlib import Path

from zomgen import ir
from zomgen.render import render
from zomgen.targets.typescript.files import checks_view
from zomgen.targets.typescript.toolchain import SITE_PINS, find_node_modules, run_tool

_HERE = Path(__file__).resolve().parent


def site_files(hierarchy: ir.Hierarchy, typescript: dict[str, str]) -> dict[str, str]:
    """index.html and app.js, from the package's TypeScript files (`typescript_files`)."""
    node_modules = find_node_modules(SITE_PINS, "zomgen site")
    view = checks_view(hierarchy)
    sources = {
        **typescript,
        "page.ts": (_HERE / "page.ts").read_text("utf-8"),
        "site.ts": render("typescript/site.ts.j2", t=view),
    }
    return {
        "index.html": render("site/index.html.j2", root=hierarchy.root, source=hierarchy.source),
        "app.js": _bundle(sources, node_modules),
    }


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
    return run_tool(sources, node_modules, command, "app.js")["app.js"]
