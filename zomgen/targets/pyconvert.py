"""IR -> the view model of a package's `_convert.py`: plain functions that turn a checked JSON
document into the frozen models and back (`parse_<Name>` / `dump_<Name>`).

`PythonTarget` lists the records the models define (`Record`: each field's attribute, JSON key,
type and default, in the models' order); this module decides every expression the functions are
made of, and `_convert.py.j2` only prints them.

What must stay true (`dump(parse(doc)) == doc` for every valid document, JSON types included):

- JSON arrays become tuples in models; JSON values typed `Json` are kept as they are on the way
  in and copied as plain lists and dicts on the way out (a model built by hand may hold tuples or
  read-only mappings there).
- An optional key that may be `null` is `UNSET` when absent; any other absent key is `None`.
- Open objects keep their other keys in `extras`; v3 nodes keep theirs in `extensions`.
- A union picks the first option the value fits, by the same shallow rules on both sides (a
  record fits a JSON object holding its required keys and its literal values; a list fits a
  JSON array, a tuple in a model...). Documents are checked before they are parsed, so the
  first fit is the option the schema meant wherever the options can be told apart by shape. A
  union whose records carry a distinct string tag (the IR's `discriminator`) is dispatched on it.
- Values that hold no records and no arrays are passed through as they are (identity).
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field

from zomgen import ir
from zomgen.targets.pyspell import Spelling, any_node_version, py_literal

# --- what the models define (built by PythonTarget) --------------------------------------------


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
    for an optional key the value that means "absent" (`"None"` or `"UNSET"`)."""

    attr: str
    key: str
    type: SlotType
    required: bool
    default: str | None = None


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
class Construct:
    """`def name(value: Any) -> cls: return cls(attr=expr, ...)`."""

    name: str
    cls: str
    returns: str
    args: tuple[tuple[str, str], ...]
    kind: str = "construct"


@dataclass(frozen=True)
class Document:
    """`def name(model: cls) -> dict[str, Any]`: a dict literal of `head` (key, expr), then
    `tail` entries (condition or None, key, expr) in order, then the other keys of `rest`."""

    name: str
    cls: str
    head: tuple[tuple[str, str], ...]
    tail: tuple[tuple[str | None, str, str], ...]
    rest: tuple[str, str] | None  # (the mapping holding other keys, the expression of `item`)
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
class ConvertModule:
    source: str
    root: str
    functions: list[Function] = field(default_factory=list)
    imports: list[str] = field(default_factory=list)  # names imported from `.models`
    uses_json: bool = False
    uses_integer: bool = False
    uses_number: bool = False
    uses_array: bool = False
    constants: list[tuple[str, str]] = field(default_factory=list)  # (name, set of keys)
    uses_object: bool = False


# --- lowering ----------------------------------------------------------------------------------

_ITEM = "item"


def _var(base: str, depth: int) -> str:
    return base if depth == 0 else f"{base}{depth + 1}"


