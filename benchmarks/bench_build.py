"""Build time: `zomgen build` next to `datamodel-codegen` on the same attribute schemas.

Two inputs, each timed as a user runs it (the command line in a fresh process, imports
included; median of --repeat):

- `geozarr`: the largest bundled convention (schemas/geozarr-dataset: multiscales, geo-proj with
  PROJJSON, spatial). zomgen builds the convention; datamodel-codegen gets the folder of its
  attribute schemas (the convention's own `schema.json` left out: it is over the ZOM tree, whose
  `urn:zom:` references datamodel-codegen cannot resolve), with PROJJSON's URL pointed at the
  vendored file so that it reads nothing from the network.
- `defs-500`: a synthetic attribute schema of 500 object definitions (strings, integers,
  numbers, enums, lists, and each definition referring to the next), under a one-group
  convention for zomgen, alone for datamodel-codegen.

zomgen writes more than datamodel-codegen (TypedDicts, dataclasses, converters, TypeScript types
and validate.ts, the run time) and formats it with ruff; datamodel-codegen writes pydantic
models and formats them with black and isort. The ratio is zomgen / datamodel-codegen.

Run: .venv/bin/python benchmarks/bench_build.py [--repeat 3] [--defs 500]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PROJJSON_URL = "https://proj.org/schemas/v0.7/projjson.schema.json"
ATTRIBUTES_ID = "https://zomgen.example/benchmarks/attributes.json"


def synthetic_attributes(count: int) -> dict[str, Any]:
    """An attribute schema of `count` object definitions, each referring to the next."""
    defs: dict[str, Any] = {}
    for i in range(count):
        properties: dict[str, Any] = {
            "name": {"type": "string"},
            "count": {"type": "integer", "minimum": 0},
            "ratio": {"type": "number"},
            "kind": {"enum": ["a", "b", f"k{i}"]},
            "tags": {"type": "array", "items": {"type": "string"}},
        }
        if i + 1 < count:
            properties["next"] = {"$ref": f"#/$defs/Def{i + 1}"}
        defs[f"Def{i}"] = {
            "type": "object",
            "properties": properties,
            "required": ["name", "count"],
            "additionalProperties": False,
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": ATTRIBUTES_ID,
        "title": "Attributes",
        "type": "object",
        "properties": {f"d{i}": {"$ref": f"#/$defs/Def{i}"} for i in range(count)},
        "$defs": defs,
    }


def synthetic_convention() -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://zomgen.example/benchmarks/schema.json",
        "title": "BenchGroup",
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "properties": {"attributes": {"$ref": ATTRIBUTES_ID}},
    }


def write_json(path: Path, value: object) -> None:
    path.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")


def prepare(work: Path, defs: int) -> dict[str, tuple[Path, Path]]:
    """name -> (zomgen convention schema, datamodel-codegen input)."""
    geozarr = work / "geozarr"
    shutil.copytree(ROOT / "schemas" / "geozarr-dataset", geozarr)
    attributes = work / "geozarr-attributes"
    attributes.mkdir()
    for path in sorted(geozarr.glob("*.schema.json")):
        text = path.read_text(encoding="utf-8").replace(PROJJSON_URL, "projjson.schema.json")
        (attributes / path.name).write_text(text, encoding="utf-8")
    synthetic = work / f"defs-{defs}"
    synthetic.mkdir()
    write_json(synthetic / "schema.json", synthetic_convention())
    write_json(synthetic / "attributes.json", synthetic_attributes(defs))
    return {
        "geozarr": (geozarr / "schema.json", attributes),
        f"defs-{defs}": (synthetic / "schema.json", synthetic / "attributes.json"),
    }


def timed(command: Sequence[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--defs", type=int, default=500, help="definitions in the synthetic one")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, (schema, attributes) in prepare(work, args.defs).items():
            out = work / "out" / name
            zomgen = [str(BIN / "zomgen"), "build", str(schema), "-o", str(out / "pkg")]
            codegen = [
                str(BIN / "datamodel-codegen"),
                "--input",
                str(attributes),
                "--input-file-type",
                "jsonschema",
                "--output",
                str(out / ("models" if attributes.is_dir() else "models.py")),
            ]
            zomgen_s = timed(zomgen, args.repeat)
            codegen_s = timed(codegen, args.repeat)
            rows.append((name, zomgen_s, codegen_s))
            print(
                f"{name}: zomgen {zomgen_s:.2f} s, datamodel-codegen {codegen_s:.2f} s", flush=True
            )
    print("\n| schema | zomgen build | datamodel-codegen | zomgen / datamodel-codegen |")
    print("|---|---|---|---|")
    for name, zomgen_s, codegen_s in rows:
        print(f"| {name} | {zomgen_s:.2f} s | {codegen_s:.2f} s | {zomgen_s / codegen_s:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
