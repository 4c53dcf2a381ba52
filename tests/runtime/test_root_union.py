"""A convention whose root is a union of node kinds (issue 56, item 5): a recording in one of
three layouts (tests/cases/root-union/schema.json: a group of channels, a group of sessions, or
one array), as the netCDF-style author of the finding had to merge into one root. Stores of
each layout, written by zarr-python, load as the model class of their option in Python, dump
back to the document they were read as, and give the TypeScript loader the same verdicts; a
store that names one layout and has another's members is refused by both, at the member that
breaks the layout it names. The compiler case folder pins
the generated types (tests/compiler/test_cases.py) and typecheck_cases/derived/ holds its
derived cases under the five checkers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from zomgen_runtime import ZomError

from tests.support.node import HARNESS, require_toolchain, run_node
from tests.support.packages import import_package
from tests.support.paths import ROOT
from tests.support.root_union_stores import MEANT, SCHEMA, WRITERS
from zomgen.pipeline import Options, generate_package
from zomgen.targets.typescript.npm import NpmPackage
from zomgen.write import write_package


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("root_union")
    for name, write in WRITERS.items():
        write(folder / f"{name}.zarr")
    return {name: folder / f"{name}.zarr" for name in WRITERS}


def test_each_layout_loads_as_its_options_class(stores: dict[str, Path], tmp_path: Path) -> None:
    write_package(
        generate_package(Options(SCHEMA, (), package="recording")).files, tmp_path / "recording"
    )
    package = import_package(tmp_path, "recording")
    for name in ("Flat", "Sessions", "Single"):
        model = package.load(stores[name])
        assert type(model) is getattr(package.models, name), name
        read = json.loads((stores[name] / "zarr.json").read_text("utf-8"))
        assert package.dump(model)["attributes"] == read["attributes"]
        assert package.parse(package.dump(model)) == model
        # written back through `create`, an array root included, it reads as the same model
        package.create(model, tmp_path / f"copy-{name}.zarr")
        assert package.load(tmp_path / f"copy-{name}.zarr") == model
    with pytest.raises(ZomError) as raised:
        package.load(stores["none"])
    (problem,) = raised.value.problems
    assert (problem.node_path, problem.pointer, problem.message) == MEANT


@pytest.mark.node
def test_load_ts_gives_the_same_verdicts(stores: dict[str, Path], tmp_path: Path) -> None:
    require_toolchain()
    package = tmp_path / "packages" / "recording"
    generated = generate_package(Options(SCHEMA, (), npm=NpmPackage("recording"), python=False))
    write_package(generated.files, package)
    (tmp_path / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    shutil.copy(HARNESS / "loader_twins.mjs", tmp_path / "loader_twins.mjs")
    jobs = [
        {"package": str(package), "store": str(store), "kind": "path", "options": {}}
        for store in stores.values()
    ]
    results = dict(zip(stores, run_node(tmp_path / "loader_twins.mjs", jobs), strict=True))
    for name in ("Flat", "Sessions", "Single"):
        assert results[name]["problems"] == [], name
        assert results[name]["loaded"] == {"frozen": True, "equal": True}, name
    (problem,) = results["none"]["problems"]
    # Ajv words a standard keyword's message its own way: the place and the keyword agree
    assert (problem["node_path"], problem["pointer"], problem["keyword"]) == (*MEANT[:2], "const")
    assert results["none"]["loadError"] == "ZomError"
