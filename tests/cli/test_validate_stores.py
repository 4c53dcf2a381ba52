"""`zomgen validate STORE --schema SCHEMA`: exit 0 valid, 1 invalid, 2 unusable input; JSON
output fit for CI annotations (a list of problem objects)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.support.cli import run_zomgen
from tests.support.runtime import ROOT, STORES, V3_GROUP, snapshot, v3_array, write_json

XARRAY_V3 = ROOT / "schemas" / "xarray-v3" / "schema.json"
XARRAY_V2 = ROOT / "schemas" / "xarray-v2" / "schema.json"


def _validate(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return run_zomgen("validate", *args, cwd=ROOT, timeout=120)


def _store(root: Path, dims: list[str]) -> Path:
    write_json(root, "zarr.json", V3_GROUP)
    write_json(root, "t/zarr.json", v3_array([2, 3], dimension_names=dims))
    return root


def test_valid_store_exits_0(tmp_path: Path) -> None:
    result = _validate(_store(tmp_path / "ok.zarr", ["y", "x"]), "--schema", XARRAY_V3)
    assert result.returncode == 0, result.stderr
    assert "valid" in result.stdout
    json_result = _validate(tmp_path / "ok.zarr", "--schema", XARRAY_V3, "--format", "json")
    report = json.loads(json_result.stdout)
    assert json_result.returncode == 0
    assert (report["status"], report["problems"], report["unchecked"]) == ("valid", [], [])


def test_invalid_store_exits_1_with_json_problems(tmp_path: Path) -> None:
    store = _store(tmp_path / "bad.zarr", ["y"])
    write_json(store, "g/zarr.json", V3_GROUP)
    before = snapshot(store)
    result = _validate(store, "--schema", XARRAY_V3, "--format", "json")
    assert result.returncode == 1, result.stderr
    problems = json.loads(result.stdout)["problems"]
    assert problems == [
        {
            "node_path": "/g",
            "pointer": "/node_type",
            "message": "'array' was expected (given: 'group')",
            "keyword": "const",
            "schema_path": "/$defs/zomgen:v3.schema.json/$defs/ArraySpec/properties/node_type/const",
        },
        {
            "node_path": "/t",
            "pointer": "/dimension_names",
            "message": "has 1 item, but the array has 2 dimensions (shape [2, 3])",
            "keyword": "x-zomgen-ndim-length",
            "schema_path": "/$defs/zomgen:v3.schema.json/$defs/ArraySpec/x-zomgen-ndim-length/0",
        },
    ]
    text = _validate(store, "--schema", XARRAY_V3)
    assert text.returncode == 1
    assert text.stdout.splitlines() == [
        "/g: /node_type: 'array' was expected (given: 'group')",
        "/t: /dimension_names: has 1 item, but the array has 2 dimensions (shape [2, 3])",
        f"{store}: 2 problem(s) ({XARRAY_V3})",
    ]
    assert snapshot(store) == before


def test_unusable_store_exits_2(tmp_path: Path) -> None:
    for store in (tmp_path / "missing.zarr", ROOT / "README.md"):
        result = _validate(store, "--schema", XARRAY_V3)
        assert result.returncode == 2, result.stdout
        assert "Traceback" not in result.stderr and result.stderr.startswith("zomgen: ")


def test_path_and_no_consolidated_options() -> None:
    gdal = STORES / "gdal-autotest" / "array_dimensions.zarr"
    assert _validate(gdal, "--schema", XARRAY_V2).returncode == 0
    # the store holds nothing but .zmetadata: unusable when told to ignore it
    assert _validate(gdal, "--schema", XARRAY_V2, "--no-consolidated").returncode == 2
    plate = STORES / "ome-zarr-models-py" / "examples" / "v04" / "hcs_example.ome.zarr"
    assert _validate(plate, "--schema", XARRAY_V2, "--path", "B/03/0").returncode == 1
