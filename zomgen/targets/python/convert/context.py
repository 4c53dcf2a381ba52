"""What every part of the `_convert.py` lowering shares: the hierarchy, its records and aliases,
the names imported from `.models`, and which types change on the way in or out at all (a type
that does not is converted by the identity, and no function is made for it)."""

from __future__ import annotations

from abc import ABC, abstractmethod

from zomgen import ir
from zomgen.targets.python.convert.view import (
    Condition,
    ConvertModule,
    NamedMembers,
    Record,
    SlotType,
)
from zomgen.targets.python.spelling import Spelling, py_literal

# Converters of a type that nests aliases deeper than this are annotated `Any`: ty 0.0.105 took
# (not yet measured again with ty 1.2.0, issue 55) time exponential in that depth to check a function annotated with it (about 1 s at 22 levels of
# three-option unions and 10 s at 26; hostile deep_prefix_items_40 never finished), although
# the models and documents that name the same aliases check at once. The functions are internal;
# `parse` and `dump` keep their types.
MAX_TYPED_ALIAS_NESTING = 12


class Context(ABC):
    """The state the lowering shares, and the two conversions every part calls back into
    (implemented by build.Converters; the record and union parts see only this class)."""

    def __init__(
        self, hierarchy: ir.Hierarchy, spelling: Spelling, records: dict[str, Record]
    ) -> None:
        self.h = hierarchy
        self.sp = spelling
        self.records = records
        self.aliases = {t.name: t for t in hierarchy.types if isinstance(t, ir.AliasType)}
        self.module = ConvertModule(hierarchy.source, hierarchy.root)
        self.imports: set[str] = set()
        self.helpers: set[str] = set()  # what the functions call of `zomgen_runtime/converting.py`
        self._needs: dict[tuple[str, str], bool] = {}
        self.too_deep = _deeply_nested(self.aliases)
        self.escaped: dict[str, str] = {}  # type -> the name cast() refers to it by

    def conditions(self, branches: list[tuple[Condition, str]]) -> tuple[tuple[str, str], ...]:
        """The branches of a function as the module prints them: the helpers their conditions
        call are imported from the run time."""
        for condition, _expr in branches:
            self.helpers |= condition.helpers
        return tuple((condition.text, expr) for condition, expr in branches)

    def use(self, name: str) -> str:
        """`name`, imported from `.models`."""
        self.imports.add(name)
        return name

    def model_type(self, t: SlotType) -> str:
        """The models' spelling of `t`, each name it uses imported."""
        if isinstance(t, NamedMembers):
            return self.use(t.typed_dict)
        names: set[str] = set()
        spelled = self.sp.model(t, names)
        if names & self.too_deep:
            return "Any"
        for name in names:
            self.use(name)
        return spelled

    def as_typed(self, type_: str, expr: str) -> str:
        """`expr` cast to `type_` (a value read as `Any`), or as it is where `type_` is `Any`.
        A type whose Literal strings need escapes is cast to by a name the module defines for
        the checkers: ty reads no escape inside a quoted type."""
        if type_ == "Any":
            return expr
        if "\\" in type_:
            type_ = self.escaped.setdefault(type_, f"_Escaped{len(self.escaped) + 1}")
        return f"cast({py_literal(type_)}, {expr})"

    @abstractmethod
    def parse_expr(self, t: SlotType, e: str, depth: int = 0) -> str:
        """The expression converting `e` (a JSON value of type `t`) into its model."""

    @abstractmethod
    def dump_expr(self, t: SlotType, e: str, depth: int = 0) -> str:
        """The expression converting `e` (a model of type `t`) back into its JSON value."""

    def base_record(self, t: ir.BaseNode) -> Record:
        return self.records[self.sp.base_name(t.kind, t.zarr_format)]

    # --- what needs converting ---------------------------------------------------------

    def needs(self, side: str, t: SlotType) -> bool:
        """Does `t` change on the way in ("parse": records and arrays inside) or out ("dump":
        records, arrays, maps or JSON values inside)? A recursive alias needs it only if
        something else in it does."""
        key = (side, repr(t))
        if key in self._needs:
            return self._needs[key]
        self._needs[key] = False  # while inside itself
        result = self._needs_uncached(side, t)
        self._needs[key] = result
        return result

    def _needs_uncached(self, side: str, t: SlotType) -> bool:
        if isinstance(t, NamedMembers):
            types = [ty for _k, ty in t.named] + ([t.other] if t.other is not None else [])
            return side == "dump" or any(self.needs(side, ty) for ty in types)
        if isinstance(t, (ir.Primitive, ir.Literal)):
            return False
        if isinstance(t, (ir.Json, ir.JsonObject, ir.Never)):
            return side == "dump"
        if isinstance(t, (ir.ListOf, ir.TupleOf, ir.BaseNode)):
            return True
        if isinstance(t, ir.MapOf):
            return side == "dump" or self.needs(side, t.value)
        if isinstance(t, ir.UnionOf):
            return any(self.needs(side, o) for o in t.options)
        if t.name in self.aliases:
            return self.needs(side, self.aliases[t.name].target)
        return True


def _deeply_nested(aliases: dict[str, ir.AliasType]) -> frozenset[str]:
    """The aliases that nest other aliases more than MAX_TYPED_ALIAS_NESTING deep (a record
    is a class: nesting stops there; a recursive alias counts its cycle once)."""
    depth: dict[str, int] = {}

    def of_alias(name: str) -> int:
        if name not in depth:
            depth[name] = 0  # while inside itself
            depth[name] = 1 + of_type(aliases[name].target)
        return depth[name]

    def of_type(t: ir.TypeRef) -> int:
        if isinstance(t, ir.Ref):
            return of_alias(t.name) if t.name in aliases else 0
        if isinstance(t, ir.ListOf):
            return of_type(t.item)
        if isinstance(t, ir.MapOf):
            return of_type(t.value)
        if isinstance(t, ir.TupleOf):
            parts = [*t.items, *([t.rest] if t.rest is not None else [])]
            return max((of_type(p) for p in parts), default=0)
        if isinstance(t, ir.UnionOf):
            return max((of_type(o) for o in t.options), default=0)
        return 0

    return frozenset(name for name in aliases if of_alias(name) > MAX_TYPED_ALIAS_NESTING)
