"""The self-contained `schema.json` a generated package validates with.

Every schema document the input reaches through `$ref` is copied under the root's `$defs`
(key `zomgen:<file stem>`), every reference is rewritten to a local JSON pointer, and embedded
`$id`/`$schema`/`$anchor` keywords are dropped so that those pointers resolve against the one
bundled document. Draft-07 documents keep draft-07 meaning: keywords beside a `$ref` are
dropped (draft-07 ignores them) and the array form of `items` becomes `prefixItems`. The
result is a 2020-12 schema any validator (jsonschema, jsonschema-rs, Ajv) reads the same way.

A reference is rewritten to the place its target was copied to, not the place it was loaded
from: `#/items/0` in a draft-07 document becomes `#/.../prefixItems/0`, from any document. A
target the bundle has no place for (a schema beside a draft-07 `$ref`, inside `enum` or an
unknown keyword) is copied to a definition of its own, `zomgen:<file stem>:<pointer>`.
Each `$ref` is looked up from the schema's own base URI: its nearest `$id` (draft-07 ignores
an `$id` beside `$ref`), see `Expander` in atoms.py.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from dataclasses import dataclass
from urllib.parse import quote

from referencing._core import Resolver
from zomgen_runtime.pointers import escape as escape_pointer

from zomgen import ir
from zomgen.errors import CompileError, InputProblem, Warnings
from zomgen.schema.atoms import Expander
from zomgen.schema.documents import SchemaDocument, SchemaSet
from zomgen.schema.metaschema import ensure_checked
from zomgen.schema.patterns import pattern_problem

DIALECT = "https://json-schema.org/draft/2020-12/schema"
_SAFE = "/~!$&'()*+,;=:@"
_DROP = ("$id", "$schema", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "id")
# Keywords of later drafts that a draft-07 document may carry but draft-07 ignores: dropped,
# so that the bundled 2020-12 schema ignores them too.
_NOT_DRAFT07 = (
    "prefixItems",
    "minContains",
    "maxContains",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$dynamicRef",
    "$recursiveRef",
)
_DYNAMIC = ("$dynamicRef", "$recursiveRef")
_BOOLEAN_DEFS = {True: "zomgen:true", False: "zomgen:false"}
# Keywords whose values are schemas, maps of schemas or lists of schemas.
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_ONE = (
    "additionalProperties",
    "items",
    "additionalItems",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contentSchema",
)


@dataclass
class _Ref:
    """A copied `$ref` whose text waits until every target has its place in the bundle."""

    out: dict[str, object]  # the copied schema object that holds the `$ref`
    target: dict[str, object]  # the schema it names, as loaded
    doc: SchemaDocument  # the document the target is in
    resolver: Resolver[object]  # the resolver inside the target


class Bundler:
    def __init__(self, schema_set: SchemaSet, x: Expander) -> None:
        self.schema_set = schema_set
        self.x = x
        self.warnings = Warnings()
        self.keys: dict[int, str] = {id(schema_set.root.contents): ""}
        self.pending: list[SchemaDocument] = []
        # id(schema object as loaded) -> its JSON pointer in the bundle. A `$ref` points where
        # its target was copied to, which is not always where it was: draft-07 array `items`
        # become `prefixItems`, `additionalItems` beside them `items`, `dependencies`
        # `dependentSchemas`.
        self.placed: dict[int, str] = {}
        self.refs: list[_Ref] = []
        self.defs: dict[str, object] = {}

    def bundle(self) -> dict[str, object]:
        root = self.schema_set.root
        ensure_checked(self.schema_set, root)
        out = self._copy(root, root.contents, self.x.root_resolver(), "")
        if not isinstance(out, dict):
            out = {"allOf": [out]}
        done: set[int] = set()
        while self.pending or self.refs:
            while self.pending:
                doc = self.pending.pop(0)
                if id(doc) in done:
                    continue
                done.add(id(doc))
                ensure_checked(self.schema_set, doc)
                resolver = self.schema_set.registry.resolver(base_uri=doc.uri)
                key = self.keys[id(doc)]
                self.defs[key] = self._copy(doc, doc.contents, resolver, _def_pointer(key))
            # Only now is every document copied: each target has its place, or has none (it
            # sits where the bundle keeps no schema) and is copied to a definition of its own.
            refs, self.refs = self.refs, []
            for ref in refs:
                ref.out["$ref"] = "#" + quote(self._place(ref), safe=_SAFE)
        result: dict[str, object] = {"$schema": DIALECT}
        result.update((k, v) for k, v in out.items() if k not in ("$schema",))
        for value, key in _BOOLEAN_DEFS.items():
            if key in self.keys.values():
                self.defs[key] = value
        if self.defs:
            own = result.get("$defs")
            merged = dict(own) if isinstance(own, dict) else {}
            merged.update(sorted(self.defs.items()))
            result["$defs"] = merged
        return result

    def places(self) -> dict[str, str]:
        """Where each schema of the input was copied to in the bundle (after `bundle`): its
        place as the IR writes it (`SchemaSet.pointer_text`) -> its JSON pointer here."""
        found: dict[str, str] = {}
        for key, at in self.placed.items():
            where = self.schema_set.locations.get(key)
            if where is not None:
                found[self.schema_set.text_of(*where)] = at
        return found

    def _place(self, ref: _Ref) -> str:
        placed = self.placed.get(id(ref.target))
        if placed is not None:
            return placed
        # A schema the bundle dropped (a draft-07 keyword beside `$ref`, a keyword of a later
        # draft in a draft-07 document) or never read as one (inside `enum`, an unknown
        # keyword): copied whole under its own key, so the reference keeps its meaning.
        _file, pointer = self.x.where(ref.target)
        stem = self.keys.get(id(ref.doc)) or f"zomgen:{_stem(ref.doc)}"
        key = self._fresh_key(f"{stem}:{pointer}")
        self.keys[id(ref.target)] = key
        at = _def_pointer(key)
        self.defs[key] = self._copy(ref.doc, ref.target, ref.resolver, at)
        return at

    def _key_for(self, doc: SchemaDocument) -> str:
        key = self.keys.get(id(doc))
        if key is None:
            key = self._fresh_key(f"zomgen:{_stem(doc)}")
            self.keys[id(doc)] = key
            self.pending.append(doc)
        return key

    def _fresh_key(self, wanted: str) -> str:
        taken = set(self.keys.values())
        key = wanted
        n = 2
        while key in taken:
            key = f"{wanted}-{n}"
            n += 1
        return key

    def _copy(
        self, doc: SchemaDocument, node: object, resolver: Resolver[object], at: str
    ) -> object:
        """The bundled copy of `node` (a schema of `doc`, to be placed at pointer `at`), with its
        draft-07 keywords given their 2020-12 spelling and each `$ref` queued for rewriting."""
        if not isinstance(node, dict):
            return copy.deepcopy(node)
        self.placed.setdefault(id(node), at)
        resolver = self.x._enter(node, resolver)
        out: dict[str, object] = {}
        draft07 = doc.draft == "draft-07"
        draft07_ref = draft07 and isinstance(node.get("$ref"), str)
        for key, value in node.items():
            if key in _DROP or (draft07 and key in _NOT_DRAFT07):
                continue
            if draft07_ref and key not in ("$ref", "definitions", "$defs", "title", "description"):
                continue  # draft-07 ignores keywords beside `$ref`
            if key in _DYNAMIC and not draft07:
                self._refuse_dynamic(node, key)
            self._check_patterns(node, key, value)
            self._copy_keyword(doc, node, key, resolver, at, out)
        return out

    def _copy_keyword(
        self,
        doc: SchemaDocument,
        node: dict[str, object],
        key: str,
        resolver: Resolver[object],
        at: str,
        out: dict[str, object],
    ) -> None:
        """Copy keyword `key` of `node` into `out`: subschemas copied in turn, the rest as is."""
        value = node[key]
        here = f"{at}/{escape_pointer(key)}"
        if key == "$ref" and isinstance(value, str):
            out[key] = self._rewrite(node, value, resolver, out)
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {
                k: self._copy(doc, v, resolver, f"{here}/{escape_pointer(k)}")
                for k, v in value.items()
            }
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [self._copy(doc, v, resolver, f"{here}/{i}") for i, v in enumerate(value)]
        elif key == "items" and isinstance(value, list):
            out["prefixItems"] = [
                self._copy(doc, v, resolver, f"{at}/prefixItems/{i}") for i, v in enumerate(value)
            ]
        elif key == "additionalItems" and isinstance(node.get("items"), list):
            out["items"] = self._copy(doc, value, resolver, f"{at}/items")
        elif key == "dependencies" and doc.draft == "draft-07" and isinstance(value, dict):
            self._copy_dependencies(doc, value, resolver, at, out)
        elif key in _SCHEMA_ONE:
            out[key] = self._copy(doc, value, resolver, here)
        else:
            out[key] = copy.deepcopy(value)

    def _copy_dependencies(
        self,
        doc: SchemaDocument,
        value: dict[str, object],
        resolver: Resolver[object],
        at: str,
        out: dict[str, object],
    ) -> None:
        """Draft-07 `dependencies` into `out` as 2020-12 spells it: its lists of names become
        `dependentRequired`, its schemas `dependentSchemas`."""
        required = {k: v for k, v in value.items() if isinstance(v, list)}
        schemas = {
            k: self._copy(doc, v, resolver, f"{at}/dependentSchemas/{escape_pointer(k)}")
            for k, v in value.items()
            if not isinstance(v, list)
        }
        if required:
            out["dependentRequired"] = copy.deepcopy(required)
        if schemas:
            out["dependentSchemas"] = schemas

    def _refuse_dynamic(self, node: dict[str, object], key: str) -> None:
        """The compiler refuses `$dynamicRef` where a type meets it; this refuses it where only
        the run time would (under `if`/`not`...), because one bundled document has no dynamic
        scope left to resolve it in."""
        file, pointer = self.x.where(node)
        raise CompileError.one(
            file,
            f"{pointer}/{escape_pointer(key)}",
            f"`{key}` is not supported: dynamic references cannot be resolved in one "
            "bundled schema; use `$ref`",
        )

    def _check_patterns(self, node: dict[str, object], key: str, value: object) -> None:
        """`_check_pattern` on the pattern(s) keyword `key` of `node` holds, if any."""
        if key == "pattern" and isinstance(value, str):
            self._check_pattern(node, "/pattern", value)
        elif key == "patternProperties" and isinstance(value, dict):
            for pattern in value:
                self._check_pattern(node, f"/{key}/{escape_pointer(pattern)}", pattern)

    def _check_pattern(self, node: dict[str, object], where: str, pattern: str) -> None:
        """Warn about a pattern that goes into schema.json but that some run time cannot read
        as written (patterns.py: which engine reads what)."""
        problem = pattern_problem(pattern)
        if problem is not None:
            file, pointer = self.x.where(node)
            self.warnings.add(file, pointer + where, problem)

    def _rewrite(
        self,
        holder: dict[str, object],
        ref: str,
        resolver: Resolver[object],
        out: dict[str, object],
    ) -> str:
        """The `$ref` of the copy `out` of `holder`: final now for a boolean target, else
        filled in by `bundle` once the target has its place (placeholder: the original)."""
        target, target_resolver = self.x.lookup(holder, ref, resolver)
        if isinstance(target, bool):
            # A boolean schema has no identity to point at: it gets a definition of its own.
            key = _BOOLEAN_DEFS[target]
            self.keys[-1 if target else -2] = key
            return f"#/$defs/{quote(key, safe=_SAFE)}"
        found = self.schema_set.locate(target)
        if found is None or not isinstance(target, dict):
            file, pointer = self.x.where(holder)
            raise CompileError.one(file, f"{pointer}/$ref", f"cannot bundle `$ref` {ref!r}")
        doc = found[0]
        if doc is not self.schema_set.root:
            self._key_for(doc)  # the whole document is copied, so that the target is too
        self.refs.append(_Ref(out, target, doc, target_resolver))
        return ref


def _stem(doc: SchemaDocument) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", doc.path.name)


def _def_pointer(key: str) -> str:
    return f"/$defs/{escape_pointer(key)}"


def bundle(schema_set: SchemaSet) -> dict[str, object]:
    return bundle_with_places(schema_set, Expander(schema_set)).schema


@dataclass(frozen=True)
class Bundled:
    schema: dict[str, object]  # the package's schema.json
    places: dict[str, str]  # where each input schema is in it (`Bundler.places`)
    warnings: tuple[InputProblem, ...]  # patterns some run time cannot read as written


def bundle_with_places(schema_set: SchemaSet, x: Expander) -> Bundled:
    bundler = Bundler(schema_set, x)
    schema = bundler.bundle()
    return Bundled(schema, bundler.places(), bundler.warnings.found())


def locate_options(hierarchy: ir.Hierarchy, places: dict[str, str]) -> ir.Hierarchy:
    """`hierarchy` with each union option's own subschemas (`UnionOf.option_schemas`) given as
    JSON pointers into the bundled schema, which the run time has; an option with a subschema
    the bundle dropped (beside a draft-07 `$ref`) has none."""

    def located(t: ir.TypeRef) -> ir.TypeRef:
        if not isinstance(t, ir.UnionOf) or not t.option_schemas:
            return t
        schemas = tuple(
            tuple(places[s] for s in own) if all(s in places for s in own) else ()
            for own in t.option_schemas
        )
        return dataclasses.replace(t, option_schemas=schemas)

    return ir.map_types(hierarchy, located)
