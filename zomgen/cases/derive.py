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
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from zomgen_runtime.validation import check_document

from zomgen import ir
from zomgen.cases import emit, expect, report
from zomgen.cases.coverage import OptionCase, coverage, option_cases
from zomgen.cases.enrich import enriched
from zomgen.cases.mutate import Mutation, mutations
from zomgen.cases.raw import escape
from zomgen.cases.refusals import Refusal, absolute
from zomgen.cases.repair import repaired
from zomgen.cases.sight import judged
from zomgen.cases.synth import Synthesiser, Unsatisfiable
from zomgen.cases.verdict import accepts
from zomgen.errors import CompileError, InputProblem
from zomgen.pipeline import Generated, Options, build_ir, generate_package, load
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
    # The package's files, its README carrying the agreement table (what `zomgen build --cases`
    # writes), and the case files relative to the cases folder (runner and configurations too).
    package_files: dict[str, str] = field(default_factory=dict)
    case_files: dict[str, str] = field(default_factory=dict)
    warnings: tuple[InputProblem, ...] = ()  # the build's (generate_package's)
    # What the cases were derived from, for a caller that checks more on them (the tests build
    # every other literal value from them, zomgen/cases/values.py): the IR, the valid hierarchy,
    # and the option of each union built in its own hierarchy.
    hierarchy: ir.Hierarchy | None = None
    valid: Any = None
    options: list[OptionCase] = field(default_factory=list)


# Context fields that hold IR types: what they decide is in `expect`, not shown in the case.
_IR_CONTEXT = ("unions", "widened")


def derive(schema: Path, out: Path, include: tuple[Path, ...], package: str) -> Derived:
    options = Options(schema=schema, include_dirs=include, package=package)
    generated = generate_package(options)
    hierarchy = build_ir(load(options))
    # imported from a scratch folder, so that a convention no case can be derived from (no valid
    # hierarchy) leaves `out` as it was
    with tempfile.TemporaryDirectory(prefix="zomgen-cases-") as scratch:
        write_package(generated.files, Path(scratch) / package)
        with _imported(Path(scratch), package) as module:
            derived = _derive(schema, package, generated, hierarchy, module)
    for name, text in derived.case_files.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text, encoding="utf-8")
    write_package(derived.package_files, out / package)
    return derived


def _derive(
    schema: Path,
    package: str,
    generated: Generated,
    hierarchy: ir.Hierarchy,
    module: ModuleType,
) -> Derived:
    bundled = json.loads(generated.files["schema.json"])
    valid, source = valid_document(module, hierarchy, bundled, schema)
    derived = Derived(
        package,
        hierarchy.root,
        source,
        warnings=generated.warnings,
        hierarchy=generated.hierarchy,
        valid=valid,
    )
    pinned: list[tuple[Mutation, Refusal]] = []
    for mutation in judged(mutations(valid, hierarchy), hierarchy):
        refused = refusals(module, mutation.document)
        if not refused:
            derived.notes.append(f"{_pointer(mutation.path)}: {mutation.what}: valid, not a case")
            continue
        pinned.append((mutation, _nearest(refused, _pointer(mutation.path), mutation.kind)))
    model = module.parse(valid)
    assert generated.hierarchy is not None
    derived.options = option_cases(
        generated.hierarchy, module, bundled, lambda d: refusals(module, d)
    )
    derived.case_files = _case_files(
        derived, hierarchy, valid, model, pinned, derived.options, module
    )
    derived.case_files.update(shared_files())
    readme = report.in_readme(generated.files["README.md"], derived.report)
    derived.package_files = {**generated.files, "README.md": readme}
    return derived


@contextmanager
def _imported(out: Path, package: str) -> Iterator[ModuleType]:
    """The package just written to `out`, imported; afterwards the interpreter forgets it (and
    `out`), and a caller's own package of the same name is back as it was."""
    saved = _forget(package) | _forget(f"{package}_cases")
    added = str(out) not in sys.path
    if added:
        sys.path.insert(0, str(out))
    importlib.invalidate_caches()
    try:
        yield importlib.import_module(package)
    finally:
        _forget(package)
        _forget(f"{package}_cases")
        if added:
            sys.path.remove(str(out))
        sys.modules.update(saved)


