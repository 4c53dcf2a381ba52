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
(`split`, `join`, `indexOf`, `lowerAscii`, ...), `cel.bind`, and zomgen's library (tree.py):
the variable `nodes` (every node at and below `self`, by path) and the functions `indices`,
`pathParent` and `pathName`. Each rule is compiled once per process.

A JSON number is a CEL `int` when it is whole and within 64 bits, a `double` otherwise (JSON
Schema's view: 2.0 is an integer), in both run times, whatever the JSON text: the TypeScript run
time cannot see whether a number was written `2` or `2.0`. The TypeScript run time evaluates the same rules with @marcbachmann/cel-js (rules.ts),
and both give the same verdicts and messages (runtime/cases/rules.json). A problem's message
never quotes either engine's own error text, which differs between them.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import re
from dataclasses import dataclass
from typing import Any

from .pointers import parse_pointer, resolve_local_ref
from .problems import Problem
from .tree import FUNCTIONS, NODES, as_cel, nodes_of, uses_nodes
from .values import is_array, is_object
from .violations import Check, Violation, malformed

RULES = "x-zomgen-rules"
# A rule stopped by the iteration budget: cel-expr-python stops a program at the 10,000th step
# of its macros' loops (nested ones count together) and lets no caller change that; the
# TypeScript run time counts the same steps (iterations.ts). Such a rule is not a fault of the
# hierarchy but a place not checked, whose `Unchecked.reason` is RULE_BUDGET (api.py).
RULE_BUDGET = "rule budget"
OVER_BUDGET_WORDS = (
    "was not evaluated: it takes 10,000 iterations or more, the budget of a rule's evaluation"
)
_FIELDS = frozenset(("rule", "message", "messageExpression", "fieldPath", "reason"))


@dataclass(frozen=True)
class _Rule:
    """One entry of `x-zomgen-rules`, its texts compiled."""

    rule: str
    message: str | None
    message_expression: str | None
    field_path: tuple[str, ...]
    reads_nodes: bool  # does the rule or its message read the variable `nodes`?


# What the schema says `self` is, as CEL types: "dyn", "int", "string", "bool", or ("list", T)
# and ("map", T) (string keys) of another. Only the compiler's check reads it (SelfType).
SelfType = str | tuple[str, Any]


def compile_error(text: str, self_type: SelfType = "dyn") -> str | None:
    """Why CEL cannot compile `text` with `self` of `self_type` (the engine's words, with the
    position in the rule), or None when it can. The compiler refuses such a rule when the
    convention is built; at run time `self` is always `dyn`, so a rule typed against its schema
    reads each value as the type checker assumed."""
    try:
        if self_type == "dyn":
            _program(text)
        else:
            _compiled(_environment(self_type), text)
    except RuntimeError as exc:
        return str(exc).strip()
    return None


def result_type(text: str, self_type: SelfType = "dyn") -> str:
    """The CEL type the type checker gives `text` (which compiles), as the engine names it:
    `bool`, `string`, `int`, `dyn` (not known before it runs), ..."""
    environment = _environment(self_type)
    try:
        return str(environment.compile(text).return_type().name()).lower()
    except RuntimeError:  # compiles only past the checker's refusal: its type is not known
        return "dyn"


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


def over_budget(problem: Problem) -> bool:
    """Is `problem` a rule not evaluated past the iteration budget? (Not a fault of the
    hierarchy: a place not checked; api.py and the catalog report it as one.)"""
    return problem.keyword == RULES and problem.message.endswith(OVER_BUDGET_WORDS)


def with_rule_texts(problems: list[Problem], schema: Any) -> list[Problem]:
    """`problems` with each rule's problem given its rule's text (`rule`, in JSON output), found
    at its schema path in `schema`, the bundled schema."""
    if not any(p.keyword == RULES for p in problems):
        return problems
    return [
        dataclasses.replace(p, rule=_rule_text(schema, p.schema_path)) if p.keyword == RULES else p
        for p in problems
    ]


def _rule_text(schema: Any, schema_path: str) -> str:
    entry = resolve_local_ref(schema, "#" + schema_path)
    return entry["rule"] if is_object(entry) and isinstance(entry.get("rule"), str) else ""


def rules(value: Any) -> Check:
    parsed: list[_Rule] = []
    why = "expected a list of rules" if not is_array(value) else None
    for entry in value if is_array(value) else []:
        why = why or entry_problem(entry)
        if why is None and compile_error(entry["rule"]) is not None:
            why = f"the rule {entry['rule']} does not compile as CEL"
        if why is None:
            field = entry.get("fieldPath")
            expression = entry.get("messageExpression")
            parsed.append(
                _Rule(
                    entry["rule"],
                    entry.get("message"),
                    expression,
                    tuple(parse_pointer(field)) if field else (),
                    uses_nodes(entry["rule"]) or uses_nodes(expression or ""),
                )
            )
    with_nodes = any(rule.reads_nodes for rule in parsed)

    def check(instance: Any) -> list[Violation]:
        if why is not None:
            return [malformed(RULES, why)]
        found: list[Violation] = []
        # `self` made a CEL value once for all the rules of this place (as rules.ts does): the
        # conversion of a large group costs far more than a rule's evaluation
        try:
            bound = _bind(instance, with_nodes)
        except RecursionError:  # nests past what can be converted: no rule can be evaluated
            bound = None
        for index, rule in enumerate(parsed):
            verdict = _evaluate(rule.rule, bound)
            if verdict is True:
                continue
            if verdict is False:
                message = _message(rule, bound)
            elif verdict is _OVER_BUDGET:
                message = f"the rule {rule.rule} {OVER_BUDGET_WORDS}"
            elif verdict is None:
                message = f"the rule {rule.rule} cannot be evaluated on this value"
            else:
                message = f"the rule {rule.rule} gives no boolean"
            found.append(Violation(rule.field_path, message, index))
        return found

    return check


def _bind(instance: Any, with_nodes: bool) -> Any:
    """The evaluation context with `self` bound to `instance`, and `nodes` to its tree where a
    rule reads it (only then: it costs a second conversion of every node)."""
    value = as_cel(instance)
    if not with_nodes:
        return _environment().Activation({"self": value})
    return _environment().Activation({"self": value, NODES: nodes_of(value)})


_OVER_BUDGET = object()  # _evaluate's verdict for a rule stopped by the iteration budget


def _evaluate(text: str, bound: Any) -> Any:
    """The value the rule `text` gives in the context `bound` (a bool, or another value),
    _OVER_BUDGET, or None when it cannot be evaluated there (CEL's errors; a value CEL cannot
    hold anywhere in `self`)."""
    if bound is None:
        return None
    try:
        result = _program(text).eval(bound)
    except RuntimeError as exc:
        return _OVER_BUDGET if "Iteration budget exceeded" in str(exc) else None
    except (ValueError, TypeError, OverflowError):
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


# cel-cpp's type checker refuses a key index of a `dyn` value as the range of a macro
# (`self.attributes['lab:wells'].all(w, ...)`: "expression of type 'dyn' cannot be the range of a
# comprehension"), which CEL allows and cel-js accepts; `dyn(...)` around it passes. Such a text
# is checked with each literal key index as a field selection instead (of the same type), and
# compiled as written without the checker. (A key held in a variable, `m[k].all(...)`, is
# still refused: write `dyn(m[k]).all(...)`.)
_DYN_RANGE = "cannot be the range of a comprehension"
_KEY_INDEX = re.compile(r"(?<=[\w)\]])\[\s*(?:'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\")\s*\]")


@functools.lru_cache(maxsize=4096)
def _program(text: str) -> Any:
    """`text` compiled (raises RuntimeError, with the position, when it does not compile)."""
    return _compiled(_environment(), text)


def _compiled(environment: Any, text: str) -> Any:
    """`text` compiled in `environment`, past the checker's refusal above."""
    try:
        return environment.compile(text)
    except RuntimeError as exc:
        if _DYN_RANGE not in str(exc):
            raise
        # raises what else is wrong, at its place: the selection is padded to the index's length
        environment.compile(_KEY_INDEX.sub(lambda key: ".k".ljust(len(key[0])), text))
    return environment.compile(text, disable_check=True)


@functools.cache
def _environment(self_type: SelfType = "dyn") -> Any:
    # Imported here: a package that never meets a rule never loads the CEL runtime. The
    # library ships stubs but no py.typed, so the checkers would refuse it; importlib keeps its
    # names `Any`, as keywords.py does with jsonschema.
    cel: Any = importlib.import_module("cel_expr_python.cel")
    strings: Any = importlib.import_module("cel_expr_python.ext.ext_strings")
    bindings: Any = importlib.import_module("cel_expr_python.ext.ext_bindings")
    types = cel.Type
    type_of = {
        "list": types.List(types.DYN),
        "list<int>": types.List(types.INT),
        "list<string>": types.List(types.STRING),
        "map": types.Map(types.STRING, types.DYN),
        "string": types.STRING,
    }
    functions = [
        cel.FunctionDecl(
            name,
            [cel.Overload(f"{name}_{takes}", type_of[gives], [type_of[takes]], impl=impl)],
        )
        for name, takes, gives, impl in FUNCTIONS
    ]
    return cel.NewEnv(
        variables={"self": _cel_type(types, self_type), NODES: types.Map(types.STRING, types.DYN)},
        extensions=[strings.ExtStrings(), bindings.ExtBindings()],
        functions=functions,
    )


def _cel_type(types: Any, described: SelfType) -> Any:
    if isinstance(described, tuple):
        kind, inner = described
        inner_type = _cel_type(types, inner)
        return types.List(inner_type) if kind == "list" else types.Map(types.STRING, inner_type)
    return {"int": types.INT, "string": types.STRING, "bool": types.BOOL}.get(described, types.DYN)
