"""The Zarr base arrays as the Python target declares them: each version's metadata fields
(`base_fields`: model type, document type, the type each converts by), and the v3 extension
points (`data_type`, `codecs`...) a convention narrows to records of its own, which the base
`ArraySpec` of that package then lists so that the narrowed models are subtypes of it."""

from __future__ import annotations

from dataclasses import dataclass

from zomgen import ir
from zomgen.ir.zarr import ARRAY_FIELDS, EXTENSION, BaseField
from zomgen.targets.python.convert.view import Slot
from zomgen.targets.python.spelling import Spelling

# A v3 array's extension points: one value, or a list of them.
_EXTENSION_POINTS = tuple(f.key for f in ARRAY_FIELDS[3] if f.type == EXTENSION)
_EXTENSION_LISTS = tuple(f.key for f in ARRAY_FIELDS[3] if f.type == ir.ListOf(EXTENSION))
# Where the models are wider than the schema: a v2 structured dtype is a list of lists, which a
# model built by hand may give as any sequence.
_MODEL_SPELLING = {"dtype": "str | Sequence[JsonValue]"}


@dataclass(frozen=True)
class ArrayField:
    """A base array's metadata key as the Python target declares it."""

    key: str
    model_type: str
    doc_type: str
    converts: ir.TypeRef  # the type `_convert.py` converts its value as
    required: bool
    nullable: bool


def base_fields(sp: Spelling, kind: ir.NodeKind, version: int) -> list[ArrayField]:
    """A base node's metadata (ir/zarr.py) as the Python target declares it."""
    if kind == "group":
        return []
    return [
        ArrayField(
            f.key,
            _MODEL_SPELLING.get(f.key) or sp.model(f.type),
            sp.document(f.type),
            _converted_as(f),
            f.required,
            f.nullable,
        )
        for f in ARRAY_FIELDS[version]
    ]


def _converted_as(f: BaseField) -> ir.TypeRef:
    """What `_convert.py` converts the field's value as: a value kept as plain JSON as any
    JSON (inside a list, for a list the models hold as a tuple)."""
    if not f.plain_json:
        return f.type
    return ir.ListOf(ir.Json()) if isinstance(f.type, ir.ListOf) else ir.Json()


