"""The Python and TypeScript run times are twins by construction: where they do the same job,
they do it in modules of the same name (the file's stem, snake_case on both sides), and each
public function, class and constant of such a module has its twin on the other side.

Why: a verdict or a message that differs between `zomgen validate`, a package's `load` and its
`validate.ts` is a bug, and a reader finds the other half of a rule fastest under the same
module and name. What one side alone has must say why, here, so that a departure is a decision
rather than drift.

What is read (nothing is imported; the sources are parsed):

- Python (`runtime/python/zomgen_runtime/*.py`, with `ast`): the module's top-level public
  `def`s and `class`es, its public lower-case assignments (`equal = _relation(...)` is a
  function made by another), and its UPPER_CASE constants. Names starting with `_` are private.
- TypeScript (`runtime/typescript/src/*.ts`, by regular expression): `export function`,
  `export const`, `export class`, `export interface` and `export type`. A camelCase name is
  compared as snake_case (`parseOperand` is `parse_operand`); class names and UPPER_CASE
  constants as they are.
- A TypeScript `interface` or `type` counts as the twin of a Python class of that name
  (`Violation`, `Problem`), but one that Python has no class for is not asked for: a type
  alias is how TypeScript spells many things Python leaves to annotations, and it has no
  behaviour of its own to keep alike. Likewise a Python type alias (a CamelCase assignment,
  `Check = Callable[...]`) is not compared, and neither side's re-exports are read.

It fails, naming the module and the name, when
(a) a module exists on one side only and is not in `ONE_SIDED_MODULES`;
(b) in a module both sides have, a name exists on one side only and is not in
    `ONE_SIDED_NAMES` (nor spelled apart on purpose, `SPELLED_APART`);
(c) an entry of any of the three is stale: the module or name no longer exists, or is no longer
    one-sided, so the lists stay honest.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from tests.support.paths import ROOT

PYTHON_RUNTIME = ROOT / "runtime" / "python" / "zomgen_runtime"
TYPESCRIPT_RUNTIME = ROOT / "runtime" / "typescript" / "src"

# (issue 57's first step: the command line and the Python packages; load.ts gets its twin next)
_DIFF = "Python only so far: `zomgen diff` and a package's diff/like (docs/diff.md)"
_WRITES = "Python only: writes stores (the TypeScript run time reads only)"

# module stem -> why only one run time has a module of that name
ONE_SIDED_MODULES: dict[str, str] = {
    "iterations": (
        "TypeScript only: counts the steps of a rule's macros as Google's engine counts them "
        "in Python (cel-js counts nothing), so both stop at the same budget"
    ),
    # Python only
    "api": "Python only by this name: its twins are validator.ts (checks) and stores.ts (loads)",
    "collector": "Python only: pauses CPython's cyclic garbage collector, which JavaScript lacks",
    "confinement": (
        "Python only by this name: local_folder.ts keeps a folder's reads inside it; "
        "Python also keeps writes in"
    ),
    "comparison": _DIFF,
    "consolidated": "Python only by this name: node_files.ts reads consolidated metadata",
    "consolidated_writes": _WRITES,
    "consolidating": _WRITES,
    "converting": (
        "Python only: what generated _convert.py calls to build models; "
        "TypeScript's parse returns the checked document, no classes"
    ),
    "diffs": _DIFF,
    "document_files": _WRITES,
    "engines": (
        "Python only by this name: jsonschema-rs and python-jsonschema; "
        "TypeScript's one engine, Ajv, is engine.ts"
    ),
    "false_schemas": (
        "Python only: python-jsonschema reports a false subschema without its key; "
        "Ajv names the key (engine.ts)"
    ),
    "fastschema": (
        "Python only: the schema rewritten for jsonschema-rs, whose custom keywords "
        "call back into Python"
    ),
    "folder_writes": _WRITES,
    "httpget": "Python only: its own HTTP/1.1 client; TypeScript fetches with fetch (http.ts)",
    "inflight": (
        "Python only: jobs on an event loop in another thread, or on threads; "
        "walk.ts keeps its promises in flight itself (its Gate)"
    ),
    "jsontext": "Python only by this name: node_files.ts parses a metadata file",
    "keywords": (
        "Python only by this name: the check keywords as keywords of both Python engines; "
        "engine.ts makes them Ajv's"
    ),
    "linear_patterns": (
        "Python only by this name: patterns.ts holds both the RE2 spelling and the matching"
    ),
    "metadata_files": "Python only by this name: node_files.ts is its twin",
    "mypy_view": "Python only: a type for mypy's reading of a generated documents.py",
    "named_members": (
        "Python only: keeps members.py's imports out of a walk that lists; "
        "walk.ts imports members.ts's types alone"
    ),
    "opening": (
        "Python only: the many kinds of Python store argument (paths, URLs, zarr objects, "
        "mappings); stores.ts takes its own"
    ),
    "origins": "Python only by this name: http.ts keeps redirects to the store's origin",
    "pruned": "Python only: python-jsonschema's report sped up by jsonschema-rs; Ajv needs none",
    "reading": "Python only by this name: walk.ts is the twin of reading.py",
    "remote": "Python only by this name: http.ts and sources.ts read remote stores",
    "store_lock": _WRITES,
    "streamed": "Python only by this name: walk.ts is the twin of streamed.py",
    "subschemas": (
        "Python only: picks a union's model class with jsonschema-rs; TypeScript builds no classes"
    ),
    "validation": "Python only by this name: report.ts and problems.ts are its twins",
    "values": (
        "Python only: type guards for pyright strict; "
        "TypeScript's isArray and isObject are in pointers.ts"
    ),
    "walk_steps": "Python only by this name: walk.ts is the twin of walk_steps.py",
    "write_targets": _WRITES,
    "writing": _WRITES,
    "zip_rewrite": _WRITES,
    "zip_source": (
        "Python only: a zip file as a source; TypeScript reads a zip through zarrita's "
        "ZipFileStore (sources.ts, zip_entries.ts)"
    ),
    # TypeScript only
    "engine": "TypeScript only by this name: Ajv, the twin of engines.py and keywords.py",
    "http": "TypeScript only by this name: fetch over HTTP, the twin of remote.py and origins.py",
    "local_folder": (
        "TypeScript only by this name: a folder read under Node, the twin of confinement.py"
    ),
    "node_files": (
        "TypeScript only by this name: the twin of metadata_files.py, consolidated.py "
        "and jsontext.py"
    ),
    "report": "TypeScript only: Ajv's errors -> problems, the twin of validation.py's causes",
    "stores": (
        "TypeScript only by this name: a store read and checked (readStore, storeProblems), "
        "the twin of api.py"
    ),
    "streams": (
        "TypeScript only: a web stream (an HTTP body, an inflating zip entry) read up to a "
        "byte limit; Python's readers take the limit as a size to read"
    ),
    "validator": (
        "TypeScript only by this name: Validator (Ajv compiled on first use, verdict, "
        "problems), the twin of validation.py's check_document"
    ),
    "walk": "TypeScript only by this name: the twin of reading.py, walk_steps.py and streamed.py",
}

# (module, name) -> why only one run time has that name there; a TypeScript name in snake_case
ONE_SIDED_NAMES: dict[tuple[str, str], str] = {
    ("pointers", "PROTO"): (
        "TypeScript only: a document's key `__proto__` is renamed while Ajv looks (engine.ts) and "
        "given back its name where a check reads keys as names (tree.ts); a Python dict holds it "
        "as any other key"
    ),
    (
        "pointers",
        "PROTO_ALIAS",
    ): "TypeScript only: the name `__proto__` has while Ajv looks (as PROTO)",
    ("pointers", "own_key"): (
        "TypeScript only: finds a member named `__proto__` under the name Ajv's checks see "
        "it by (PROTO_ALIAS); a Python dict needs no such step"
    ),
    ("rules", "result_type"): (
        "Python only: the compiler refuses a rule that gives no bool, or a messageExpression no "
        "string, where the type checker knows (zomgen/schema/rules.py)"
    ),
    ("rules", "compile_error"): (
        "Python only: the compiler refuses a rule that is not CEL when the convention is built "
        "(zomgen/schema/rules.py), with the engine's words and the place in the rule"
    ),
    ("checks", "uses_checks"): (
        "Python only: jsonschema-rs gets the check keywords only where a schema uses them; "
        "engine.ts always adds them to Ajv"
    ),
    ("meant", "resolver"): (
        "TypeScript only: a `$ref` resolved through Ajv's schema locations; "
        "Python resolves it with pointers.resolve_local_ref"
    ),
    ("members", "merge_forced"): (
        "Python only as a public name: zomgen's catalog probing merges member trees too; "
        "TypeScript's merge is private to members.ts"
    ),
    ("paths", "same"): (
        "Python only: compares two JSON values without writing them out, for speed; "
        "TypeScript compares their canonical texts"
    ),
    ("patterns", "RE2_REFUSES"): (
        "Python only: TypeScript writes the same words inline, before re2js's own reason"
    ),
    ("patterns", "Unreadable"): (
        "TypeScript only here: Python's Unreadable is in linear_patterns.py, "
        "whose job patterns.ts shares"
    ),
    ("patterns", "linear_parts"): (
        "TypeScript only here: Python's linear_parts is in linear_patterns.py, "
        "whose job patterns.ts shares"
    ),
    ("patterns", "any_unmatchable"): (
        "Python only: whether jsonschema-rs may judge a schema at all; "
        "Ajv, TypeScript's one engine, matches through RE2 itself"
    ),
    ("patterns", "encodable"): (
        "Python only: lone surrogates replaced for jsonschema-rs's Rust strings; "
        "JavaScript strings hold them"
    ),
    ("patterns", "pattern_keywords"): (
        "Python only: python-jsonschema's pattern keywords made to match with RE2; "
        "Ajv takes RE2 through its regExp option (engine.ts)"
    ),
    ("pointers", "has_own"): (
        "TypeScript only: a key of the object's own, never one of Object.prototype's; "
        "a Python dict has no prototype"
    ),
    ("pointers", "is_array"): "TypeScript only here: Python's is_array is in values.py",
    ("pointers", "is_object"): "TypeScript only here: Python's is_object is in values.py",
    ("pointers", "repr"): (
        "TypeScript only: a value shown as Python's builtin repr shows it, for messages"
    ),
    ("pointers", "join_node_path"): (
        "Python only: walk.ts joins a node path and a name itself (joinPath)"
    ),
    ("pointers", "node_path"): (
        "Python only: member names -> a node path, which TypeScript spells inline "
        "(splitNodePointer)"
    ),
    ("pointers", "resolve_local_ref"): (
        "Python only as a public name: TypeScript's resolveLocalRef is private to members.ts"
    ),
    ("problems", "MAX_LISTED"): (
        "Python only as a public name: TypeScript's MAX_LISTED, also 50, is private to problems.ts"
    ),
    ("problems", "StoreError"): "Python only here: TypeScript's StoreError is in stores.ts",
    ("problems", "problems_to_json"): (
        "Python only: what `zomgen validate --format json` prints; "
        "a TypeScript Problem is plain JSON data already"
    ),
    ("problems", "format_problem"): (
        "TypeScript only: one problem's line, which Python's Problem.__str__ gives "
        "(a TypeScript Problem is an interface, without methods)"
    ),
    ("problems", "dedupe"): (
        "TypeScript only as a public name: report.ts uses it; "
        "Python's twin is private to validation.py (_dedupe)"
    ),
    ("problems", "tree_order"): (
        "TypeScript only as a public name: report.ts and walk.ts use it; "
        "Python's twin is private to validation.py (_tree_order)"
    ),
    ("problems", "wrong_kind_only"): (
        "TypeScript only as a public name: report.ts uses it; "
        "Python's twin is private to validation.py (_wrong_kind_only)"
    ),
    ("problems", "wrong_version_only"): (
        "TypeScript only as a public name: report.ts uses it; "
        "Python's twin is private to validation.py (_wrong_version_only)"
    ),
    ("problems", "wrong_version_at_root"): (
        "TypeScript only as a public name: report.ts uses it; "
        "Python's twin is private to validation.py (_wrong_version_at_root)"
    ),
    ("sources", "BufferMapping"): (
        "Python only: zarr-python's MemoryStore read in place; "
        "TypeScript reads any zarrita store through its get (readableSource)"
    ),
    ("sources", "DirSource"): (
        "Python only here: TypeScript's local folder source is local_folder.ts's folderSource"
    ),
    ("sources", "MappingSource"): (
        "Python only: a mapping of keys to bytes as a store, an argument only Python takes"
    ),
    ("sources", "Job"): (
        "Python only: a request a remote source keeps in flight (inflight.py); "
        "walk.ts keeps its promises itself"
    ),
    ("sources", "Requests"): (
        "Python only: the jobs in flight of a remote source (inflight.py); "
        "walk.ts keeps its promises itself"
    ),
    ("sources", "LEAVES_STORE"): (
        "Python only here: TypeScript's LEAVES_STORE is in local_folder.ts, "
        "beside the folder source it guards"
    ),
    ("sources", "METADATA"): (
        "TypeScript only: Python names the metadata files in metadata_files.py (METADATA_NAMES)"
    ),
    ("sources", "describe"): (
        "TypeScript only here: an error's words, for http.ts and local_folder.ts; "
        "Python's is in httpget.py"
    ),
    ("sources", "last_name"): (
        "TypeScript only: a key's last name, which Python spells inline (key.rsplit('/', 1)[-1])"
    ),
    ("sources", "listed_source"): (
        "TypeScript only: a zarrita store read through the keys given with it "
        "(a zip dropped on the page)"
    ),
    ("sources", "readable_source"): (
        "TypeScript only: any zarrita store, read through its get; "
        "Python opens stores in opening.py and remote.py"
    ),
    ("sources", "too_large"): "TypeScript only here: Python's too_large is in jsontext.py",
}

# (module, Python name) -> (the TypeScript twin's name in snake_case, why they are spelled apart)
SPELLED_APART: dict[tuple[str, str], tuple[str, str]] = {
    ("relations", "in_"): ("is_in", "`in` is a reserved word in both languages"),
    ("pointers", "escape"): (
        "escape_token",
        "a module's `escape` would hide JavaScript's global escape() where imported",
    ),
    ("pointers", "unescape"): (
        "unescape_token",
        "a module's `unescape` would hide JavaScript's global unescape() where imported",
    ),
    ("patterns", "search"): (
        "linear_pattern",
        (
            "both give a pattern's linear-time matcher; TypeScript's is shaped as Ajv's regExp "
            "option asks (test, toString) and throws where Python's returns None"
        ),
    ),
    ("problems", "format_problems_text"): (
        "format_problems",
        (
            "one problem per line, the rest counted past a limit; "
            "Python's name tells it from problems_to_json"
        ),
    ),
    ("zip_entries", "read_entry"): (
        "read_zip_entry",
        "TypeScript's reads a zarrita store's entry by key, Python's a zipfile.ZipFile's",
    ),
}


@dataclass(frozen=True)
class Names:
    """What one module of one run time defines, as compared: `public` holds functions (snake_case)
    and classes (as spelled), `constants` the UPPER_CASE ones; `types` (TypeScript only) the
    interfaces and type aliases, which may stand for a Python class."""

    public: frozenset[str]
    constants: frozenset[str]
    types: frozenset[str] = frozenset()


_CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*")


def snake_case(name: str) -> str:
    """`parseOperand` -> `parse_operand`, `toJSON` -> `to_json`; a snake_case name unchanged."""
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()


def python_names(path: Path) -> Names:
    public: set[str] = set()
    constants: set[str] = set()
    for node in ast.parse(path.read_text("utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            assigned = [node.name]
        elif isinstance(node, ast.Assign):
            assigned = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            assigned = [node.target.id]
        else:
            continue
        for name in assigned:
            if name.startswith("_"):
                continue
            if isinstance(node, ast.ClassDef) or name[0].islower():
                public.add(name)
            elif _CONSTANT.fullmatch(name):
                constants.add(name)
            # a CamelCase assignment is a type alias (`Check = Callable[...]`): not compared
    return Names(frozenset(public), frozenset(constants))


_EXPORT = re.compile(
    r"^export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?"
    r"(function\*?|const|let|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)",
    re.MULTILINE,
)


def typescript_names(path: Path) -> Names:
    public: set[str] = set()
    constants: set[str] = set()
    types: set[str] = set()
    for kind, name in _EXPORT.findall(path.read_text("utf-8")):
        if kind in ("interface", "type", "enum"):
            types.add(name)
        elif kind == "class":
            public.add(name)
        elif _CONSTANT.fullmatch(name):
            constants.add(name)
        else:
            public.add(snake_case(name))
    return Names(frozenset(public), frozenset(constants), frozenset(types))


def _modules(folder: Path, suffix: str) -> dict[str, Path]:
    return {p.stem: p for p in sorted(folder.glob(f"*{suffix}")) if p.stem != "__init__"}


def python_modules() -> dict[str, Path]:
    return _modules(PYTHON_RUNTIME, ".py")


def typescript_modules() -> dict[str, Path]:
    return _modules(TYPESCRIPT_RUNTIME, ".ts")


def one_sided_names(module: str) -> dict[str, str]:
    """Each name of `module` only one side has -> "Python" or "TypeScript"; names spelled
    apart on purpose (`SPELLED_APART`) are paired first."""
    python = python_names(python_modules()[module])
    typescript = typescript_names(typescript_modules()[module])
    py_public = set(python.public)
    ts_public = set(typescript.public)
    for (where, py_name), (ts_name, _why) in SPELLED_APART.items():
        if where == module and py_name in py_public and ts_name in ts_public:
            py_public.discard(py_name)
            ts_public.discard(ts_name)
    found = {name: "Python" for name in py_public - ts_public - typescript.types}
    found |= {name: "TypeScript" for name in ts_public - py_public}
    found |= {name: "Python" for name in python.constants - typescript.constants}
    found |= {name: "TypeScript" for name in typescript.constants - python.constants}
    return found


def test_the_readers_find_what_is_known_to_be_there() -> None:
    """So an empty reading cannot pass as twins."""
    assert "relations" in python_modules()
    assert "relations" in typescript_modules()
    python = python_names(python_modules()["relations"])
    typescript = typescript_names(typescript_modules()["relations"])
    assert {"parse_operand", "equal", "Join"} <= python.public
    assert "EQUAL" in python.constants
    assert {"parse_operand", "equal", "is_in"} <= typescript.public
    assert "Join" in typescript.types
    assert "EQUAL" in typescript.constants
    assert "Violation" in python_names(python_modules()["violations"]).public
    assert snake_case("memberNdimLength") == "member_ndim_length"
    assert snake_case("toJSON") == "to_json"
    assert snake_case("n_items") == "n_items"


def test_every_module_has_its_twin_or_a_reason() -> None:
    python, typescript = set(python_modules()), set(typescript_modules())
    found = [f"{m}.py: Python only" for m in sorted(python - typescript)]
    found += [f"{m}.ts: TypeScript only" for m in sorted(typescript - python)]
    unexplained = [line for line in found if line.partition(".")[0] not in ONE_SIDED_MODULES]
    assert not unexplained, (
        "a run-time module exists on one side only; give it its twin of the same name, or list "
        "it in ONE_SIDED_MODULES with the reason:\n" + "\n".join(unexplained)
    )


def test_every_name_of_a_twin_module_has_its_twin_or_a_reason() -> None:
    paired = sorted(set(python_modules()) & set(typescript_modules()))
    unexplained = [
        f"{module}: {name} is {side} only"
        for module in paired
        for name, side in sorted(one_sided_names(module).items())
        if (module, name) not in ONE_SIDED_NAMES
    ]
    assert not unexplained, (
        "a public name of a twin module exists on one side only (TypeScript names in "
        "snake_case); give it its twin, or list it in ONE_SIDED_NAMES with the reason:\n"
        + "\n".join(unexplained)
    )


def test_no_entry_is_stale() -> None:
    python, typescript = set(python_modules()), set(typescript_modules())
    stale = [
        f"ONE_SIDED_MODULES[{m!r}]: {m} is on both sides, or on neither"
        for m in ONE_SIDED_MODULES
        if (m in python) == (m in typescript)
    ]
    paired = python & typescript
    for module, name in ONE_SIDED_NAMES:
        if module not in paired or name not in one_sided_names(module):
            stale.append(
                f"ONE_SIDED_NAMES[{(module, name)!r}]: no longer one-sided, or no longer there"
            )
    for (module, py_name), (ts_name, _why) in SPELLED_APART.items():
        there = module in paired
        if not (
            there
            and py_name in python_names(python_modules()[module]).public
            and ts_name in typescript_names(typescript_modules()[module]).public
        ):
            stale.append(f"SPELLED_APART[{(module, py_name)!r}]: {ts_name} or {py_name} is gone")
    reasons = [*ONE_SIDED_MODULES.values(), *ONE_SIDED_NAMES.values()]
    reasons += [why for _ts, why in SPELLED_APART.values()]
    stale += [f"an empty reason: {r!r}" for r in reasons if not r.strip()]
    assert not stale, "entries that no longer hold; remove or correct them:\n" + "\n".join(stale)
