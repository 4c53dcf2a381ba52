"""The view model of a package's Python files: plain frozen-in-spirit data the templates print
(models.py.j2, documents.py.j2, __init__.py.j2, README.md.j2), and how schema prose becomes a
docstring or a comment. Nothing here decides anything; lower.py fills these in."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from zomgen.targets.python.convert.view import ConvertModule, SlotType
from zomgen.targets.python.spelling import py_literal


@dataclass
class PyField:
    name: str  # dataclass attribute
    key: str  # exact JSON key
    model_type: str
    doc_type: str  # TypedDict value type, with Required/NotRequired applied by the template
    required: bool
    default: str | None  # None: no default (required)
    comment: str | None
    convert: SlotType | None  # the type its value converts by (_convert.py)


# What models.py defines before any class (models.py.j2's header).
_DEFINED_FIRST = frozenset({"JsonValue", "JsonObject", "str", "int", "float", "bool"})


@dataclass
class PyModel:
    """A frozen dataclass in models.py."""

    name: str
    bases: str
    fields: list[PyField]
    docstring: str | None
    extras: str | None  # name of the field keeping unknown keys (open objects)
    extras_type: str | None

    @property
    def extras_factory_type(self) -> str | None:
        """`extras_type` as the `dict[str, ...]` of its default factory, which runs at class
        creation: quoted unless it is one of the aliases models.py defines first."""
        if self.extras_type is None or self.extras_type in _DEFINED_FIRST:
            return self.extras_type
        return py_literal(self.extras_type)


@dataclass
class PyTypedDict:
    name: str
    fields: list[PyField]
    docstring: str | None
    # The type of the other keys of an object that allows them (PEP 728 `extra_items`; mypy,
    # which lacks PEP 728, reads the listed keys only: typeddict.j2), None for a closed one.
    extra_items: str | None
    functional: bool  # a key no class body can spell: written with the functional syntax
    generic: str = ""  # "Generic[...]" parameters for the base node TypedDicts


@dataclass
class PyAlias:
    name: str
    model_type: str
    doc_type: str
    comment: str | None
    # Names no type of the package: then the alias's value needs no quotes (an alias is
    # evaluated where it stands, so one naming a class defined later must be quoted).
    self_contained: bool = False

    @property
    def model_value(self) -> str:
        return self.model_type if self.self_contained else py_literal(self.model_type)

    @property
    def doc_value(self) -> str:
        return self.doc_type if self.self_contained else py_literal(self.doc_type)


@dataclass
class PyPackage:
    source: str
    root: str
    versions: list[int]
    base_names: dict[str, str]
    models: list[PyModel]
    model_members: list[PyTypedDict]  # TypedDicts of named members holding models
    documents: list[PyTypedDict]
    aliases: list[PyAlias]
    exports: list[str]
    convert: ConvertModule
    runtime_checks: list[tuple[str, str]]
    description: str | None
    checker_notes: list[str] = field(default_factory=list)
    # each version's base array fields, declared in models.py and in documents.py
    base_arrays: dict[int, tuple[list[str], list[str]]] = field(default_factory=dict)
    mypy_fallback: bool = False  # a document union holds `MypyFallback` (open_dicts.py)

    @property
    def open_documents(self) -> bool:
        """Does documents.py hold a TypedDict that allows other keys (PEP 728)?"""
        return any(t.extra_items is not None for t in self.documents)

    @property
    def open_members(self) -> bool:
        """Does models.py hold a members' TypedDict that allows other members (PEP 728)?"""
        return any(t.extra_items is not None for t in self.model_members)


def docstring(text: str | None) -> str | None:
    """Schema text made safe inside a triple-quoted docstring: no quote or backslash in it can
    end the string or start an escape."""
    if text is None or not text.strip():
        return None
    paragraphs = [" ".join(p.split()) for p in text.strip().split("\n\n")]
    wrapped = "\n\n".join(
        textwrap.fill(p, width=92, break_on_hyphens=False) for p in paragraphs if p
    )
    safe = wrapped.replace("\\", "\\\\").replace('"', '\\"')
    return "".join(c if c.isprintable() or c == "\n" else _escape(c) for c in safe)


def _escape(c: str) -> str:
    if ord(c) < 256:
        return f"\\x{ord(c):02x}"
    return f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}"


def comment(text: str | None) -> str | None:
    """Schema text as a one-line comment: newlines folded so nothing escapes the comment."""
    if text is None or not text.strip():
        return None
    flat = " ".join(text.split())
    flat = "".join(c if c.isprintable() else " " for c in flat)
    return flat[:200] + ("..." if len(flat) > 200 else "")
