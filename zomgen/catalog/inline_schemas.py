"""A catalog entry's `declared_when` and `used_when`: JSON Schemas written inside the catalog,
run on every node of every store. They are read offline like everything else a catalog names:
a `$ref` may point only inside the schema itself (`#/...`), never to a URL or a file, and must
resolve there; a schema that is not a valid draft 2020-12 schema is refused. Each problem names
the catalog file and the pointer, before any store is read."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from zomgen_runtime.pointers import escape, resolve_local_ref

from zomgen.errors import InputProblem

_REFERENCES = ("$ref", "$dynamicRef")


def inline_schema_problems(where: str, pointer: str, schema: dict[str, Any]) -> list[InputProblem]:
    """What is wrong with one inline schema of a user's catalog: its references, then the draft
    2020-12 meta-schema (the bundled catalog's are checked by its tests instead)."""
    problems = [
        InputProblem(where, f"{pointer}{at}", message) for at, message in _references(schema)
    ]
    if not problems:
        import jsonschema  # 0.05 s to import: only where a catalog needs it

        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.SchemaError as exc:
            at = "".join(f"/{escape(str(part))}" for part in exc.path)
            problems.append(
                InputProblem(where, f"{pointer}{at}", f"not a JSON Schema: {exc.message}")
            )
    return problems


def _references(schema: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(pointer, what is wrong) for each reference that leaves the schema or finds nothing."""
    stack: list[tuple[str, Any]] = [("", schema)]
    while stack:
        at, value = stack.pop()
        if isinstance(value, dict):
            for keyword in _REFERENCES:
                ref = value.get(keyword)
                if isinstance(ref, str):
                    wrong = _wrong_reference(schema, ref)
                    if wrong is not None:
                        yield f"{at}/{escape(keyword)}", wrong
            stack += [(f"{at}/{escape(k)}", v) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [(f"{at}/{i}", v) for i, v in enumerate(value)]


def _wrong_reference(schema: dict[str, Any], ref: str) -> str | None:
    if not ref.startswith("#"):
        return (
            f"{ref!r} points outside the catalog: a catalog's schemas may refer only inside "
            "themselves ('#/...'); zomgen reads no other file and never opens the network"
        )
    if ref.startswith("#/") or ref == "#":
        if resolve_local_ref(schema, ref) is None and ref != "#":
            return f"{ref!r} finds nothing in this schema"
        return None
    anchor = ref[1:]
    if not any(_anchors(schema, anchor)):
        return f"{ref!r} names no $anchor of this schema"
    return None


def _anchors(value: Any, name: str) -> Iterator[bool]:
    if isinstance(value, dict):
        if value.get("$anchor") == name or value.get("$dynamicAnchor") == name:
            yield True
        for item in value.values():
            yield from _anchors(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from _anchors(item, name)