def _forget(package: str) -> dict[str, ModuleType]:
    """Take `package` and its submodules out of `sys.modules`; return what was there."""
    names = [n for n in sys.modules if n == package or n.startswith(package + ".")]
    return {name: sys.modules.pop(name) for name in names}


def refusals(module: ModuleType, document: Any) -> list[Refusal]:
    """What the package's run time refuses in `document` (checked, not converted: a converter
    that fails on a valid document is a finding of coverage.py, not a refusal)."""
    return [
        Refusal(absolute(p.node_path, p.pointer), p.keyword, p.schema_path, p.message, p.rule)
        for p in check_document(document, module.schema())
    ]


def valid_document(
    module: ModuleType, h: ir.Hierarchy, bundled: Any, schema: Path
) -> tuple[Any, str]:
    """The valid hierarchy the cases start from, and where it came from: the schema's first
    valid example, or the smallest one synthesised, with the optional keys the run time
    accepts."""
    examples = bundled.get("examples") if isinstance(bundled, dict) else None
    for example in examples if isinstance(examples, list) else []:
        if not refusals(module, example):
            return example, "examples"

    def check(doc: Any) -> list[Refusal]:
        return refusals(module, doc)

    try:
        start = repaired(Synthesiser(h).root(), bundled, check)
    except Unsatisfiable as exc:
        message = f"no valid hierarchy can be synthesised: {exc.message}"
        raise CompileError.one(str(schema), exc.pointer, message) from None

    def repair(doc: Any) -> Any | None:
        # an optional key the run time refuses as built (a label's `source.image`, which must
        # name an image) is kept when a repair makes it right
        try:
            return repaired(doc, bundled, check)
        except Unsatisfiable:
            return None

    return enriched(start, h, lambda doc: accepts(module, doc), repair=repair), "synthesised"


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


@dataclass
class _Lines:
    """The bodies of the case files as they grow: each case records the line it was written at
    (header lines plus the body so far), where a checker must report it."""

    package: str
    root: str
    documents: list[str] = field(default_factory=list)  # documents_cases.py
    typescript: list[str] = field(default_factory=list)  # cases.ts
    models: emit.ModelStatements = field(default_factory=lambda: emit.ModelStatements("models"))
    frozen: list[str] = field(default_factory=list)  # frozen_cases.py

    @property
    def documents_imports(self) -> str:
        return f"from {self.package} import documents"

    @property
    def frozen_imports(self) -> str:
        return f"from {self.package}_cases.models_cases import valid_model"

    def add_document(self, name: str, document: Any) -> None:
        """`document` under `name`, typed as the root in Python and TypeScript."""
        self.documents.append(f"{name}: documents.{self.root} = {emit.python_literal(document)}")
        self.typescript.append(
            f"export const {name}: {self.root} = {emit.typescript_literal(document)};"
        )

    def add_model(self, name: str, model: Any) -> None:
        self.models.add(name, f"models.{self.root}", model)

    def files(self) -> dict[str, str]:
        """The four source files, by name in the cases folder."""
        package, root = self.package, self.root
        return {
            "documents_cases.py": emit.python_file(self.documents_imports, self.documents),
            "models_cases.py": emit.python_file(
                f"from {package} import models", self.models.lines, emit.MODELS_HEADER
            ),
            "frozen_cases.py": emit.python_file(self.frozen_imports, self.frozen),
            "cases.ts": emit.typescript_file(package, root, self.typescript),
        }


