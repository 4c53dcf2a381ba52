"""`zomgen consolidate` as a user runs it: exit 0 written, 1 invalid, 2 unusable, 3 not fully
checked, and nothing written unless 0; then `zomgen validate` on what it wrote, and on
consolidated metadata gone stale (`--trust-consolidated` accepted, and listed)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
import xarray as xr
import zarr

from tests.support.cli import run_zomgen
from tests.support.paths import ROOT
from tests.support.runtime import snapshot

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # zarr: consolidated v3


def _written(folder: Path, zarr_format: int = 3) -> Path:
    variables = {"temperature": (("y",), np.zeros(2, "f4"), {"units": "K"})}
    xr.Dataset(variables).to_zarr(folder, zarr_format=zarr_format, consolidated=False)
    return folder


def zomgen(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return run_zomgen(*args, cwd=ROOT, timeout=120)


def _run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return zomgen("consolidate", *args)


@pytest.mark.parametrize("zarr_format", [3, 2])
def test_written_by_declared_conventions_then_valid(zarr_format: int, tmp_path: Path) -> None:
    store = _written(tmp_path / "ds.zarr", zarr_format)
    done = _run(store)
    file = "zarr.json" if zarr_format == 3 else ".zmetadata"
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == f"{store}: consolidated 2 nodes into {file}\n"
    checked = zomgen("validate", store)
    assert checked.returncode == 0, checked.stdout
    assert zarr.open_consolidated(store, zarr_format=zarr_format).metadata is not None


def test_json_and_a_bundled_schema(tmp_path: Path) -> None:
    store = _written(tmp_path / "ds.zarr")
    done = _run(store, "--schema", "xarray-v3", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "status": "valid",
        "written": "zarr.json",
        "nodes": 2,
        "problems": [],
        "unchecked": [],
    }


def test_invalid_exits_1_and_writes_nothing(tmp_path: Path) -> None:
    store = _written(tmp_path / "ds.zarr")
    node = store / "temperature" / "zarr.json"
    array = json.loads(node.read_text("utf-8"))
    array["dimension_names"] = ["y", "x"]  # two names for one dimension
    node.write_text(json.dumps(array), "utf-8")
    before = snapshot(store)
    done = _run(store, "--schema", "xarray-v3")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0].startswith("/temperature: /dimension_names: ")
    assert lines[-1] == f"{store}: 1 problem(s): nothing written"
    assert snapshot(store) == before


def test_nothing_declared_exits_3_and_writes_nothing(tmp_path: Path) -> None:
    store = tmp_path / "plain.zarr"
    zarr.open_group(store, mode="w", zarr_format=3).create_array("a", shape=(1,), dtype="i1")
    before = snapshot(store)
    done = _run(store)
    assert done.returncode == 3
    assert done.stdout.splitlines()[0].startswith("not checked: /: no convention")
    assert done.stdout.splitlines()[-1].endswith(": nothing written")
    assert snapshot(store) == before


def test_unusable_input_exits_2(tmp_path: Path) -> None:
    missing = _run(tmp_path / "missing.zarr")
    assert missing.returncode == 2 and missing.stdout == ""
    assert "missing.zarr" in missing.stderr and "Traceback" not in missing.stderr
    assert not (tmp_path / "missing.zarr").exists()
    schema = _run(_written(tmp_path / "ds.zarr"), "--schema", tmp_path / "none.json")
    assert schema.returncode == 2 and "no such schema file" in schema.stderr


def test_validate_reports_stale_consolidated_metadata_unless_trusted(tmp_path: Path) -> None:
    store = _written(tmp_path / "ds.zarr")
    assert _run(store).returncode == 0
    zarr.open_array(store / "temperature", mode="r+").attrs["units"] = "degC"
    stale = zomgen("validate", store, "--schema", "xarray-v3")
    assert stale.returncode == 1
    assert stale.stdout.splitlines()[0] == (
        '/temperature: /attributes/units: the consolidated metadata says "K", '
        'the node\'s own metadata file says "degC"'
    )
    trusted = zomgen("validate", store, "--schema", "xarray-v3", "--trust-consolidated")
    assert trusted.returncode == 0, trusted.stdout
    assert trusted.stdout.splitlines() == [
        (
            "not checked (--trust-consolidated): /: the nodes' own metadata files were not read: "
            "the consolidated metadata was trusted without comparing it with them"
        ),
        f"{store}: valid as far as read (1 place accepted unread) (xarray-v3)",
    ]
    both = zomgen("validate", store, "--no-consolidated", "--trust-consolidated")
    assert both.returncode == 2 and "not allowed with" in both.stderr
    assert _run(store).returncode == 0  # written again from the files
    assert zomgen("validate", store).returncode == 0
