"""What each checker must report for each mutation, and the checkers' configurations.

The codes were found by running the checkers (mypy 2.4.1, pyright 1.1.414, pyrefly 1.4.1,
ty 0.0.105, tsc 7; ty 1.2.0 and pyrefly 1.5.1 report the same) over the cases derived from every bundled convention and compiler case
(docs/derived-cases.md has the table). A code list is what the checker must report on the
case's line, exactly; `[]` means the checker cannot see the mistake (run-time only for it);
`None` means mypy cannot type the place (below a union holding `MypyFallback`, or in the other
members beside named ones: it has no PEP 728), so whether it fails there is not compared;
`not_compared` says why, in mypy's terms (cases.json's `mypy_not_compared`, and the agreement
report's "Not compared by mypy").

The rules, by what the mistake is:
- a value mistake (literal near miss, wrong JSON type, wrong data type): mypy `typeddict-item`
  (`list-item` in a list), pyright `reportAssignmentType`, pyrefly `bad-assignment`, ty
  `invalid-argument-type`, tsc TS2322;
- a key mistake (required key removed, unknown key added): mypy `typeddict-item` /
  `typeddict-unknown-key`, pyrefly `bad-typed-dict-key`, ty `missing-typed-dict-key` /
  `unknown-typed-dict-constructor-key` (plus `invalid-argument-type` below a dict or list
  value), tsc TS2741 for a closed object / TS2322 for an open one, TS2353 for an unknown key;
- a key mistake inside an option of a union: the checkers only say that the union does not
  match: mypy names the union's container (`typeddict-item`, `dict-item`, `list-item`); for
  value mistakes, and always for pyrefly and ty, `bad-assignment`,
  ty `invalid-argument-type` (`invalid-assignment` where the union is the document itself, a
  root of several layouts); tsc still tells an unknown key (TS2353) from the rest (TS2322);
- a node of the wrong kind is both: value and key mistakes at once (v2 nodes have no
  `node_type`, so there only the keys differ);
- a tuple is a list in documents.py, so its length and a position's literal that another
  position admits are run-time only for the Python checkers.
"""

from __future__ import annotations

import json

from zomgen.cases.mutate import Mutation, get

CHECKERS = ("mypy", "pyright", "pyrefly", "ty", "tsc")
Codes = dict[str, list[str] | None]

VALUE = {"near-miss-literal", "wrong-json-type", "wrong-data-type"}
MISSING = {"missing-required-key", "missing-named-member"}
UNKNOWN = {"unknown-key", "unknown-member"}
SWAP = {"group-where-array", "array-where-group", "wrong-kind-under-pattern"}
UNION_CODE = {"typeddict": "typeddict-item", "dict": "dict-item", "list": "list-item"}


# mypy's reason where a union on the path has an option that allows other keys (sight.py
# `_is_open`) but holds no `MypyFallback`: a map, say, or any JSON value.
OPEN_UNION = (
    "below a union with an option that allows other keys (an open object, a map or any JSON "
    "value), which mypy reads as a dict of any values (no PEP 728) that may admit the mistake"
)


def not_compared(mutation: Mutation) -> str | None:
    """Why mypy's verdict on a document mutation is not compared (its expectation is `None`),
    as mypy's own reason; None when it is compared."""
    if mutation.hidden:
        return mutation.ctx.loose
    if mutation.kind == "tuple-length" or not mutation.python_static:
        return None
    return mutation.ctx.loose or (OPEN_UNION if mutation.open_union else None)


def codes(mutation: Mutation) -> Codes:
    """Per checker, the codes a document mutation must be reported with."""
    kind = mutation.kind
    gap = not_compared(mutation)
    if mutation.hidden:
        return {c: None if c == "mypy" and gap else [] for c in CHECKERS}
    if kind == "tuple-length" or not mutation.python_static:
        tsc = [] if mutation.widened_admits else ["TS2322"]
        return {"mypy": [], "pyright": [], "pyrefly": [], "ty": [], "tsc": tsc}
    found: Codes = {
        "mypy": _mypy(mutation),
        "pyright": ["reportAssignmentType"],
        "pyrefly": _pyrefly(mutation),
        "ty": _ty(mutation),
        "tsc": _tsc(mutation),
    }
    if gap:
        found["mypy"] = None
    if _tsc_blind(mutation):
        found["tsc"] = []
    return found


