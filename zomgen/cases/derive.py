"""`zomgen cases`: build the package, find a valid hierarchy, derive the mutations, pin what
each checker and each run time must say about each, and write it all into the output folder.

Layout of `DIR` (several conventions may share one `DIR`, each under its own package name):

    DIR/<package>/                 the package, as `zomgen build` writes it
    DIR/<package>_cases/           documents_cases.py, models_cases.py, cases.ts, cases.json,
                                   report.json and REPORT.md (the agreement report, report.py)
    DIR/check_cases.py             the runner (standard library only)
    DIR/mypy.ini, DIR/pyrightconfig.json, DIR/tsconfig.json
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from zomgen import ir
from zomgen.cases import emit, expect, report
from zomgen.cases.mutate import Mutation, mutations
from zomgen.cases.repair import Refusal, absolute, escape, repaired
from zomgen.cases.synth import Synthesiser, Unsatisfiable
from zomgen.compile import Options, build_ir, generate_package, load
from zomgen.errors import CompileError
from zomgen.write import write_package

RUNNER = Path(__file__).with_name("check_cases.py")


@dataclass
class Derived:
    package: str
    root: str
    source: str  # "examples" or "synthesised"
    cases: int = 0
    notes: list[str] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)  # report.build's, also in report.json


def derive(schema: Path, out: Path, include: tuple[Path, ...], package: str) -> Derived:
    options = Options(schema=schema, include_dirs=include, package=package)
    generated = generate_package(options)
    hierarchy = build_ir(load(options))
    write_package(generated.files, out / package)
    module = _import(out, package)
    bundled = json.loads(generated.files["schema.json"])
    valid, source = _valid(module, hierarchy, bundled, schema)
    derived = Derived(package, hierarchy.root, source)
    pinned: list[tuple[Mutation, Refusal]] = []
    for mutation in mutations(valid, hierarchy):
        refusals = _check(module, mutation.document)
        if not refusals:
            derived.notes.append(f"{_pointer(mutation.path)}: {mutation.what}: valid, not a case")
            continue
        pinned.append((mutation, _nearest(refusals, _pointer(mutation.path), mutation.kind)))
    model = module.parse(valid)
    _write(out, derived, hierarchy, valid, model, pinned)
    return derived


def _import(out: Path, package: str) -> ModuleType:
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        del sys.modules[name]
    if str(out) not in sys.path:
        sys.path.insert(0, str(out))
    importlib.invalidate_caches()
    return importlib.import_module(package)


def _check(module: ModuleType, document: Any) -> list[Refusal]:
    try:
        module.parse(document)
    except module.ZomError as exc:
        return [
            Refusal(absolute(p.node_path, p.pointer), p.keyword, p.schema_path, p.message)
            for p in exc.problems
        ]
    return []


def _valid(module: ModuleType, h: ir.Hierarchy, bundled: Any, schema: Path) -> tuple[Any, str]:
    examples = bundled.get("examples") if isinstance(bundled, dict) else None
    for example in examples if isinstance(examples, list) else []:
        if not _check(module, example):
            return example, "examples"
    try:
        start = Synthesiser(h).root()
        return repaired(start, bundled, lambda doc: _check(module, doc)), "synthesised"
    except Unsatisfiable as exc:
        message = f"no valid hierarchy can be synthesised: {exc.message}"
        raise CompileError.one(str(schema), exc.pointer, message) from None


def _pointer(path: tuple[str | int, ...]) -> str:
    return "".join(f"/{escape(step)}" for step in path)


# The keywords a mutation of each kind breaks: a refusal by one of them is the constraint the
# case stands for (the agreement report groups cases by it), before any nearer refusal.
UNKNOWN = frozenset(("additionalProperties", "unevaluatedProperties", "propertyNames", "false"))
LITERAL = frozenset(("const", "enum"))
KEYWORDS: dict[str, frozenset[str]] = {
    "missing-required-key": frozenset(("required",)),
    "missing-named-member": frozenset(("required",)),
    "near-miss-literal": LITERAL,
    "wrong-data-type": LITERAL,
    "wrong-json-type": frozenset(("type", *LITERAL)),
    "unknown-key": UNKNOWN,
    "unknown-member": UNKNOWN,
    "tuple-length": frozenset(("items", "prefixItems", "minItems", "maxItems", "additionalItems")),
}


def _nearest(refusals: list[Refusal], pointer: str, kind: str = "") -> Refusal:
    """The refusal by a keyword the mutation's kind breaks, nearest first; else the refusal at
    the mutation's pointer, else at its nearest ancestor or descendant."""
    wanted = KEYWORDS.get(kind, frozenset())

    def distance(r: Refusal) -> int:
        if pointer == r.pointer:
            return 0
        if pointer.startswith(r.pointer + "/") or r.pointer == "":
            return pointer.count("/") - r.pointer.count("/")
        if r.pointer.startswith(pointer + "/"):
            return 100 + r.pointer.count("/") - pointer.count("/")
        return 10_000

    return min(
        refusals, key=lambda r: (distance(r) >= 10_000 or r.keyword not in wanted, distance(r))
    )


