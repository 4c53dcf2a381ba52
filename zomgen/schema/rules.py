"""Are a schema document's `x-zomgen-rules` rules CEL that compiles? Checked with the
meta-schema (metaschema.py) when the convention is built, so a rule that does not parse, or calls
a function or reads a variable CEL does not know, is refused with its file, its JSON pointer and
the place in the rule, instead of failing on every store at run time.

The rules are compiled by the Python run time's evaluator (zomgen_runtime.rules, Google's CEL
runtime for Python), whose type checker also refuses unknown functions and variables. What that
engine accepts and the TypeScript one (@marcbachmann/cel-js) refuses is refused too, so that a
built package's rules run in both: `has()` of a selection below an index, and `replace`
(docs/extra-checks.md, "Rules in CEL").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from zomgen_runtime.pointers import to_pointer
from zomgen_runtime.rules import RULES, compile_error, entry_problem

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
    for path, value in _rule_lists(doc.contents, []):
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
                if error is not None:
                    said = (
                        f"the {key} {entry[key]!r} is not CEL that compiles: {_first_line(error)}"
                    )
                    problems.append(_problem(doc, [*at, key], said))
                elif key in entry and (why := _not_portable(entry[key])) is not None:
                    problems.append(_problem(doc, [*at, key], f"the {key} {entry[key]!r} {why}"))
    return problems


def _rule_lists(value: Any, path: list[str]) -> Iterator[tuple[list[str], Any]]:
    if isinstance(value, dict):
        named = bool(path) and path[-1] in _NAMED
        for key, inner in value.items():
            if not named and key == RULES:
                yield [*path, key], inner
            elif named or key not in _DATA:
                yield from _rule_lists(inner, [*path, key])
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _rule_lists(inner, [*path, str(index)])


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