class BaseArrays:
    def __init__(self, hierarchy: ir.Hierarchy) -> None:
        self.h = hierarchy
        self.extension_records = self._find_extension_records()

    def extension_types(self) -> dict[str, str]:
        """The model type of each extension point of the package's base `ArraySpec`."""
        types = {
            key: " | ".join(["str", "NamedConfig", *self.extension_records.get(key, ())])
            for key in _EXTENSION_POINTS + _EXTENSION_LISTS
        }
        for key in _EXTENSION_LISTS:
            types[key] = f"tuple[{types[key]}, ...]"
        return types

    def declared(self, sp: Spelling, version: int) -> tuple[list[str], list[str]]:
        """The field declarations of the base array of `version`: in models.py (an absent
        optional key is `None`; the extension points list the convention's records) and in
        documents.py (`NotRequired`)."""
        extension_types = self.extension_types() if version == 3 else {}
        models: list[str] = []
        documents: list[str] = []
        for f in base_fields(sp, "array", version):
            model_type = extension_types.get(f.key, f.model_type)
            optional = not f.required
            models.append(f"{f.key}: {model_type}{' | None' if optional else ''}")
            documents.append(f"{f.key}: {f'NotRequired[{f.doc_type}]' if optional else f.doc_type}")
        return models, documents

    def base_slot(self, key: str, converts: ir.TypeRef, required: bool) -> Slot:
        """A base array field a node's model inherits: parsed as the base type, dumped as the
        type the base field is declared with (its extension points may hold records)."""
        dump_type: ir.TypeRef | None = None
        records = tuple(ir.Ref(name) for name in self.extension_records.get(key, ()))
        if records:
            dump_type = ir.UnionOf((*EXTENSION.options, *records))
            if key in _EXTENSION_LISTS:
                dump_type = ir.ListOf(dump_type)
        return Slot(key, key, converts, required, None if required else "None", dump_type)

    def _find_extension_records(self) -> dict[str, tuple[str, ...]]:
        """The convention's own records at each v3 extension point some array narrows: the base
        array declares the point as `str | NamedConfig | <those records>`, so that the
        narrowed field of the array's model is a subtype of it and `parse` builds them."""
        found: dict[str, dict[str, None]] = {}
        for n in self.h.types:
            if not isinstance(n, ir.NodeType) or n.node_kind != "array" or n.zarr_format != 3:
                continue
            for f in n.metadata:
                records = self._extension_parts(f.key, f)
                if records:
                    found.setdefault(f.key, {}).update(dict.fromkeys(records))
        return {key: tuple(names) for key, names in found.items()}

    def narrowable(self, key: str, f: ir.Field, version: int) -> bool:
        """Can the model override the base field `key` with the narrowed type? Only when the
        narrowed type is a subtype of the base one: JSON-only values inside the base field's
        type, and for extension points (`data_type`, `codecs`...) strings, the base
        `NamedConfig` and the convention's own records there (which the base field lists). A
        schema that carries its own copy of a base node, rather than a `$ref` to it, may give
        `shape` any schema: the model keeps the base field's type then."""
        if key in _EXTENSION_POINTS + _EXTENSION_LISTS:
            return self._extension_parts(key, f) is not None
        if f.nullable and not f.required:
            return False  # the base field has no `Unset`
        base = next(b.type for b in ARRAY_FIELDS[version] if b.key == key)
        return self._json_only(f.type, set()) and self._within(f.type, base)

    def _within(self, t: ir.TypeRef, base: ir.TypeRef) -> bool:
        """Is every value of model type `t` one of `base`'s (conservatively: False when in
        doubt, which keeps the base field's type in the model)?"""
        if isinstance(base, ir.Json) or isinstance(t, ir.Never):
            return True
        if isinstance(t, ir.Ref):
            named = self.h.type_named(t.name)
            return isinstance(named, ir.AliasType) and self._within(named.target, base)
        if isinstance(t, ir.UnionOf):
            return all(self._within(o, base) for o in t.options)
        if isinstance(base, ir.UnionOf):
            return any(self._within(t, o) for o in base.options)
        if isinstance(base, ir.Primitive):
            if isinstance(t, ir.Literal):
                kinds = {"string": str, "integer": int, "boolean": bool}
                kind = kinds.get(base.name)
                return kind is not None and all(
                    type(v) is kind
                    for v in t.values  # `True` is no integer here
                )
            return isinstance(t, ir.Primitive) and t.name == base.name
        if isinstance(base, ir.Literal):
            return isinstance(t, ir.Literal) and set(t.values) <= set(base.values)
        if isinstance(base, ir.ListOf):
            if isinstance(t, ir.ListOf):
                return self._within(t.item, base.item)
            if isinstance(t, ir.TupleOf):
                parts = list(t.items) + ([t.rest] if t.rest is not None else [])
                return all(self._within(p, base.item) for p in parts)
            return False
        if isinstance(base, ir.JsonObject):
            return isinstance(t, (ir.JsonObject, ir.MapOf))
        return t == base

    def _extension_parts(self, key: str, f: ir.Field) -> list[str] | None:
        """The records a narrowed extension point holds, or None where the field cannot be
        narrowed (other JSON values, or a `null` the base field has no place for)."""
        if key not in _EXTENSION_POINTS + _EXTENSION_LISTS or (f.nullable and not f.required):
            return None
        records: list[str] = []
        t = f.type
        if key in _EXTENSION_POINTS:
            parts = [t]
        elif isinstance(t, ir.ListOf):
            parts = [t.item]
        elif isinstance(t, ir.TupleOf):
            parts = list(t.items) + ([t.rest] if t.rest is not None else [])
        else:
            return None
        if all(self._extension_only(p, records) for p in parts):
            return records
        return None

    def _extension_only(self, t: ir.TypeRef, records: list[str]) -> bool:
        """Is `t` made of strings, `NamedConfig` and records only? The records are added to
        `records`."""
        if isinstance(t, ir.UnionOf):
            return all(self._extension_only(o, records) for o in t.options)
        if isinstance(t, ir.Literal):
            return all(isinstance(v, str) for v in t.values)
        if isinstance(t, ir.Primitive):
            return t.name == "string"
        if isinstance(t, ir.Ref):
            named = None if t.name == "NamedConfig" else self.h.type_named(t.name)
            if named is None:
                return True
            if isinstance(named, ir.ObjectType):
                records.append(t.name)
                return True
            return isinstance(named, ir.AliasType) and self._extension_only(named.target, records)
        return False

    def _json_only(self, t: ir.TypeRef, seen: set[str]) -> bool:
        """No records (dataclasses are not JSON values) anywhere inside."""
        if isinstance(t, (ir.Primitive, ir.Literal, ir.Json, ir.JsonObject, ir.Never)):
            return True
        if isinstance(t, ir.ListOf):
            return self._json_only(t.item, seen)
        if isinstance(t, ir.TupleOf):
            parts = list(t.items) + ([t.rest] if t.rest is not None else [])
            return all(self._json_only(p, seen) for p in parts)
        if isinstance(t, ir.MapOf):
            return self._json_only(t.value, seen)
        if isinstance(t, ir.UnionOf):
            return all(self._json_only(o, seen) for o in t.options)
        if isinstance(t, ir.Ref) and t.name != "NamedConfig":
            named = self.h.type_named(t.name)
            if isinstance(named, ir.AliasType):
                if t.name in seen:
                    return True
                return self._json_only(named.target, seen | {t.name})
        return False
