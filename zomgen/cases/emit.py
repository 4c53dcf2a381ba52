"""Spelling the cases: JSON values as one-line Python and TypeScript literals, a parsed model as
the statements that build it through the dataclass constructors, and the case files.

Every case is one statement on one line, so every checker reports its mistake on that line.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from collections.abc import Mapping
from typing import Any


def python_literal(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else f'float("{value}")'
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(python_literal(v) for v in value) + "]"
    pairs = (f"{json.dumps(k)}: {python_literal(v)}" for k, v in value.items())
    return "{" + ", ".join(pairs) + "}"


def typescript_literal(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(typescript_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{_ts_key(k)}: {typescript_literal(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    return json.dumps(value)


def _ts_key(key: str) -> str:
    # `__proto__: x` would set the prototype; a computed key makes an own property, as
    # JSON.parse does.
    return f"[{json.dumps(key)}]" if key == "__proto__" else json.dumps(key)


class ModelStatements:
    """The statements that build parsed models (or parts of them) through the dataclass
    constructors of `module`, node by node: each dataclass below the top is bound to a name of
    its own before the node that holds it is built, and a node spelled the same twice is built
    once. pyright's time on one deeply nested constructor expression grows steeply with its
    depth: one GeoZarr hierarchy took it 80 s as one expression, 4 s node by node."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.lines: list[str] = []
        self._names: dict[str, str] = {}  # expression -> the name it is bound to
        self._count: dict[str, int] = {}  # snake-case class name -> names given

    def add(self, name: str, annotation: str, value: Any) -> None:
        """`name: annotation = <value>`, after the statements of the nodes it holds."""
        self.lines.append(f"{name}: {annotation} = {self._expression(value)}")

    def _expression(self, value: Any) -> str:
        if _is_model(value):
            args = ", ".join(
                f"{f.name}={self._argument(getattr(value, f.name))}"
                for f in dataclasses.fields(value)
                if f.init
            )
            return (
                f"{self.module}.{type(value).__name__}{_type_arguments(value, self.module)}({args})"
            )
        if type(value).__name__ == "Unset":
            return f"{self.module}.UNSET"
        if isinstance(value, tuple):
            inner = ", ".join(self._argument(v) for v in value)
            return f"({inner},)" if len(value) == 1 else f"({inner})"
        if isinstance(value, Mapping):
            pairs = (f"{json.dumps(k)}: {self._argument(v)}" for k, v in value.items())
            return "{" + ", ".join(pairs) + "}"
        if isinstance(value, list):
            return "[" + ", ".join(self._argument(v) for v in value) + "]"
        return python_literal(value)

    def _argument(self, value: Any) -> str:
        """A part of a node: a dataclass by its name, bound first; anything else spelled."""
        expression = self._expression(value)
        if not _is_model(value):
            return expression
        if expression not in self._names:
            stem = _snake(type(value).__name__)
            self._count[stem] = self._count.get(stem, 0) + 1
            self._names[expression] = f"{stem}_{self._count[stem]}"
            self.lines.append(f"{self._names[expression]} = {expression}")
        return self._names[expression]


def _is_model(value: Any) -> bool:
    """Whether `value` is a dataclass instance (a node or object of a parsed model)."""
    return dataclasses.is_dataclass(value) and not isinstance(value, type)


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


# The generic base nodes (a member the convention leaves unrefined): their type arguments are
# spelled out, or an empty `{}` would be `dict[Unknown, Unknown]` to pyright.
BASES = {
    "GroupSpec": "[{m}.JsonObject, dict[str, {m}.AnyNode]]",
    "ArraySpec": "[{m}.JsonObject]",
}


def _type_arguments(value: Any, module: str) -> str:
    name = type(value).__name__
    if name in BASES and type(value).__qualname__ == name and len(type(value).__mro__) <= 3:
        return BASES[name].format(m=module)
    return ""


def frozen_targets(model: Any) -> list[tuple[str, ...]]:
    """Attribute paths whose assignment a frozen model refuses: the root's `attributes`, and
    the first field of the root's attribute object when it is a dataclass."""
    targets: list[tuple[str, ...]] = [("attributes",)]
    attributes = getattr(model, "attributes", None)
    if dataclasses.is_dataclass(attributes) and not isinstance(attributes, type):
        fields = [f.name for f in dataclasses.fields(attributes) if f.init]
        if fields:
            targets.append(("attributes", fields[0]))
    return targets


HEADER = "# generated by zomgen cases; do not edit: each line below is one case\n"
MODELS_HEADER = (
    "# generated by zomgen cases; do not edit: the valid hierarchy and each union option,\n"
    "# built node by node through the models' constructors (every checker must accept them)\n"
)


def python_file(imports: str, lines: list[str], header: str = HEADER) -> str:
    head = f"{header}from __future__ import annotations\n\n{imports}\n\n"
    return head + "".join(f"{line}\n" for line in lines)


def typescript_file(package: str, root: str, lines: list[str]) -> str:
    head = f'// generated by zomgen cases; do not edit\nimport type {{ {root} }} from "../{package}/types.js";\n\n'
    return head + "".join(f"{line}\n" for line in lines)


def header_lines(text: str) -> int:
    """How many lines a file's header takes (the first case is on the line after)."""
    return text.count("\n")