def _write(
    out: Path,
    derived: Derived,
    h: ir.Hierarchy,
    valid: Any,
    model: Any,
    pinned: list[tuple[Mutation, Refusal]],
) -> None:
    package, root = derived.package, h.root
    folder = out / f"{package}_cases"
    folder.mkdir(parents=True, exist_ok=True)
    doc_lines = [f"valid: documents.{root} = {emit.python_literal(valid)}"]
    ts_lines = [f"export const valid: {root} = {emit.typescript_literal(valid)};"]
    model_lines = [f"valid_model: models.{root} = {emit.model_source(model, 'models')}"]
    doc_imports = f"from {package} import documents"
    frozen_imports = f"from {package}_cases.models_cases import valid_model"
    doc_head = emit.header_lines(emit.python_file(doc_imports, []))
    ts_head = emit.header_lines(emit.typescript_file(package, root, []))
    frozen_head = emit.header_lines(emit.python_file(frozen_imports, []))
    frozen_lines: list[str] = []
    cases: list[dict[str, Any]] = []
    for number, (mutation, refusal) in enumerate(pinned, start=1):
        name = f"case_{number}"
        doc_lines.append(f"{name}: documents.{root} = {emit.python_literal(mutation.document)}")
        ts_lines.append(
            f"export const {name}: {root} = {emit.typescript_literal(mutation.document)};"
        )
        cases.append(
            {
                "name": name,
                "kind": mutation.kind,
                "what": mutation.what,
                "pointer": _pointer(mutation.path),
                "lines": {
                    "python": [f"{package}_cases/documents_cases.py", doc_head + len(doc_lines)],
                    "typescript": [f"{package}_cases/cases.ts", ts_head + len(ts_lines)],
                },
                "context": {
                    k: v for k, v in dataclasses.asdict(mutation.ctx).items() if k != "unions"
                },
                "document": mutation.document,
                "expect": expect.codes(mutation),
                "runtime": {
                    "pointer": refusal.pointer,
                    "keyword": refusal.keyword,
                    "schema_path": refusal.schema_path,
                },
            }
        )
    for target in emit.frozen_targets(model):
        number = len(cases) + 1
        attr = "valid_model." + ".".join(target)
        frozen_lines.append(f"{attr} = {attr}")
        cases.append(
            {
                "name": f"case_{number}",
                "kind": "frozen-field-assigned",
                "what": f"{attr} assigned",
                "pointer": "/" + "/".join(target),
                "lines": {
                    "python": [f"{package}_cases/frozen_cases.py", frozen_head + len(frozen_lines)]
                },
                "document": None,
                "expect": expect.frozen_codes(),
                "runtime": {"frozen": list(target)},
            }
        )
    suite = {
        "package": package,
        "root": root,
        "valid": valid,
        "source": derived.source,
        "cases": cases,
        "notes": derived.notes,
    }
    derived.report = report.build(suite, [(c.pointer, c.keyword) for c in h.runtime_checks])
    files = {
        "__init__.py": "",
        "documents_cases.py": emit.python_file(doc_imports, doc_lines),
        "models_cases.py": emit.python_file(f"from {package} import models", model_lines),
        "frozen_cases.py": emit.python_file(frozen_imports, frozen_lines),
        "cases.ts": emit.typescript_file(package, root, ts_lines),
        "cases.json": json.dumps(suite, indent=1, ensure_ascii=False) + "\n",
        "report.json": report.as_json(derived.report),
        "REPORT.md": report.markdown(derived.report),
    }
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    derived.cases = len(cases)
    _write_runner(out)


def _write_runner(out: Path) -> None:
    shutil.copyfile(RUNNER, out / "check_cases.py")
    for name, text in expect.configurations().items():
        (out / name).write_text(text, encoding="utf-8")
