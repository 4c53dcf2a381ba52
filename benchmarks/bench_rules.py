"""Rules in CEL (`x-zomgen-rules`) next to the relation keywords they can say, on the same
documents, in one run: the time a whole document's check takes with the bundled convention's
relation keyword, and with that keyword replaced by the same rule in CEL (issue 56, item 7).

- xarray: the bundled xarray-v3 convention on a group of N variables (bench_validate_ts.py's
  document), whose `x-zomgen-ndim-length: ["/dimension_names"]` on every variable becomes the
  rule `self.dimension_names.size() == self.shape.size()` on every variable, or one rule on the
  root over every member;
- plate: the bundled ome-ngff-05-plate convention on a plate ome-zarr-py wrote (16 x 24 wells,
  two fields, four levels by default), whose plate rules (`PlateRules`: every well is a group at
  its path, the path is its row's and column's names, the indices name a row and a column, the
  acquisitions are the plate's, names unique) become five rules in CEL.

For each, valid and with one fault: Python's `check_document` (jsonschema-rs's verdict; with the
fault, python-jsonschema's detail too), and the TypeScript run time's `Validator` under Node
(`isValid`, Ajv's verdict; `problems`). Medians of --repeat, after a first call that compiles.
Writes docs/benchmarks-rules.md (or --out; its sections below the table are kept) and prints
it.

Run: .venv/bin/python benchmarks/bench_rules.py [-n 1000 10000 100000] [--repeat 5]
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_plate import analysis_below, write_plate
from bench_validate_ts import document as xarray_document
from zomgen_runtime import check_document
from zomgen_runtime.api import check_hierarchy
from zomgen_runtime.rules import over_budget

from zomgen.pipeline import Options, generate_package

RULES = "x-zomgen-rules"
NDIM_RULE = "self.dimension_names.size() == self.shape.size()"
ROOT_NDIM_RULE = (
    "self.members.all(m, !('dimension_names' in self.members[m]) || "
    "self.members[m].dimension_names.size() == self.members[m].shape.size())"
)
_PLATE = "self.attributes.ome.plate"
PLATE_RULES = [
    # x-zomgen-member-kind: every well's path names a group two levels down
    (
        f"{_PLATE}.wells.all(w, cel.bind(p, w.path.split('/'), p.size() == 2"
        " && p[0] in self.members && 'members' in self.members[p[0]]"
        " && p[1] in self.members[p[0]].members && !('shape' in self.members[p[0]].members[p[1]])))"
    ),
    # x-zomgen-reaches and x-zomgen-equal: the indices name a row and a column, whose names
    # make the path
    (
        f"cel.bind(rows, {_PLATE}.rows, cel.bind(columns, {_PLATE}.columns, {_PLATE}.wells.all(w,"
        " w.rowIndex < rows.size() && w.columnIndex < columns.size()"
        " && w.path == rows[w.rowIndex].name + '/' + columns[w.columnIndex].name)))"
    ),
    # x-zomgen-in: every field's acquisition is one the plate lists
    (
        f"cel.bind(ids, ('acquisitions' in {_PLATE} ? {_PLATE}.acquisitions : []).map(a, a.id),"
        " self.members.all(r, !('members' in self.members[r]) || self.members[r].members.all(c,"
        " cel.bind(a, self.members[r].members[c].attributes, !('ome' in a && 'well' in a.ome)"
        " || a.ome.well.images.all(i, !('acquisition' in i) || i.acquisition in ids)))))"
    ),
    # x-zomgen-unique-by: row names, column names and acquisition ids
    (
        f"cel.bind(n, {_PLATE}.rows.map(r, r.name), n.all(x, n.filter(y, y == x).size() == 1))"
        f" && cel.bind(n, {_PLATE}.columns.map(c, c.name), n.all(x, n.filter(y, y == x).size() == 1))"
    ),
    (
        f"!('acquisitions' in {_PLATE}) || cel.bind(n, {_PLATE}.acquisitions.map(a, a.id),"
        " n.all(x, n.filter(y, y == x).size() == 1))"
    ),
]
RELATIONS = (
    "x-zomgen-member-kind",
    "x-zomgen-equal",
    "x-zomgen-reaches",
    "x-zomgen-in",
    "x-zomgen-unique-by",
)


def bundled(name: str) -> dict[str, Any]:
    files = generate_package(Options(ROOT / "schemas" / name / "schema.json", (), python=False))
    schema: dict[str, Any] = json.loads(files.files["schema.json"])
    return schema


def definition(schema: dict[str, Any], name: str) -> dict[str, Any]:
    """The bundled schema's definition `name` (by the end of its key: bundling may prefix it)."""
    found = [value for key, value in schema["$defs"].items() if key.split("/")[-1] == name]
    assert len(found) == 1, (name, sorted(schema["$defs"]))
    definition: dict[str, Any] = found[0]
    return definition


