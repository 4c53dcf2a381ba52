"""IR -> the view model of a package's `_convert.py`: plain functions that turn a checked JSON
document into the frozen models and back (`parse_<Name>` / `dump_<Name>`), the code one would
write by hand for the schema.

`PythonLowering` lists the records the models define (`Record`: each field's attribute, JSON key,
type and default, in the models' order); this module and its helpers decide every expression the
functions are made of, and `_convert.py.j2` only prints them:

- `view`: the records and the view model, as plain data;
- `context`: what they share (names imported, which types convert at all);
- `fits`: the checks a union picks its option by (which ones: `discriminate`);
- `records`: a record's constructor call and document, tuples and named members;
- `unions`: unions and aliases;
- here: the expression converting a value of each type, and which function is made once for
  each record, alias and anonymous union, tuple or named-members type.

What must stay true (`dump(parse(doc)) == doc` for every valid document, JSON types included):

- JSON arrays become tuples in models; JSON values typed `Json` are kept as they are on the way
  in and copied as plain lists and dicts on the way out (a model built by hand may hold tuples or
  read-only mappings there).
- An optional key that may be `null` is `UNSET` when absent; any other absent key is `None`.
- Open objects keep their other keys in `extras`; nodes keep theirs in `extensions`.
- A union builds the option the schema means (`anyOf`: the first that holds): documents are
  checked before they are parsed, and `discriminate` plans the tests that tell each option from
  the later ones (constants and JSON types at any depth, node kind and version, required
  keys), with the run time's engine on the option's own subschema where none does. A union
  whose records carry a distinct string tag (the IR's `discriminator`) is dispatched on it.
- Values that hold no records and no arrays are passed through as they are (identity).
"""

from __future__ import annotations

import dataclasses
import keyword
from typing import assert_never

from zomgen import ir
from zomgen.discriminate import plan
from zomgen.ir.queries import any_node_version
from zomgen.targets.python.convert.context import Context
from zomgen.targets.python.convert.records import construct, document, members, tuple_items
from zomgen.targets.python.convert.unions import union_like
from zomgen.targets.python.convert.view import (
    Construct,
    ConvertModule,
    Document,
    Function,
    NamedMembers,
    Record,
    SlotType,
)
from zomgen.targets.python.spelling import Spelling

ITEM = "item"


def var(base: str, depth: int) -> str:
    """The name of a comprehension variable at `depth` (`item`, `item2`, ...)."""
    return base if depth == 0 else f"{base}{depth + 1}"


