"""Every benchmark script runs on a tiny N and writes what it promises (no timing is asserted:
benchmarks never run as timed tests)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT

pytestmark = pytest.mark.slow

BENCHMARKS = ROOT / "benchmarks"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, check=False, timeout=900
    )


def test_suite_writes_its_table_and_plot(tmp_path: Path) -> None:
    result = _run(
        str(BENCHMARKS / "suite.py"), "-n", "5", "20", "--repeat", "1", "--latency",
        "--out", str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    table = (tmp_path / "benchmarks.md").read_text("utf-8")
    for kind in ("local", "zip", "memory", "latency", "http"):
        assert f"| {kind} |" in table
    assert "`import` v2" in table and "`import` v3" in table
    assert (tmp_path / "benchmarks.png").stat().st_size > 0
    assert "| `validate (an OME-Zarr 0.6rc0 image)` |" in table  # from a cold process


def test_suite_measures_the_local_folder_alone(tmp_path: Path) -> None:
    result = _run(
        str(BENCHMARKS / "suite.py"), "-n", "5", "20", "--repeat", "1", "--local-only",
        "--skip-zarr", "--out", str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    table = (tmp_path / "benchmarks.md").read_text("utf-8")
    assert "| local |" in table and "| zip |" not in table
    assert "v3 n=20 consolidated=True: local load" in result.stdout  # progress as it goes
    assert "`load` ratio from N to N: 5 -> 20" in table


def test_bench_build_runs() -> None:
    result = _run(str(BENCHMARKS / "bench_build.py"), "--defs", "5", "--repeat", "1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "| geozarr |" in result.stdout and "| defs-5 |" in result.stdout


def test_bench_startup_runs() -> None:
    result = _run(str(BENCHMARKS / "bench_startup.py"), "--repeat", "1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "| `python -c pass` |" in result.stdout


def test_bench_load_runs() -> None:
    result = _run(str(BENCHMARKS / "bench_load.py"), "-n", "20", "--repeat", "1")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.node
@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
def test_bench_validate_ts_runs() -> None:
    result = _run(str(BENCHMARKS / "bench_validate_ts.py"), "-n", "20", "--repeat", "1")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.node
def test_bench_rules_puts_each_rule_beside_its_relation(tmp_path: Path) -> None:
    out = tmp_path / "rules.md"
    result = _run(
        str(BENCHMARKS / "bench_rules.py"),
        "-n",
        "20",
        "--rows",
        "1",
        "--columns",
        "2",
        "--repeat",
        "1",
        "--out",
        str(out),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    table = out.read_text("utf-8")
    for row in (
        "| xarray, 20 variables | x-zomgen-ndim-length on each variable | valid | ",
        "| xarray, 20 variables | the rule on each variable | one fault | ",
        "| xarray, 20 variables | one rule on the root | valid | ",
        "| plate, 2 wells | PlateRules' five relation keywords | one fault | ",
        "| plate, 2 wells | the same as five rules | valid | ",
    ):
        assert row in table, table
    assert table.count(" ms (") == 2 * 10


def test_bench_plate_runs(tmp_path: Path) -> None:
    out = tmp_path / "plate.md"
    out.write_text("# old table\n\n| x |\n\n## Reading the figures\n\nkept as written\n", "utf-8")
    result = _run(
        str(BENCHMARKS / "bench_plate.py"), "--rows", "1", "--columns", "2", "--out", str(out)
    )
    assert result.returncode == 0, result.stdout + result.stderr
    table = out.read_text("utf-8")
    assert "1 x 2 wells" in table
    assert "# old table" not in table
    assert table.endswith("\n## Reading the figures\n\nkept as written\n")
    rows = (
        "ideal, measured: one listing, then 64 reads in flight | ",
        "ideal, computed: 20 ms per round of 64 | ",
        "the same requests through aiohttp | ",
        "`zomgen validate URL` (declared conventions), the command",
        "`zomgen validate URL --schema ome-ngff-05-plate`, the command",
        "its function: validate_declared(URL), in process",
        "its function: validate_store(URL, schema), in process",
        "validate_store(URL, schema), a server without folder indexes",
    )
    for row in rows:
        assert f"| {row}" in table
    # every tool reached its verdict on the valid plate
    assert table.count("| valid |") == 6, table  # ours five times and ome-zarr-models


def test_bench_site_times_the_page_and_node_and_sizes_the_bundle(tmp_path: Path) -> None:
    out = tmp_path / "site.md"
    result = _run(
        str(BENCHMARKS / "bench_site.py"), "-n", "20", "--repeat", "1", "--sizes", "xarray-v3", "catalog",
        "--out", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    table = out.read_text("utf-8")
    for row in (
        "| 20 | listed (HTML index), HTTP/1.1 |",
        "| 20 | consolidated (trusted), HTTP/1.1 |",
        "| 20 | listed (HTML index), HTTPS: page HTTP/2, Node HTTP/1.1 |",
    ):
        assert row in table, table
    assert "| xarray-v3 |" in table and "| catalog |" in table


def test_bench_archive_runs_in_one_process_and_on_a_cluster(tmp_path: Path) -> None:
    out = tmp_path / "archive.md"
    result = _run(
        str(BENCHMARKS / "bench_archive.py"), "-n", "4", "--plates", "2", "--rows", "1",
        "--columns", "2", "--out", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    table = out.read_text("utf-8")
    assert "| small | 4 | 4 | " in table, table  # the group and its three arrays
    # the plate, its row, 2 wells, 2 fields in each, 4 levels in each field
    assert "| plates | 2 | 24 | " in table, table
    assert "| cluster: function | cluster: command |" in table
