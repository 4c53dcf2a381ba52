"""The shape of zomgen's code, as docs/architecture.md draws it:

- **no import cycle**, among zomgen's modules, the Python run time's and the benchmarks', counting
  the imports inside functions and under `TYPE_CHECKING` (each is an import at some moment), and
  among the TypeScript modules of the run time and of the validator page;
- **tiers**: the compiler (schemas read, the IR, the targets, and what they share) imports
  nothing of the commands above it (build, validate, site, cases, catalog and their printing);
  every module of zomgen is placed in one of the two, so a new one is placed on purpose;
- **sizes**: a module past 400 lines says why at its top ("Longer than 400 lines because ...").

Only imports written as statements are read: `importlib.import_module` of a computed name (the
run time's lazy `__init__`, the cases' packages) is not an edge. An import of `a.b.c` is an edge
to that module alone, not to the packages `a` and `a.b` Python runs first.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from tests.support.paths import ROOT

# (folder, the package name its files import as)
PYTHON_TREES = (
    (ROOT / "zomgen", "zomgen"),
    (ROOT / "runtime" / "python" / "zomgen_runtime", "zomgen_runtime"),
    (ROOT / "benchmarks", "benchmarks"),
)
TYPESCRIPT_FOLDERS = (ROOT / "runtime" / "typescript" / "src", ROOT / "zomgen" / "site")

# The compiler: what `zomgen build` runs from a schema to the files. `write` puts them on disk.
COMPILER = (
    "zomgen.schema",
    "zomgen.ir",
    "zomgen.targets",
    "zomgen.pipeline",
    "zomgen.render",
    "zomgen.format",
    "zomgen.names",
    "zomgen.discriminate",
    "zomgen.errors",
    "zomgen.resources",
    "zomgen.write",
)
# The commands, and what only they use (how a validate run ends, exit codes, the terminal).
COMMANDS = (
    "zomgen.__main__",
    "zomgen.cli",
    "zomgen.build_cli",
    "zomgen.validate_cli",
    "zomgen.diff_cli",
    "zomgen.consolidate_cli",
    "zomgen.convention_option",
    "zomgen.many_stores",
    "zomgen.site_cli",
    "zomgen.site",
    "zomgen.cases",
    "zomgen.catalog",
    "zomgen.outcome",
    "zomgen.exits",
    "zomgen.terminal",
    "zomgen.progress",
)
MAX_LINES = 400
REASON = re.compile(r"longer than (?:zomgen's )?400[- ]line", re.IGNORECASE)


def _python_modules() -> dict[str, Path]:
    """Every module of the trees, by its dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for folder, package in PYTHON_TREES:
        for path in sorted(folder.rglob("*.py")):
            parts = [package, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _within(name: str, prefixes: Iterable[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _resolved(name: str, modules: Mapping[str, Path]) -> str | None:
    """The longest known module `name` is, or is inside of."""
    parts = name.split(".")
    while parts:
        if ".".join(parts) in modules:
            return ".".join(parts)
        parts.pop()
    return None


def _python_imports(name: str, path: Path, modules: Mapping[str, Path]) -> set[str]:
    """The known modules `name` imports anywhere in its file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    wanted: list[str] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            wanted += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                stem = ".".join([*base, *([node.module] if node.module else [])])
            else:
                stem = node.module or ""
            wanted.append(stem)
            wanted += [f"{stem}.{alias.name}" for alias in node.names]
    # benchmarks/ scripts import their neighbours by bare name (the folder is on sys.path)
    if name.startswith("benchmarks."):
        wanted += [f"benchmarks.{w}" for w in list(wanted) if f"benchmarks.{w}" in modules]
    return {m for w in wanted if (m := _resolved(w, modules)) is not None and m != name}


def python_graph() -> dict[str, set[str]]:
    modules = _python_modules()
    return {name: _python_imports(name, path, modules) for name, path in modules.items()}


def typescript_graph() -> dict[str, set[str]]:
    """Each TypeScript module (by path from the root) and the modules of these folders it
    imports; `./_runtime_ts/x.js` in a page module is the run time's `x.ts`."""
    runtime = TYPESCRIPT_FOLDERS[0]
    graph: dict[str, set[str]] = {}
    for folder in TYPESCRIPT_FOLDERS:
        for path in sorted(folder.glob("*.ts")):
            imported = set()
            text = path.read_text("utf-8")
            for spec in re.findall(r"""(?:from|import)\s*\(?\s*["'](\.[^"']+)["']""", text):
                target = (
                    runtime / spec.removeprefix("./_runtime_ts/")
                    if spec.startswith("./_runtime_ts/")
                    else folder / spec
                ).with_suffix(".ts")
                if target.is_file():
                    imported.add(target.relative_to(ROOT).as_posix())
            graph[path.relative_to(ROOT).as_posix()] = imported
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graphs_are_read() -> None:
    """The readers find what is known to be there, so an empty graph cannot pass as clean."""
    python = python_graph()
    assert "zomgen_runtime.relations" in python["zomgen_runtime.connected"]
    assert "zomgen.pipeline" in python["zomgen.catalog.bundles"]  # inside a function
    assert "benchmarks.bench_startup" in python["benchmarks.suite"]  # by bare name
    typescript = typescript_graph()
    connected = typescript["runtime/typescript/src/connected.ts"]
    assert "runtime/typescript/src/relations.ts" in connected
    assert "runtime/typescript/src/stores.js" not in typescript["zomgen/site/worker.ts"]
    assert "runtime/typescript/src/stores.ts" in typescript["zomgen/site/worker.ts"]
    made_up = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(made_up) == [["a", "b", "c"]]


def test_no_import_cycle_in_python() -> None:
    assert cycles(python_graph()) == []


def test_no_import_cycle_in_typescript() -> None:
    assert cycles(typescript_graph()) == []


def test_every_module_of_zomgen_is_in_a_tier() -> None:
    names = [n for n in python_graph() if n.startswith("zomgen.")]
    assert [n for n in names if not _within(n, COMPILER + COMMANDS)] == []


def test_the_compiler_imports_nothing_of_the_commands() -> None:
    graph = python_graph()
    upward = {
        name: sorted(m for m in imported if _within(m, COMMANDS))
        for name, imported in graph.items()
        if _within(name, COMPILER)
    }
    assert {name: found for name, found in upward.items() if found} == {}


def test_the_python_run_time_imports_nothing_of_zomgen() -> None:
    graph = python_graph()
    assert {
        name: sorted(m for m in imported if not m.startswith("zomgen_runtime"))
        for name, imported in graph.items()
        if name.startswith("zomgen_runtime")
        and any(not m.startswith("zomgen_runtime") for m in imported)
    } == {}


def test_a_module_past_400_lines_says_why() -> None:
    folders = (
        ROOT / "zomgen",
        ROOT / "runtime" / "python" / "zomgen_runtime",
        ROOT / "runtime" / "typescript" / "src",
    )
    unexplained = []
    for folder in folders:
        for path in sorted([*folder.rglob("*.py"), *folder.rglob("*.ts")]):
            lines = path.read_text("utf-8").splitlines()
            if len(lines) > MAX_LINES and not REASON.search("\n".join(lines[:80])):
                unexplained.append(f"{path.relative_to(ROOT)}: {len(lines)} lines")
    assert unexplained == []