class Converters(Context):
    """Builds the functions of one package, on demand: a record's or alias's functions when it
    is first referenced, one helper per anonymous union, tuple or named-members type."""

    def __init__(
        self, hierarchy: ir.Hierarchy, spelling: Spelling, records: dict[str, Record]
    ) -> None:
        super().__init__(hierarchy, spelling, records)
        self._functions: dict[tuple[str, str], Function | None] = {}
        self._names: dict[tuple[str, str], str] = {}

    # --- the module --------------------------------------------------------------------

    def build(self) -> ConvertModule:
        for named in self.h.types:
            if isinstance(named, ir.AliasType):
                if self.needs("parse", ir.Ref(named.name)):
                    self.named("parse", named.name)
                if self.needs("dump", ir.Ref(named.name)):
                    self.named("dump", named.name)
            else:
                self.named("parse", named.name)
                self.named("dump", named.name)
        # A model built by hand may hold a bare `GroupSpec` or `ArraySpec` where the schema
        # wants a node of its own class: their dumps are made for `_NODE_DUMPS` too.
        for name, record in self.records.items():
            if record.node is not None and name == self.sp.base_name(*record.node):
                self.named("dump", name)
        # Each type's parse and dump side by side, in the order first met; helpers last.
        public = [k for k in self._functions if k[0] in ("parse", "dump")]
        order = {name: i for i, name in enumerate(dict.fromkeys(name for _s, name in public))}
        public.sort(key=lambda k: (order[k[1]], k[0] == "dump"))
        helpers = [k for k in self._functions if k[0] not in ("parse", "dump")]
        module = self.module
        module.functions = [f for k in public + helpers if (f := self._functions[k]) is not None]
        if any(isinstance(f, Construct) and not f.generic for f in module.functions):
            self.helpers.add("new_model")
        module.helpers = sorted(self.helpers - {"holds"})
        module.uses_engine = "holds" in self.helpers
        module.node_dumps = [
            (f.node_class, f.name)
            for f in module.functions
            if isinstance(f, Document) and f.node_class is not None
        ]
        module.imports = sorted(self.imports)
        module.escaped = [(name, type_) for type_, name in self.escaped.items()]
        return module

    # --- expressions -------------------------------------------------------------------

    def parse_expr(self, t: SlotType, e: str, depth: int = 0) -> str:
        """The model value of the JSON value `e`."""
        if not self.needs("parse", t):
            return e
        if isinstance(t, NamedMembers):
            return f"{self.helper('parse', t)}({e})"
        if isinstance(t, ir.ListOf):
            if not self.needs("parse", t.item):
                return f"tuple({e})"
            item = var(ITEM, depth)
            return f"tuple([{self.parse_expr(t.item, item, depth + 1)} for {item} in {e}])"
        if isinstance(t, ir.MapOf):
            key, item = var("key", depth), var(ITEM, depth)
            inner = self.parse_expr(t.value, item, depth + 1)
            return f"{{{key}: {inner} for {key}, {item} in {e}.items()}}"
        if isinstance(t, ir.TupleOf):
            parts = list(t.items) + ([t.rest] if t.rest is not None else [])
            if not any(self.needs("parse", p) for p in parts):
                return f"tuple({e})"
            return f"{self.helper('parse', t)}({e})"
        if isinstance(t, ir.UnionOf):
            return f"{self.helper('parse', t)}({e})"
        if isinstance(t, ir.BaseNode):
            return f"{self.named('parse', self.sp.base_name(t.kind, t.zarr_format))}({e})"
        if isinstance(t, ir.Ref):
            return f"{self.named('parse', t.name)}({e})"
        if isinstance(t, (ir.Primitive, ir.Literal, ir.Json, ir.Never, ir.JsonObject)):
            return e  # a JSON value is its own model (`needs` said so above)
        assert_never(t)

    def dump_expr(self, t: SlotType, e: str, depth: int = 0) -> str:
        """The JSON value of the model value `e`."""
        if not self.needs("dump", t):
            return e
        if isinstance(t, NamedMembers):
            return f"{self.helper('dump', t)}({e})"
        if isinstance(t, (ir.Json, ir.JsonObject, ir.Never)):
            self.helpers.add("plain_json")
            return f"plain_json({e})"
        if isinstance(t, ir.ListOf):
            if not self.needs("dump", t.item):
                return f"list({e})"
            item = var(ITEM, depth)
            return f"[{self.dump_expr(t.item, item, depth + 1)} for {item} in {e}]"
        if isinstance(t, ir.MapOf):
            if not self.needs("dump", t.value):
                return f"dict({e})"
            key, item = var("key", depth), var(ITEM, depth)
            inner = self.dump_expr(t.value, item, depth + 1)
            return f"{{{key}: {inner} for {key}, {item} in {e}.items()}}"
        if isinstance(t, ir.TupleOf):
            parts = list(t.items) + ([t.rest] if t.rest is not None else [])
            if not any(self.needs("dump", p) for p in parts):
                return f"list({e})"
            return f"{self.helper('dump', t)}({e})"
        if isinstance(t, ir.UnionOf):
            return f"{self.helper('dump', t)}({e})"
        if isinstance(t, ir.BaseNode):
            return f"{self.named('dump', self.sp.base_name(t.kind, t.zarr_format))}({e})"
        if isinstance(t, ir.Ref):
            return f"{self.named('dump', t.name)}({e})"
        if isinstance(t, (ir.Primitive, ir.Literal)):
            return e  # its own JSON value (`needs` said so above)
        assert_never(t)

    # --- functions ---------------------------------------------------------------------

    def named(self, side: str, name: str) -> str:
        """`parse_<Name>` / `dump_<Name>` of a record or alias, built on first use."""
        key = (side, name)
        function = f"{side}_{name}"
        if key not in self._functions:
            self._functions[key] = None  # recursive types refer to themselves
            self._functions[key] = self._build_named(side, name, function)
        return function

    def _build_named(self, side: str, name: str, function: str) -> Function:
        if name in self.aliases:
            return union_like(self, side, ir.Ref(name), self.aliases[name].target, function)
        record = self.records[name]
        cls = self.use(name)
        typed = cls
        if record.node is not None and name == self.sp.base_name(*record.node):
            typed = self.model_type(ir.BaseNode(*record.node))  # generic: GroupSpec[...]
        if side == "parse":
            return construct(self, record, cls, typed, function)
        return document(self, record, typed, function)

    def helper(self, side: str, t: ir.TupleOf | ir.UnionOf | NamedMembers) -> str:
        """The function converting an anonymous type, built on first use."""
        key = (side, repr(_without_unused_schemas(self, t)))
        if key not in self._names:
            name = self._helper_name(side, t)
            self._names[key] = name
            slot = (f"{side} helper", key[1])
            self._functions[slot] = None  # recursive types refer to themselves
            self._functions[slot] = self._build_helper(side, t, name)
        return self._names[key]

    def _helper_name(self, side: str, t: SlotType) -> str:
        slug = _slug(self, t)
        if isinstance(t, ir.UnionOf) and any_node_version(t) is None and len(slug) > _LONGEST:
            # A long union is named by its first options and the count of the others, whole.
            options = [_short(_slug(self, o)) for o in t.options]
            shown = 1
            while shown < len(options) - 1 and len("_or_".join(options[: shown + 1])) <= 40:
                shown += 1
            slug = "_or_".join(options[:shown]) + f"_or_{len(options) - shown}_more"
        if len(slug) > _LONGEST or not slug.isidentifier():
            slug = _cut(slug)
        base = f"_{side}_{slug}"
        name, n = base, 2
        while name in self._names.values():
            name, n = f"{base}_{n}", n + 1
        return name

    def _build_helper(
        self, side: str, t: ir.TupleOf | ir.UnionOf | NamedMembers, name: str
    ) -> Function:
        if isinstance(t, NamedMembers):
            return members(self, side, t, name)
        if isinstance(t, ir.TupleOf):
            return tuple_items(self, side, t, name)
        return union_like(self, side, t, t, name)


