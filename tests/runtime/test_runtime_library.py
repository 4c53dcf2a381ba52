"""The Python run time, `zomgen-runtime` (runtime/python), as generated packages receive it:
imported from the distribution, or copied into `<pkg>/_runtime/` by `--vendor-runtime`.

- on its own it passes mypy --strict, pyright strict, pyrefly, ty and ruff (check and format),
  copied as a package the way `--vendor-runtime` copies it;
- its wheel holds every module, `py.typed`, and the version `require` compares;
- a package built either way loads, validates and creates stores through it, without zomgen
  importable;
- a package refuses, at import and naming the range to install, a run time of another major
  version or an older minor one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
import xarray as xr
import zomgen_runtime

from tests.support.checkers import pyrefly_diagnostics, run_pyrefly, run_ty, ty_diagnostics
from tests.support.packages import imported
from tests.support.runtime import ROOT, snapshot
from zomgen.pipeline import Options, generate
from zomgen.write import write_package

DISTRIBUTION = ROOT / "runtime" / "python"
RUNTIME = DISTRIBUTION / "zomgen_runtime"
PYTHON = sys.executable


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    # pyright finds the environment's packages (zarr, jsonschema-rs) through `python` on PATH
    env = {**os.environ, "PATH": f"{Path(PYTHON).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(
        args, cwd=cwd, capture_output=True, text=True, check=False, env=env, timeout=600
    )


@pytest.fixture(scope="module")
def copied(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run time's modules copied as a package of its own, as `--vendor-runtime` copies
    them."""
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


@pytest.mark.checkers
def test_pyrefly_and_ty(copied: Path) -> None:
    """With the settings the generated packages are checked with (tests/support/checkers.py)."""
    assert pyrefly_diagnostics(run_pyrefly(["zrt"], copied)) == []
    assert ty_diagnostics(run_ty(["zrt"], copied)) == []


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


@pytest.fixture(scope="module", params=["imported", "vendored"])
def package(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ModuleType]:
    """xarray-v3's package, importing zomgen-runtime or (`--vendor-runtime`) carrying a copy."""
    out = tmp_path_factory.mktemp("pkgs")
    name = f"zomgen_runtime_test_{request.param}"
    schema = ROOT / "schemas" / "xarray-v3" / "schema.json"
    options = Options(schema=schema, package=name, vendor_runtime=request.param == "vendored")
    write_package(generate(options), out / name)
    with imported(out, name) as (package,):
        yield package


def _in_python_without_zomgen(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`code` in a fresh interpreter in which `import zomgen` fails, as in an environment that
    has the generated package and its dependencies but not the compiler."""
    blocker = (
        "import importlib.abc, sys\n"
        "class _NoZomgen(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'zomgen' or name.startswith('zomgen.'):\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}')\n"
        "        return None\n"
        "sys.meta_path.insert(0, _NoZomgen())\n"
    )
    return _run([PYTHON, "-c", blocker + code], cwd)


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
    if package.__name__.endswith("vendored"):
        assert runtime_copy == {p.name: p.read_text("utf-8") for p in RUNTIME.glob("*.py")}
    else:
        assert runtime_copy == {}
        assert "zomgen-runtime>=1.5,<2" in (folder / "README.md").read_text("utf-8")


def test_a_package_runs_without_zomgen(package: ModuleType, tmp_path: Path) -> None:
    store = tmp_path / "ds.zarr"
    xr.Dataset({"t": (("x",), np.zeros(3))}).to_zarr(store, zarr_format=3, consolidated=False)
    name = package.__name__
    code = (
        f"import {name}\n"
        f"model = {name}.load({str(store)!r})\n"
        f"assert {name}.validate({str(store)!r}) == []\n"
        f"{name}.create(model, {str(tmp_path / 'copy.zarr')!r})\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'zomgen_runtime')[:1])\n"
    )
    result = _in_python_without_zomgen(code, Path(package.__file__ or "").parent.parent)
    assert result.returncode == 0, result.stderr
    imported_library = name.endswith("imported")
    assert result.stdout.strip() == ("['zomgen_runtime']" if imported_library else "[]")
    assert _in_python_without_zomgen("import zomgen", tmp_path).returncode == 1


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


def _runtime_of_version(version: str, folder: Path) -> Path:
    """The run time copied into `folder/zomgen_runtime` as if version `version` were installed."""
    copy = folder / "zomgen_runtime"
    shutil.copytree(RUNTIME, copy, ignore=shutil.ignore_patterns("__pycache__"))
    init = copy / "__init__.py"
    text = init.read_text("utf-8")
    line = f'__version__ = "{zomgen_runtime.__version__}"'
    assert line in text
    init.write_text(text.replace(line, f'__version__ = "{version}"'), "utf-8")
    return folder


@pytest.mark.parametrize(
    ("installed", "accepted"),
    [
        (zomgen_runtime.__version__, True),
        ("1.5.0", True),
        ("1.7.2", True),  # a later minor version keeps what 1.5 packages call
        ("1.4.0", False),  # an older one lacks some of it (consolidate, new in 1.5)
        ("1.3.0", False),
        ("1.2.0", False),
        ("1.1.0", False),
        ("1.0.0", False),
        ("2.0.0", False),  # another major version may have changed it
        ("0.9.0", False),
    ],
)
def test_a_package_refuses_a_run_time_it_was_not_built_for(
    installed: str, accepted: bool, tmp_path: Path
) -> None:
    out = tmp_path / "pkgs"
    schema = ROOT / "schemas" / "xarray-v3" / "schema.json"
    write_package(generate(Options(schema=schema, package="needs_1_5")), out / "needs_1_5")
    runtime = _runtime_of_version(installed, tmp_path / "site")
    env_path = f"{runtime}{os.pathsep}{out}"
    result = subprocess.run(
        [PYTHON, "-c", "import needs_1_5, zomgen_runtime; print(zomgen_runtime.__file__)"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": env_path},
        timeout=60,
    )
    if accepted:
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == str(runtime / "zomgen_runtime" / "__init__.py")
    else:
        last = result.stderr.strip().splitlines()[-1]
        assert last == (
            "ImportError: needs_1_5 was generated for zomgen-runtime>=1.5,<2, but zomgen-runtime "
            f"{installed} is installed: pip install 'zomgen-runtime>=1.5,<2' (or rebuild "
            "needs_1_5 with this zomgen)"
        )


def test_require_names_the_minor_version_a_package_needs() -> None:
    zomgen_runtime.require(zomgen_runtime.__version__.rsplit(".", 1)[0], "same")
    major = int(zomgen_runtime.__version__.split(".")[0])
    with pytest.raises(ImportError, match=rf"zomgen-runtime>={major}\.99,<{major + 1}"):
        zomgen_runtime.require(f"{major}.99", "newer")


def test_the_wheel_holds_every_module_and_the_version(tmp_path: Path) -> None:
    """The distribution as pip builds it (hatchling, the build backend pyproject names)."""
    result = _run(
        [PYTHON, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp_path)]
        + [str(DISTRIBUTION)],
        tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    (wheel,) = tmp_path.glob("*.whl")
    assert wheel.name == f"zomgen_runtime-{zomgen_runtime.__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read(f"zomgen_runtime-{zomgen_runtime.__version__}.dist-info/METADATA")
    modules = {f"zomgen_runtime/{p.name}" for p in RUNTIME.glob("*.py")}
    assert modules | {"zomgen_runtime/py.typed"} <= names
    assert {n for n in names if n.startswith("zomgen_runtime/")} == modules | {
        "zomgen_runtime/py.typed"
    }
    assert b"\nRequires-Dist: zarr>=3.1\n" in metadata
