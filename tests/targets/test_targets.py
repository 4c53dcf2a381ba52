"""One interface for targets (zomgen/targets/target.py): the Python and TypeScript targets and
the example of docs/architecture.md are classes with the same `files(build)`, the package is
put together in one place (zomgen/targets/package.py), and adding a target is adding a class."""

from __future__ import annotations

import importlib.util

import pytest

from tests.support.paths import ROOT
from zomgen.pipeline import Generated, Options, generate_package
from zomgen.targets.package import assemble
from zomgen.targets.python.target import PythonTarget
from zomgen.targets.shipped import runtime_link
from zomgen.targets.target import Build, Target
from zomgen.targets.typescript.target import TypeScriptTarget

SCHEMA = ROOT / "schemas" / "xarray-v3" / "schema.json"
EXAMPLE = ROOT / "docs" / "examples" / "type_list_target.py"


def _example_target() -> Target:
    spec = importlib.util.spec_from_file_location("type_list_target", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    target: Target = module.TypeListTarget()
    return target


def _build(whole: Generated) -> Build:
    assert whole.hierarchy is not None
    return Build(whole.hierarchy, whole.files["schema.json"], "ds", runtime_link(False))


def test_the_example_target_of_the_docs_builds_beside_the_others() -> None:
    plain = generate_package(Options(schema=SCHEMA, package="ds"))
    files = generate_package(Options(schema=SCHEMA, package="ds"), [_example_target()]).files
    assert files.keys() - plain.files.keys() == {"types.md"}
    assert {k: v for k, v in files.items() if k != "types.md"} == plain.files
    assert plain.hierarchy is not None
    listed = files["types.md"].splitlines()
    assert listed[0] == "# The types of XarrayDataset"
    assert len(listed) == 2 + len(plain.hierarchy.types)
    assert listed[2].startswith("- `XarrayDataset` (node): ")
    assert "docs/examples/type_list_target.py" in (ROOT / "docs" / "architecture.md").read_text()


def test_each_target_writes_its_half_and_the_package_holds_the_schema() -> None:
    whole = generate_package(Options(schema=SCHEMA, package="ds"))
    build = _build(whole)
    python = PythonTarget().files(build)
    typescript = TypeScriptTarget().files(build)
    assert {"models.py", "documents.py", "__init__.py", "_convert.py", "py.typed"} <= set(python)
    assert set(typescript) == {"types.ts", "validate.ts", "load.ts", "schema.ts"}
    assert assemble(build, [TypeScriptTarget(), PythonTarget()]) == whole.files
    # the order the targets run in does not change the package
    assert assemble(build, [PythonTarget(), TypeScriptTarget()]) == whole.files


class _Writes:
    """A target writing one file of a name another target (or the package) writes."""

    def __init__(self, path: str) -> None:
        self.path = path

    def files(self, build: Build) -> dict[str, str]:
        return {self.path: "# mine\n"}


def test_two_targets_writing_one_file_is_refused() -> None:
    build = _build(generate_package(Options(schema=SCHEMA, package="ds")))
    with pytest.raises(ValueError, match="_Writes writes models.py, which PythonTarget writes"):
        assemble(build, [PythonTarget(), _Writes("models.py")])
    with pytest.raises(ValueError, match="_Writes writes schema.json, which the package writes"):
        assemble(build, [_Writes("schema.json")])
