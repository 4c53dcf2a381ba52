"""`zomgen validate STORE --schema SCHEMA`: 0 valid, 1 invalid, 2 unusable input; JSON output
for CI; the store is never written."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import xarray as xr

from tests.support.cli import run_zomgen
from tests.support.paths import ROOT

V2 = ROOT / "schemas" / "xarray-v2" / "schema.json"
V3 = ROOT / "schemas" / "xarray-v3" / "schema.json"


def _store(path: Path, zarr_format: int) -> Path:
    ds = xr.Dataset({"t": (("y", "x"), np.zeros((2, 3)))}, coords={"x": [1, 2, 3]})
    ds.to_zarr(path, zarr_format=zarr_format, consolidated=False, mode="w")
    return path


def _bytes(folder: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_valid_store_exits_0(tmp_path: Path) -> None:
    store = _store(tmp_path / "s.zarr", 3)
    result = run_zomgen("validate", str(store), "--schema", str(V3))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "valid" in result.stdout


def test_invalid_store_exits_1_with_json_problems(tmp_path: Path) -> None:
    store = _store(tmp_path / "s.zarr", 2)
    zattrs = store / "t" / ".zattrs"
    zattrs.write_text(json.dumps({"_ARRAY_DIMENSIONS": ["y"]}))  # one name for two dimensions
    before = _bytes(store)
    result = run_zomgen("validate", str(store), "--schema", str(V2), "--format", "json")
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert (report["status"], report["valid"], report["unchecked"]) == ("invalid", False, [])
    problems = report["problems"]
    assert {"node_path", "pointer", "message", "keyword", "schema_path"} <= set(problems[0])
    assert any(
        p["node_path"] == "/t" and p["pointer"] == "/attributes/_ARRAY_DIMENSIONS" for p in problems
    ), problems
    text = run_zomgen("validate", str(store), "--schema", str(V2))
    assert text.returncode == 1 and "/t" in text.stdout
    assert _bytes(store) == before


def test_a_bundled_convention_is_named_outright(tmp_path: Path) -> None:
    """`--schema xarray-v2`: the bundled convention of that name, where no file has it; a name
    that is neither says which names there are."""
    store = _store(tmp_path / "s.zarr", 2)
    (store / "t" / ".zattrs").write_text(json.dumps({"_ARRAY_DIMENSIONS": ["y"]}))
    named = run_zomgen("validate", str(store), "--schema", "xarray-v2", "--format", "json")
    by_file = run_zomgen("validate", str(store), "--schema", str(V2), "--format", "json")
    assert named.returncode == by_file.returncode == 1, named.stderr
    # the same report, each naming the schema as it was given
    assert json.loads(named.stdout) | {"schema": ""} == json.loads(by_file.stdout) | {"schema": ""}
    valid = run_zomgen("validate", str(_store(tmp_path / "v.zarr", 3)), "--schema", "xarray-v3")
    assert valid.returncode == 0 and "valid (xarray-v3)" in valid.stdout, valid.stderr
    unknown = run_zomgen("validate", str(store), "--schema", "xarray-v9")
    assert unknown.returncode == 2 and "Traceback" not in unknown.stderr
    assert "xarray-v9" in unknown.stderr and "xarray-v2, xarray-v3" in unknown.stderr
    assert "nor a bundled convention" in unknown.stderr


def test_unusable_input_exits_2_without_traceback(tmp_path: Path) -> None:
    store = _store(tmp_path / "s.zarr", 3)
    missing = run_zomgen("validate", str(tmp_path / "nowhere.zarr"), "--schema", str(V3))
    bad_schema = tmp_path / "bad.json"
    bad_schema.write_text("{")
    broken = run_zomgen("validate", str(store), "--schema", str(bad_schema))
    for result in (missing, broken):
        assert result.returncode == 2, result.stdout + result.stderr
        assert "Traceback" not in result.stderr
        assert result.stderr.strip()


def test_an_unreachable_remote_store_is_named_in_every_message() -> None:
    import socket

    with socket.socket() as sock:  # a port nothing listens on: bound, never listening
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/s.zarr"
        result = run_zomgen("validate", url, "--schema", str(V3))
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines and all(line.startswith(f"zomgen: {url}: /: ") for line in lines), lines
