"""What a package's `_convert.py` is made of, as plain data: the records the models define
(built by `PythonLowering`: `Record`, `Slot`, `NamedMembers`), and the view model the template
`_convert.py.j2` prints (one dataclass per shape of function, `ConvertModule` for the file).
Nothing here decides anything; build.py and its helper modules fill these in."""

from __future__ import annotations

from dataclasses import dataclass, field

from zomgen import ir

# --- what the models define (built by PythonLowering) --------------------------------------------


@dataclass(frozen=True)
class NamedMembers:
    """The `members` of a group with named members: a TypedDict of the models (`typed_dict`),
    the type of each named member, and the type of every other member (`None`: closed)."""

    typed_dict: str
    named: tuple[tuple[str, ir.TypeRef], ...]
    other: ir.TypeRef | None


SlotType = ir.TypeRef | NamedMembers


@dataclass(frozen=True)
class Slot:
    """One dataclass field: its attribute, exact JSON key, the type its value converts by, and
    for an optional key the value that means "absent" (`"None"` or `"UNSET"`). `dump_type`,
    where set, is the wider type the model's field is declared with (a base array's extension
    points list the convention's own records, which `parse` never builds there)."""

    attr: str
    key: str
    type: SlotType
    required: bool
    default: str | None = None
    dump_type: SlotType | None = None


@dataclass(frozen=True)
class Record:
    """A frozen dataclass of the models: its fields in the models' order, the field keeping
    the other keys of an open object and their type, and for a node its kind and version."""

    name: str
    slots: tuple[Slot, ...]
    extras: tuple[str, ir.TypeRef] | None = None
    node: tuple[ir.NodeKind, int] | None = None


# --- the view model the template prints --------------------------------------------------------


@dataclass(frozen=True)
class Condition:
    """A condition of generated code, with what it is made of: the run time's helpers it calls
    (`zomgen_runtime/converting.py`), the operator joining it at the top (`or`, `and`, or None for
    one that needs no parentheses anywhere) and, for `isinstance(subject, classes)`, its
    parts, so that checks of one value merge into one call."""

    text: str
    helpers: frozenset[str] = frozenset()
    operator: str | None = None
    isinstance_of: tuple[str, tuple[str, ...]] | None = None


TRUE = Condition("True")
FALSE = Condition("False")


@dataclass(frozen=True)
class Construct:
    """`def name(value: Any) -> cls: return new_model(cls, {"attr": expr, ...})`
    (`cls(attr=expr, ...)` if generic)."""

    name: str
    cls: str
    returns: str
    args: tuple[tuple[str, str], ...]
    generic: bool = False  # `returns` gives `cls` type arguments
    kind: str = "construct"


@dataclass(frozen=True)
class Document:
    """`def name(model: cls) -> dict[str, Any]`: a dict literal of `head` (key, expr), then
    `tail` entries (condition or None, key, expr) in order, then the other keys of `rest`.
    A node's document first makes sure the model is of its class (`node_class`): one of
    another class is dumped by the module's `_NODE_DUMPS`."""

    name: str
    cls: str
    head: tuple[tuple[str, str], ...]
    tail: tuple[tuple[str | None, str, str], ...]
    rest: tuple[str, str] | None  # (the mapping holding other keys, the expression of `item`)
    node_class: str | None = None
    kind: str = "document"


@dataclass(frozen=True)
class Branches:
    """A union: `if condition: return expr` in order, then `final` (None: no return left).
    `untyped` binds the model to `Any` first, where the checkers cannot narrow the options
    apart (tuples, mappings and JSON values overlap for them)."""

    name: str
    param: str
    param_type: str
    returns: str
    branches: tuple[tuple[str, str], ...]
    final: str | None
    untyped: bool = False
    kind: str = "branches"


@dataclass(frozen=True)
class Match:
    """A union of records with a distinct string tag: `match value[tag]`."""

    name: str
    returns: str
    subject: str
    cases: tuple[tuple[str, str], ...]
    otherwise: str
    kind: str = "match"


@dataclass(frozen=True)
class Loop:
    """Named members or tuple positions: each item converted by the first case it meets."""

    name: str
    param: str
    param_type: str
    returns: str
    setup: tuple[str, ...]
    header: str
    cases: tuple[tuple[str, str], ...]
    otherwise: str
    result: str
    kind: str = "loop"


@dataclass(frozen=True)
class Fixed:
    """`def name(param: type) -> returns: return expr`."""

    name: str
    param: str
    param_type: str
    returns: str
    expr: str
    kind: str = "fixed"


Function = Construct | Document | Branches | Match | Loop | Fixed


@dataclass
class KeySet:
    """A record's own keys, as a constant the converters test other keys against:
    `_Name_KEYS: frozenset[str] = frozenset({"a", "b"})`, printed once for every record with
    the same keys (`shared_by` names the others, in a comment above it)."""

    name: str
    keys: str  # the set's literal: `{"a", "b"}`
    shared_by: list[str] = field(default_factory=list)


@dataclass
class ConvertModule:
    source: str
    root: str
    functions: list[Function] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)  # names imported from `.models`
    constants: list[KeySet] = field(default_factory=list)
    escaped: list[tuple[str, str]] = field(default_factory=list)  # (name, type) for cast()
    # What the functions call of the run time's `converting.py`, and whether they ask its
    # engine about a union option's subschemas (`holds`).
    helpers: list[str] = field(default_factory=list)
    uses_engine: bool = False
    # (class, function) of each node model's dump, for a member holding another node class.
    node_dumps: list[tuple[str, str]] = field(default_factory=list)
