"""Soundness on real material (issue 9, item 5): every valid example and valid suite case of the
shared corpus for OME-NGFF 0.4 and 0.5 and the zarr-conventions schemas, placed in a document of
a wrapper convention that references the official schema (tests/corpus_conventions/), is
accepted as a literal by all five checkers: mypy --strict, pyright strict, pyrefly, ty (the
`_examples/<package>.py` modules of tests/corpus/test_compile.py) and tsc (a TypeScript twin of each
literal, typed by the root type's `attributes`). A rejection fails unless it is a documented
language gap (docs/exact-types.md): an integral float (`1.0`) where Python types an `int`, or a
key a TypeScript object inherits (`toString`, `constructor`, ...). Counts are pinned per
convention, so a lost example is noticed.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from tests.support.checkers import (
    MYPY_AS_USERS_RUN_IT,
    pyrefly_diagnostics,
    run_pyrefly,
    run_ty,
    ty_diagnostics,
)
from tests.support.corpus_literals import (
    attributes_annotation,
    package_for_schema,
)
from tests.support.corpus_verdicts import corpus_cases, original_verdict
from tests.support.corpus_wrappers import ALL_WRAPPERS, WRAPPERS_TO_BUILD, includes_for
from tests.support.package_checks import build_many
from tests.support.paths import ROOT

pytestmark = [
    pytest.mark.slow,
    pytest.mark.checkers,
    pytest.mark.node,
    pytest.mark.corpus,
]

PYTHON = sys.executable
FAMILIES = ("ome_0_4__", "ome_0_5__", "conventions__")
INHERITED = (
    "constructor",
    "toString",
    "toLocaleString",
    "valueOf",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "__proto__",
)

# Valid corpus documents checked as literals, per wrapper convention.
EXPECTED_COUNTS: dict[str, int] = {
    "conventions__cf": 8,
    "conventions__dggs": 1,
    "conventions__experimental_geo_proj": 3,
    "conventions__geo_proj": 22,
    "conventions__license": 5,
    "conventions__missing_value": 1,
    "conventions__multiscales": 11,
    "conventions__nzug": 6,
    "conventions__ref": 3,
    "conventions__spatial": 15,
    "conventions__template": 3,
    "conventions__uom": 3,
    "ome_0_4__bf2raw": 2,
    "ome_0_4__image": 6,
    "ome_0_4__label": 2,
    "ome_0_4__ome": 1,
    "ome_0_4__plate": 3,
    "ome_0_4__strict_image": 7,
    "ome_0_4__strict_label": 1,
    "ome_0_4__strict_plate": 4,
    "ome_0_4__strict_well": 4,
    "ome_0_4__well": 2,
    "ome_0_5__bf2raw": 2,
    "ome_0_5__image": 5,
    "ome_0_5__label": 2,
    "ome_0_5__ome": 1,
    "ome_0_5__plate": 4,
    "ome_0_5__strict_image": 7,
    "ome_0_5__strict_label": 1,
    "ome_0_5__strict_plate": 4,
    "ome_0_5__strict_well": 4,
    "ome_0_5__well": 2,
}

# Valid documents mypy rejects: none. (Its view of objects that allow other keys was once a dict
# of the values' types, and a nested list literal under a union of several list types was
# inferred without context; the view is now `dict[str, Any]`, docs/exact-types.md.)
MYPY_KNOWN: set[str] = set()


def _wanted(name: str) -> bool:
    return name.startswith(FAMILIES) and name in WRAPPERS_TO_BUILD


def _examples() -> dict[str, list[tuple[str, bool, Any]]]:
    """package -> (label, array member, attributes) of every schema-valid corpus document."""
    found: dict[str, list[tuple[str, bool, Any]]] = defaultdict(list)
    for case in corpus_cases():
        if original_verdict(case) is not True:
            continue
        name = package_for_schema(case.schema)
        if name is None or not _wanted(name):
            continue
        doc = case.instance
        is_node = isinstance(doc, dict) and "attributes" in doc and "zarr_format" in doc
        array = is_node and doc.get("node_type") == "array"
        found[name].append((case.label, array, doc["attributes"] if is_node else doc))
    return found


def _integral_float(value: Any) -> bool:
    if isinstance(value, float):
        return value.is_integer()
    if isinstance(value, dict):
        return any(_integral_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_integral_float(v) for v in value)
    return False


def _ts_type(package: Path, array: bool) -> str | None:
    title = json.loads(ALL_WRAPPERS[package.name].read_text("utf-8"))["title"]
    if f"export type {title} " not in (package / "types.ts").read_text("utf-8"):
        return None
    if not array or not _has_members(package, title):
        return f't.{title}["attributes"]'
    member = f'NonNullable<t.{title}["members"][string]>'
    return f'Extract<{member}, {{ readonly node_type: "array" }}>["attributes"]'


def _has_members(package: Path, title: str) -> bool:
    """Whether the root TypedDict has `members` (else an array document is the root itself,
    as `attributes_annotation` of tests/support/corpus_literals.py reads it)."""
    tree = ast.parse((package / "documents.py").read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == title:
            return any(
                isinstance(item, ast.AnnAssign) and getattr(item.target, "id", None) == "members"
                for item in node.body
            )
    return False


@pytest.fixture(scope="module")
def soundness(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("soundness")
    examples = _examples()
    jobs = {n: (ALL_WRAPPERS[n], includes_for(ALL_WRAPPERS[n])) for n in examples}
    builds = build_many(jobs, folder)
    built = sorted(n for n, r in builds.items() if r.returncode == 0)
    (folder / "_examples").mkdir()
    # (file, line) -> (package, label, whether Python's int may reject an integral float)
    lines: dict[tuple[str, int], tuple[str, str, bool]] = {}
    counts: dict[str, int] = {}
    for name in built:
        py = [f"from {name} import documents", ""]
        ts = [f'import type * as t from "../{name}/types.js";', ""]
        for i, (label, array, attributes) in enumerate(examples[name]):
            annotation = attributes_annotation(folder / name, array_member=array)
            ts_type = _ts_type(folder / name, array)
            if annotation is None or ts_type is None:
                continue
            gap = _integral_float(attributes)
            py.append(f"example_{i}: {annotation} = {attributes!r}")
            lines[(f"_examples/{name}.py", len(py))] = (name, label, gap)
            literal = json.dumps(attributes, ensure_ascii=False)
            ts.append(f"export const example_{i}: {ts_type} = {literal};")
            lines[(f"_examples/{name}.ts", len(ts))] = (name, label, False)
            counts[name] = counts.get(name, 0) + 1
        (folder / "_examples" / f"{name}.py").write_text("\n".join(py) + "\n", "utf-8")
        (folder / "_examples" / f"{name}.ts").write_text("\n".join(ts) + "\n", "utf-8")
    return {
        "folder": folder,
        "built": built,
        "failed": {n: r.stderr for n, r in builds.items() if r.returncode != 0},
        "lines": lines,
        "counts": counts,
        "findings": _check(folder, sorted(counts)),
    }


def _check(folder: Path, packages: list[str]) -> dict[str, list[tuple[str, int, str]]]:
    """(file, line, message) of every error each checker reports on the example files."""
    files = [f"_examples/{name}.py" for name in packages]
    found: dict[str, list[tuple[str, int, str]]] = {}
    mypy = subprocess.run(
        [
            PYTHON,
            "-m",
            "mypy",
            "--strict",
            *MYPY_AS_USERS_RUN_IT,
            "--no-incremental",
            "--follow-imports=silent",
            *files,
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    found["mypy"] = [
        (m[1], int(m[2]), m[3])
        for m in re.finditer(r"^(_examples/[^:]+):(\d+): error: (.*)$", mypy.stdout, re.MULTILINE)
    ]
    (folder / "pyrightconfig.json").write_text(
        json.dumps({"typeCheckingMode": "strict", "pythonVersion": "3.11"}), encoding="utf-8"
    )
    pyright = subprocess.run(
        [PYTHON, "-m", "pyright", "--pythonpath", PYTHON, "--outputjson", *files],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    found["pyright"] = [
        (
            Path(d["file"]).relative_to(folder).as_posix(),
            d["range"]["start"]["line"] + 1,
            d["message"],
        )
        for d in json.loads(pyright.stdout)["generalDiagnostics"]
        if d["severity"] == "error"
    ]
    found["pyrefly"] = [
        (d.path, d.line, d.message) for d in pyrefly_diagnostics(run_pyrefly(files, folder))
    ]
    found["ty"] = [(d.path, d.line, d.message) for d in ty_diagnostics(run_ty(files, folder))]
    config = {
        "compilerOptions": {
            "strict": True,
            "exactOptionalPropertyTypes": True,
            "noEmit": True,
            "skipLibCheck": True,
            "types": [],
            "target": "esnext",
            "module": "esnext",
            "moduleResolution": "bundler",
        },
        "include": [f"_examples/{name}.ts" for name in packages],
    }
    (folder / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    tsc = subprocess.run(
        [str(ROOT / "node_modules" / ".bin" / "tsc"), "-p", "tsconfig.json", "--pretty", "false"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    found["tsc"] = [
        (m[1], int(m[2]), m[3])
        for m in re.finditer(r"^(\S[^(\n]*)\((\d+),\d+\): error (.*)$", tsc.stdout, re.MULTILINE)
    ]
    return found


def _gap(checker: str, gap_float: bool, message: str) -> bool:
    if checker == "tsc":
        return any(f"'{key}'" in message or f'"{key}"' in message for key in INHERITED)
    return gap_float


def test_every_wanted_wrapper_builds(soundness: dict[str, Any]) -> None:
    assert not soundness["failed"], soundness["failed"]


def test_counts_per_convention(soundness: dict[str, Any]) -> None:
    counts = soundness["counts"]
    print("\nvalid corpus documents checked as literals, per convention:")
    for name, count in sorted(counts.items()):
        print(f"  {name}: {count}")
    assert counts == EXPECTED_COUNTS


@pytest.mark.parametrize("checker", ["mypy", "pyright", "pyrefly", "ty", "tsc"])
def test_every_valid_corpus_document_is_accepted(soundness: dict[str, Any], checker: str) -> None:
    lines = soundness["lines"]
    problems = []
    known = MYPY_KNOWN if checker == "mypy" else set()
    seen: set[str] = set()
    for file, line, message in soundness["findings"][checker]:
        where = lines.get((file, line))
        if where is not None and _gap(checker, where[2], message):
            continue
        label = f"{where[0]} {where[1]}" if where else "not an example line"
        seen.add(label)
        if label not in known:
            problems.append(f"{file}:{line}: {label}: {message[:300]}")
    gone = sorted(known - seen)
    assert not gone, f"{checker} now accepts, unpin from MYPY_KNOWN: {gone}"
    assert not problems, f"{len(problems)} rejections:\n" + "\n".join(problems[:40])