class Converters:
    """Builds the functions of one package, on demand: a record's or alias's functions when it
    is first referenced, one helper per anonymous union, tuple or named-members type."""

    def __init__(
        self, hierarchy: ir.Hierarchy, spelling: Spelling, records: dict[str, Record]
    ) -> None:
        self.h = hierarchy
        self.sp = spelling
        self.records = records
        self.aliases = {t.name: t for t in hierarchy.types if isinstance(t, ir.AliasType)}
        self.module = ConvertModule(hierarchy.source, hierarchy.root)
        self._functions: dict[tuple[str, str], Function | None] = {}
        self._names: dict[tuple[str, str], str] = {}
        self._needs: dict[tuple[str, str], bool] = {}
        self._imports: set[str] = set()

    # --- the module --------------------------------------------------------------------

    def build(self) -> ConvertModule:
        for named in self.h.types:
            if isinstance(named, ir.AliasType):
                if self.needs("parse", ir.Ref(named.name)):
                    self._named("parse", named.name)
                if self.needs("dump", ir.Ref(named.name)):
                    self._named("dump", named.name)
            else:
                self._named("parse", named.name)
                self._named("dump", named.name)
        # Each type's parse and dump side by side, in the order first met; helpers last.
        public = [k for k in self._functions if k[0] in ("parse", "dump")]
        order = {name: i for i, name in enumerate(dict.fromkeys(name for _s, name in public))}
        public.sort(key=lambda k: (order[k[1]], k[0] == "dump"))
        helpers = [k for k in self._functions if k[0] not in ("parse", "dump")]
        self.module.functions = [
            f for k in public + helpers if (f := self._functions[k]) is not None
        ]
        if self.module.uses_json:
            self._use("JsonValue")
        self.module.imports = sorted(self._imports)
        return self.module

    def _use(self, name: str) -> str:
        self._imports.add(name)
        return name

    def _model_type(self, t: SlotType) -> str:
        """The models' spelling of `t`, each name it uses imported."""
        if isinstance(t, NamedMembers):
            return self._use(t.typed_dict)
        spelled = self.sp.model(t)
        unquoted = re.sub(r'"(?:[^"\\]|\\.)*"', "", spelled)  # no words inside Literal[...]
        for word in re.findall(r"[^\W\d]\w*", unquoted):
            if word not in _NOT_FROM_MODELS:
                self._use(word)
        return spelled

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

    # --- expressions -------------------------------------------------------------------

    def parse_expr(self, t: SlotType, e: str, depth: int = 0) -> str:
        """The model value of the JSON value `e`."""
        if not self.needs("parse", t):
            return e
        if isinstance(t, NamedMembers):
            return f"{self._helper('parse', t)}({e})"
        if isinstance(t, ir.ListOf):
            if not self.needs("parse", t.item):
                return f"tuple({e})"
            item = _var(_ITEM, depth)
            return f"tuple([{self.parse_expr(t.item, item, depth + 1)} for {item} in {e}])"
        if isinstance(t, ir.MapOf):
            key, item = _var("key", depth), _var(_ITEM, depth)
            inner = self.parse_expr(t.value, item, depth + 1)
            return f"{{{key}: {inner} for {key}, {item} in {e}.items()}}"
        if isinstance(t, ir.TupleOf):
            parts = list(t.items) + ([t.rest] if t.rest is not None else [])
            if not any(self.needs("parse", p) for p in parts):
                return f"tuple({e})"
            return f"{self._helper('parse', t)}({e})"
        if isinstance(t, ir.UnionOf):
            return f"{self._helper('parse', t)}({e})"
        if isinstance(t, ir.BaseNode):
            return f"{self._named('parse', self.sp.base_name(t.kind, t.zarr_format))}({e})"
        assert isinstance(t, ir.Ref)
        return f"{self._named('parse', t.name)}({e})"

    def dump_expr(self, t: SlotType, e: str, depth: int = 0) -> str:
        """The JSON value of the model value `e`."""
        if not self.needs("dump", t):
            return e
        if isinstance(t, NamedMembers):
            return f"{self._helper('dump', t)}({e})"
        if isinstance(t, (ir.Json, ir.JsonObject, ir.Never)):
            self.module.uses_json = True
            return f"_json({e})"
        if isinstance(t, ir.ListOf):
            if not self.needs("dump", t.item):
                return f"list({e})"
            item = _var(_ITEM, depth)
            return f"[{self.dump_expr(t.item, item, depth + 1)} for {item} in {e}]"
        if isinstance(t, ir.MapOf):
            if not self.needs("dump", t.value):
                return f"dict({e})"
            key, item = _var("key", depth), _var(_ITEM, depth)
            inner = self.dump_expr(t.value, item, depth + 1)
            return f"{{{key}: {inner} for {key}, {item} in {e}.items()}}"
        if isinstance(t, ir.TupleOf):
            parts = list(t.items) + ([t.rest] if t.rest is not None else [])
            if not any(self.needs("dump", p) for p in parts):
                return f"list({e})"
            return f"{self._helper('dump', t)}({e})"
        if isinstance(t, ir.UnionOf):
            return f"{self._helper('dump', t)}({e})"
        if isinstance(t, ir.BaseNode):
            return f"{self._named('dump', self.sp.base_name(t.kind, t.zarr_format))}({e})"
        assert isinstance(t, ir.Ref)
        return f"{self._named('dump', t.name)}({e})"

    # --- fits: the shallow checks a union picks its option by --------------------------

    def fits_document(self, t: ir.TypeRef, e: str, seen: frozenset[str] = frozenset()) -> str:
        if isinstance(t, ir.Primitive):
            return self._fits_primitive(t, e)
        if isinstance(t, (ir.Json, ir.JsonObject, ir.Never)):
            return "True"
        if isinstance(t, ir.Literal):
            return self._fits_literal(t, e)
        if isinstance(t, (ir.ListOf, ir.TupleOf)):
            self.module.uses_array = True
            return f"_is_array({e})"
        if isinstance(t, ir.MapOf):
            self.module.uses_object = True
            return f"_is_object({e})"
        if isinstance(t, ir.UnionOf):
            return _any([self.fits_document(o, e, seen) for o in t.options])
        if isinstance(t, ir.BaseNode):
            return self._fits_record(self.records[self.sp.base_name(t.kind, t.zarr_format)], e)
        if t.name in self.aliases:
            if t.name in seen:
                return "False"
            return self.fits_document(self.aliases[t.name].target, e, seen | {t.name})
        return self._fits_record(self.records[t.name], e)

    def _fits_record(self, record: Record, e: str) -> str:
        self.module.uses_object = True
        parts = [f"_is_object({e})"]
        if record.node is not None:
            kind, version = record.node
            parts.append(f'{e}.get("zarr_format") == {version}')
            if version == 3:
                parts.append(f'{e}.get("node_type") == "{kind}"')
            else:
                parts.append(f'"members" {"in" if kind == "group" else "not in"} {e}')
        for slot in record.slots:
            key = py_literal(slot.key)
            if slot.required:
                parts.append(f"{key} in {e}")
            if isinstance(slot.type, ir.Literal):
                fits = self._fits_literal(slot.type, f"{e}[{key}]")
                parts.append(fits if slot.required else f"({key} not in {e} or {_paren(fits)})")
        return " and ".join(_paren(p) if " or " in p else p for p in dict.fromkeys(parts))

    def fits_model(self, t: ir.TypeRef, e: str, seen: frozenset[str] = frozenset()) -> str:
        if isinstance(t, ir.Primitive):
            return self._fits_primitive(t, e)
        if isinstance(t, (ir.Json, ir.JsonObject, ir.Never)):
            return "True"
        if isinstance(t, ir.Literal):
            return self._fits_literal(t, e)
        if isinstance(t, (ir.ListOf, ir.TupleOf)):
            return f"isinstance({e}, tuple)"
        if isinstance(t, ir.MapOf):
            return f"isinstance({e}, Mapping)"
        if isinstance(t, ir.UnionOf):
            return _any([self.fits_model(o, e, seen) for o in t.options])
        if isinstance(t, ir.BaseNode):
            return f"isinstance({e}, {self._use(self.sp.base_name(t.kind, t.zarr_format))})"
        if t.name in self.aliases:
            if t.name in seen:
                return "False"
            return self.fits_model(self.aliases[t.name].target, e, seen | {t.name})
        return f"isinstance({e}, {self._use(t.name)})"

    def _fits_primitive(self, t: ir.Primitive, e: str) -> str:
        if t.name == "integer":
            self.module.uses_integer = True
            return f"_is_integer({e})"
        if t.name == "number":
            self.module.uses_number = True
            return f"_is_number({e})"
        if t.name == "null":
            return f"{e} is None"
        return f"isinstance({e}, {'str' if t.name == 'string' else 'bool'})"

    def _fits_literal(self, t: ir.Literal, e: str) -> str:
        """JSON equality: `1` matches `1.0`, never `True`; a string only a string."""
        strings = [v for v in t.values if isinstance(v, str)]
        numbers = [v for v in t.values if isinstance(v, (int, float)) and not isinstance(v, bool)]
        parts: list[str] = []
        if strings:
            parts.append(_among(e, [py_literal(s) for s in strings]))
        if numbers:
            self.module.uses_number = True
            parts.append(f"_is_number({e}) and {_among(e, [repr(n) for n in numbers])}")
        parts += [f"{e} is {v!r}" for v in t.values if v is None or isinstance(v, bool)]
        return _any(parts) if parts else "False"

    # --- functions ---------------------------------------------------------------------

    def _named(self, side: str, name: str) -> str:
        """`parse_<Name>` / `dump_<Name>` of a record or alias, built on first use."""
        key = (side, name)
        function = f"{side}_{name}"
        if key not in self._functions:
            self._functions[key] = None  # recursive types refer to themselves
            self._functions[key] = self._build_named(side, name, function)
        return function

    def _build_named(self, side: str, name: str, function: str) -> Function:
        if name in self.aliases:
            return self._union_like(side, ir.Ref(name), self.aliases[name].target, function)
        record = self.records[name]
        cls = self._use(name)
        typed = cls
        if record.node is not None and name == self.sp.base_name(*record.node):
            typed = self._model_type(ir.BaseNode(*record.node))  # generic: GroupSpec[...]
        if side == "parse":
            return self._construct(record, cls, typed, function)
        return self._document(record, typed, function)

    def _helper(self, side: str, t: ir.TupleOf | ir.UnionOf | NamedMembers) -> str:
        key = (side, repr(t))
        if key not in self._names:
            name = self._helper_name(side, t)
            self._names[key] = name
            slot = (f"{side} helper", key[1])
            self._functions[slot] = None  # recursive types refer to themselves
            self._functions[slot] = self._build_helper(side, t, name)
        return self._names[key]

    def _helper_name(self, side: str, t: SlotType) -> str:
        slug = _slug(self, t)
        if len(slug) > 48 or not slug.isidentifier():
            slug = slug[:40].rstrip("_") + "_etc"
        base = f"_{side}_{slug}"
        name, n = base, 2
        while name in self._names.values():
            name, n = f"{base}_{n}", n + 1
        return name

    def _build_helper(
        self, side: str, t: ir.TupleOf | ir.UnionOf | NamedMembers, name: str
    ) -> Function:
        if isinstance(t, NamedMembers):
            return self._members(side, t, name)
        if isinstance(t, ir.TupleOf):
            return self._tuple(side, t, name)
        return self._union_like(side, t, t, name)

    def _construct(self, record: Record, cls: str, typed: str, function: str) -> Construct:
        args: list[tuple[str, str]] = []
        for slot in record.slots:
            key = py_literal(slot.key)
            value = f"value[{key}]"
            if slot.required:
                args.append((slot.attr, self.parse_expr(slot.type, value)))
                continue
            absent = self._use("UNSET") if slot.default == "UNSET" else "None"
            if not self.needs("parse", slot.type):
                get = f"value.get({key})" if absent == "None" else f"value.get({key}, {absent})"
                args.append((slot.attr, get))
            else:
                parsed = self.parse_expr(slot.type, value)
                args.append((slot.attr, f"{parsed} if {key} in value else {absent}"))
        if record.extras is not None:
            known = self._keys_constant(record)
            attr, extra = record.extras
            inner = self.parse_expr(extra, _ITEM, 1)
            args.append(
                (attr, f"{{key: {inner} for key, item in value.items() if key not in {known}}}")
            )
        elif record.node is not None and record.node[1] == 3:
            known = self._keys_constant(record)
            args.append(
                (
                    "extensions",
                    f"{{key: item for key, item in value.items() if key not in {known}}}",
                )
            )
        return Construct(function, cls, typed, tuple(args))

    def _keys_constant(self, record: Record) -> str:
        name = f"_{record.name}_KEYS"
        if all(n != name for n, _k in self.module.constants):
            self.module.constants.append((name, _known_keys(record)))
        return name

    def _document(self, record: Record, cls: str, function: str) -> Document:
        head: list[tuple[str, str]] = []
        tail: list[tuple[str | None, str, str]] = []
        if record.node is not None:
            kind, version = record.node
            head.append(('"zarr_format"', str(version)))
            if version == 3:
                head.append(('"node_type"', f'"{kind}"'))
        for slot in record.slots:
            key = py_literal(slot.key)
            value = self.dump_expr(slot.type, f"model.{slot.attr}")
            if slot.required and not tail:
                head.append((key, value))
            elif slot.required:
                tail.append((None, key, value))
            elif slot.default == "UNSET":
                tail.append(
                    (f"not isinstance(model.{slot.attr}, {self._use('Unset')})", key, value)
                )
            else:
                tail.append((f"model.{slot.attr} is not None", key, value))
        rest: tuple[str, str] | None = None
        if record.extras is not None:
            attr, extra = record.extras
            rest = (f"model.{attr}", self.dump_expr(extra, _ITEM, 1))
        elif record.node is not None and record.node[1] == 3:
            rest = ("model.extensions", self.dump_expr(ir.Json(), _ITEM, 1))
        return Document(function, cls, tuple(head), tuple(tail), rest)

    def _union_like(self, side: str, t: ir.TypeRef, target: ir.TypeRef, function: str) -> Function:
        """An alias or an anonymous union: a union dispatches, anything else is one
        expression."""
        returns = self._model_type(t)
        if not isinstance(target, ir.UnionOf):
            if side == "parse":
                return Fixed(function, "value", "Any", returns, self.parse_expr(target, "value"))
            return Fixed(function, "model", returns, "Any", self.dump_expr(target, "model"))
        if side == "parse":
            return self._parse_union(target, returns, function)
        return self._dump_union(target, returns, function)

    def _parse_union(self, t: ir.UnionOf, returns: str, function: str) -> Function:
        tagged = self._tags(t)
        if tagged is not None:
            subject, cases = tagged
            return Match(function, returns, subject, cases, self._as_it_is(returns))
        branches: list[tuple[str, str]] = []
        final = self._as_it_is(returns)
        for option in t.options:
            fits = self.fits_document(option, "value")
            if fits == "True":
                if self.needs("parse", option):
                    final = self.parse_expr(option, "value")
                break
            if self.needs("parse", option):
                branches.append((fits, self.parse_expr(option, "value")))
        return Branches(function, "value", "Any", returns, tuple(branches), final)

    def _as_it_is(self, returns: str) -> str:
        """A JSON value that is its own model (a scalar, a JSON value the schema allowed)."""
        return f"cast({py_literal(returns)}, value)"

    def _tags(self, t: ir.UnionOf) -> tuple[str, tuple[tuple[str, str], ...]] | None:
        """`match value[tag]` cases when every option is an object record whose required tag
        is one distinct string (the IR's discriminator)."""
        if t.discriminator is None:
            return None
        cases: list[tuple[str, str]] = []
        for option in t.options:
            record = None
            if isinstance(option, ir.Ref):
                record = self.records.get(option.name)
            if record is None or record.node is not None:
                return None
            slot = next((s for s in record.slots if s.key == t.discriminator), None)
            if (
                slot is None
                or not slot.required
                or not isinstance(slot.type, ir.Literal)
                or len(slot.type.values) != 1
                or not isinstance(slot.type.values[0], str)
            ):
                return None
            cases.append((py_literal(slot.type.values[0]), self.parse_expr(option, "value")))
        return f"value[{py_literal(t.discriminator)}]", tuple(cases)

    def _dump_union(self, t: ir.UnionOf, param_type: str, function: str) -> Function:
        # Options that dump as they are (scalars) fit no value the others fit, so only the
        # others are tried, in order, until one that fits every value (JSON). Where the options
        # are all records the checkers narrow the model by each check; else (tuples, mappings
        # and JSON values overlap for them) the value is converted as `Any` after the check.
        needed: list[ir.TypeRef] = []
        last: ir.TypeRef | None = None  # the option that fits every value, if any
        for option in t.options:
            if self.fits_model(option, "model") == "True":
                last = option
                break
            if self.needs("dump", option):
                needed.append(option)
        classes = [self._model_class(o) for o in needed]
        containers = {"tuple", "Mapping"} & set(map(str, classes))
        untyped = (
            None in classes
            or len(set(classes)) < len(classes)
            or (last is not None and bool(containers))
        )
        e = "value" if untyped else "model"
        branches: list[tuple[str, str]] = []
        for option in needed:
            fits = self.fits_model(option, "model")
            if fits not in (b[0] for b in branches):
                branches.append((fits, self.dump_expr(option, e)))
        final: str | None = "model"
        if last is not None:
            final = self.dump_expr(last, e)
        elif len(needed) == len(t.options) and branches:
            final = branches.pop()[1]  # nothing else is left
        return Branches(function, "model", param_type, "Any", tuple(branches), final, untyped)

    def _model_class(self, t: ir.TypeRef) -> str | None:
        """The class an option's model values are instances of, where one class says it (the
        checkers narrow a union by it): a record, `tuple` or `Mapping`."""
        if isinstance(t, ir.BaseNode):
            return self.sp.base_name(t.kind, t.zarr_format)
        if isinstance(t, ir.Ref) and t.name not in self.aliases:
            return t.name
        if isinstance(t, (ir.ListOf, ir.TupleOf)):
            return "tuple"
        if isinstance(t, ir.MapOf):
            return "Mapping"
        return None

    def _tuple(self, side: str, t: ir.TupleOf, function: str) -> Function:
        model_type = self._model_type(t)
        fixed = t.rest is None and t.required_length == len(t.items)
        if side == "parse":
            convert, param, param_type, returns = self.parse_expr, "value", "Any", model_type
        else:
            convert, param, param_type, returns = self.dump_expr, "model", model_type, "list[Any]"
        if fixed:
            parts = [convert(p, f"{param}[{i}]") for i, p in enumerate(t.items)]
            expr = f"({', '.join(parts)},)" if side == "parse" else f"[{', '.join(parts)}]"
            if side == "parse" and not parts:
                expr = "()"
            return Fixed(function, param, param_type, returns, expr)
        add = "items.append" if side == "parse" else "document.append"
        cases = tuple(
            (f"index == {i}", f"{add}({convert(p, _ITEM, 1)})") for i, p in enumerate(t.items)
        )
        otherwise = f"{add}({_ITEM if t.rest is None else convert(t.rest, _ITEM, 1)})"
        setup: tuple[str, ...]
        if side == "parse":
            setup = ("items: list[Any] = []",)
            result = "tuple(items)"
            result = f"cast({py_literal(returns)}, tuple(items))"
            header = f"for index, {_ITEM} in enumerate(value)"
        else:
            setup = ("items = cast(tuple[Any, ...], model)", "document: list[Any] = []")
            result = "document"
            header = f"for index, {_ITEM} in enumerate(items)"
        return Loop(function, param, param_type, returns, setup, header, cases, otherwise, result)

    def _members(self, side: str, t: NamedMembers, function: str) -> Loop:
        typed = self._use(t.typed_dict)
        convert = self.parse_expr if side == "parse" else self.dump_expr
        out = "members" if side == "parse" else "document"
        # Named members converted alike share one case.
        keys_by_statement: dict[str, list[str]] = {}
        for key, ty in t.named:
            statement = f"{out}[key] = {convert(ty, _ITEM, 1)}"
            keys_by_statement.setdefault(statement, []).append(py_literal(key))
        cases = tuple(
            (_among("key", keys), statement) for statement, keys in keys_by_statement.items()
        )
        if t.other is not None:
            otherwise = f"{out}[key] = {convert(t.other, _ITEM, 1)}"
        elif side == "parse":
            otherwise = f"{out}[key] = {_ITEM}"
        else:
            otherwise = f"{out}[key] = {self.dump_expr(ir.Json(), _ITEM, 1)}"
        if side == "parse":
            return Loop(
                function,
                "value",
                "Any",
                typed,
                ("members: dict[str, Any] = {}",),
                f"for key, {_ITEM} in value.items()",
                cases,
                otherwise,
                f"cast({py_literal(typed)}, members)",
            )
        return Loop(
            function,
            "members",
            typed,
            "dict[str, Any]",
            ("items = cast(Mapping[str, Any], members)", "document: dict[str, Any] = {}"),
            f"for key, {_ITEM} in items.items()",
            cases,
            otherwise,
            "document",
        )


