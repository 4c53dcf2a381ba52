"""The view model of `types.ts` as text: two spaces per level of nesting, a JSDoc comment
wrapped to the line width, and a union too long for its line written one option per line
(`| "a"`), the layout Prettier gives such code. Deterministic: no width depends on the
machine."""

from __future__ import annotations

import textwrap
from typing import assert_never

from zomgen.targets.typescript.view import (
    TsDeclaration,
    TsIntersection,
    TsObject,
    TsProperty,
    TsType,
)

WIDTH = 100
_INDENT = "  "
_OPENING = "([{<"
_CLOSING = ")]}>"


def declaration(d: TsDeclaration) -> str:
    comment = jsdoc(d.doc, "")
    text = f"export type {d.name} ={_after(d.type, '', len('export type  =;') + len(d.name))};"
    return f"{comment}\n{text}" if comment else text


def _property(p: TsProperty, indent: str) -> str:
    comment = jsdoc(p.doc, indent)
    head = f"{indent}readonly {p.key}{'' if p.required else '?'}:"
    line = f"{head}{_after(p.type, indent, len(head) + 1)};"
    return f"{comment}\n{line}" if comment else line


def _after(t: TsType, indent: str, used: int) -> str:
    """`t` as it follows `name =` or `key:` on a line indented by `indent` where `used`
    characters are taken: ` type`, or for a long union one option per line below."""
    if not isinstance(t, str):
        return " " + _type(t, indent)
    if used + 1 + len(t) <= WIDTH:
        return " " + t
    options = top_level_options(t)
    if len(options) > 1:
        return "".join(f"\n{indent}{_INDENT}| {o}" for o in options)
    return " " + _broken(t, indent)


def _broken(spelled: str, indent: str) -> str:
    """A long type with no union at its top: an array of a union, or an index signature,
    broken inside its brackets; anything else as it is."""
    inner = indent + _INDENT
    if spelled.startswith("readonly (") and spelled.endswith(")[]"):
        options = top_level_options(spelled[len("readonly (") : -len(")[]")])
        if len(options) > 1:
            return "readonly (" + "".join(f"\n{inner}| {o}" for o in options) + f"\n{indent})[]"
    if spelled.startswith("{ readonly [") and spelled.endswith(" }"):
        signature, colon, value = spelled[2:-2].partition("]: ")
        if colon and len(top_level_options(signature)) == 1:
            head = f"{inner}{signature}]:"
            return "{\n" + head + _after(value, inner, len(head) + 1) + f";\n{indent}}}"
    return spelled


def _type(t: TsType, indent: str) -> str:
    """`t` as it stands at the end of a line indented by `indent`."""
    if isinstance(t, str):
        return t
    if isinstance(t, TsObject):
        if not t.properties:
            return "{}"
        inner = indent + _INDENT
        lines = [_property(p, inner) for p in t.properties]
        return "{\n" + "\n".join(lines) + "\n" + indent + "}"
    if isinstance(t, TsIntersection):
        return " & ".join(_type(p, indent) for p in t.parts)
    assert_never(t)


def jsdoc(text: str | None, indent: str = "") -> str | None:
    """A JSDoc comment no schema text can end early (`*/`) or break (lone surrogates), one
    line when it fits, else wrapped to the width (never inside a word or at a hyphen)."""
    if text is None or not text.strip():
        return None
    lines = [" ".join(line.split()) for line in text.strip().splitlines()]
    safe = [
        "".join(c if c.isprintable() else " " for c in line).replace("*/", "*\\/")
        for line in lines
        if line
    ]
    safe = [line.encode("utf-8", "replace").decode("utf-8") for line in safe]
    if len(safe) == 1 and len(indent) + len(safe[0]) + 7 <= WIDTH:
        return f"{indent}/** {safe[0]} */"
    width = max(WIDTH - len(indent) - 3, 40)
    wrapped = [
        part
        for line in safe
        for part in textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False)
    ]
    body = "\n".join(f"{indent} * {line}" for line in wrapped)
    return f"{indent}/**\n{body}\n{indent} */"


def top_level_options(spelled: str) -> list[str]:
    """The options of a spelled union outside any brackets or string literal
    (`"a" | readonly (b | c)[]` -> 2 options)."""
    options: list[str] = []
    depth = 0
    quote: str | None = None
    start = 0
    i = 0
    while i < len(spelled):
        c = spelled[i]
        if quote is not None:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'`":
            quote = c
        elif c in _OPENING:
            depth += 1
        elif c in _CLOSING and not (c == ">" and spelled[i - 1 : i] == "="):
            depth -= 1
        elif depth == 0 and spelled.startswith(" | ", i):
            options.append(spelled[start:i])
            start = i + 3
            i += 2
        i += 1
    options.append(spelled[start:])
    return options
