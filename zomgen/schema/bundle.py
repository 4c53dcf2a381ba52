"""The self-contained `schema.json` a generated package validates with.

Every schema document the input reaches through `$ref` is copied under the root's `$defs`
(key `zomgen:<file stem>`), every reference is rewritten to a local JSON pointer, and embedded
`$id`/`$schema`/`$anchor` keywords are dropped so that those pointers resolve against the one
bundled document. Draft-07 documents keep draft-07 meaning: keywords beside a `$ref` are
dropped (draft-07 ignores them) and the array form of `items` becomes `prefixItems`. The
result is a 2020-12 schema any validator (jsonschema, jsonschema-rs, Ajv) reads the same way.
"""

from __future__ import annotations

import copy
import re
from urllib.parse import quote

from referencing._core import Resolver

from zomgen.errors import CompileError
from zomgen.schema.atoms import Expander
from zomgen.schema.check import ensure_checked
from zomgen.schema.load import SchemaDocument, SchemaSet, escape_pointer

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


class Bundler:
    def __init__(self, schema_set: SchemaSet) -> None:
        self.schema_set = schema_set
        self.x = Expander(schema_set)
        self.keys: dict[int, str] = {id(schema_set.root.contents): ""}
        self.pending: list[SchemaDocument] = []

    def bundle(self) -> dict[str, object]:
        root = self.schema_set.root
        ensure_checked(self.schema_set, root)
        out = self._copy(root, root.contents, self.x.root_resolver())
        if not isinstance(out, dict):
            out = {"allOf": [out]}
        defs: dict[str, object] = {}
        done: set[int] = set()
        while self.pending:
            doc = self.pending.pop(0)
            if id(doc) in done:
                continue
            done.add(id(doc))
            ensure_checked(self.schema_set, doc)
            resolver = self.schema_set.registry.resolver(base_uri=doc.uri)
            defs[self.keys[id(doc)]] = self._copy(doc, doc.contents, resolver)
        result: dict[str, object] = {"$schema": DIALECT}
        result.update((k, v) for k, v in out.items() if k not in ("$schema",))
        for value, key in _BOOLEAN_DEFS.items():
            if key in self.keys.values():
                defs[key] = value
        if defs:
            own = result.get("$defs")
            merged = dict(own) if isinstance(own, dict) else {}
            merged.update(sorted(defs.items()))
            result["$defs"] = merged
        return result

    def _key_for(self, doc: SchemaDocument) -> str:
        key = self.keys.get(id(doc))
        if key is None:
            stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", doc.path.name)
            key = f"zomgen:{stem}"
            taken = set(self.keys.values())
            n = 2
            while key in taken:
                key = f"zomgen:{stem}-{n}"
                n += 1
            self.keys[id(doc)] = key
            self.pending.append(doc)
        return key

    def _copy(self, doc: SchemaDocument, node: object, resolver: Resolver[object]) -> object:
        if not isinstance(node, dict):
            return copy.deepcopy(node)
        resolver = self.x._enter(node, resolver)
        out: dict[str, object] = {}
        ref = node.get("$ref")
        draft07 = doc.draft == "draft-07"
        draft07_ref = draft07 and isinstance(ref, str)
        for key, value in node.items():
            if key in _DROP or (draft07 and key in _NOT_DRAFT07):
                continue
            if draft07_ref and key not in ("$ref", "definitions", "$defs", "title", "description"):
                continue  # draft-07 ignores keywords beside `$ref`
            if key == "$ref" and isinstance(value, str):
                out[key] = self._rewrite(node, value, resolver)
            elif key in _SCHEMA_MAPS and isinstance(value, dict):
                out[key] = {k: self._copy(doc, v, resolver) for k, v in value.items()}
            elif key in _SCHEMA_LISTS and isinstance(value, list):
                out[key] = [self._copy(doc, v, resolver) for v in value]
            elif key == "items" and isinstance(value, list):
                out["prefixItems"] = [self._copy(doc, v, resolver) for v in value]
            elif key == "additionalItems" and isinstance(node.get("items"), list):
                out["items"] = self._copy(doc, value, resolver)
            elif key == "dependencies" and draft07 and isinstance(value, dict):
                required = {k: v for k, v in value.items() if isinstance(v, list)}
                schemas = {
                    k: self._copy(doc, v, resolver)
                    for k, v in value.items()
                    if not isinstance(v, list)
                }
                if required:
                    out["dependentRequired"] = copy.deepcopy(required)
                if schemas:
                    out["dependentSchemas"] = schemas
            elif key in _SCHEMA_ONE:
                out[key] = self._copy(doc, value, resolver)
            else:
                out[key] = copy.deepcopy(value)
        return out

    def _rewrite(self, holder: dict[str, object], ref: str, resolver: Resolver[object]) -> str:
        target, _ = self.x.lookup(holder, ref, resolver)
        if isinstance(target, bool):
            # A boolean schema has no identity to point at: it gets a definition of its own.
            key = _BOOLEAN_DEFS[target]
            self.keys[-1 if target else -2] = key
            return f"#/$defs/{quote(key, safe=_SAFE)}"
        found = self.schema_set.locate(target)
        if found is None:
            file, pointer = self.x.where(holder)
            raise CompileError.one(file, f"{pointer}/$ref", f"cannot bundle `$ref` {ref!r}")
        doc, pointer = found
        key = self._key_for(doc) if doc is not self.schema_set.root else ""
        prefix = "" if not key else f"/$defs/{escape_pointer(key)}"
        # A JSON pointer in a URI fragment is percent-encoded (RFC 6901 §6): `%` or a space in a
        # `$defs` key must not be read as an escape.
        return "#" + quote(f"{prefix}{pointer}", safe=_SAFE)


def bundle(schema_set: SchemaSet) -> dict[str, object]:
    return Bundler(schema_set).bundle()
