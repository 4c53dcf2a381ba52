"""The benchmark suite (issue 11): what users call, as ratios to the floor, in one run.

Stores: a root group holding N arrays (an xarray dataset: each array has `dimension_names` in
v3, `_ARRAY_DIMENSIONS` in v2, and a small attribute object). One array and the group are
written by zarr-python; their metadata files are then copied for the other N - 1 arrays (writing
100,000 arrays through zarr-python would take most of an hour and give the same bytes), and
zarr-python consolidates the consolidated variants. Each store is measured where it lives:

- `local`: a folder on disk (page cache warm), consolidated or not;
- `zip`: the same files in a zip file (stored);
- `memory`: a zarr `MemoryStore` (zomgen reads it through zarr's store API);
- `latency`: the memory store behind a wrapper that answers every request after 20 ms (only
  with --latency: it takes seconds per store);
- `http`: the local folder served over HTTP on localhost by benchmarks/slow_http.py in its own
  process, every request answered after 20 ms, folders listed as HTML indexes (only with
  --latency).

Measured (median of --repeat runs, imports excluded):

- floor: every metadata file read and `json.loads`-ed (local: an `os.scandir` walk; zip: each
  entry; memory: each value); for `latency` the ideal, one listing then every read 64 at a
  time, or, consolidated, one request plus the memory floor; for `http` the same;
- zomgen `validate(store)`, `load(store)` through a freshly built package of the bundled
  xarray convention, and its peak memory (tracemalloc); consolidated stores with
  `check_consolidated=False`, the one request consolidation buys (by default the nodes' own
  files are read too, to compare: the not-consolidated cost and more);
- `parse(document)` (check + convert) of the document as `json.loads` gives it, and of the
  one `dump(model)` returned, `dump(model)`, and the conversion alone
  (`_convert.parse_<Root>`);
- `import <package>` in a fresh process (`python -X importtime`, cumulative);
- zarr-python `open_group(...).members(max_depth=None)` and pydantic-zarr
  `GroupSpec.from_zarr` (if installed), once each (they are slow; --skip-zarr leaves them out).

Writes a Markdown table of ratios to docs/benchmarks.md and a log-log plot of time against N
(one line per tool) to docs/benchmarks.png (matplotlib), or to --out.

Run: .venv/bin/python benchmarks/suite.py [-n 1000 10000 100000] [--repeat 5] [--latency]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import warnings
import zipfile
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.processes import compiled_env

METADATA = frozenset(("zarr.json", ".zarray", ".zgroup", ".zattrs", ".zmetadata"))
LATENCY = 0.02


@dataclass
class Row:
    version: int
    n: int
    kind: str  # local, zip, memory, latency, http
    consolidated: bool
    times: dict[str, float] = field(default_factory=dict)  # tool -> seconds
    peak_mb: float = float("nan")  # peak memory of load

    def ratio(self, tool: str) -> float:
        return self.times.get(tool, float("nan")) / self.times["floor"]


# --- stores -----------------------------------------------------------------------------------


def write_store(folder: Path, version: int, n: int, consolidated: bool) -> None:
    """Root group + N arrays, metadata as zarr-python writes it (see the module docstring)."""
    import zarr

    warnings.filterwarnings("ignore", category=UserWarning)  # consolidated v3 is not in the spec
    group = zarr.open_group(str(folder), mode="w", zarr_format=version)  # type: ignore[arg-type]
    group.attrs.update({"title": "benchmark"})
    attrs: dict[str, Any] = {"units": "m", "long_name": "a variable"}
    if version == 2:
        attrs["_ARRAY_DIMENSIONS"] = ["y", "x"]
        group.create_array("v0", shape=(10, 20), chunks=(10, 20), dtype="f8", attributes=attrs)
    else:
        group.create_array(
            "v0",
            shape=(10, 20),
            chunks=(10, 20),
            dtype="f8",
            attributes=attrs,
            dimension_names=["y", "x"],
        )
    first = folder / "v0"
    for i in range(1, n):
        shutil.copytree(first, folder / f"v{i}")
    if consolidated:
        zarr.consolidate_metadata(str(folder))


def with_one_fault(folder: Path, version: int, n: int) -> Path:
    """A copy of the store at `folder` whose middle array lost its dimension names (the one
    thing the xarray convention asks of a variable): one fault among N arrays."""
    broken = folder.with_name(folder.name + "-one-fault")
    if not broken.exists():
        shutil.copytree(folder, broken)
        middle = broken / f"v{n // 2}"
        file, key = (
            (middle / "zarr.json", "dimension_names")
            if version == 3
            else (
                middle / ".zattrs",
                "_ARRAY_DIMENSIONS",
            )
        )
        metadata = json.loads(file.read_text("utf-8"))
        del metadata[key]
        file.write_text(json.dumps(metadata), "utf-8")
    return broken


def zip_store(folder: Path, target: Path) -> None:
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())


def memory_store(folder: Path) -> Any:
    import zarr.storage

    data = {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }
    from zarr.core.buffer import default_buffer_prototype

    proto = default_buffer_prototype()
    return zarr.storage.MemoryStore({k: proto.buffer.from_bytes(v) for k, v in data.items()})


def latency_store(memory: Any) -> Any:
    import zarr.storage

    class SlowStore(zarr.storage.WrapperStore[Any]):
        """Every request answered after 20 ms (the latency test store of the runtime tests)."""

        async def get(self, key: str, prototype: Any, byte_range: Any = None) -> Any:
            await asyncio.sleep(LATENCY)
            return await self._store.get(key, prototype, byte_range)

        async def exists(self, key: str) -> bool:
            await asyncio.sleep(LATENCY)
            return bool(await self._store.exists(key))

        async def list_dir(self, prefix: str) -> AsyncIterator[str]:
            await asyncio.sleep(LATENCY)
            async for name in self._store.list_dir(prefix):
                yield name

    return SlowStore(memory)


@contextlib.contextmanager
def http_server(
    folder: Path, server: str = "python", indexes: bool = True
) -> Iterator[tuple[str, int]]:
    """The folder served on localhost in its own process, 20 ms per request, folders listed as
    HTML indexes; yields its URL and process id. `server`: "python" is benchmarks/slow_http.py
    (Python's http.server, one GIL for its 64 threads), "node" is benchmarks/static_server.mjs,
    which spends a fraction of that CPU on the same requests (on 2 cores, the server's CPU is
    taken from the measured run). `indexes=False` (Node only): every folder answers 404."""
    command = {
        "python": [sys.executable, str(ROOT / "benchmarks" / "slow_http.py"), str(folder)],
        "node": [
            "node",
            str(ROOT / "benchmarks" / "static_server.mjs"),
            str(folder),
            "--latency",
            str(LATENCY),
            *([] if indexes else ["--no-indexes"]),
        ],
    }[server]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline().strip()
        yield (first if "://" in first else f"http://127.0.0.1:{first}"), process.pid
    finally:
        process.terminate()
        process.wait(timeout=10)


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used; NaN where /proc cannot tell."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --- floors -----------------------------------------------------------------------------------


def floor_local(root: str) -> int:
    count = 0
    stack = [root]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.is_dir():
                    stack.append(entry.path)
                elif entry.name in METADATA:
                    with open(entry.path, "rb") as f:
                        json.loads(f.read())
                    count += 1
    return count


def floor_zip(path: str) -> int:
    count = 0
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if name.rsplit("/", 1)[-1] in METADATA:
                json.loads(archive.read(name))
                count += 1
    return count


def floor_memory(store: Any) -> int:
    count = 0
    for key, value in store._store_dict.items():
        if key.rsplit("/", 1)[-1] in METADATA:
            json.loads(value.to_bytes())
            count += 1
    return count


def ideal_latency(files: int, in_flight: int = 64) -> float:
    """One listing, then every metadata read with `in_flight` requests at a time."""
    return LATENCY * (1 + -(-files // in_flight))


# --- timing -----------------------------------------------------------------------------------


def median_time(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def build_package(folder: Path, version: int) -> ModuleType:
    name = f"bench_xarray_v{version}"
    schema = ROOT / "schemas" / f"xarray-v{version}" / "schema.json"
    subprocess.run(
        [sys.executable, "-m", "zomgen", "build", str(schema), "-o", str(folder / name)],
        check=True,
        capture_output=True,
    )
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    return importlib.import_module(name)


def import_ms(folder: Path, name: str, repeat: int) -> float:
    """`import <name>` in a fresh process, byte code compiled (`compiled_env`): cumulative
    microseconds of -X importtime, in s."""
    times = []
    argv = [sys.executable, "-X", "importtime", "-c", f"import {name}"]
    env = compiled_env(folder / "__pycache_prefix__")
    subprocess.run(argv, cwd=folder, capture_output=True, check=True, env=env)  # compiles
    for _ in range(repeat):
        result = subprocess.run(
            argv, cwd=folder, capture_output=True, text=True, check=True, env=env
        )
        line = next(x for x in result.stderr.splitlines() if x.rstrip().endswith(f"| {name}"))
        times.append(int(line.split("|")[1]) / 1e6)
    return statistics.median(times)


def _paused(convert: Callable[[Any], object], document: Any) -> object:
    from zomgen_runtime.collector import CollectorPaused

    with CollectorPaused():
        return convert(document)


def peak_mb(fn: Callable[[], object]) -> float:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def measure(
    pkg: ModuleType,
    row: Row,
    store: Any,
    floor: Callable[[], object] | float,
    args: argparse.Namespace,
) -> None:
    """`floor`: what reading every metadata file costs at least, timed (a function) or known
    (seconds: the ideal of a store with latency)."""
    import zarr

    if callable(floor):
        floor()  # warm the page cache
    # Consolidated metadata is measured trusted, the one request it buys: by default a package
    # also reads every node's own files to compare (the not-consolidated rows' cost, and more).
    options = {"check_consolidated": False} if row.consolidated else {}
    pkg.load(store, **options)  # and the validators, as a package compiles them on first use
    repeat = 1 if row.kind in ("latency", "http") else args.repeat
    row.times["floor"] = median_time(floor, repeat) if callable(floor) else floor
    row.times["validate"] = median_time(lambda: pkg.validate(store, **options), repeat)
    row.times["load"] = median_time(lambda: pkg.load(store, **options), repeat)
    row.peak_mb = peak_mb(lambda: pkg.load(store, **options))
    if row.kind == "local" and not row.consolidated:
        # One fault: describing it must cost about what finding it does (issue 20).
        broken = str(with_one_fault(Path(store), row.version, row.n))
        row.times["validate one fault"] = median_time(lambda: pkg.validate(broken), repeat)
        model = pkg.load(store)
        dumped = pkg.dump(model)
        # The same document as `json.loads` gives it, each object made beside its neighbours.
        # What `dump` returns holds the same values laid out otherwise (its strings and numbers
        # are the model's, made when the store was read), and checking and converting it took
        # 1.2x-1.6x as long on 10,000 v3 arrays.
        document = json.loads(json.dumps(dumped))
        row.times["parse"] = median_time(lambda: pkg.parse(document), repeat)
        row.times["parse dumped"] = median_time(lambda: pkg.parse(dumped), repeat)
        # The conversion alone, as parse runs it after the checks (the collector paused).
        convert = getattr(pkg._convert, f"parse_{type(model).__name__}")
        row.times["convert"] = median_time(lambda: _paused(convert, document), repeat)
        row.times["dump"] = median_time(lambda: pkg.dump(model), repeat)
    peers = not args.skip_zarr and row.n <= args.peers_up_to
    if peers and row.kind not in ("latency", "http"):
        zarr_store = store if not isinstance(store, str) or not store.endswith(".zip") else None
        if zarr_store is None:
            zarr_store = zarr.storage.ZipStore(store, mode="r")
        row.times["zarr"] = median_time(
            lambda: list(zarr.open_group(zarr_store, mode="r").members(max_depth=None)), 1
        )
        try:
            from pydantic_zarr.v2 import GroupSpec as GroupSpecV2
            from pydantic_zarr.v3 import GroupSpec as GroupSpecV3
        except ImportError:
            pass
        else:
            spec = GroupSpecV3 if row.version == 3 else GroupSpecV2
            row.times["pydantic-zarr"] = median_time(
                lambda: spec.from_zarr(zarr.open_group(zarr_store, mode="r")), 1
            )


# --- report -----------------------------------------------------------------------------------

TOOLS = (
    "validate",
    "validate one fault",
    "load",
    "parse",
    "parse dumped",
    "convert",
    "dump",
    "zarr",
    "pydantic-zarr",
    "server CPU",
)


def table(rows: list[Row], imports: dict[int, float]) -> str:
    lines = [
        "| version | nodes | store | consolidated | floor | "
        + " | ".join(TOOLS)
        + " | load peak memory |",
        "|---|---|---|---|---|" + "---|" * len(TOOLS) + "---|",
    ]
    for r in rows:
        cells = [
            f"v{r.version}",
            f"{r.n + 1:,}",
            r.kind,
            "yes" if r.consolidated else "no",
            f"{r.times['floor']:.3f} s",
        ]
        for tool in TOOLS:
            cells.append("" if tool not in r.times else f"{r.ratio(tool):.2f}x")
        cells.append(f"{r.peak_mb:.1f} MB")
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    lines.extend(linearity(rows))
    lines.append(
        "Ratios are time / floor (the floor itself in seconds; for `latency` the ideal: one "
        "listing, then every read 64 in flight, or, consolidated, one request plus the memory "
        "floor; `http` has the same ideal; its `server CPU` is what the server process alone spent "
        "on one `load`). `parse` = check + convert of the document as `json.loads` gives it, "
        "`parse dumped` = the same on the document `dump` returned (equal values, laid out "
        "otherwise in memory), `convert` = the generated conversion alone. "
        + "; ".join(f"`import` v{v}: {t * 1000:.0f} ms" for v, t in sorted(imports.items()))
        + "."
    )
    return "\n".join(lines) + "\n"


def linearity(rows: list[Row]) -> list[str]:
    """How the `load` ratio grows from each N to the next (local folders): 1.00x is linear."""
    found = []
    for version in sorted({r.version for r in rows}):
        for consolidated in (False, True):
            chosen = sorted(
                (r.n, r.ratio("load"))
                for r in rows
                if (r.version, r.kind, r.consolidated) == (version, "local", consolidated)
            )
            steps = [
                f"{a:,} -> {b:,}: {rb / ra:.2f}x" for (a, ra), (b, rb) in itertools.pairwise(chosen)
            ]
            if steps:
                kind = "consolidated" if consolidated else "not consolidated"
                found.append(
                    f"- v{version} local, {kind}, `load` ratio from N to N: " + ", ".join(steps)
                )
    return [*found, ""] if found else []


def validate_ts_rows(work: Path, args: argparse.Namespace) -> list[tuple[int, dict[str, float]]]:
    """validate.ts under Node on the v3 document of each N (bench_validate_ts.py's document and
    runner): JSON.parse of its text (the floor), is<Root> and validate, in milliseconds."""
    if shutil.which("node") is None:
        print("validate.ts: not measured (no node on PATH)", flush=True)
        return []
    from bench_validate_ts import compiled_package, document

    validate_js = compiled_package(work / "node")
    found = []
    for n in args.n:
        payload = json.dumps({"text": json.dumps(document(n, False)), "repeat": args.repeat})
        run = subprocess.run(
            ["node", str(ROOT / "benchmarks" / "bench_validate_ts.mjs"), str(validate_js)],
            input=payload,
            capture_output=True,
            text=True,
            check=True,
        )
        found.append((n, json.loads(run.stdout)))
    return found


def validate_ts_table(rows: list[tuple[int, dict[str, float]]]) -> str:
    if not rows:
        return ""
    lines = [
        "",
        "validate.ts under Node on the v3 document (ratios to Node's `JSON.parse` of its text):",
        "",
        "| nodes | JSON.parse | is&lt;Root&gt; | validate |",
        "|---|---|---|---|",
    ]
    for n, ms in rows:
        floor = ms["parse"]
        lines.append(
            f"| {n + 1:,} | {floor:.1f} ms | {ms['verdict'] / floor:.2f}x "
            f"| {ms['problems'] / floor:.2f}x |"
        )
    return "\n".join(lines) + "\n"


def plot(rows: list[Row], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    versions = sorted({r.version for r in rows})
    fig, axes = plt.subplots(1, len(versions), figsize=(6 * len(versions), 4.5), squeeze=False)
    for ax, version in zip(axes[0], versions, strict=True):
        chosen = [r for r in rows if r.version == version and r.kind == "local"]
        chosen = [r for r in chosen if not r.consolidated]
        for tool in ("floor", *TOOLS):
            points = sorted((r.n + 1, r.times[tool]) for r in chosen if tool in r.times)
            if points:
                ax.plot(*zip(*points, strict=True), marker="o", label=tool)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("nodes")
        ax.set_ylabel("seconds")
        ax.set_title(f"Zarr v{version}, local folder, not consolidated")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def progress(rows: list[Row], version: int, n: int, consolidated: bool) -> None:
    """One line per store measured, as the suite goes (it takes minutes)."""
    found = [r for r in rows if (r.version, r.n, r.consolidated) == (version, n, consolidated)]
    loads = ", ".join(f"{r.kind} load {r.ratio('load'):.2f}x" for r in found)
    print(f"v{version} n={n} consolidated={consolidated}: {loads}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("-n", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--versions", type=int, nargs="+", default=[2, 3])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--latency", action="store_true", help="also the 20 ms store")
    parser.add_argument("--skip-zarr", action="store_true", help="no zarr / pydantic-zarr")
    parser.add_argument(
        "--latency-up-to",
        type=int,
        default=10_000,
        help="the latency and HTTP stores only up to this N (100,000 takes minutes per call)",
    )
    parser.add_argument(
        "--peers-up-to",
        type=int,
        default=10_000,
        help="measure zarr and pydantic-zarr only up to this N (they take minutes at 100,000)",
    )
    parser.add_argument(
        "--local-only",
        action="store_true",
        help="only the local folder (for 100,000 nodes: the zip and memory copies take minutes)",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="where to write")
    args = parser.parse_args(argv)

    rows: list[Row] = []
    imports: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for version in args.versions:
            pkg = build_package(work, version)
            imports[version] = import_ms(work, pkg.__name__, args.repeat)
            for n in args.n:
                for consolidated in (False, True):
                    folder = work / f"v{version}-{n}-{int(consolidated)}.zarr"
                    write_store(folder, version, n, consolidated)
                    local = Row(version, n, "local", consolidated)
                    measure(pkg, local, str(folder), lambda f=str(folder): floor_local(f), args)
                    rows.append(local)
                    if args.local_only:
                        shutil.rmtree(folder)
                        progress(rows, version, n, consolidated)
                        continue
                    archive = folder.with_suffix(".zip")
                    zip_store(folder, archive)
                    zipped = Row(version, n, "zip", consolidated)
                    measure(pkg, zipped, str(archive), lambda a=str(archive): floor_zip(a), args)
                    rows.append(zipped)
                    memory = memory_store(folder)
                    in_memory = Row(version, n, "memory", consolidated)
                    measure(pkg, in_memory, memory, lambda m=memory: floor_memory(m), args)
                    rows.append(in_memory)
                    with_latency = args.latency and n <= args.latency_up_to
                    if with_latency:
                        slow = Row(version, n, "latency", consolidated)
                        # unconsolidated: one listing, then every read 64 in flight; else one
                        # round of requests (the root's files, asked for together) and the
                        # json.loads of the in-memory floor
                        one_request = LATENCY + in_memory.times["floor"]
                        files = floor_local(str(folder))  # v2: .zarray and .zattrs per array
                        ideal = one_request if consolidated else ideal_latency(files)
                        measure(pkg, slow, latency_store(memory), ideal, args)
                        rows.append(slow)
                    if with_latency:
                        with http_server(folder) as (url, server_pid):
                            served = Row(version, n, "http", consolidated)
                            measure(pkg, served, url, ideal, args)
                            # what the server alone spends on one load: above the ideal, no
                            # reader can meet it on this machine
                            before = process_cpu(server_pid)
                            pkg.load(url, check_consolidated=not consolidated)
                            served.times["server CPU"] = process_cpu(server_pid) - before
                            rows.append(served)
                    shutil.rmtree(folder)
                    archive.unlink()
                    progress(rows, version, n, consolidated)
        with_node = 3 in args.versions and not args.local_only
        node_rows = validate_ts_rows(work, args) if with_node else []
    args.out.mkdir(parents=True, exist_ok=True)
    from bench_startup import startup_table, startup_times  # beside this file

    startup = startup_table(startup_times(args.repeat))  # the command, from a cold process
    text = table(rows, imports) + validate_ts_table(node_rows) + "\n" + startup
    (args.out / "benchmarks.md").write_text(
        "# Benchmarks\n\nWritten by `benchmarks/suite.py` (see benchmarks/README.md).\n\n" + text,
        encoding="utf-8",
    )
    plot(rows, args.out / "benchmarks.png")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
