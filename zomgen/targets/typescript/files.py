"""IR -> `types.ts`: the same types as the Python package, with the same names, in TypeScript.

Spelling (input-language §6, docs/typescript.md): every property is `readonly` (the models are
frozen); optional keys are `?:`, exact under `exactOptionalPropertyTypes`; closed objects have no
index signature, so an unknown key in a literal is an error; open objects intersect their known
keys with `{ readonly [key: string]: unknown }`. Node types are standalone object types (base
fields plus the narrowed ones) so that excess-property checks apply; the generic bases
`ArraySpec<TAttrs>` / `GroupSpec<TAttrs, TMembers>` stay assignable from them.
"""

from __future__ import annotations

import json
import math
import re
from typing import assert_never

from zomgen import ir
from zomgen.ir.queries import any_node_version, merge_literals
from zomgen.ir.zarr import ALL_NODE_KEYS, ARRAY_FIELDS
from zomgen.names import BaseNames
from zomgen.render import render
from zomgen.targets.shipped import RuntimeLink, runtime_ts_files
from zomgen.targets.typescript.printer import declaration
from zomgen.targets.typescript.view import (
    TsDeclaration,
    TsIntersection,
    TsObject,
    TsProperty,
    TsType,
)

_IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
_PRIMITIVES = {
    "string": "string",
    "integer": "number",
    "number": "number",
    "boolean": "boolean",
    "null": "null",
}
# Integers beyond this cannot be written exactly as TypeScript number literals.
_SAFE_INTEGER = 2**53


def key(text: str) -> str:
    """A property name: bare when it is a plain identifier, else a quoted string literal."""
    if _IDENTIFIER.match(text) and text != "__proto__":
        return text
    return json.dumps(text)  # ASCII escapes: quotes, backslashes, lone surrogates stay inert


class TypeScriptTypes:
    """types.ts: each IR type spelled in TypeScript (`type`), and the whole file (`types_ts`)."""

    def __init__(self, hierarchy: ir.Hierarchy) -> None:
        self.h = hierarchy
        self.names = BaseNames(hierarchy.zarr_formats)

    def type(self, t: ir.TypeRef) -> str:
        if isinstance(t, ir.Primitive):
            return _PRIMITIVES[t.name]
        if isinstance(t, ir.Literal):
            return " | ".join(dict.fromkeys(_literal(v) for v in t.values))
        if isinstance(t, ir.Json):
            return "JsonValue"
        if isinstance(t, ir.JsonObject):
            return "JsonObject"
        if isinstance(t, ir.ListOf):
            return f"readonly {self._element(t.item)}[]"
        if isinstance(t, ir.Never):
            return "never"
        if isinstance(t, ir.TupleOf):
            # Positions past `required_length` may be missing, as JSON Schema allows.
            items = [
                self.type(i) if n < t.required_length else f"{self._element(i)}?"
                for n, i in enumerate(t.items)
            ]
            if t.rest is not None:
                items.append(f"...{self._element(t.rest)}[]")
            return f"readonly [{', '.join(items)}]"
        if isinstance(t, ir.MapOf):
            return f"{{ readonly [key: string]: {self.type(t.value)} }}"
        if isinstance(t, ir.UnionOf):
            if (version := any_node_version(t)) is not None:
                return self.names.any_node(version)
            return " | ".join(dict.fromkeys(self.type(o) for o in merge_literals(t.options)))
        if isinstance(t, ir.Ref):
            return t.name
        if isinstance(t, ir.BaseNode):
            if t.kind == "group":
                group = self.names.base("group", t.zarr_format)
                members = f"{{ readonly [name: string]: {self.names.any_node(t.zarr_format)} }}"
                return f"{group}<JsonObject, {members}>"
            return f"{self.names.base('array', t.zarr_format)}<JsonObject>"
        assert_never(t)

    def _element(self, t: ir.TypeRef) -> str:
        text = self.type(t)
        return f"({text})" if " " in text and not text.startswith("{") else text

    def _object(self, o: ir.ObjectType) -> TsType:
        props = tuple(
            TsProperty(key(f.key), self.type(f.type), f.required, f.description) for f in o.fields
        )
        if o.extra is None:
            return TsObject(props) if props else "Record<never, never>"
        others = "{ readonly [key: string]: unknown }"
        return TsIntersection((TsObject(props), others)) if props else others

    def _members(self, m: ir.Members) -> TsType:
        others: list[str] = []
        indexes: list[str] = []
        for pattern, t in m.patterns:
            index = "`${number}`" if pattern in ("^[0-9]+$", "^\\d+$") else "string"
            indexes.append(f"{{ readonly [name: {index}]: {self.type(t)} }}")
            others.append(self.type(t))
        if m.other is not None:
            others.append(self.type(m.other))
            indexes = [i for i in indexes if "[name: string]" not in i]
        named = tuple(
            TsProperty(key(f.key), self.type(f.type), f.required, f.description) for f in m.named
        )
        if m.other is not None:
            # An index signature types every key, the named ones too: it must admit them.
            every = dict.fromkeys([*(self.type(f.type) for f in m.named), *others])
            indexes.append(f"{{ readonly [name: string]: {' | '.join(every)} }}")
        parts: list[TsType] = [TsObject(named)] if named else []
        parts += indexes
        if not parts:
            return "Record<never, never>"
        return parts[0] if len(parts) == 1 else TsIntersection(tuple(parts))

    def _node(self, n: ir.NodeType) -> TsObject:
        props = [TsProperty("zarr_format", str(n.zarr_format), True)]
        if n.zarr_format == 3:
            props.append(TsProperty("node_type", f'"{n.node_kind}"', True))
        props.append(TsProperty("attributes", self.type(n.attributes), True))
        if n.members is not None:
            props.append(TsProperty("members", self._members(n.members), True))
        else:
            narrowed = {f.key: f for f in n.metadata}
            for base in ARRAY_FIELDS[n.zarr_format]:
                f = narrowed.get(base.key)
                if f is not None:
                    props.append(
                        TsProperty(key(f.key), self.type(f.type), f.required, f.description)
                    )
                else:
                    props.append(TsProperty(base.key, self.type(base.type), base.required))
        # The keys the convention declares beside the base node's own.
        for f in n.metadata:
            if f.key not in ALL_NODE_KEYS:
                props.append(TsProperty(key(f.key), self.type(f.type), f.required, f.description))
        return TsObject(tuple(props))

    def declarations(self) -> list[TsDeclaration]:
        out: list[TsDeclaration] = []
        for named in self.h.types:
            body: TsType
            if isinstance(named, ir.ObjectType):
                body = self._object(named)
            elif isinstance(named, ir.NodeType):
                body = self._node(named)
            else:
                body = self.type(named.target)
            out.append(TsDeclaration(named.name, body, named.description))
        return out

    def types_ts(self) -> str:
        versions = list(self.h.zarr_formats)
        base_fields = {
            v: [
                f"readonly {f.key}{'' if f.required else '?'}: {self.type(f.type)};"
                for f in ARRAY_FIELDS[v]
            ]
            for v in versions
        }
        base_names = {
            f"{kind}{v}": self.names.base(kind, v) for v in versions for kind in ("group", "array")
        } | {f"any{v}": self.names.any_node(v) for v in versions}
        view = {
            "source": self.h.source,
            "root": self.h.root,
            "versions": versions,
            "base_fields": base_fields,
            "base_names": base_names,
            "declarations": [declaration(d) for d in self.declarations()],
        }
        return render("typescript/types.ts.j2", t=view)