def convert_module(
    hierarchy: ir.Hierarchy, spelling: Spelling, records: dict[str, Record]
) -> ConvertModule:
    return Converters(hierarchy, spelling, records).build()


def _without_unused_schemas(
    c: Converters, t: ir.TupleOf | ir.UnionOf | NamedMembers
) -> ir.TupleOf | ir.UnionOf | NamedMembers:
    """`t` without the options' subschemas where no test asks the engine about them: a union
    the IR gives with them and one the models build (`GroupSpec | ArraySpec`) are one."""
    if isinstance(t, ir.UnionOf) and not any(test and test.engine for test in plan(c.h, t)):
        return dataclasses.replace(t, option_schemas=())
    return t


# The longest part of a helper's name taken from its type.
_LONGEST = 48


def _short(slug: str) -> str:
    return slug if len(slug) <= _LONGEST else _cut(slug)


def _cut(slug: str) -> str:
    """`slug` cut after a whole word (at an `_`) within 40 characters, then `_etc`."""
    cut = slug[:40]
    if "_" in cut.strip("_") and slug[40:41] not in ("", "_"):
        cut = cut[: cut.rstrip("_").rindex("_")]
    cut = cut.rstrip("_")
    return (cut if cut.isidentifier() else "type") + "_etc"


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
    if isinstance(t, ir.Ref):
        return t.name
    assert_never(t)
