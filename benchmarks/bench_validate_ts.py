"""How long validate.ts takes to check a whole ZOM document, next to the floor and to Python.

Builds the bundled xarray-v3 package, compiles its TypeScript with the project's tsc, and checks
one document of N variables (what xarray writes, `dimension_names` checked by the
x-zomgen-ndim-length keyword on every array): valid, and with one variable broken. Side by side,
in one run, medians of --repeat:

- floor:            JSON.parse of the document's text in Node (an app must at least parse it);
- is<Root>:         validate.ts's verdict (Ajv stops at the first failure);
- validate:         validate.ts, every problem (for the broken document: the detailed engine);
- Python:           zomgen's check_document on the same document (jsonschema-rs verdict; the
                    broken one also gets python-jsonschema's detail).

Ratios are to the Node floor; timings are for comparison within the run only (shared, noisy
machines). Run: .venv/bin/python benchmarks/bench_validate_ts.py [-n 10000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from zomgen_runtime import check_document

from zomgen.pipeline import Options, generate
from zomgen.write import write_package

VARIABLE: dict[str, Any] = {
    "zarr_format": 3,
    "node_type": "array",
    "shape": [10, 20],
    "data_type": "float64",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [10, 20]}},
    "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
    "fill_value": "NaN",
    "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
    "attributes": {"units": "m", "long_name": "a variable"},
    "dimension_names": ["y", "x"],
}


def document(n: int, broken: bool) -> dict[str, Any]:
    members = {f"v{i}": copy.deepcopy(VARIABLE) for i in range(n)}
    if broken:
        members[f"v{n // 2}"]["dimension_names"] = ["y"]  # one name for two dimensions
    return {"zarr_format": 3, "node_type": "group", "attributes": {}, "members": members}


def compiled_package(work: Path) -> Path:
    schema = ROOT / "schemas" / "xarray-v3" / "schema.json"
    write_package(generate(Options(schema, (), "xarray_v3")), work / "xarray_v3")
    (work / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    config = {
        "extends": (ROOT / "tsconfig.json").as_posix(),
        "compilerOptions": {"noEmit": False, "outDir": "out", "rootDir": "."},
        "include": ["xarray_v3/*.ts", "xarray_v3/_runtime_ts/*.ts"],
    }
    (work / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    tsc = ROOT / "node_modules" / ".bin" / "tsc"
    subprocess.run([str(tsc), "-p", "tsconfig.json"], cwd=work, check=True)
    (work / "out" / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    return work / "out" / "xarray_v3" / "validate.js"


def python_ms(doc: dict[str, Any], schema: dict[str, Any], repeat: int) -> tuple[float, int]:
    check_document(doc, schema)  # compile the validators once, as Node's first call does
    times, found = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        found = len(check_document(doc, schema))
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=10_000, help="variables in the document")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        validate_js = compiled_package(Path(folder))
        schema = json.loads((validate_js.parents[2] / "xarray_v3" / "schema.json").read_text())
        print(f"{args.n} variables, median of {args.repeat}; ratios to Node's JSON.parse floor")
        print(f"{'document':<8} {'floor':>9} {'is<Root>':>16} {'validate':>16} {'Python':>16}")
        for broken in (False, True):
            doc = document(args.n, broken)
            payload = json.dumps({"text": json.dumps(doc), "repeat": args.repeat})
            run = subprocess.run(
                ["node", str(ROOT / "benchmarks" / "bench_validate_ts.mjs"), str(validate_js)],
                input=payload,
                capture_output=True,
                text=True,
                check=True,
            )
            ts = json.loads(run.stdout)
            py, py_count = python_ms(doc, schema, args.repeat)
            assert ts["valid"] is not broken and (ts["count"] > 0) is broken == (py_count > 0)
            floor = ts["parse"]

            def cell(ms: float, floor: float = floor) -> str:
                return f"{ms:8.1f} ms {ms / floor:4.1f}x"

            label = "broken" if broken else "valid"
            print(
                f"{label:<8} {floor:6.1f} ms {cell(ts['verdict'])} {cell(ts['problems'])}"
                f" {cell(py)}"
            )
        print(f"first call (Ajv compiles the schema): {ts['compile']:.1f} ms")


if __name__ == "__main__":
    main()
