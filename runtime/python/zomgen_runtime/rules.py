"""`x-zomgen-rules`: rules a convention's author writes in CEL, the Common Expression Language,
in the form of Kubernetes' `x-kubernetes-validations` (docs/extra-checks.md, "Rules in CEL").

    "x-zomgen-rules": [
      {"rule": "self.shape.size() == self.attributes.dims.size()",
       "message": "one dimension name per axis", "fieldPath": "/attributes/dims"}
    ]

On any subschema: `self` is the value at that place (a node's document, with its `attributes`
and `members`, or any value inside it). A rule that gives `false` is a problem at `fieldPath` (a
JSON pointer inside `self`; `self` itself without one) with `message`, or the text
`messageExpression` gives, or one naming the rule. A rule that cannot be evaluated on the value
(it reads a key the value does not have, or compares a string with a number) or gives no
boolean is a problem too: a rule holds only where it says `true`.

The evaluator is Google's CEL runtime for Python (`cel-expr-python`), with CEL's standard
macros (`all`, `exists`, `exists_one`, `map`, `filter`, `has`, `size`), the strings extension
(`split`, `join`, `indexOf`, `lowerAscii`, ...) and zomgen's `indices(list)`. Each rule is
compiled once per process. The TypeScript run time evaluates the same rules with @marcbachmann/cel-js (rules.ts),
and both give the same verdicts and messages (runtime/cases/rules.json). A problem's message
never quotes either engine's own error text, which differs between them.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import Any

from .pointers import parse_pointer
from .values import is_array, is_object
from .violations import Check, Violation, malformed

RULES = "x-zomgen-rules"
_FIELDS = frozenset(("rule", "message", "messageExpression", "fieldPath", "reason"))


@dataclass(frozen=True)
class _Rule:
    """One entry of `x-zomgen-rules`, its texts compiled."""

    rule: str
    message: str | None
    message_expression: str | None
    field_path: tuple[str, ...]


def compile_error(text: str) -> str | None:
    """Why CEL cannot compile `text` (the engine's words, with the position in the rule), or
    None when it can. The compiler refuses such a rule when the convention is built."""
    try:
        _program(text)
    except RuntimeError as exc:
        return str(exc).strip()
    return None


def entry_problem(entry: Any) -> str | None:
    """What is wrong with one entry's form (not its CEL), or None."""
    if not is_object(entry):
        return "each rule is an object"
    unknown = sorted(set(entry) - _FIELDS)
    if unknown:
        return f"unknown key {unknown[0]!r} (a rule has {', '.join(sorted(_FIELDS))})"
    if not isinstance(entry.get("rule"), str):
        return "each rule has a `rule`, a CEL expression"
    for key in ("message", "messageExpression", "fieldPath", "reason"):
        if key in entry and not isinstance(entry[key], str):
            return f"`{key}` is a string"
    return None


def rules(value: Any) -> Check:
    parsed: list[_Rule] = []
    why = "expected a list of rules" if not is_array(value) else None
    for entry in value if is_array(value) else []:
        why = why or entry_problem(entry)
        if why is None and compile_error(entry["rule"]) is not None:
            why = f"the rule {entry['rule']} does not compile as CEL"
        if why is None:
            field = entry.get("fieldPath")
            parsed.append(
                _Rule(
                    entry["rule"],
                    entry.get("message"),
                    entry.get("messageExpression"),
                    tuple(parse_pointer(field)) if field else (),
                )
            )

    def check(instance: Any) -> list[Violation]:
        if why is not None:
            return [malformed(RULES, why)]
        found: list[Violation] = []
        # `self` made a CEL value once for all the rules of this place (as rules.ts does): the
        # conversion of a large group costs far more than a rule's evaluation
        bound = _bind(instance)
        for index, rule in enumerate(parsed):
            verdict = _evaluate(rule.rule, bound)
            if verdict is True:
                continue
            if verdict is False:
                message = _message(rule, bound)
            elif verdict is None:
                message = f"the rule {rule.rule} cannot be evaluated on this value"
            else:
                message = f"the rule {rule.rule} gives no boolean"
            found.append(Violation(rule.field_path, message, index))
        return found

    return check


def _bind(instance: Any) -> Any:
    """The evaluation context with `self` bound to `instance`."""
    return _environment().Activation({"self": instance})


def _evaluate(text: str, bound: Any) -> Any:
    """The value the rule `text` gives in the context `bound` (a bool, or another value), or
    None when it cannot be evaluated there (CEL's errors; a value CEL cannot hold, such as an
    integer past 64 bits, anywhere in `self`)."""
    try:
        result = _program(text).eval(bound)
    except (RuntimeError, ValueError, TypeError, OverflowError):
        return None
    if result.type().name() == "ERROR":  # CEL's own errors are values
        return None
    return result.plain_value()


def _message(rule: _Rule, bound: Any) -> str:
    if rule.message_expression is not None:
        said = _evaluate(rule.message_expression, bound)
        if isinstance(said, str) and said:
            return said
    return rule.message or f"fails the rule {rule.rule}"


@functools.lru_cache(maxsize=4096)
def _program(text: str) -> Any:
    """`text` compiled (raises RuntimeError, with the position, when it does not compile)."""
    return _environment().compile(text)


@functools.cache
def _environment() -> Any:
    # Imported here: a package that never meets a rule never loads the CEL runtime. The
    # library ships stubs but no py.typed, so the checkers would refuse it; importlib keeps its
    # names `Any`, as keywords.py does with jsonschema.
    cel: Any = importlib.import_module("cel_expr_python.cel")
    strings: Any = importlib.import_module("cel_expr_python.ext.ext_strings")
    types = cel.Type
    indices = cel.FunctionDecl(
        "indices",
        [
            cel.Overload(
                "indices_list", types.List(types.INT), [types.List(types.DYN)], impl=_indices
            )
        ],
    )
    return cel.NewEnv(
        variables={"self": types.DYN}, extensions=[strings.ExtStrings()], functions=[indices]
    )


def _indices(items: list[Any]) -> list[int]:
    """`indices(list)`: 0, 1, ... size - 1, to pair lists by position (neither engine has
    two-variable comprehensions): `indices(self.shape).all(i, self.shape[i] == ...)`."""
    return list(range(len(items)))
