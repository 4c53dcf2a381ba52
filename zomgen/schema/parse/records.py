"""The shapes of records (objects with listed keys), maps, and Zarr nodes, from a conjunction's
merged keywords. Each part's type comes back through `type_of` (builder.py), which this class
leaves abstract, as it declares the state the builder shares with it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable

from zomgen_runtime.pointers import escape as escape_pointer

from zomgen import ir
from zomgen.errors import CompileError
from zomgen.ir.zarr import ARRAY_FIELDS, node_keys
from zomgen.names import pascal_case
from zomgen.schema.atoms import Atom, Conj, Expander, Impossible
from zomgen.schema.documents import SchemaSet
from zomgen.schema.parse.bases import BaseSchemas
from zomgen.schema.parse.keywords import (
    RUNTIME_KEYWORDS,
    Keywords,
    merge_patterns,
)
from zomgen.schema.parse.naming import Naming
from zomgen.schema.parse.warn import TypeWarnings


class RecordShapes(ABC):
    schema_set: SchemaSet
    x: Expander
    bases: BaseSchemas
    naming: Naming
    kw: Keywords
    warn: TypeWarnings
    # After a required key that admits no value, go on with the other keys to report them
    # all (a second pass, made only to explain a root that admits no value).
    collect_all: bool
    types: dict[str, ir.NamedType | None]
    by_key: dict[tuple[frozenset[int], str], ir.TypeRef]
    runtime: set[ir.RuntimeCheck]
    formats: set[int]
    constants: dict[str, ir.TypeRef]  # canonical JSON of a const -> its type

    @abstractmethod
    def type_of(self, conj: Conj, hint: str) -> ir.TypeRef:
        """The IR type of a conjunction, `hint` naming it if it needs a new name."""

    def _record_runtime(self, conj: Conj) -> None:
        for atom in conj.atoms:
            if id(atom.schema) in self.bases.atoms:
                continue
            for keyword in atom.schema:
                if keyword in RUNTIME_KEYWORDS or keyword.startswith("x-zomgen-"):
                    where = self.naming.pointer_text(atom.schema)
                    self.runtime.add(ir.RuntimeCheck(f"{where}/{escape_pointer(keyword)}", keyword))

    def _other(
        self, conj: Conj, hint: str, *, members: bool = False
    ) -> tuple[ir.TypeRef | None, tuple[tuple[str, ir.TypeRef], ...]]:
        """Type of unlisted keys (None when closed) and of `patternProperties` keys. Unlisted
        keys whose schema admits no value cannot be present: the object is closed (for a
        group's members, a warning says why)."""
        additional: list[Atom] = []
        closed = False
        patterns: list[tuple[str, ir.TypeRef]] = []
        for atom, value in conj.values("additionalProperties"):
            if value is False:
                closed = True
            else:
                try:
                    additional.extend(self.x.expand(value, atom.resolver))
                except Impossible:
                    closed = True
        for atom, value in conj.values("patternProperties"):
            if isinstance(value, dict):
                for pattern, sub in value.items():
                    try:
                        sub_conj = Conj(self.x.expand(sub, atom.resolver))
                        patterns.append((pattern, self.type_of(sub_conj, hint)))
                    except Impossible:
                        continue
        if closed:
            return None, tuple(patterns)
        try:
            return self.type_of(Conj(tuple(additional)), hint), tuple(patterns)
        except Impossible as exc:
            if members:
                self.warn.never(conj, None, exc)
            return None, tuple(patterns)

    def _fields(
        self, conj: Conj, owner: str, keys: Iterable[str], *, members: bool = False
    ) -> tuple[ir.Field, ...]:
        required = self.kw.required(conj)
        fields: list[ir.Field] = []
        failed: Impossible | None = None
        for key in keys:
            if key == "":
                refuse_empty_key(self.x, conj)
            if failed is not None and (not self.collect_all or key not in required):
                continue
            try:
                field_conj = self.kw.field_conj(conj, key)
                field_type = self.type_of(field_conj, owner + pascal_case(key))
            except Impossible as exc:
                if key in required:
                    at = exc.within(("/members/" if members else "/") + escape_pointer(key))
                    failed = (
                        at
                        if failed is None
                        else Impossible(failed.reason, failed.clauses, failed.causes + at.causes)
                    )
                    continue
                # A key that can never be present (`"x": false`): typed so, which an open
                # object needs to reject it (its other keys may hold anything).
                if members:
                    self.warn.never(conj, key, exc)
                fields.append(ir.Field(key=key, type=ir.Never(), required=False))
                continue
            except CompileError:
                if failed is None:
                    raise
                continue  # only explaining a failure: this key is not the build's business
            if isinstance(field_type, ir.Json) and key in ("attributes",):
                field_type = ir.JsonObject()
            fields.append(
                ir.Field(
                    key=key,
                    type=field_type,
                    required=key in required,
                    nullable=self.accepts_null(field_type),
                    description=self.kw.description(field_conj),
                )
            )
        if failed is not None:
            raise failed
        return tuple(fields)

    def accepts_null(self, t: ir.TypeRef) -> bool:
        if isinstance(t, ir.Json):
            return True
        if isinstance(t, ir.Primitive):
            return t.name == "null"
        if isinstance(t, ir.Literal):
            return None in t.values
        if isinstance(t, ir.UnionOf):
            return any(self.accepts_null(o) for o in t.options)
        if isinstance(t, ir.Ref):
            named = self.types.get(t.name)
            return isinstance(named, ir.AliasType) and self.accepts_null(named.target)
        return False

    def _object(
        self, conj: Conj, name: str, description: str | None, pointer: str
    ) -> ir.ObjectType:
        self._record_runtime(conj)
        keys = list(self.kw.properties(conj))
        keys += sorted(k for k in self.kw.required(conj) if k not in keys)
        fields = self._fields(conj, name, keys)
        other, patterns = self._other(conj, name + "Value")
        extra = merge_patterns(other, patterns)
        return ir.ObjectType(name, fields, extra, description, pointer)

    def _node(
        self,
        conj: Conj,
        name: str,
        kind: tuple[ir.NodeKind, int],
        description: str | None,
        pointer: str,
    ) -> ir.NodeType:
        node_kind, version = kind
        self.formats.add(version)
        self._record_runtime(conj)
        attributes_conj = self.kw.field_conj(conj, "attributes")
        try:
            attributes = self.type_of(attributes_conj, name + "Attributes")
        except Impossible as exc:
            raise exc.within("/attributes") from None
        if isinstance(attributes, ir.Json):
            attributes = ir.JsonObject()
        members: ir.Members | None = None
        refined: list[str] = []
        if node_kind == "group":
            members_conj = self.kw.field_conj(conj, "members")
            self._record_runtime(members_conj)
            named_keys = list(self.kw.properties(members_conj))
            named = self._fields(members_conj, name, named_keys, members=True)
            other, patterns = self._other(members_conj, name + "Member", members=True)
            members = ir.Members(named, other, patterns)
        else:
            refined = [f.key for f in ARRAY_FIELDS[version] if self.kw.refines(conj, f.key)]
        metadata = self._fields(conj, name, refined + self._own_node_keys(conj, node_kind, version))
        return ir.NodeType(
            name, node_kind, version, attributes, members, metadata, description, pointer
        )

    def _own_node_keys(self, conj: Conj, kind: ir.NodeKind, version: int) -> list[str]:
        """The keys the convention declares on the node beside the base node's own (a writer's
        key in `.zarray`, a v3 extension field), in the order its schema lists them: each
        reaches the models and types as a field of the node."""
        base = set(node_keys(kind, version)) | {"members", "node_type"}
        keys = [k for k in self.kw.properties(conj) if k not in base and self.kw.refines(conj, k)]
        keys += sorted(k for k in self.kw.required(conj) if k not in base and k not in keys)
        return keys

    def _object_part(self, conj: Conj, hint: str) -> ir.TypeRef:
        if any(True for _ in conj.values("properties")) or any(
            True for _ in conj.values("required")
        ):
            key = conj.key()
            known = self.by_key.get((key, "object"))
            if known is not None:
                return known
            name = self.naming.fresh_name(
                hint if self.kw.type_set(conj) == {"object"} else hint + "Object"
            )
            ref = ir.Ref(name)
            self.by_key[(key, "object")] = ref
            self.types[name] = None
            try:
                self.types[name] = self._object(
                    conj,
                    name,
                    self.kw.description(conj),
                    self.naming.pointer_text(conj.atoms[0].schema),
                )
            except Impossible:
                del self.types[name]
                del self.by_key[(key, "object")]
                raise
            return ref
        other, patterns = self._other(conj, hint + "Value")
        merged = merge_patterns(other, patterns)
        if merged is None:
            return ir.JsonObject()  # closed and empty: only {} (checked at run time)
        if isinstance(merged, ir.Json):
            return ir.JsonObject()
        return ir.MapOf(merged)


def refuse_empty_key(x: Expander, conj: Conj) -> None:
    for atom in conj.atoms:
        props = atom.get("properties")
        required = atom.get("required")
        if (isinstance(props, dict) and "" in props) or (
            isinstance(required, list) and "" in required
        ):
            file, pointer = x.where(atom.schema)
            raise CompileError.one(
                file,
                f"{pointer}/properties/",
                "a property named '' (the empty string) cannot be a field in Python or "
                "TypeScript types: rename it",
            )
