"""`zomgen diff A B` on stores written by xarray and zarr-python: every difference at its node
path and pointer; exit 0 the same, 1 different, 2 unusable input, 3 not fully compared
(docs/diff.md)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
import xarray as xr
import zarr

from tests.support.cli import run_zomgen
from tests.support.http_stores import serve
from tests.support.paths import ROOT
from tests.support.runtime import snapshot


def _diff(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return run_zomgen("diff", *args, cwd=ROOT, timeout=120)


def _dataset(units: str, *, extra: bool = False) -> xr.Dataset:
    data = {
        "temperature": (("y", "x"), np.zeros((2, 3), "f4"), {"units": units}),
        "mask": (("y",), np.zeros(2, "u1")),
    }
    if extra:
        data["pressure"] = (("x",), np.zeros(3, "f8"), {"units": "Pa"})
    return xr.Dataset(data, attrs={"title": "run"})


def _written(folder: Path, dataset: xr.Dataset, zarr_format: int) -> Path:
    dataset.to_zarr(folder, zarr_format=zarr_format, consolidated=False)
    return folder


@pytest.mark.parametrize("zarr_format", [2, 3])
def test_two_datasets_written_by_xarray(tmp_path: Path, zarr_format: int) -> None:
    before = _written(tmp_path / "a.zarr", _dataset("K"), zarr_format)
    after = _written(tmp_path / "b.zarr", _dataset("degC", extra=True), zarr_format)
    kept = snapshot(before), snapshot(after)
    result = _diff(before, after)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines == [
        '/temperature: /attributes/units: changed from "K" to "degC"',
        "/pressure: added array",
        f"{before} -> {after}: 2 differences",
    ]
    report = json.loads(_diff(before, after, "--format", "json").stdout)
    assert (report["same"], report["complete"], report["not_compared"]) == (False, True, [])
    assert report["differences"][0] == {
        "kind": "changed",
        "node": "/temperature",
        "pointer": "/attributes/units",
        "before": "K",
        "after": "degC",
    }
    added = report["differences"][1]
    assert (added["kind"], added["node"], added["pointer"]) == ("added", "/pressure", "")
    assert added["after"]["attributes"]["units"] == "Pa"
    # with --exclude the units are not compared; the new variable is still a difference
    excluded = _diff(before, after, "--exclude", "units")
    assert excluded.stdout.splitlines()[0] == "/pressure: added array"
    assert (snapshot(before), snapshot(after)) == kept  # nothing written into either store


def test_the_same_store_and_its_copy_are_the_same(tmp_path: Path) -> None:
    store = _written(tmp_path / "a.zarr", _dataset("K"), 3)
    copy = _written(tmp_path / "copy.zarr", _dataset("K"), 3)
    result = _diff(store, copy)
    assert (result.returncode, result.stdout) == (0, f"{store} -> {copy}: the same\n")
    report = json.loads(_diff(store, copy, "--format", "json").stdout)
    assert (report["same"], report["differences"]) == (True, [])


def test_a_store_and_a_document_file(tmp_path: Path) -> None:
    from zomgen_runtime import read_hierarchy

    store = _written(tmp_path / "a.zarr", _dataset("K"), 3)
    document = read_hierarchy(str(store)).document
    assert document is not None
    (tmp_path / "doc.json").write_text(json.dumps(document), "utf-8")
    assert _diff(store, tmp_path / "doc.json").returncode == 0
    document["members"]["mask"]["shape"] = [5]
    (tmp_path / "doc.json").write_text(json.dumps(document), "utf-8")
    result = _diff(tmp_path / "doc.json", store)
    assert result.stdout.splitlines()[0] == "/mask: /shape/0: changed from 5 to 2"


def test_consolidated_metadata_that_disagrees_is_not_compared(tmp_path: Path) -> None:
    # zarr-python's consolidated metadata, then a node changed behind its back: the store is
    # two hierarchies (what a reader of the consolidated metadata sees, and the files), so the
    # diff does not say "the same"; the files alone (--no-consolidated) are compared
    before = tmp_path / "a.zarr"
    group = zarr.open_group(before, mode="w", zarr_format=3)
    group.create_array("t", shape=(2,), dtype="i2").attrs["units"] = "m"
    zarr.consolidate_metadata(str(before))
    after = _written(tmp_path / "b.zarr", xr.Dataset(), 3)
    zarr.open_group(after, mode="w", zarr_format=3).create_array("t", shape=(2,), dtype="i2").attrs[
        "units"
    ] = "m"
    zarr.open_array(before / "t", mode="r+").attrs["units"] = "km"
    consolidated = _diff(before, after)
    assert consolidated.returncode == 3, consolidated.stdout
    assert consolidated.stdout.splitlines()[0] == (
        'not compared (before): /t: /attributes/units: the consolidated metadata says "m", '
        'the node\'s own metadata file says "km"'
    )
    # trusted, the consolidated copy is what is compared, and the files left unread are listed
    trusted = _diff(before, after, "--trust-consolidated")
    assert trusted.returncode == 0, trusted.stdout
    assert trusted.stdout.splitlines()[0].startswith(
        "not compared (--trust-consolidated) (before): /: the nodes' own metadata files were not"
    )
    walked = _diff(before, after, "--no-consolidated")
    assert walked.stdout.splitlines()[0] == '/t: /attributes/units: changed from "km" to "m"'


def test_a_node_not_read_makes_the_diff_not_fully_compared(tmp_path: Path) -> None:
    before = _written(tmp_path / "a.zarr", _dataset("K"), 3)
    after = _written(tmp_path / "b.zarr", _dataset("K"), 3)
    (after / "mask" / "zarr.json").write_text("{not json", "utf-8")
    result = _diff(before, after)
    assert result.returncode == 3, result.stdout
    assert "not compared (after): /mask" in result.stdout
    assert result.stdout.splitlines()[-1] == (
        f"{before} -> {after}: not fully compared: 0 differences in what was read"
    )
    report = json.loads(_diff(before, after, "--format", "json").stdout)
    assert (report["same"], report["complete"]) == (False, False)
    assert [(n["side"], n["node_path"]) for n in report["not_compared"]] == [("after", "/mask")]


def test_a_server_that_cannot_list_is_not_fully_compared(tmp_path: Path) -> None:
    before = _written(tmp_path / "a.zarr", _dataset("K"), 3)
    with serve(tmp_path, listing=False) as served:
        result = _diff(before, f"{served.url}/a.zarr", "--schema", "xarray-v3")
    # the members xarray-v3 names were read (none: a dataset's variables are not named), so
    # the root's members are unknown and the result cannot be "the same"
    assert result.returncode == 3, result.stdout + result.stderr
    assert "not compared (after): /: /members:" in result.stdout
    assert "before: " in result.stdout and "(xarray-v3)" in result.stdout


def test_schema_gives_each_sides_verdict(tmp_path: Path) -> None:
    before = _written(tmp_path / "a.zarr", _dataset("K"), 3)
    after = _written(tmp_path / "b.zarr", _dataset("K"), 3)
    # a variable with a dimension name too many breaks xarray-v3
    zarr.open_array(after / "mask", mode="r+").attrs["units"] = "1"
    metadata = json.loads((after / "mask" / "zarr.json").read_text("utf-8"))
    metadata["dimension_names"] = ["y", "x"]
    (after / "mask" / "zarr.json").write_text(json.dumps(metadata), "utf-8")
    result = _diff(before, after, "--schema", "xarray-v3")
    assert result.returncode == 1
    assert f"before: {before}: valid (xarray-v3)" in result.stdout
    assert f"after: {after}: invalid (1 problem) (xarray-v3)" in result.stdout
    report = json.loads(_diff(before, after, "--schema", "xarray-v3", "--format", "json").stdout)
    assert [v["status"] for v in report["verdicts"]] == ["valid", "invalid"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{tmp}/missing.zarr", "{tmp}/missing.zarr"], "missing.zarr"),
        (["{tmp}/bad.json", "{tmp}/bad.json"], "bad.json:/: not a JSON document"),
        (["{tmp}/list.json", "{tmp}/list.json"], "list.json:/: a ZOM document is a JSON object"),
        (["{tmp}/list.json", "{tmp}/list.json", "--exclude", "a/b"], "a key name or a pointer"),
        (["{tmp}/list.json", "{tmp}/list.json", "--schema", "nope"], "nope:/: no such schema"),
    ],
)
def test_unusable_input_exits_2_naming_it(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "bad.json").write_text("{", "utf-8")
    (tmp_path / "list.json").write_text("[]", "utf-8")
    result = _diff(*(a.format(tmp=tmp_path) for a in args))
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
