"""Making the synthesised hierarchy valid where the IR could not: ask the package's run time
what it refuses, and replace the refused value by the subschema's `examples` (or `default`),
or, for a bound, by the bound. What cannot be repaired is reported with the schema pointer of
the constraint that blocks it.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from zomgen.cases.synth import Unsatisfiable

ROUNDS = 50  # one value is repaired per round


@dataclass(frozen=True)
class Refusal:
    """One problem the run time reports: where in the document, and which schema keyword."""

    pointer: str  # absolute JSON pointer into the document
    keyword: str
    schema_path: str  # JSON pointer into the bundled schema
    message: str


Check = Callable[[Any], Sequence[Refusal]]


def absolute(node_path: str, pointer: str) -> str:
    """The document pointer of a problem given as (node path, pointer inside the node)."""
    names = [n for n in node_path.split("/") if n]
    return "".join(f"/members/{escape(n)}" for n in names) + pointer


def escape(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def tokens(pointer: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def resolve(document: Any, pointer: str) -> Any:
    for token in tokens(pointer):
        document = document[int(token)] if isinstance(document, list) else document[token]
    return document


def repaired(document: Any, schema: Any, check: Check) -> Any:
    """`document` made valid by replacing refused values; raises Unsatisfiable naming the
    first constraint that nothing here can satisfy."""
    doc = copy.deepcopy(document)
    tried: set[tuple[tuple[str, str], str]] = set()
    for _ in range(ROUNDS):
        refusals = check(doc)
        if not refusals:
            return doc
        for refusal in refusals:
            key = (refusal.pointer, refusal.schema_path)
            candidates = [
                c for c in _candidates(refusal, schema, doc) if (key, repr(c)) not in tried
            ]
            if candidates:
                tried.add((key, repr(candidates[0])))
                doc = _put(doc, refusal.pointer, candidates[0])
                break
        else:
            first = refusals[0]
            raise Unsatisfiable(
                first.schema_path,
                f"`{first.keyword}` refuses the synthesised value at document pointer "
                f"{first.pointer or '/'} ({first.message}); add `examples` to this subschema "
                "(or a valid example to the root schema)",
            )
    raise Unsatisfiable("", f"no valid hierarchy after {ROUNDS} repairs")


def _candidates(refusal: Refusal, schema: Any, doc: Any) -> list[Any]:
    parent = "/".join(refusal.schema_path.split("/")[:-1])
    try:
        subschema = resolve(schema, parent)
        current = resolve(doc, refusal.pointer)
    except (KeyError, IndexError, ValueError, TypeError):
        return []
    if not isinstance(subschema, dict):
        return []
    found: list[Any] = []
    examples = subschema.get("examples")
    if isinstance(examples, list):
        found.extend(examples)
    if "default" in subschema:
        found.append(subschema["default"])
    found.extend(_bound(refusal.keyword, subschema, current))
    return [copy.deepcopy(c) for c in found]


def _bound(keyword: str, subschema: dict[str, Any], current: Any) -> list[Any]:
    """The value a failed bound asks for, where it is plain."""
    limit = subschema.get(keyword)
    if isinstance(limit, int | float) and not isinstance(limit, bool):
        if keyword in ("minimum", "maximum", "multipleOf"):
            return [limit]
        if keyword == "exclusiveMinimum":
            return [math.floor(limit) + 1]
        if keyword == "exclusiveMaximum":
            return [math.ceil(limit) - 1]
    if keyword == "minLength" and isinstance(limit, int) and isinstance(current, str):
        return [current + "a" * (limit - len(current))]
    if keyword == "minItems" and isinstance(limit, int) and isinstance(current, list) and current:
        return [current + [current[-1]] * (limit - len(current))]
    return []


def _put(doc: Any, pointer: str, value: Any) -> Any:
    if not pointer:
        return value
    path = tokens(pointer)
    parent = resolve(doc, "".join(f"/{escape(t)}" for t in path[:-1]))
    if isinstance(parent, list):
        parent[int(path[-1])] = value
    else:
        parent[path[-1]] = value
    return doc