def _literal(value: ir.JsonScalar) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if abs(value) < _SAFE_INTEGER else "number"
    if isinstance(value, float):
        return json.dumps(value) if math.isfinite(value) else "number"
    return json.dumps(value)


def typescript_files(
    hierarchy: ir.Hierarchy, schema_text: str, runtime: RuntimeLink
) -> dict[str, str]:
    """{file name: text} of the TypeScript side of a package: the types, the run-time checks
    (`validate.ts` over `schema.ts`, the text of schema.json) and the loader, importing the
    TypeScript run time as `runtime` says (with its copy, where vendored)."""
    view = checks_view(hierarchy) | {"runtime": runtime.ts_module}
    # Each line of schema.json as a JSON string literal, which is a JavaScript one: ASCII
    # escapes, so no line separator, quote or `${` in the schema can end it. Split at "\n" only:
    # json.dumps writes no other line break outside strings, and str.splitlines would also
    # split inside strings (at U+2028, U+0085, \x1c...).
    lines = [json.dumps(line) for line in schema_text.rstrip("\n").split("\n")]
    files = {
        "types.ts": TypeScriptTypes(hierarchy).types_ts(),
        "validate.ts": render("typescript/validate.ts.j2", t=view),
        "load.ts": render("typescript/load.ts.j2", t=view),
        "schema.ts": render("typescript/schema.ts.j2", source=hierarchy.source, lines=lines),
    }
    if runtime.vendored:
        files |= runtime_ts_files()
    return files


def checks_view(hierarchy: ir.Hierarchy) -> dict[str, str]:
    """The names validate.ts exports (and index.ts re-exports) for the convention's root."""
    root = hierarchy.root
    return {
        "source": hierarchy.source,
        "root": root,
        "guard": f"is{root}",
        "assertion": f"assert{root}",
    }
