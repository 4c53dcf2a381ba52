"""`zomgen validate` of many stores in one call, as a user with a folder of stores runs it: the
arguments, a quoted glob, `--stores-from` (a file, and standard input); the problems named by
store, the table, the histogram of conventions and the counts; JSON and JSON lines; the exit
status the worst verdict decides; and nothing written into any store."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.archive_stores import write_archive
from tests.support.cli import run_zomgen
from tests.support.runtime import snapshot

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_archive(tmp_path_factory.mktemp("archive"))


def _validate(
    *args: str | Path, cwd: Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    if stdin is None:
        return run_zomgen("validate", *args, cwd=cwd, timeout=300)
    return subprocess.run(
        [sys.executable, "-m", "zomgen", "validate", *map(str, args)],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_a_glob_gives_every_verdict_a_row_and_the_worst_its_exit(archive: Path) -> None:
    before = snapshot(archive)
    result = _validate("*.zarr", cwd=archive)
    assert result.returncode == 1, result.stdout + result.stderr  # one store is invalid
    assert result.stdout.splitlines() == [
        "c.zarr: /t: /dimension_names: has 2 items, but the array has 1 dimension (shape [2]) [xarray-v3]",
        "d.zarr: not checked: /: no convention of the catalog is declared or used here: nothing was checked",
        "e.zarr: cannot be read: /: no Zarr group or array at the root of the store (no zarr.json, .zgroup or .zarray)",
        "store   verdict            problems  not checked  conventions",
        "a.zarr  valid              0         0            xarray-v3",
        "b.zarr  valid              0         0            xarray-v2",
        "c.zarr  invalid            1         0            xarray-v3",
        "d.zarr  not fully checked  0         1            -",
        "e.zarr  unusable           0         0            -",
        "conventions: xarray-v3 (2 stores), xarray-v2 (1 store), none (1 store)",
        "5 stores: 2 valid, 1 invalid, 1 not fully checked, 1 unusable",
    ]  # fmt: skip
    assert snapshot(archive) == before


@pytest.mark.parametrize(
    ("stores", "code"),
    [
        (["a.zarr", "b.zarr"], 0),  # all valid
        (["a.zarr", "d.zarr"], 3),  # one not fully checked
        (["d.zarr", "e.zarr"], 2),  # one unusable outweighs not fully checked...
        (["c.zarr", "e.zarr"], 1),  # ...and an invalid one outweighs both
    ],
)
def test_the_worst_verdict_decides_the_exit_status(
    archive: Path, stores: list[str], code: int
) -> None:
    assert _validate(*stores, cwd=archive).returncode == code


def test_stores_from_a_file_and_from_standard_input(archive: Path) -> None:
    listed = archive.parent / "stores.txt"
    listed.write_text("# the valid ones\na.zarr\n\nb.zarr\na.zarr\n", "utf-8")
    from_file = _validate("--stores-from", listed, "--format", "json", cwd=archive)
    assert from_file.returncode == 0, from_file.stdout
    report = json.loads(from_file.stdout)
    assert [s["store"] for s in report["stores"]] == ["a.zarr", "b.zarr"]  # each once
    assert report["summary"] == {
        "stores": 2,
        "valid": 2,
        "invalid": 0,
        "not fully checked": 0,
        "unusable": 0,
        "conventions": {"xarray-v2": 1, "xarray-v3": 1},
        "checked against none": 0,
    }
    piped = _validate(
        "c.zarr", "--stores-from", "-", "--format", "jsonl", cwd=archive, stdin="a.zarr\n"
    )
    assert piped.returncode == 1
    lines = [json.loads(line) for line in piped.stdout.splitlines()]
    assert sorted((line["store"], line["status"]) for line in lines[:-1]) == [
        ("a.zarr", "valid"),
        ("c.zarr", "invalid"),
    ]
    assert lines[-1]["summary"]["invalid"] == 1
    problem = next(line for line in lines if line.get("store") == "c.zarr")["problems"][0]
    assert (problem["node_path"], problem["pointer"]) == ("/t", "/dimension_names")


def test_one_schema_for_every_store(archive: Path) -> None:
    result = _validate("a.zarr", "c.zarr", "--schema", "xarray-v3", "--format", "json", cwd=archive)
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert [(s["store"], s["status"], s["conventions"]) for s in report["stores"]] == [
        ("a.zarr", "valid", ["xarray-v3"]),
        ("c.zarr", "invalid", ["xarray-v3"]),
    ]


def test_what_cannot_be_done_with_several_stores_says_so(archive: Path) -> None:
    for args in (["nothing-*.zarr"], [], ["a.zarr", "b.zarr", "--format", "verdict"]):
        result = _validate(*args, cwd=archive)
        assert result.returncode == 2 and result.stdout == "", args
        assert "Traceback" not in result.stderr and result.stderr.startswith("zomgen"), args