def convert_module(
    hierarchy: ir.Hierarchy, spelling: Spelling, records: dict[str, Record]
) -> ConvertModule:
    return Converters(hierarchy, spelling, records).build()


# --- small helpers -----------------------------------------------------------------------------

# Names a spelled model type uses that the template imports itself (builtins, typing).
_NOT_FROM_MODELS = frozenset(
    {"tuple", "str", "int", "float", "bool", "None", "dict", "list", "Literal", "Never", "Mapping"}
)


def _known_keys(record: Record) -> str:
    keys = (["zarr_format", "node_type"] if record.node is not None else []) + [
        s.key for s in record.slots
    ]
    return "{" + ", ".join(py_literal(k) for k in dict.fromkeys(keys)) + "}" if keys else "()"


def _paren(condition: str) -> str:
    return f"({condition})"


def _any(parts: list[str]) -> str:
    if "True" in parts:
        return "True"
    parts = [p for p in dict.fromkeys(parts) if p != "False"]
    if not parts:
        return "False"
    if len(parts) == 1:
        return parts[0]
    return " or ".join(_paren(p) if " and " in p else p for p in parts)


def _among(e: str, literals: list[str]) -> str:
    if len(literals) == 1:
        return f"{e} == {literals[0]}"
    return f"{e} in ({', '.join(literals)})"


