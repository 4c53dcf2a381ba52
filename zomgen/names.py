"""Naming rules shared by every target (input-language §6), in one place.

- Type names: PascalCase of a title, `$defs` key or file stem. Words split on anything that is
  not a letter or digit; the first letter of each word is upper-cased and the rest kept as
  written (`"CF grid"` -> `CFGrid`, `"weird-attrs"` -> `WeirdAttrs`). A name that starts with a
  digit gets a leading `_`; a name that is a keyword, or one of the names the generated modules
  define themselves, gets a trailing `_`.
- Field names (dataclass attributes) come from JSON keys: every character that cannot stand in
  an identifier becomes `_`, leading underscores are dropped (pyright strict treats `_x` as
  private, and `_ARRAY_DIMENSIONS` must be usable), a name starting with a digit gets `f_`, a
  keyword gets a trailing `_`, and a name already taken in the same class gets `_2`, `_3`...
  The JSON key itself is never lost: it is recorded for loading and dumping.
"""

from __future__ import annotations

import keyword
import re

_WORD_SPLIT = re.compile(r"[^0-9A-Za-z\u00c0-\uffff]+")

# Names the generated Python and TypeScript modules define or import themselves; a user type of
# the same name would shadow them.
RESERVED_TYPE_NAMES = frozenset(
    {
        "ArraySpec",
        "GroupSpec",
        "NamedConfig",
        "JsonValue",
        "JsonObject",
        "Unset",
        "UNSET",
        "TAttrs",
        "TMembers",
        "Any",
        "Literal",
        "Mapping",
        "Sequence",
        "TypeAlias",
        "TypedDict",
        "Required",
        "NotRequired",
        "Union",
        "Generic",
        "TypeVar",
        "dataclass",
        "field",
        "annotations",
        "Record",
        "Array",
        "Object",
        "String",
        "Number",
        "Boolean",
        "Symbol",
        "Date",
        "Error",
        "Promise",
        "Map",
        "Set",
    }
)

# TypeScript reserved words that cannot name a type alias.
_TS_RESERVED = frozenset(
    {
        "any",
        "boolean",
        "never",
        "number",
        "object",
        "string",
        "symbol",
        "undefined",
        "unknown",
        "void",
        "null",
        "bigint",
    }
)


def pascal_case(text: str) -> str:
    words = [w for w in _WORD_SPLIT.split(text) if w]
    name = "".join(w[0].upper() + w[1:] for w in words)
    return type_identifier(name or "Unnamed")


def type_identifier(name: str) -> str:
    if name[0].isdigit():
        name = "_" + name
    if keyword.iskeyword(name) or name in RESERVED_TYPE_NAMES or name.lower() in _TS_RESERVED:
        name += "_"
    return name


def field_identifier(key: str, taken: set[str]) -> str:
    """A Python attribute name for JSON key `key`, unique among `taken` (which it extends)."""
    chars = [c if (c.isalnum() or c == "_") else "_" for c in key]
    name = "".join(chars).lstrip("_")
    if not name:
        name = "field"
    if name[0].isdigit():
        name = "f_" + name
    if not name.isidentifier():
        name = "f_" + "".join(c if c.isascii() and (c.isalnum() or c == "_") else "_" for c in name)
    if keyword.iskeyword(name):
        name += "_"
    unique = name
    n = 2
    while unique in taken:
        unique = f"{name}_{n}"
        n += 1
    taken.add(unique)
    return unique
