"""A small value a raw subschema of the bundled `schema.json` admits, for the repairs the IR
cannot guide: an option of a refused `oneOf`/`anyOf`, a key an `if`/`then` requires, the item a
`contains` asks for.

It reads the subschema's own words: `const`, `enum`, `examples`, `default`, then `type` with
its `properties`/`required`, `items`/`prefixItems`/`minItems`, `pattern`, `minimum` and
`minLength`; `allOf` parts are merged, the first option of a `oneOf`/`anyOf` taken, local
`$ref`s followed. It is a guess: the repair loop asks the run time whether it holds.
"""

from __future__ import annotations

import math
from typing import Any

from zomgen.cases.strings import matching

DEPTH = 12  # how deep into nested subschemas a guess goes


def guess(schema: Any, subschema: Any, depth: int = 0) -> Any:
    """A value `subschema` (inside the bundled `schema`) probably admits; None when unsure."""
    subschema = deref(schema, subschema)
    if not isinstance(subschema, dict) or depth > DEPTH:
        return None
    for word in ("const", "default"):
        if word in subschema:
            return subschema[word]
    for word in ("enum", "examples"):
        values = subschema.get(word)
        if isinstance(values, list) and values:
            return values[0]
    merged = all_of_merged(schema, subschema)
    kind = _kind(merged)
    if kind == "object":
        return _object(schema, merged, depth)
    if kind == "array":
        return _array(schema, merged, depth)
    if kind == "string":
        pattern = merged.get("pattern")
        text = matching(pattern) if isinstance(pattern, str) else ""
        text = text or ""
        length = merged.get("minLength")
        return text + "a" * (length - len(text)) if isinstance(length, int) else text
    if kind in ("integer", "number"):
        low = merged.get("minimum", merged.get("exclusiveMinimum"))
        if isinstance(low, int | float) and not isinstance(low, bool):
            return math.floor(low) + (1 if "exclusiveMinimum" in merged else 0)
        return 0
    if kind == "boolean":
        return False
    for word in ("oneOf", "anyOf"):
        options = merged.get(word)
        if isinstance(options, list) and options:
            return guess(schema, options[0], depth + 1)
    return None


def options(schema: Any, subschema: Any) -> list[Any]:
    """A guess for each option of the subschema's `oneOf` and `anyOf`."""
    subschema = deref(schema, subschema)
    if not isinstance(subschema, dict):
        return []
    found: list[Any] = []
    for word in ("oneOf", "anyOf"):
        for option in subschema.get(word) or []:
            value = guess(schema, option)
            if value is not None:
                found.append(value)
    return found


def _object(schema: Any, merged: dict[str, Any], depth: int) -> dict[str, Any]:
    properties = merged.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    required = merged.get("required")
    out: dict[str, Any] = {}
    for key in required if isinstance(required, list) else []:
        if isinstance(key, str):
            out[key] = guess(schema, properties.get(key, {}), depth + 1)
    return out


def _array(schema: Any, merged: dict[str, Any], depth: int) -> list[Any]:
    prefix = merged.get("prefixItems")
    out = [guess(schema, p, depth + 1) for p in prefix] if isinstance(prefix, list) else []
    wanted = merged.get("minItems")
    wanted = wanted if isinstance(wanted, int) and wanted <= 32 else 0
    item = merged.get("items")
    while len(out) < wanted and isinstance(item, dict | bool) and item is not False:
        out.append(guess(schema, item, depth + 1))
    return out


def all_of_merged(schema: Any, subschema: dict[str, Any]) -> dict[str, Any]:
    """The subschema with its `allOf` parts' words added (theirs first, its own win)."""
    merged: dict[str, Any] = {}
    for part in subschema.get("allOf") or []:
        part = deref(schema, part)
        if isinstance(part, dict):
            inner = all_of_merged(schema, part)
            properties = {**merged.get("properties", {}), **inner.get("properties", {})}
            required = [*merged.get("required", []), *inner.get("required", [])]
            merged.update(inner)
            merged["properties"], merged["required"] = properties, required
    properties = {**merged.get("properties", {}), **(subschema.get("properties") or {})}
    required = [*merged.get("required", []), *(subschema.get("required") or [])]
    merged.update(subschema)
    merged["properties"], merged["required"] = properties, list(dict.fromkeys(required))
    return merged


def _kind(merged: dict[str, Any]) -> str:
    kind = merged.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), kind[0] if kind else None)
    if isinstance(kind, str):
        return kind
    if merged.get("properties") or merged.get("required"):
        return "object"
    if "items" in merged or "prefixItems" in merged:
        return "array"
    return ""


def deref(schema: Any, subschema: Any) -> Any:
    """A subschema with its local `$ref` (the bundled schema's only kind) followed."""
    for _ in range(20):
        if not isinstance(subschema, dict) or not isinstance(subschema.get("$ref"), str):
            return subschema
        ref = subschema["$ref"]
        if not ref.startswith("#"):
            return subschema
        try:
            subschema = resolve(schema, ref[1:])
        except (KeyError, IndexError, ValueError, TypeError):
            return subschema
    return subschema


def escape(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def tokens(pointer: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def resolve(document: Any, pointer: str) -> Any:
    for token in tokens(pointer):
        document = document[int(token)] if isinstance(document, list) else document[token]
    return document


def put(document: Any, pointer: str, value: Any) -> Any:
    """`document` with `value` at `pointer` (in place; the value itself at the root)."""
    if not pointer:
        return value
    path = tokens(pointer)
    parent = resolve(document, "".join(f"/{escape(t)}" for t in path[:-1]))
    if isinstance(parent, list):
        parent[int(path[-1])] = value
    else:
        parent[path[-1]] = value
    return document
