"""A big HCS plate over HTTP with 20 ms per request: `zomgen validate` (by what the plate
declares, and with `--schema`) next to the ideal and to ome-zarr-models on the same plate.

The plate is written by ome-zarr-py (OME-Zarr 0.5, Zarr v3): 16 x 24 wells by default, two
fields per well, four levels per field (about 4,000 nodes), not consolidated, served by
benchmarks/static_server.mjs in its own process (folders listed as HTML indexes, as `python -m
http.server` lists them; Node answers from memory, so that the server's CPU, on the same 2
cores, is not taken from the measured run as Python's http.server's 1.6 s were).

- ideal: one listing, then every metadata file read with 64 requests in flight. Measured: those
  requests sent, with no walk and no check, by zomgen's HTTP client (the fastest client at
  hand; aiohttp's row shows another) to the same server in the same run, as every speed is
  measured here. Computed: the 20 ms times the rounds, as `suite.py`'s HTTP rows count it
  (`ideal_latency`), which no client reaches (each request also costs the client's and the
  server's CPU, on the same 2 cores). Both ratios are given;
- `zomgen validate URL`: the command, run as a user runs it (a new process: start-up, catalog,
  walk, checks, report), by the conventions the plate declares, found node by node; and the
  function it calls, `zomgen.catalog.validate_declared`, in this process;
- `zomgen validate URL --schema ome-ngff-05-plate`: the bundled convention named outright, the
  command and its function (`zomgen_runtime.validate_store`); and the function from a server
  that gives no folder indexes (every folder a 404), where the walk probes the members the
  plate's metadata name;
- ome-zarr-models 1.x: `HCS.from_zarr(zarr.open_group(URL))` through zarr-python's fsspec
  HTTP store (it reads the plate's and wells' metadata).

zomgen's rows and the measured ideal are the median of --repeat runs (3 by default), each in
turn with the other rows' runs; ome-zarr-models runs once (about 5 minutes). Writes a Markdown table to `--out`
(default docs/benchmarks-plate.md, whose sections below the table are kept) and prints it.

Run: .venv/bin/python benchmarks/bench_plate.py [--rows 16] [--columns 24] [--out FILE]
[--without-models] (no ome-zarr-models row: a quick run)
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.processes import compiled_env
from benchmarks.suite import LATENCY, http_server, ideal_latency

LEVELS = 4
FIELDS = 2


def write_plate(store: Path, rows: int, columns: int) -> int:
    """The plate, written by ome-zarr-py; returns the number of metadata files (nodes)."""
    import numpy as np
    import zarr
    from ome_zarr import format as ome_format
    from ome_zarr import writer

    fmt = ome_format.FormatV05()
    row_names = [chr(ord("A") + i) for i in range(rows)]
    column_names = [str(i + 1) for i in range(columns)]
    wells = [f"{r}/{c}" for r in row_names for c in column_names]
    root = zarr.open_group(store, mode="w", zarr_format=3)
    writer.write_plate_metadata(
        root, row_names, column_names, wells, fmt=fmt, field_count=FIELDS, name="bench"
    )
    image = np.zeros((1, 16, 16), "uint8")
    scale_factors = tuple(2**i for i in range(1, LEVELS))
    for path in wells:
        row, column = path.split("/")
        well = root.require_group(row).require_group(column)
        writer.write_well_metadata(well, [{"path": str(f)} for f in range(FIELDS)], fmt=fmt)
        for field in range(FIELDS):
            group = well.require_group(str(field))
            writer.write_image(image, group, axes="cyx", fmt=fmt, scale_factors=scale_factors)
    return sum(1 for _ in store.rglob("zarr.json"))


def command(url: str, *more: str, env: dict[str, str]) -> tuple[float, bool]:
    """Seconds `zomgen validate URL` takes from a new process to its exit, and whether it
    said valid (exit 0). `env`: byte code compiled, as installed (processes.py's `compiled_env`)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "zomgen", "validate", url, *more],
        capture_output=True,
        check=False,
        env=env,
    )
    return time.perf_counter() - start, done.returncode == 0


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rows", type=int, default=16)
    parser.add_argument("--columns", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks-plate.md")
    parser.add_argument(
        "--without-models", action="store_true", help="leave out ome-zarr-models (5 minutes)"
    )
    args = parser.parse_args()
    warnings.filterwarnings("ignore")

    from zomgen_runtime import validate_store

    from zomgen.catalog import validate_declared
    from zomgen.pipeline import Options, load
    from zomgen.schema.bundle import bundle

    schema = bundle(load(Options(ROOT / "schemas" / "ome-ngff-05-plate" / "schema.json")))
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        nodes = write_plate(folder / "plate.zarr", args.rows, args.columns)
        groups = sum(1 for p in (folder / "plate.zarr").rglob("zarr.json") if _is_group(p))
        keys = sorted(
            str(p.relative_to(folder / "plate.zarr"))
            for p in (folder / "plate.zarr").rglob("zarr.json")
        )
        rows: list[tuple[str, float, str]] = []
        with http_server(folder, "node") as (base, _pid):
            url = f"{base}/plate.zarr"
            computed = ideal_latency(nodes)
            runs: dict[str, list[tuple[float, bool]]] = {
                key: [] for key in ("ideal", "command", "command schema", "declared", "schema")
            }
            ideal_requests(url, keys)  # not counted: Node compiles its server code meanwhile
            env = compiled_env(folder / "pycache")
            command(url, env=env)  # not counted: writes zomgen's byte code
            for _ in range(args.repeat):  # in turn, so that a busy moment slows every row
                runs["ideal"].append((ideal_requests(url, keys), True))
                runs["command"].append(command(url, env=env))
                more = ("--schema", "ome-ngff-05-plate")
                runs["command schema"].append(command(url, *more, env=env))
                seconds, report = timed(lambda: validate_declared(url))
                runs["declared"].append((seconds, bool(getattr(report, "valid", False))))
                seconds, problems = timed(lambda: validate_store(url, schema))
                runs["schema"].append((seconds, not problems))
            ideal = statistics.median(s for s, _ in runs["ideal"])
            rows.append(("ideal, measured: one listing, then 64 reads in flight", ideal, ""))
            rows.append(("ideal, computed: 20 ms per round of 64", computed, ""))
            rows.append(("the same requests through aiohttp", aiohttp_requests(url, keys), ""))
            for key, name in (
                ("command", "`zomgen validate URL` (declared conventions), the command"),
                ("command schema", "`zomgen validate URL --schema ome-ngff-05-plate`, the command"),
                ("declared", "its function: validate_declared(URL), in process"),
                ("schema", "its function: validate_store(URL, schema), in process"),
            ):
                median = statistics.median(s for s, _ in runs[key])
                verdict = "valid" if all(v for _, v in runs[key]) else "INVALID"
                rows.append((name, median, verdict))

            with http_server(folder, "node", indexes=False) as (unlisted, _pid):
                plate = f"{unlisted}/plate.zarr"
                # a server that lists nothing: read by the wells and fields the plate names,
                # which the user accepts (--named-members-only)
                seconds = statistics.median(
                    timed(lambda: validate_store(plate, schema, named_members_only=True))[0]
                    for _ in range(args.repeat)
                )
                valid = not validate_store(plate, schema, named_members_only=True)
                name = "validate_store(URL, schema), a server without folder indexes"
                rows.append((name, seconds, "valid" if valid else "INVALID"))

            if not args.without_models:
                rows.append(_models_row(url))
    table = _table(args, nodes, groups, ideal, computed, rows)
    args.out.write_text(table + analysis_below(args.out), "utf-8")
    print(table)


def _models_row(url: str) -> tuple[str, float, str]:
    """ome-zarr-models 1.x reading the plate through zarr-python's fsspec HTTP store."""
    import ome_zarr_models.v05
    import zarr

    def models() -> object:
        group = zarr.open_group(url, mode="r")
        return ome_zarr_models.v05.HCS.from_zarr(group)

    try:
        seconds, _ = timed(models)
    except Exception as exc:  # noqa: BLE001  # a peer's refusal is a result too
        return ("ome-zarr-models HCS.from_zarr", float("nan"), type(exc).__name__)
    return ("ome-zarr-models HCS.from_zarr", seconds, "valid")


def analysis_below(out: Path) -> str:
    """What `out` says below the table (from its first `## ` heading on), kept as written:
    the reading of the figures is a person's, the figures are this run's."""
    if not out.exists():
        return ""
    text = out.read_text("utf-8")
    at = text.find("\n## ")
    return "" if at < 0 else text[at:]


def ideal_requests(url: str, keys: list[str]) -> float:
    """Seconds to ask for the root's listing, then for every metadata file with 64 requests in
    flight, through zomgen's HTTP client: no walk, no parsing, no check."""
    from zomgen_runtime.httpget import KeepAliveClient
    from zomgen_runtime.origins import RedirectPolicy

    client = KeepAliveClient(30.0, 64, RedirectPolicy(url))
    try:
        start = time.perf_counter()
        client.get([f"{url}/"], 1 << 20)
        client.get([f"{url}/{key}" for key in keys], 1 << 20)
        return time.perf_counter() - start
    finally:
        client.close()


def aiohttp_requests(url: str, keys: list[str]) -> float:
    """The same requests through aiohttp (64 connections), for comparison."""
    import asyncio

    import aiohttp

    async def every() -> None:
        connector = aiohttp.TCPConnector(limit=64)
        async with aiohttp.ClientSession(connector=connector) as session:

            async def one(address: str) -> bytes:
                async with session.get(address) as response:
                    return await response.read()

            await one(f"{url}/")
            await asyncio.gather(*(one(f"{url}/{key}") for key in keys))

    start = time.perf_counter()
    asyncio.run(every())
    return time.perf_counter() - start


def _is_group(path: Path) -> bool:
    return bool(json.loads(path.read_text("utf-8")).get("node_type") == "group")


def _table(
    args: argparse.Namespace,
    nodes: int,
    groups: int,
    ideal: float,
    computed: float,
    rows: list[tuple[str, float, str]],
) -> str:
    lines = [
        "# A big plate over HTTP (benchmarks/bench_plate.py)",
        "",
        (
            f"{args.rows} x {args.columns} wells, {FIELDS} fields per well, {LEVELS} levels per "
            f"field, written by ome-zarr-py (OME-Zarr 0.5): {nodes:,} nodes ({groups:,} "
            f"groups), not consolidated; served on localhost by Node with {LATENCY * 1000:.0f} ms "
            "per request, folders listed as HTML indexes. zomgen: median of "
            f"{args.repeat} runs (and the measured ideal); ome-zarr-models and aiohttp: one run."
        ),
        "",
        "| what | seconds | x ideal, measured | x ideal, computed | verdict |",
        "|---|---:|---:|---:|---|",
    ]
    for name, seconds, verdict in rows:
        lines.append(
            f"| {name} | {seconds:.2f} | {seconds / ideal:.2f} | {seconds / computed:.2f} "
            f"| {verdict} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
