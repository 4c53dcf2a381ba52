"""The runtime as every generated package receives it (a verbatim copy in `<pkg>/_runtime/`):
it passes mypy --strict, pyright strict and ruff (check and format) on its own, and a generated
package loads, validates and creates stores through it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
import xarray as xr

from tests.support.packages import imported
from tests.support.runtime import ROOT, snapshot
from zomgen.pipeline import Options, generate
from zomgen.write import write_package

RUNTIME = ROOT / "zomgen" / "runtime"
PYTHON = sys.executable


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    # pyright finds the environment's packages (zarr, jsonschema-rs) through `python` on PATH
    env = {**os.environ, "PATH": f"{Path(PYTHON).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(
        args, cwd=cwd, capture_output=True, text=True, check=False, env=env, timeout=600
    )


@pytest.fixture(scope="module")
def copied(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """zomgen/runtime/*.py copied as a package of its own, the way `zomgen build` copies it."""
    root = tmp_path_factory.mktemp("lint")
    (root / "zrt").mkdir()
    for source in RUNTIME.glob("*.py"):
        shutil.copyfile(source, root / "zrt" / source.name)
    (root / "pyrightconfig.json").write_text(
        json.dumps({"typeCheckingMode": "strict", "pythonVersion": "3.11"}), encoding="utf-8"
    )
    return root


def test_runtime_is_a_flat_folder_of_modules_with_relative_imports_only() -> None:
    folders = [p for p in RUNTIME.iterdir() if p.is_dir() and not p.name.startswith((".", "__"))]
    assert not folders, "the runtime must stay a flat folder (it is copied file by file)"
    for source in RUNTIME.glob("*.py"):
        for line in source.read_text("utf-8").splitlines():
            stripped = line.strip()
            assert not stripped.startswith(("from zomgen", "import zomgen")), (source, line)


@pytest.mark.checkers
def test_mypy_strict(copied: Path) -> None:
    result = _run([PYTHON, "-m", "mypy", "--strict", "--no-incremental", "zrt"], copied)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.checkers
def test_pyright_strict(copied: Path) -> None:
    result = _run([PYTHON, "-m", "pyright", "zrt"], copied)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_check_and_format(copied: Path) -> None:
    check = _run(
        [PYTHON, "-m", "ruff", "check", "--isolated", "--target-version", "py311", "."], copied
    )
    assert check.returncode == 0, check.stdout + check.stderr
    fmt = _run(
        [PYTHON, "-m", "ruff", "format", "--isolated", "--line-length", "100", "--check", "."],
        copied,
    )
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("pkgs")
    name = "zomgen_runtime_test_xarray_v3"
    schema = ROOT / "schemas" / "xarray-v3" / "schema.json"
    write_package(generate(Options(schema=schema, package=name)), out / name)
    with imported(out, name) as (package,):
        yield package


def test_importing_a_package_imports_no_heavy_module(package: ModuleType) -> None:
    folder = Path(package.__file__ or "").parent
    script = (
        "import sys\n"
        "before = set(sys.modules)\n"
        f"import {package.__name__}\n"
        "heavy = sorted(m for m in set(sys.modules) - before if m.split('.')[0] in "
        "('zarr', 'numpy', 'fsspec', 'jsonschema', 'jsonschema_rs', 'msgspec'))\n"
        "assert not heavy, heavy\n"
    )
    result = _run([PYTHON, "-c", script], folder.parent)
    assert result.returncode == 0, result.stderr
    runtime_copy = {p.name: p.read_text("utf-8") for p in (folder / "_runtime").glob("*.py")}
    assert runtime_copy == {p.name: p.read_text("utf-8") for p in RUNTIME.glob("*.py")}


def test_package_load_validate_create(package: ModuleType, tmp_path: Path) -> None:
    warnings.filterwarnings("ignore", category=UserWarning)
    store = tmp_path / "ds.zarr"
    ds = xr.Dataset({"t": (("y", "x"), np.zeros((2, 3)))}, coords={"y": [1.0, 2.0]})
    ds.to_zarr(store, zarr_format=3, consolidated=True)
    before = snapshot(store)
    model = package.load(store)
    assert set(model.members) == {"t", "y"}
    assert package.validate(store) == []
    assert snapshot(store) == before

    created = tmp_path / "created.zarr"
    package.create(model, created)
    assert package.load(created) == model
    assert xr.open_zarr(created, consolidated=False)["t"].dims == ("y", "x")
    with pytest.raises(package.ZomError) as caught:
        package.create(model, created)
    assert {p.node_path for p in caught.value.problems} == {"/", "/t", "/y"}
    package.create(model, created, overwrite=True)
    assert package.load(created) == model

    broken = tmp_path / "broken.zarr"
    package.create(model, broken)
    meta = json.loads((broken / "t" / "zarr.json").read_text())
    meta["dimension_names"] = ["y"]
    (broken / "t" / "zarr.json").write_text(json.dumps(meta))
    problems = package.validate(broken)
    assert [(p.node_path, p.pointer, p.keyword) for p in problems] == [
        ("/t", "/dimension_names", "x-zomgen-ndim-length")
    ]
    with pytest.raises(package.ZomError):
        package.load(broken)