def _slug(c: Converters, t: SlotType) -> str:
    """A readable name part for an anonymous type (`str | NamedConfig` -> `str_or_NamedConfig`)."""
    if isinstance(t, NamedMembers):
        return t.typed_dict
    if isinstance(t, ir.Primitive):
        return {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}.get(
            t.name, "None"
        )
    if isinstance(t, ir.Literal):
        words = [str(v) for v in t.values]
        joined = "_".join(words)
        return (
            "literal_" + joined
            if joined.isidentifier() and not keyword.iskeyword(joined)
            else "literal"
        )
    if isinstance(t, ir.Json):
        return "JsonValue"
    if isinstance(t, ir.JsonObject):
        return "JsonObject"
    if isinstance(t, ir.Never):
        return "Never"
    if isinstance(t, ir.ListOf):
        return f"list_of_{_slug(c, t.item)}"
    if isinstance(t, ir.TupleOf):
        parts = list(t.items) + ([t.rest] if t.rest is not None else [])
        return "tuple_of_" + "_".join(_slug(c, p) for p in parts)
    if isinstance(t, ir.MapOf):
        return f"map_of_{_slug(c, t.value)}"
    if isinstance(t, ir.UnionOf):
        if (version := any_node_version(t)) is not None:
            return c.sp.any_node(version)
        return "_or_".join(_slug(c, o) for o in t.options)
    if isinstance(t, ir.BaseNode):
        return c.sp.base_name(t.kind, t.zarr_format)
    return t.name