def xarray_variants() -> dict[str, dict[str, Any]]:
    relation = bundled("xarray-v3")
    assert definition(relation, "Variable")["x-zomgen-ndim-length"] == ["/dimension_names"]
    per_variable = copy.deepcopy(relation)
    variable = definition(per_variable, "Variable")
    del variable["x-zomgen-ndim-length"]
    variable[RULES] = [{"rule": NDIM_RULE}]
    at_root = copy.deepcopy(relation)
    del definition(at_root, "Variable")["x-zomgen-ndim-length"]
    at_root[RULES] = [{"rule": ROOT_NDIM_RULE}]
    return {
        "x-zomgen-ndim-length on each variable": relation,
        "the rule on each variable": per_variable,
        "one rule on the root": at_root,
    }


def plate_variants() -> dict[str, dict[str, Any]]:
    relation = bundled("ome-ngff-05-plate")
    rules = copy.deepcopy(relation)
    plate_rules = definition(rules, "PlateRules")
    assert set(RELATIONS) <= set(plate_rules), sorted(plate_rules)
    for keyword in RELATIONS:
        del plate_rules[keyword]
    plate_rules[RULES] = [{"rule": rule} for rule in PLATE_RULES]
    return {"PlateRules' five relation keywords": relation, "the same as five rules": rules}


def plate_documents(rows: int, columns: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The plate ome-zarr-py writes, and the same with one well at a path its indices do not
    make (a fault of the plate's own rules)."""
    import zarr

    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "plate.zarr"
        write_plate(store, rows, columns)
        valid = check_hierarchy(zarr.storage.LocalStore(store, read_only=True), {}).document
    broken = copy.deepcopy(valid)
    broken["attributes"]["ome"]["plate"]["wells"][1]["rowIndex"] = 1
    return valid, broken


def xarray_documents(n: int) -> tuple[dict[str, Any], dict[str, Any]]:
    return xarray_document(n, broken=False), xarray_document(n, broken=True)


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    fn()  # the first call compiles the schema (and the rules)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def node_ms(jobs: list[dict[str, Any]], repeat: int) -> list[dict[str, Any]]:
    """The TypeScript run time's times for each job ({schema, document}), from one Node."""
    payload = json.dumps({"jobs": jobs, "repeat": repeat})
    script = ROOT / "benchmarks" / "bench_rules.mjs"
    run = subprocess.run(
        ["node", str(script)], input=payload, capture_output=True, text=True, check=True
    )
    results: list[dict[str, Any]] = json.loads(run.stdout)
    return results


def measure(
    label: str,
    variants: dict[str, dict[str, Any]],
    documents: tuple[dict[str, Any], dict[str, Any]],
    repeat: int,
) -> list[str]:
    rows = []
    jobs = [
        {"schema": json.dumps(schema), "document": document}
        for schema in variants.values()
        for document in documents
    ]
    ts = iter(node_ms(jobs, repeat))
    baseline: dict[bool, tuple[float, float]] = {}
    for name, schema in variants.items():
        for broken, document in zip((False, True), documents, strict=True):
            problems = check_document(document, schema)
            unchecked = any(over_budget(p) for p in problems)
            found = [p for p in problems if not over_budget(p)]
            assert unchecked or bool(found) is broken, (label, name, broken, problems[:3])
            python = median_ms(lambda s=schema, d=document: check_document(d, s), repeat)
            node = next(ts)
            assert node["unchecked"] or (node["count"] > 0) is broken, (label, name, node)
            node_time = node["problems"] if broken else node["verdict"]
            first = baseline.setdefault(broken, (python, node_time))
            # past 10,000 steps a rule is not evaluated (not checked), in both run times
            note = " past the budget: not checked" if unchecked else ""
            node_note = " past the budget: not checked" if node["unchecked"] else ""
            rows.append(
                f"| {label} | {name} | {'one fault' if broken else 'valid'} "
                f"| {python:.1f} ms ({python / first[0]:.2f}x){note} "
                f"| {node_time:.1f} ms ({node_time / first[1]:.2f}x){node_note} |"
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--rows", type=int, default=16)
    parser.add_argument("--columns", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks-rules.md")
    args = parser.parse_args(argv)
    lines = [
        "# Rules in CEL next to the relation keywords (benchmarks/bench_rules.py)",
        "",
        (
            f"Medians of {args.repeat} runs on this machine, after a first call that compiles; "
            "the ratio is to the first row of the same document (the bundled convention's "
            "relation keywords). Python: `check_document` (valid: jsonschema-rs's verdict; one "
            "fault: python-jsonschema's detail too). TypeScript: `Validator.isValid` (valid) "
            "and `Validator.problems` (one fault) under Node."
        ),
        "",
        "| document | checked by | | Python | TypeScript |",
        "|---|---|---|---:|---:|",
    ]
    for n in args.n:
        lines += measure(
            f"xarray, {n:,} variables", xarray_variants(), xarray_documents(n), args.repeat
        )
    plate = plate_documents(args.rows, args.columns)
    wells = args.rows * args.columns
    lines += measure(f"plate, {wells} wells", plate_variants(), plate, args.repeat)
    text = "\n".join(lines) + "\n" + analysis_below(args.out)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
