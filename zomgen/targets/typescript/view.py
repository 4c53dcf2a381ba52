"""The view model of `types.ts`: each declaration's body as structured data, so that the printer
(printer.py) lays out nesting, long unions and comments; nested type expressions stay the
strings spelling.py makes. Nothing here decides anything."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TsProperty:
    """`readonly key?: type;`, with the schema's prose as a JSDoc comment above it."""

    key: str  # as written in the source: bare, or a quoted string literal
    type: TsType
    required: bool
    doc: str | None = None


@dataclass(frozen=True)
class TsObject:
    """An object type listing its properties: `{ readonly a: A; readonly b?: B; }`."""

    properties: tuple[TsProperty, ...]


@dataclass(frozen=True)
class TsIntersection:
    """`A & B`: an object's listed keys and the index signature that types the others."""

    parts: tuple[TsType, ...]


# A type: a spelled type expression, or a structure the printer lays out.
TsType = str | TsObject | TsIntersection


@dataclass(frozen=True)
class TsDeclaration:
    """`export type Name = type;`, with the schema's prose above it."""

    name: str
    type: TsType
    doc: str | None
