"""An archive over HTTP (20 ms per request): `zomgen validate` of many stores in one process and
on a two-worker Dask `LocalCluster`, stores per second side by side (issue 57, docs/archives.md).

Two archives, each served by benchmarks/static_server.mjs in its own process (folders listed as
HTML indexes):
- `small`: N xarray datasets (v3, not consolidated: four nodes each), one written by xarray and
  copied N - 1 times (the same bytes, as suite.py copies its arrays);
- `plates`: P OME-Zarr 0.5 plates written by ome-zarr-py (bench_plate.py's: 16 x 24 wells, two
  fields, four levels, about 4,200 nodes each), one written and copied P - 1 times.

Each archive is checked by the conventions its stores declare, four ways, in one run:
- the function, `zomgen.many_stores.validate_stores(urls, jobs=4)`, in this process;
- the command, `zomgen validate --stores-from FILE --format jsonl` (a new process: start-up,
  catalog, every store, the report);
- the same function with `client=` a `dask.distributed.Client` of a `LocalCluster` of two
  worker processes (one thread each; started once, before the timing);
- the command with `--dask ADDRESS` of that cluster.
Every run must find every store valid: a benchmark of a failing check measures nothing.

Run: .venv/bin/python benchmarks/bench_archive.py [-n 1000] [--plates 4] [--rows 16]
[--columns 24] [--out docs/benchmarks-archive.md]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_plate import write_plate
from benchmarks.processes import compiled_env
from benchmarks.suite import LATENCY, http_server


def write_archives(
    work: Path, n: int, plates: int, rows: int, columns: int
) -> dict[str, list[str]]:
    """The two archives' folders under work/served; their store names."""
    import numpy as np
    import xarray as xr

    warnings.filterwarnings("ignore", category=UserWarning)
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    served = work / "served"
    first = served / "small" / "s0.zarr"
    dataset = xr.Dataset(
        {"t": (("y", "x"), np.zeros((2, 3)))}, coords={"y": [1, 2], "x": [0, 1, 2]}
    )
    dataset.to_zarr(first, zarr_format=3, consolidated=False)
    for i in range(1, n):
        shutil.copytree(first, served / "small" / f"s{i}.zarr")
    plate = served / "plates" / "p0.zarr"
    write_plate(plate, rows, columns)
    for i in range(1, plates):
        shutil.copytree(plate, served / "plates" / f"p{i}.zarr")
    return {
        "small": [f"small/s{i}.zarr" for i in range(n)],
        "plates": [f"plates/p{i}.zarr" for i in range(plates)],
    }


def function_rate(urls: list[str], client: Any = None) -> float:
    """Stores per second of `validate_stores`, every store valid."""
    from zomgen.many_stores import validate_stores

    start = time.perf_counter()
    statuses = [v.status for v in validate_stores(urls, jobs=4, client=client)]
    seconds = time.perf_counter() - start
    assert statuses == ["valid"] * len(urls), sorted(set(statuses))
    return len(urls) / seconds


def command_rate(listing: Path, count: int, env: dict[str, str], *more: str) -> float:
    """Stores per second of `zomgen validate --stores-from`, from a new process to its exit."""
    start = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "zomgen",
            "validate",
            "--stores-from",
            str(listing),
            "--format",
            "jsonl",
            *more,
        ],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    seconds = time.perf_counter() - start
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return count / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=1000, help="small stores (default 1000)")
    parser.add_argument("--plates", type=int, default=4, help="plate stores (default 4)")
    parser.add_argument("--rows", type=int, default=16)
    parser.add_argument("--columns", type=int, default=24)
    parser.add_argument("--out", type=Path, help="write the table here (else print it)")
    args = parser.parse_args()
    from distributed import Client, LocalCluster

    rows: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-archive-") as scratch:
        work = Path(scratch)
        archives = write_archives(work, args.n, args.plates, args.rows, args.columns)
        env = compiled_env(work / "pycache")
        with (
            http_server(work / "served", server="node") as (url, _pid),
            LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
            ) as cluster,
            Client(cluster) as client,
        ):
            for kind, names in archives.items():
                urls = [f"{url}/{name}" for name in names]
                listing = work / f"{kind}.txt"
                listing.write_text("\n".join(urls) + "\n", "utf-8")
                rates = (
                    function_rate(urls),
                    command_rate(listing, len(urls), env),
                    function_rate(urls, client),
                    command_rate(listing, len(urls), env, "--dask", cluster.scheduler_address),
                )
                nodes = sum(1 for _ in (work / "served" / names[0]).rglob("zarr.json"))
                cells = " | ".join(f"{rate:.1f}" for rate in rates)
                ratio = rates[2] / rates[0]
                rows.append(f"| {kind} | {len(urls):,} | {nodes:,} | {cells} | {ratio:.2f}x |")
                print(rows[-1], flush=True)
    table = "\n".join(
        [
            "# Many stores over HTTP (benchmarks/bench_archive.py)\n",
            (
                f"Served on localhost by Node with {LATENCY * 1000:.0f} ms per request, folders "
                "listed; checked by the conventions each store declares; stores per second, one "
                "run (one process: 4 stores at a time; cluster: a `LocalCluster` of 2 worker "
                "processes, one thread each, on the same 2 cores).\n"
            ),
            (
                "| archive | stores | nodes per store | one process: function | one process: "
                "command | cluster: function | cluster: command | cluster / one process "
                "(function) |"
            ),
            "|---|---:|---:|---:|---:|---:|---:|---:|",
            *rows,
        ]
    )
    if args.out is not None:
        args.out.write_text(table + "\n", "utf-8")
    print(table)


if __name__ == "__main__":
    main()
