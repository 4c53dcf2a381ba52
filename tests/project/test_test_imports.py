"""No test module imports another test module, or a conftest: what tests share lives in
tests/support/ (tests/README.md). A test module that imports another ties the two files
together, runs all of the other's import-time work (its tables, its parametrizations) even when
only the importer is run, and hides shared helpers where no one looks for them.

Every tests/**/*.py is read with `ast` (no module is imported): `import` and `from ... import`
statements, relative ones resolved against the file's package, and `importlib.import_module`
called with a literal name. A module named `test_*` or `conftest` anywhere in an imported name is
a finding, and so is `from <package> import test_x` where `test_x.py` is a file of the package.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.paths import ROOT


def _is_test_module(name: str) -> bool:
    return name.startswith("test_") or name == "conftest"


def _imported(
    node: ast.Import | ast.ImportFrom | ast.Call, package: tuple[str, ...]
) -> list[tuple[tuple[str, ...], str]]:
    """(module named, the name it imports or "") of one statement or call; relative imports
    resolved against `package`."""
    if isinstance(node, ast.Import):
        return [(tuple(alias.name.split(".")), "") for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        base = package[: len(package) - node.level + 1] if node.level else ()
        module = base + (tuple(node.module.split(".")) if node.module else ())
        return [(module, alias.name) for alias in node.names]
    if node.args:
        called = node.func.attr if isinstance(node.func, ast.Attribute) else None
        called = called or (node.func.id if isinstance(node.func, ast.Name) else None)
        name = node.args[0].value if isinstance(node.args[0], ast.Constant) else None
        if called == "import_module" and isinstance(name, str) and not name.startswith("."):
            return [(tuple(name.split(".")), "")]
    return []


def imports_of_test_modules(path: Path, root: Path) -> list[str]:
    """`file:line: imports <module>` for each test module or conftest a statement of `path`
    imports (`path` a file below `root`, the folder that holds the `tests` package)."""
    rel = path.relative_to(root)
    parts = rel.with_suffix("").parts
    package = parts[:-1]  # an __init__.py's own package, a module's parent: the same
    found: dict[str, None] = {}  # in order, once per statement and module
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if not isinstance(node, (ast.Import, ast.ImportFrom, ast.Call)):
            continue
        for module, name in _imported(node, package):
            target = module
            if name and _is_test_module(name) and root.joinpath(*module, f"{name}.py").is_file():
                target = (*module, name)
            if any(_is_test_module(part) for part in target):
                found[f"{rel.as_posix()}:{node.lineno}: imports {'.'.join(target)}"] = None
    return list(found)


def test_no_test_module_imports_another_or_a_conftest() -> None:
    found = [
        line
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for line in imports_of_test_modules(path, ROOT)
    ]
    assert not found, (
        "a test module imports another test module or a conftest; move what they share into "
        "tests/support/:\n" + "\n".join(found)
    )


@pytest.mark.parametrize(
    "source",
    [
        "from tests.a.test_b import TABLE",
        "import tests.a.test_b",
        "import tests.a.test_b as b",
        "from tests.a import test_b",
        "from . import test_b",
        "from .test_b import TABLE",
        "from ..a.test_b import TABLE",
        "from tests.conftest import root",
        "from .. import conftest",
        "import conftest",
        "def f():\n    from tests.a.test_b import TABLE",
        "import importlib\nimportlib.import_module('tests.a.test_b')",
    ],
)
def test_each_form_of_the_import_is_found(tmp_path: Path, source: str) -> None:
    for folder in ("tests", "tests/a", "tests/support"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "__init__.py").write_text("", "utf-8")
    (tmp_path / "tests" / "a" / "test_b.py").write_text("TABLE = 1\n", "utf-8")
    (tmp_path / "tests" / "conftest.py").write_text("", "utf-8")
    importer = tmp_path / "tests" / "a" / "test_c.py"
    importer.write_text(source + "\n", "utf-8")
    found = imports_of_test_modules(importer, tmp_path)
    assert len(found) == 1 and found[0].startswith("tests/a/test_c.py:"), found


@pytest.mark.parametrize(
    "source",
    [
        "from tests.support.paths import ROOT",
        "from tests.support import paths",
        "from . import helpers",
        "from zomgen.cases.derive import derive",
        "import importlib\nimportlib.import_module(f'{name}.documents')",
    ],
)
def test_other_imports_are_not(tmp_path: Path, source: str) -> None:
    (tmp_path / "tests" / "a").mkdir(parents=True)
    importer = tmp_path / "tests" / "a" / "test_c.py"
    importer.write_text(source + "\n", "utf-8")
    assert imports_of_test_modules(importer, tmp_path) == []