def _case_files(
    derived: Derived,
    h: ir.Hierarchy,
    valid: Any,
    model: Any,
    pinned: list[tuple[Mutation, Refusal]],
    options: list[OptionCase],
    module: ModuleType,
) -> dict[str, str]:
    """The files of `<package>_cases/`; sets `derived.report` and `derived.cases` on the way."""
    package, root = derived.package, h.root
    lines = _Lines(package, root)
    lines.add_document("valid", valid)
    lines.add_model("valid_model", model)
    _add_options(lines, options, module)
    cases = _mutation_cases(lines, pinned)
    cases += _frozen_cases(lines, model, first=len(cases) + 1)
    suite = {
        "package": package,
        "root": root,
        "valid": valid,
        "source": derived.source,
        "cases": cases,
        "notes": derived.notes,
    }
    derived.report = report.build(suite, [(c.pointer, c.keyword) for c in h.runtime_checks])
    derived.report["options"] = coverage(options)
    files = {
        "__init__.py": "",
        **lines.files(),
        "cases.json": json.dumps(suite, indent=1, ensure_ascii=False) + "\n",
        "report.json": report.as_json(derived.report),
        "REPORT.md": report.markdown(derived.report),
    }
    derived.cases = len(cases)
    return {f"{package}_cases/{name}": text for name, text in files.items()}


def _add_options(lines: _Lines, options: list[OptionCase], module: ModuleType) -> None:
    """Each option of each union that coverage.py built: a valid document and its model, which
    every checker must accept (no case names them: any error on them fails the runner)."""
    for number, option in enumerate((o for o in options if o.document is not None), start=1):
        if option.failure is not None:
            continue  # the run time failed it: reported, not typed
        lines.add_document(f"option_{number}", option.document)
        lines.add_model(f"option_{number}_model", module.parse(option.document))


def _mutation_cases(lines: _Lines, pinned: list[tuple[Mutation, Refusal]]) -> list[dict[str, Any]]:
    """A case for each mutation the run time refuses, its document added to `lines`."""
    package = lines.package
    doc_head = emit.header_lines(emit.python_file(lines.documents_imports, []))
    ts_head = emit.header_lines(emit.typescript_file(package, lines.root, []))
    cases: list[dict[str, Any]] = []
    for number, (mutation, refusal) in enumerate(pinned, start=1):
        name = f"case_{number}"
        lines.add_document(name, mutation.document)
        doc_line, ts_line = doc_head + len(lines.documents), ts_head + len(lines.typescript)
        codes = expect.codes(mutation)
        gap = expect.not_compared(mutation) if codes["mypy"] is None else None
        cases.append(
            {
                "name": name,
                "kind": mutation.kind,
                "what": mutation.what,
                "pointer": _pointer(mutation.path),
                "lines": {
                    "python": [f"{package}_cases/documents_cases.py", doc_line],
                    "typescript": [f"{package}_cases/cases.ts", ts_line],
                },
                "context": {
                    k: bool(v) if k == "loose" else v  # its reason is mypy_not_compared's
                    for k, v in dataclasses.asdict(mutation.ctx).items()
                    if k not in _IR_CONTEXT
                },
                "document": mutation.document,
                "expect": codes,
                # why mypy's verdict is not compared, where it is not (report.py lists it)
                **({"mypy_not_compared": gap} if gap else {}),
                "runtime": {
                    "pointer": refusal.pointer,
                    "keyword": refusal.keyword,
                    "schema_path": refusal.schema_path,
                },
            }
        )
    return cases


def _frozen_cases(lines: _Lines, model: Any, first: int) -> list[dict[str, Any]]:
    """A case for each frozen field of the valid model, assigned in frozen_cases.py, numbered
    on from `first`."""
    frozen_head = emit.header_lines(emit.python_file(lines.frozen_imports, []))
    cases: list[dict[str, Any]] = []
    for number, target in enumerate(emit.frozen_targets(model), start=first):
        attr = "valid_model." + ".".join(target)
        lines.frozen.append(f"{attr} = {attr}")
        where = [f"{lines.package}_cases/frozen_cases.py", frozen_head + len(lines.frozen)]
        cases.append(
            {
                "name": f"case_{number}",
                "kind": "frozen-field-assigned",
                "what": f"{attr} assigned",
                "pointer": "/" + "/".join(target),
                "lines": {"python": where},
                "document": None,
                "expect": expect.frozen_codes(),
                "runtime": {"frozen": list(target)},
            }
        )
    return cases


def shared_files() -> dict[str, str]:
    """The runner and the checkers' configurations, shared by every convention of a folder."""
    return {"check_cases.py": RUNNER.read_text("utf-8"), **expect.configurations()}
