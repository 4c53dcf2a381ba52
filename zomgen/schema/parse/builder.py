"""Resolved schema -> IR: the entry point, named types, and unions distributed over the rest of
their conjunction (the package's docstring says how)."""

from __future__ import annotations

import dataclasses

from zomgen import ir
from zomgen.errors import CompileError
from zomgen.schema.atoms import Atom, Conj, Expander, Impossible
from zomgen.schema.documents import SchemaSet
from zomgen.schema.parse.bases import BaseSchemas
from zomgen.schema.parse.explain import no_branch, root_problems
from zomgen.schema.parse.keywords import Keywords, canonical
from zomgen.schema.parse.naming import Naming, branch_hint
from zomgen.schema.parse.values import ValueShapes
from zomgen.schema.parse.warn import TypeWarnings


class Builder(ValueShapes):
    def __init__(self, schema_set: SchemaSet, x: Expander, *, collect_all: bool = False) -> None:
        self.schema_set = schema_set
        self.collect_all = collect_all
        self.x = x
        self.bases = BaseSchemas(schema_set)
        self.types = {}
        self.naming = Naming(schema_set, self.x, self.bases, self.types)
        self.kw = Keywords(self.x, self.bases)
        self.warn = TypeWarnings(self.x, self.bases)
        self.by_key = {}
        self.runtime = set()
        self.formats = set()
        self.constants = {}

    def build(self) -> ir.Hierarchy:
        root = self.schema_set.root
        root_name = self.naming.claim(self.naming.document_name(root.contents, root.path.stem), "#")
        self.naming.claim_declared_names(root.contents)
        try:
            atoms = self.x.expand(root.contents, self.x.root_resolver())
            result = self.type_of(Conj(atoms), root_name)
        except Impossible as exc:
            if not self.collect_all:
                exc = Builder(self.schema_set, self.x, collect_all=True).root_failure() or exc
            raise CompileError(root_problems(str(root.path), exc)) from None
        named = self.types.get(result.name) if isinstance(result, ir.Ref) else None
        if named is None or not (isinstance(named, ir.NodeType) or self._union_of_nodes(named)):
            raise CompileError.one(
                str(root.path),
                "",
                "the root is not a Zarr node, nor a union (oneOf, anyOf) of nodes: extend a base "
                'node with `"allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}]` (or ArraySpec, or '
                "urn:zom:v2), in each option of a union",
            )
        types = tuple(t for t in self.types.values() if t is not None)
        description = root.contents.get("description") if isinstance(root.contents, dict) else None
        return ir.Hierarchy(
            source=root.path.name,
            root=named.name,
            types=types,
            zarr_formats=tuple(sorted(self.formats)),
            runtime_checks=tuple(sorted(self.runtime, key=lambda c: (c.pointer, c.keyword))),
            description=description if isinstance(description, str) else None,
        )

    def _union_of_nodes(self, named: ir.NamedType | None) -> bool:
        """Is `named` an alias of a union whose every option is a node type (a root that is one
        of several layouts: `oneOf` of groups, or of a group and an array)?"""
        if not isinstance(named, ir.AliasType) or not isinstance(named.target, ir.UnionOf):
            return False
        options = [
            self.types.get(o.name) if isinstance(o, ir.Ref) else None for o in named.target.options
        ]
        return all(isinstance(o, ir.NodeType) or self._union_of_nodes(o) for o in options)

    def root_failure(self) -> Impossible | None:
        """Why the root admits no value, every required key that cannot hold included."""
        root = self.schema_set.root
        self.naming.claim(self.naming.document_name(root.contents, root.path.stem), "#")
        self.naming.claim_declared_names(root.contents)
        try:
            atoms = self.x.expand(root.contents, self.x.root_resolver())
            self.type_of(Conj(atoms), self.naming.document_name(root.contents, root.path.stem))
        except Impossible as exc:
            return exc
        except CompileError:
            return None
        return None

    def type_of(self, conj: Conj, hint: str) -> ir.TypeRef:
        key = conj.key()
        if not key:
            return ir.Json()
        known = self.by_key.get((key, ""))
        if known is not None:
            return known
        for atom in conj.atoms:
            if id(atom.schema) in self.bases.nodes and self.naming.key_of_schema(atom) == key:
                kind, version = self.bases.nodes[id(atom.schema)]
                self.formats.add(version)
                return ir.BaseNode(kind, version)
            if id(atom.schema) in self.bases.names and self.naming.key_of_schema(atom) == key:
                return ir.Ref(self.bases.names[id(atom.schema)])
        named = self.naming.def_name(conj, key)
        pending = conj.pending_union()
        if pending is not None and (named is None or id(pending[0].schema) not in named[2]):
            # A union from outside the named schema (the base `Node` = group | array) is
            # distributed first; each branch then meets the named schema on its own.
            return self._union(conj, pending, hint)
        if named is not None:
            name, schema, _own = named
            name = self.naming.claim(name, self.naming.pointer_text(schema))
            if name in self.types:
                # The same named schema met with more base constraints (or while it is being
                # built): one type, provided the extra constraints can hold with it.
                self.kw.literals(conj)
                self.kw.type_set(conj)
                self.kw.node_kind(conj)
                self.by_key[(key, "")] = ir.Ref(name)
                return ir.Ref(name)
            return self._define(conj, key, name, declared=True)
        if self.kw.node_kind(conj) is not None or self.kw.is_record(conj):
            return self._define(conj, key, self.naming.fresh_name(hint), declared=False)
        return self._inline(conj, hint)

    def _define(self, conj: Conj, key: frozenset[int], name: str, *, declared: bool) -> ir.TypeRef:
        ref = ir.Ref(name)
        self.by_key[(key, "")] = ref
        self.types[name] = None  # placeholder: recursion finds the Ref above
        try:
            self.types[name] = self._body(conj, name)
        except Impossible:
            del self.types[name]
            del self.by_key[(key, "")]
            raise
        return ref

    def _body(self, conj: Conj, name: str) -> ir.NamedType:
        description = self.kw.description(conj)
        pointer = self.naming.pointer_text(conj.atoms[0].schema) if conj.atoms else "#"
        pending = conj.pending_union()
        if pending is not None:
            return ir.AliasType(name, self._union(conj, pending, name), description, pointer)
        kind = self.kw.node_kind(conj)
        if kind is not None:
            return self._node(conj, name, kind, description, pointer)
        if self.kw.is_record(conj):
            return self._object(conj, name, description, pointer)
        return ir.AliasType(name, self._inline(conj, name), description, pointer)

    def _union(self, conj: Conj, pending: tuple[Atom, str], hint: str) -> ir.TypeRef:
        atom, keyword = pending
        branches = atom.get(keyword)
        if not isinstance(branches, list) or not branches:
            file, pointer = self.x.where(atom.schema)
            raise CompileError.one(
                file, f"{pointer}/{keyword}", f"`{keyword}` must be a non-empty array"
            )
        options: list[ir.TypeRef] = []
        # each option's own subschemas (ir.UnionOf.option_schemas); () where it has none
        schemas: list[tuple[str, ...]] = []
        failures: list[Impossible] = []
        inherited = self.kw.description(conj)  # the union's prose, which goes on its alias
        for i, branch in enumerate(branches):
            try:
                extra = self.x.expand(branch, atom.resolver)
                option = self.type_of(
                    conj.with_atoms(extra, (id(atom.schema), keyword)),
                    branch_hint(branch, hint, i),
                )
            except Impossible as exc:
                failures.append(exc)
                continue
            self._keep_own_description(option, inherited, self.kw.description(Conj(extra)))
            own = self.naming.pointer_text(branch) if isinstance(branch, dict) else "#"
            for flat, inner in flat_options(option):
                where = (own, *inner) if own != "#" and inner is not None else ()
                if flat not in options:
                    options.append(flat)
                    schemas.append(where)
                else:  # two branches give one type: no one subschema says it
                    schemas[options.index(flat)] = ()
        if not options:
            raise no_branch(self.x, atom, keyword, failures)
        if any(isinstance(o, ir.Json) for o in options):
            return ir.Json()  # one branch admits any JSON value: so does the union
        if len(options) == 1:
            return options[0]
        return ir.UnionOf(tuple(options), self._discriminator(options), tuple(schemas))

    def _keep_own_description(
        self, option: ir.TypeRef, inherited: str | None, own: str | None
    ) -> None:
        """An option named for its branch describes the branch, not the union around it (a
        label image is not "a member of the labels group: a label image, or ...")."""
        if not isinstance(option, ir.Ref):
            return
        named = self.types.get(option.name)
        if named is not None and own and inherited and named.description == inherited != own:
            self.types[option.name] = dataclasses.replace(named, description=own)

    def _discriminator(self, options: list[ir.TypeRef]) -> str | None:
        records: list[ir.ObjectType | ir.NodeType] = []
        for option in options:
            named = self.types.get(option.name) if isinstance(option, ir.Ref) else None
            if not isinstance(named, (ir.ObjectType, ir.NodeType)):
                return None
            records.append(named)
        first = records[0]
        candidates = first.fields if isinstance(first, ir.ObjectType) else first.metadata
        for candidate in candidates:
            seen: set[str] = set()
            for record in records:
                fields = record.fields if isinstance(record, ir.ObjectType) else record.metadata
                match = next((f for f in fields if f.key == candidate.key), None)
                if (
                    match is None
                    or not match.required
                    or not isinstance(match.type, ir.Literal)
                    or len(match.type.values) != 1
                    or canonical(match.type.values[0]) in seen
                ):
                    break
                seen.add(canonical(match.type.values[0]))
            else:
                return candidate.key
        return None


def flat_options(option: ir.TypeRef) -> list[tuple[ir.TypeRef, tuple[str, ...] | None]]:
    """A branch's type as union options, each with the subschemas inside the branch that make
    it that option (None: not known, such as the options of an `enum`)."""
    if not isinstance(option, ir.UnionOf):
        return [(option, ())]
    if len(option.option_schemas) != len(option.options):
        return [(o, None) for o in option.options]
    return [(o, s or None) for o, s in zip(option.options, option.option_schemas, strict=True)]
