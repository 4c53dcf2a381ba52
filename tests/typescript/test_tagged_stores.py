"""load.ts on real SpatialData stores reads what the Python loader reads: the same document, the
same reading problems, the same problems from validateStore, and a load that gives the document
back, deeply frozen.

The stores are runtime/test_spatialdata.py's, written by spatialdata 0.7.3 (v3 consolidated and
not, v3 in a zip, images only, v2, v2 with both element versions), and the same four broken
stores: each gives one problem, from the option the element's version selects, and the
TypeScript run time must name the same node, pointer, keyword and schema path. The option a
node's attributes select is what both engines agree on here; the class Python builds for it is
checked in runtime/test_spatialdata.py (TypeScript's `parse` hands back the checked document,
whose type the checker narrows by the same values). The tables inside these stores are AnnData
elements of every encoding runtime/test_anndata.py loads (52 tagged elements per full store).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import read_document, validate_store
from zomgen_runtime.members import named_member_tree

from tests.support.node import (
    HARNESS,
    problem_where,
    reading_problem,
    require_toolchain,
    run_node,
)
from tests.support.paths import ROOT
from tests.support.spatialdata_stores import BROKEN, SCHEMAS, STORES, broken_copy, write_stores
from zomgen.pipeline import Options, generate_package
from zomgen.targets.typescript.npm import NpmPackage
from zomgen.write import write_package

pytestmark = pytest.mark.node


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, int]]:
    """Every valid store and every broken one, by name, with its Zarr version."""
    root = tmp_path_factory.mktemp("spatialdata_ts")
    valid = write_stores(root / "stores")
    result = {name: (path, STORES[name]) for name, path in valid.items()}
    for number, fault in enumerate(BROKEN):
        source = BROKEN[fault][0]
        result[fault] = (broken_copy(valid, fault, root / f"broken-{number}"), STORES[source])
    return result


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Both SpatialData npm packages, built, beside a node_modules with Ajv and zarrita."""
    require_toolchain()
    work = tmp_path_factory.mktemp("spatialdata_npm")
    for version, schema in SCHEMAS.items():
        name = f"spatialdata-v{version}"
        generated = generate_package(Options(schema, (), npm=NpmPackage(name), python=False))
        write_package(generated.files, work / "packages" / name)
    (work / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    shutil.copy(HARNESS / "loader_twins.mjs", work / "loader_twins.mjs")
    return work


def test_load_ts_reads_every_store_as_python_does(
    stores: dict[str, tuple[Path, int]], packages: Path
) -> None:
    jobs: list[dict[str, Any]] = []
    expected: list[tuple[str, dict[str, Any]]] = []
    for name, (store, version) in stores.items():
        package = packages / "packages" / f"spatialdata-v{version}"
        schema = json.loads((package / "schema.json").read_text(encoding="utf-8"))
        document, read = read_document(store, expected=named_member_tree(schema))
        problems = sorted(problem_where(p) for p in validate_store(store, schema))
        expected.append((name, {"document": document, "read": read, "problems": problems}))
        kind = "zip" if store.suffix == ".zip" else "path"
        jobs.append({"package": str(package), "store": str(store), "kind": kind, "options": {}})

    results = run_node(packages / "loader_twins.mjs", jobs)

    mismatches: list[tuple[Any, ...]] = []
    for (name, python), ts in zip(expected, results, strict=True):
        if ts["document"] != python["document"]:
            mismatches.append((name, "document"))
        if [reading_problem(p) for p in ts["read"]] != [reading_problem(p) for p in python["read"]]:
            mismatches.append((name, "read", python["read"], ts["read"]))
        ts_problems = sorted(problem_where(p) for p in ts.get("problems", []))
        if "storeError" in ts or ts_problems != python["problems"]:
            mismatches.append((name, "problems", python["problems"], ts))
        if not python["problems"] and ts.get("loaded") != {"frozen": True, "equal": True}:
            mismatches.append((name, "load", ts.get("loaded"), ts.get("loadError")))
    assert mismatches == [], "\n".join(map(str, mismatches))

    # Each valid store is valid, each broken one gives the one problem BROKEN names.
    verdicts = {name: [p[:3] for p in python["problems"]] for name, python in expected}
    assert {name: verdicts[name] for name in STORES} == {name: [] for name in STORES}
    assert {fault: verdicts[fault] for fault in BROKEN} == {
        fault: [(node, pointer, keyword)]
        for fault, (_s, node, pointer, keyword, _w) in BROKEN.items()
    }
