"""Are a schema document's `x-zomgen-rules` rules CEL that compiles? Checked with the
meta-schema (metaschema.py) when the convention is built, so a rule that does not parse, or calls
a function or reads a variable CEL does not know, is refused with its file, its JSON pointer and
the place in the rule, instead of failing on every store at run time.

The rules are compiled by the Python run time's evaluator (zomgen_runtime.rules, Google's CEL
runtime for Python), whose type checker also refuses unknown functions and variables. What that
engine accepts and the TypeScript one (@marcbachmann/cel-js) refuses is refused too, so that a
built package's rules run in both: `has()` of a selection below an index, and `replace`
(docs/extra-checks.md, "Rules in CEL").

A rule is also type-checked against what its subschema says of `self`, where it says it with
`type` (and `items`, or `additionalProperties` of an object without `properties`): on
`{"type": "array", "items": {"type": "string"}}`, `self.all(d, d > 0)` compares a string with an
int and is refused. Where the subschema says nothing of the type (a node's schema, `allOf`,
`$ref`), `self` is `dyn` and any use of it type-checks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from zomgen_runtime.pointers import to_pointer
from zomgen_runtime.rules import RULES, SelfType, compile_error, entry_problem, result_type

from zomgen.errors import InputProblem
from zomgen.schema.documents import SchemaDocument

# Keywords whose value is data, not schemas: a key named `x-zomgen-rules` there is no rule.
_DATA = frozenset(("const", "enum", "default", "examples"))
# Keywords whose value maps names to schemas: a key there is a name, even `x-zomgen-rules`.
_NAMED = frozenset(("properties", "patternProperties", "$defs", "definitions", "dependentSchemas"))
_ENGINE_HEAD = re.compile(r"^(?:[A-Z_]+: )?ERROR: <input>:")
# CEL's string literals (their text is no code), then what only the Python engine reads.
_STRINGS = re.compile(r"'(?:\\.|[^'\\])*'" + r'|"(?:\\.|[^"\\])*"')
_HAS_BELOW_INDEX = re.compile(r"\bhas\(([^()]*\[[^()]*)\)")
_REPLACE = re.compile(r"\.replace\(")


def rule_problems(doc: SchemaDocument) -> list[InputProblem]:
    """A problem for each malformed rule entry and each rule or message expression that does
    not compile, at its pointer."""
    problems = []
    for path, value, holder in _rule_lists(doc.contents, []):
        self_type = schema_type(holder)
        if not isinstance(value, list):
            problems.append(_problem(doc, path, "expected a list of rules"))
            continue
        for index, entry in enumerate(value):
            at = [*path, str(index)]
            why = entry_problem(entry)
            if why is not None:
                problems.append(_problem(doc, at, why))
                continue
            for key in ("rule", "messageExpression"):
                error = compile_error(entry[key]) if key in entry else None
                typed = (
                    compile_error(entry[key], self_type)
                    if key in entry and error is None and self_type != "dyn"
                    else None
                )
                if error is not None:
                    said = (
                        f"the {key} {entry[key]!r} is not CEL that compiles: {_first_line(error)}"
                    )
                    problems.append(_problem(doc, [*at, key], said))
                elif typed is not None:
                    said = (
                        f"the {key} {entry[key]!r} does not type-check with `self` a "
                        f"{_spelled(self_type)}, as the schema here says: {_first_line(typed)}"
                    )
                    problems.append(_problem(doc, [*at, key], said))
                elif key in entry and (gives := _gives_wrong(key, entry[key], self_type)):
                    problems.append(_problem(doc, [*at, key], f"the {key} {entry[key]!r} {gives}"))
                elif key in entry and (why := _not_portable(entry[key])) is not None:
                    problems.append(_problem(doc, [*at, key], f"the {key} {entry[key]!r} {why}"))
    return problems


def _rule_lists(value: Any, path: list[str]) -> Iterator[tuple[list[str], Any, Any]]:
    """Each `x-zomgen-rules` value: its path, the value, and the subschema holding it."""
    if isinstance(value, dict):
        named = bool(path) and path[-1] in _NAMED
        for key, inner in value.items():
            if not named and key == RULES:
                yield [*path, key], inner, value
            elif named or key not in _DATA:
                yield from _rule_lists(inner, [*path, key])
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _rule_lists(inner, [*path, str(index)])


_SCALARS: dict[str, SelfType] = {"string": "string", "integer": "int", "boolean": "bool"}


def schema_type(schema: Any) -> SelfType:
    """What `schema` says every value it accepts is, as a CEL type ("dyn" where it does not
    say, or says "number": an int or a double)."""
    if not isinstance(schema, dict) or not isinstance(schema.get("type"), str):
        return "dyn"
    kind = schema["type"]
    if kind == "array":
        items = schema.get("items")
        return ("list", schema_type(items) if isinstance(items, dict) else "dyn")
    if kind == "object":
        more = schema.get("additionalProperties")
        closed = "properties" not in schema and "patternProperties" not in schema
        return ("map", schema_type(more) if closed and isinstance(more, dict) else "dyn")
    return _SCALARS.get(kind, "dyn")


# What each text must give, where the type checker knows (`dyn` is known only when it runs).
_GIVES = {"rule": "bool", "messageExpression": "string"}


def _gives_wrong(key: str, text: str, self_type: SelfType) -> str | None:
    found = result_type(text, self_type)
    wanted = _GIVES[key]
    if found in (wanted, "dyn"):
        return None
    return f"gives a value of type {found}, not {wanted}"


def _spelled(self_type: SelfType) -> str:
    """`self_type` as CEL writes types: `list(string)`, `map(string, int)`."""
    if isinstance(self_type, tuple):
        kind, inner = self_type
        return f"list({_spelled(inner)})" if kind == "list" else f"map(string, {_spelled(inner)})"
    return self_type


def _not_portable(text: str) -> str | None:
    """Why the TypeScript engine would refuse `text`, which the Python one compiles, or None."""
    code = _STRINGS.sub("''", text)
    if _HAS_BELOW_INDEX.search(code):
        return (
            "uses has() of a selection below an index, which the TypeScript run time's CEL "
            "cannot read: write 'key' in map"
        )
    if _REPLACE.search(code):
        return "uses replace(), which the TypeScript run time's CEL does not have"
    return None


def _first_line(error: str) -> str:
    """The engine's message without its prefix: `1:10: Syntax error: ...` (line:column)."""
    return _ENGINE_HEAD.sub("", error.strip().splitlines()[0])


def _problem(doc: SchemaDocument, path: list[str], message: str) -> InputProblem:
    return InputProblem(str(doc.path), to_pointer(path), f"{RULES}: {message}")
