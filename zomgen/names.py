"""Naming rules shared by every target (input-language §6), in one place.

- Type names: PascalCase of a title, `$defs` key or file stem. Words split on anything that is
  not a letter or digit; the first letter of each word is upper-cased and the rest kept as
  written (`"CF grid"` -> `CFGrid`, `"weird-attrs"` -> `WeirdAttrs`). A name that starts with a
  digit gets a leading `N` (`_1st` would be private to pyright); a name that is a keyword, or one of the names the generated modules
  define themselves, gets a trailing `_`.
- Field names (dataclass attributes) come from JSON keys: every character that cannot stand in
  an identifier becomes `_`, leading underscores are dropped (pyright strict treats `_x` as
  private, and `_ARRAY_DIMENSIONS` must be usable), a name starting with a digit gets `f_`, a
  keyword gets a trailing `_`, and a name already taken in the same class gets `_2`, `_3`...
  The JSON key itself is never lost: it is recorded for loading and dumping.
"""

from __future__ import annotations

import keyword
from collections.abc import Collection

# Names the generated Python and TypeScript modules define or import themselves: a user type of
# the same name would shadow them, and so would a dataclass field (a field shadows a module
# name for the class body after it: its annotations and default factories).
RESERVED_TYPE_NAMES = frozenset(
    {
        *("ArraySpec", "GroupSpec", "ArraySpecV2", "GroupSpecV2", "AnyNode", "AnyNodeV2"),
        *("TAttrs", "TMembers", "TAttrs_co", "TMembers_co", "NamedConfig"),
        *("Problem", "ZomError", "StoreError", "NotFullyChecked", "Unchecked", "Converter"),
        *("TABLE", "MYPY", "MypyFallback"),
        *("JsonValue", "JsonObject", "Unset", "UNSET", "Optional", "Required"),
        *("Any", "Literal", "Mapping", "Sequence", "TypeAlias", "TypedDict", "NotRequired"),
        *("Callable", "cast", "TYPE_CHECKING"),
        *("Never", "Union", "Generic", "TypeVar", "dataclass", "field", "annotations", "enum"),
        # TypeScript's global types
        *("Record", "Array", "Object", "String", "Number", "Boolean", "Symbol", "Date", "Error"),
        *("Promise", "Map", "Set"),
    }
)
# What a field must not be named besides those: the builtins the class bodies name.
FIELD_RESERVED_NAMES = RESERVED_TYPE_NAMES | {
    *("dict", "list", "tuple", "str", "int", "float", "bool", "object"),
}

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


class BaseNames:
    """The names both targets give the Zarr base nodes: `GroupSpec`, `ArraySpec` and `AnyNode`
    (a group or an array), the v2 ones ending in `V2` when a package holds both versions."""

    def __init__(self, zarr_formats: Collection[int]) -> None:
        self.suffix = {2: "V2" if len(set(zarr_formats)) > 1 else "", 3: ""}

    def base(self, kind: str, version: int) -> str:
        return ("GroupSpec" if kind == "group" else "ArraySpec") + self.suffix[version]

    def any_node(self, version: int) -> str:
        return "AnyNode" + self.suffix[version]


def _words(text: str) -> list[str]:
    """Runs of characters that can continue an identifier in Python and TypeScript alike
    (letters and digits; `_`, arrows, currency signs and invisible characters split words)."""
    words: list[str] = []
    current: list[str] = []
    for c in text:
        if c.isalnum() and ("a" + c).isidentifier():
            current.append(c)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return words


def pascal_case(text: str) -> str:
    name = "".join(w[0].upper() + w[1:] for w in _words(text))
    return type_identifier(name or "Unnamed")


def type_identifier(name: str) -> str:
    if not name.isidentifier() and not ("a" + name).isidentifier():
        name = "".join(c for c in name if ("a" + c).isidentifier()) or "Unnamed"
    if name[0].isdigit():
        # `_1st` would be private to pyright and ruff; a letter keeps the name public.
        name = "N" + name
    if keyword.iskeyword(name) or name in RESERVED_TYPE_NAMES or name.lower() in _TS_RESERVED:
        name += "_"
    return name


def field_identifier(key: str, taken: set[str]) -> str:
    """A Python attribute name for JSON key `key`, unique among `taken` (which it extends)."""
    chars = [c if (c.isalnum() or c == "_") else "_" for c in key]
    name = "".join(chars).lstrip("_")
    if not name:
        name = "key"
    if name[0].isdigit():
        name = "f_" + name
    if not name.isidentifier():
        name = "f_" + "".join(c if ("a" + c).isidentifier() else "_" for c in name)
    if keyword.iskeyword(name):
        name += "_"
    unique = name
    n = 2
    while unique in taken:
        unique = f"{name}_{n}"
        n += 1
    taken.add(unique)
    return unique
