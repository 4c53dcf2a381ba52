"""How long `zomgen validate` of a one-node store takes from a cold process, next to
`python -c pass` in the same run (issue 54: at most 100 ms of wall time).

Each command is started afresh `--repeat` times, the commands taking turns so that a busy
moment of the machine falls on all of them; the table gives each one's median wall time and
its time above `python -c pass`. They run as an installed zomgen does, with its modules'
byte code compiled, written by a first run that is not timed (processes.py's `compiled_env`). The stores are one node each, written by zarr-python:

- a v3 group that declares nothing (the catalog is read, nothing applies);
- an OME-Zarr 0.6rc0 image with one level (the catalog applies the image schema, bundled
  ahead of time: zomgen/catalog/bundles.py);
- the same with `--schema ome-ngff-06-image`, which compiles the schema (the compiler's
  import and a bundle: what a catalog check no longer pays).

    .venv/bin/python benchmarks/bench_startup.py [--repeat 15]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.processes import compiled_env

IMAGE: dict[str, Any] = {
    "version": "0.6rc0",
    "multiscales": [
        {
            "coordinateSystems": [
                {"name": "physical", "axes": [{"name": "y", "type": "space"}, {"name": "x", "type": "space"}]}
            ],
            "datasets": [
                {
                    "path": "0",
                    "coordinateTransformations": [
                        {
                            "type": "scale",
                            "scale": [1.0, 1.0],
                            "input": {"path": "0"},
                            "output": {"name": "physical"},
                        }
                    ],
                }
            ],
        }
    ],
}  # fmt: skip


def write_stores(work: Path) -> dict[str, Path]:
    import zarr

    plain = work / "plain.zarr"
    zarr.open_group(plain, mode="w", zarr_format=3)
    image = work / "image.zarr"
    root = zarr.open_group(image, mode="w", zarr_format=3)
    root.attrs["ome"] = IMAGE
    root.create_array("0", shape=(4, 4), dtype="uint8", dimension_names=["y", "x"])
    return {"plain": plain, "image": image}


def commands(stores: dict[str, Path]) -> dict[str, list[str]]:
    zomgen = [sys.executable, "-m", "zomgen", "validate"]
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "validate (a group declaring nothing)": [*zomgen, str(stores["plain"])],
        "validate (an OME-Zarr 0.6rc0 image)": [*zomgen, str(stores["image"])],
        "validate --schema ome-ngff-06-image": [
            *zomgen,
            str(stores["image"]),
            "--schema",
            "ome-ngff-06-image",
        ],
    }


def startup_times(repeat: int) -> dict[str, float]:
    """Median wall time of each command, started `repeat` times in turns."""
    with tempfile.TemporaryDirectory() as tmp:
        runs = commands(write_stores(Path(tmp)))
        env = compiled_env(Path(tmp) / "pycache")
        for argv in runs.values():  # the byte code written, not timed
            subprocess.run(argv, capture_output=True, check=False, cwd=ROOT, env=env)
        times: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(repeat):
            for name, argv in runs.items():
                start = time.perf_counter()
                subprocess.run(argv, capture_output=True, check=False, cwd=ROOT, env=env)
                times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def startup_table(medians: dict[str, float]) -> str:
    floor = medians["python -c pass"]
    lines = [
        "## `zomgen validate` from a cold process",
        "",
        "| command | wall time (median) | above `python -c pass` |",
        "|---|---|---|",
    ]
    for name, seconds in medians.items():
        above = "" if name == "python -c pass" else f"{(seconds - floor) * 1000:.0f} ms"
        lines.append(f"| `{name}` | {seconds * 1000:.0f} ms | {above} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    sys.stdout.write(startup_table(startup_times(args.repeat)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