def _tsc_blind(m: Mutation) -> bool:
    """TypeScript has one `number` type, so a fraction where an integer must be passes; a key
    excess in one option of a union passes when another option allows other keys, or types
    the key the mistake sits under so that the mutated value fits; and a member typed by an
    index signature is compared with the named members' types too (docs/typescript.md)."""
    if m.widened_admits:
        return True
    if m.kind == "wrong-json-type" and m.wrong_type == "number" and "integer" in m.admitted:
        return True
    return m.kind in UNKNOWN and (m.open_union_tsc or m.key_admitted_by_union)


def _v2_swap(mutation: Mutation) -> bool:
    return mutation.kind in SWAP and get(mutation.document, mutation.path).get("zarr_format") == 2


def _mypy(m: Mutation) -> list[str]:
    if m.mypy_union == "ambiguous":
        return sorted([UNION_CODE[m.mypy_union_container], "misc"])
    if m.mypy_union == "dict":
        return [UNION_CODE[m.mypy_union_container]]
    if m.kind in VALUE:
        return ["list-item" if m.ctx.container == "list" else "typeddict-item"]
    if m.kind in MISSING:
        return ["typeddict-item"]
    if m.kind in UNKNOWN:
        return []  # `typeddict-unknown-key` is off (MYPY_INI)
    return ["typeddict-item"]


def _pyrefly(m: Mutation) -> list[str]:
    if m.ctx.union or m.kind in VALUE:
        return ["bad-assignment"]
    if m.kind in SWAP and not _v2_swap(m):
        return ["bad-assignment", "bad-typed-dict-key"]
    return ["bad-typed-dict-key"]


def _ty(m: Mutation) -> list[str]:
    if m.ctx.unions and not m.ctx.unions[0][0]:
        # the document itself is a union (a root of several layouts): ty says the literal is
        # not assignable to it, as it would of any annotated variable
        return ["invalid-assignment"]
    if m.ctx.union or m.kind in VALUE:
        return ["invalid-argument-type"]
    found = set()
    if m.kind in MISSING or m.kind in SWAP:
        found.add("missing-typed-dict-key")
    if m.kind in UNKNOWN or m.kind in SWAP:
        found.add("unknown-typed-dict-constructor-key")
    if m.ctx.in_collection or (m.kind in SWAP and not _v2_swap(m)):
        found.add("invalid-argument-type")
    return sorted(found)


def _tsc(m: Mutation) -> list[str]:
    if m.kind in UNKNOWN:
        return ["TS2353"]
    if m.kind in MISSING and m.closed and (not m.ctx.union or m.union_narrowed):
        return ["TS2741"]
    if _v2_swap(m):
        return ["TS2353"]
    return ["TS2322"]


def frozen_codes() -> Codes:
    """Assigning a field of a frozen model (there is no TypeScript model)."""
    return {
        "mypy": ["misc"],
        "pyright": ["reportAttributeAccessIssue"],
        "pyrefly": ["read-only"],
        "ty": ["invalid-assignment"],
        "tsc": [],
    }


MYPY_INI = """\
# mypy over the derived cases: strict; unused or code-less ignores are errors.
[mypy]
strict = True
warn_unused_ignores = True
enable_error_code = ignore-without-code
python_version = 3.11
# mypy has no PEP 728: it reads an object that allows other keys as its listed keys, and
# accepts the others only with this code off (the package README says more).
disable_error_code = typeddict-unknown-key
mypy_path = $MYPY_CONFIG_FILE_DIR
"""

PYRIGHT = {
    "include": ["*_cases"],
    "extraPaths": ["."],
    "typeCheckingMode": "strict",
    "pythonVersion": "3.11",
    "enableTypeIgnoreComments": False,
    "reportUnnecessaryTypeIgnoreComment": "error",
}

TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "exactOptionalPropertyTypes": True,
        "noUncheckedIndexedAccess": True,
        "noEmit": True,
        "skipLibCheck": True,
        "types": [],
        "target": "esnext",
        "module": "esnext",
        "moduleResolution": "bundler",
        "isolatedModules": True,
    },
    "include": ["*_cases/*.ts"],
}


def configurations() -> dict[str, str]:
    return {
        "mypy.ini": MYPY_INI,
        "pyrightconfig.json": json.dumps(PYRIGHT, indent=2) + "\n",
        "tsconfig.json": json.dumps(TSCONFIG, indent=2) + "\n",
    }
