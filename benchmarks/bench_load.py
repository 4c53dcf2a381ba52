"""How long loading a store's metadata takes, next to the floor (facts.md, "Loading metadata:
where the time goes").

Builds one store per Zarr version on local disk: a root group with N tiny arrays spread over
sqrt(N) subgroups (metadata only, no chunks; the arrays' metadata is what zarr-python writes for
an xarray variable). Then times, page cache warm, median of --repeat runs:

- floor:      os.scandir walk + json.loads of every metadata file;
- read:       zomgen's read_document (the ZOM document, no checks);
- read+check: read_document + check_document against the bundled xarray convention
              (jsonschema-rs with the x-zomgen-ndim-length keyword on every array);
- zarr:       zarr.open_group(...).members(max_depth=None) (once, it is slow).

Run: .venv/bin/python benchmarks/bench_load.py [-n 10000] [--repeat 5] [--zarr-repeat 1]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from zomgen_runtime import check_document, read_document

from zomgen.schema.bundle import bundle
from zomgen.schema.registry import load_schema_set

V3_ARRAY: dict[str, Any] = {
    "shape": [10, 20],
    "data_type": "float64",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [10, 20]}},
    "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
    "fill_value": "NaN",
    "codecs": [
        {"name": "bytes", "configuration": {"endian": "little"}},
        {"name": "zstd", "configuration": {"level": 0, "checksum": False}},
    ],
    "attributes": {"units": "m", "long_name": "a variable"},
    "dimension_names": ["y", "x"],
    "zarr_format": 3,
    "node_type": "array",
    "storage_transformers": [],
}
V2_ARRAY: dict[str, Any] = {
    "shape": [10, 20],
    "chunks": [10, 20],
    "dtype": "<f8",
    "fill_value": "NaN",
    "order": "C",
    "filters": None,
    "dimension_separator": ".",
    "compressor": {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0},
    "zarr_format": 2,
}
V2_ATTRS = {"units": "m", "long_name": "a variable", "_ARRAY_DIMENSIONS": ["y", "x"]}


def _dump(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")


def build(root: Path, version: int, n: int) -> None:
    """Root group, ceil(sqrt(n)) subgroups, n arrays spread over them (each subgroup an
    xarray-like dataset, so the convention's root is checked once per subgroup)."""
    groups = max(1, math.isqrt(n))
    root.mkdir(parents=True)
    group_meta: dict[str, Any] = (
        {"zarr_format": 3, "node_type": "group", "attributes": {}}
        if version == 3
        else {"zarr_format": 2}
    )
    _dump(root / ("zarr.json" if version == 3 else ".zgroup"), group_meta)
    for g in range(groups):
        folder = root / f"g{g}"
        folder.mkdir()
        _dump(folder / ("zarr.json" if version == 3 else ".zgroup"), group_meta)
    for i in range(n):
        folder = root / f"g{i % groups}" / f"v{i}"
        folder.mkdir()
        if version == 3:
            _dump(folder / "zarr.json", V3_ARRAY)
        else:
            _dump(folder / ".zarray", V2_ARRAY)
            _dump(folder / ".zattrs", V2_ATTRS)


NAMES = frozenset(("zarr.json", ".zarray", ".zgroup", ".zattrs"))


def floor(root: str) -> int:
    """scandir walk + json.loads of every metadata file."""
    count = 0
    stack = [root]
    while stack:
        folder = stack.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir():
                    stack.append(entry.path)
                elif entry.name in NAMES:
                    with open(entry.path, "rb") as f:
                        json.loads(f.read())
                    count += 1
    return count


def convention(version: int) -> dict[str, Any]:
    """The xarray convention for one subgroup, applied to every subgroup of the root."""
    path = ROOT / "schemas" / f"xarray-v{version}" / "schema.json"
    dataset: dict[str, Any] = dict(bundle(load_schema_set(path, [])))
    # A root whose members are xarray datasets: wrap the bundled dataset schema.
    wrapped = dict(dataset)
    wrapped["properties"] = {"members": {"additionalProperties": {"$ref": "#/$defs/Dataset"}}}
    wrapped["$defs"] = dict(dataset["$defs"])
    wrapped["$defs"]["Dataset"] = {
        k: v for k, v in dataset.items() if k not in ("$defs", "$schema", "$id")
    }
    return wrapped


def median_time(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("-n", type=int, default=10_000, help="number of arrays")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--zarr-repeat", type=int, default=1, help="0 skips zarr")
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for version in (2, 3):
            store = Path(tmp) / f"v{version}.zarr"
            build(store, version, args.n)
            schema = convention(version)
            path = str(store)
            floor(path)  # warm the page cache

            def read(p: str = path) -> object:
                document, problems = read_document(p)
                assert document is not None and not problems, problems
                return document

            def read_check(p: str = path, s: dict[str, Any] = schema) -> object:
                document, problems = read_document(p)
                assert document is not None and not problems
                found = check_document(document, s)
                assert not found, found[:3]
                return document

            read_check()  # compile the validators once, as a package does on first use
            t_floor = median_time(partial(floor, path), args.repeat)
            t_read = median_time(read, args.repeat)
            t_check = median_time(read_check, args.repeat)
            t_zarr = float("nan")
            if args.zarr_repeat:
                import zarr

                def members(p: str = path) -> object:
                    return list(zarr.open_group(p, mode="r").members(max_depth=None))

                t_zarr = median_time(members, args.zarr_repeat)
            rows.append((version, t_floor, t_read, t_check, t_zarr))

    nodes = args.n + max(1, math.isqrt(args.n)) + 1
    print(f"{nodes} nodes ({args.n} arrays), local disk, median of {args.repeat}")
    print(f"{'':>4} {'floor':>9} {'read':>16} {'read+check':>16} {'zarr members':>18}")
    for version, t_floor, t_read, t_check, t_zarr in rows:
        print(
            f"v{version:<3} {t_floor:8.3f}s "
            f"{t_read:8.3f}s {t_read / t_floor:5.2f}x "
            f"{t_check:8.3f}s {t_check / t_floor:5.2f}x "
            f"{t_zarr:8.3f}s {t_zarr / t_floor:6.1f}x"
        )


if __name__ == "__main__":
    main()
