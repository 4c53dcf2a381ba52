"""Resolved schema -> IR: node recognition, `allOf` as intersection, unions distributed.

The builder turns a conjunction of atoms (see `atoms.py`) into an IR type:

1. A conjunction whose constraining atoms are exactly those of a named schema (the root, a
   `$defs`/`definitions` entry, another file) is that named type. The base `GroupSpec` and
   `ArraySpec` become `BaseNode`s.
2. An `anyOf`/`oneOf` is distributed over the rest of the conjunction; branches that cannot
   hold together with it (a group branch refined as an array, an object branch of a string
   enum) are dropped, so the result is the narrowest union (input-language §4).
3. Otherwise the merged keywords give the type: node (§3), object, array, literal, primitive.
   Anonymous objects and nodes are named from their parent (§6).

Keywords no static type can express are recorded as run-time checks (§4).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable
from pathlib import Path

from zomgen import ir
from zomgen.errors import CompileError, InputProblem
from zomgen.ir.queries import json_type
from zomgen.names import pascal_case
from zomgen.runtime.pointers import escape as escape_pointer
from zomgen.schema.atoms import Atom, Conj, Expander, Impossible
from zomgen.schema.documents import SchemaSet
from zomgen.schema.patterns import matches

BASE_URIS = {"urn:zom:v2": 2, "urn:zom:v3": 3}
ARRAY_METADATA = {
    3: (
        "shape",
        "data_type",
        "chunk_grid",
        "chunk_key_encoding",
        "fill_value",
        "codecs",
        "storage_transformers",
        "dimension_names",
    ),
    2: (
        "shape",
        "chunks",
        "dtype",
        "compressor",
        "fill_value",
        "order",
        "filters",
        "dimension_separator",
    ),
}
RUNTIME_KEYWORDS = frozenset(
    {
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "uniqueItems",
        "contains",
        "minContains",
        "maxContains",
        "not",
        "if",
        "then",
        "else",
        "propertyNames",
        "minProperties",
        "maxProperties",
        "dependentRequired",
        "dependentSchemas",
        "dependencies",
        "unevaluatedProperties",
        "unevaluatedItems",
        "patternProperties",
    }
)
OBJECT_KEYWORDS = (
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "unevaluatedProperties",
)
ARRAY_KEYWORDS = (
    "items",
    "prefixItems",
    "additionalItems",
    "minItems",
    "maxItems",
    "contains",
    "uniqueItems",
    "unevaluatedItems",
)
STRING_KEYWORDS = ("pattern", "minLength", "maxLength")
NUMBER_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
TYPED_KEYWORDS = (
    ("object", OBJECT_KEYWORDS),
    ("array", ARRAY_KEYWORDS),
    ("string", STRING_KEYWORDS),
    ("number", NUMBER_KEYWORDS),
)
# Keywords that shape a static type of their JSON type (the others are checked at run time).
SHAPING = {
    "object": ("properties", "required", "additionalProperties", "patternProperties"),
    "array": ("items", "prefixItems", "additionalItems", "minItems", "maxItems"),
}
MAX_TUPLE = 16
_DEF_POINTER = re.compile(r"/(?:\$defs|definitions)/([^/]+)$")


def _canonical(value: object) -> str:
    # Tag the Python type so that `true` and `1` (equal in Python) stay distinct, as in JSON.
    return type(value).__name__.replace("int", "number").replace("float", "number") + json.dumps(
        value, sort_keys=True
    )


class Builder:
    def __init__(self, schema_set: SchemaSet, *, collect_all: bool = False) -> None:
        self.schema_set = schema_set
        # After a required key that admits no value, go on with the other keys to report them
        # all (a second pass, made only to explain a root that admits no value).
        self.collect_all = collect_all
        self.x = Expander(schema_set)
        self.types: dict[str, ir.NamedType | None] = {}
        self.declared: dict[str, str] = {}  # claimed name -> where it is declared
        self.name_of: dict[str, str] = {}  # where a named schema is declared -> its name
        self.by_key: dict[tuple[frozenset[int], str], ir.TypeRef] = {}
        self.runtime: set[ir.RuntimeCheck] = set()
        self.formats: set[int] = set()
        self.base_nodes: dict[int, tuple[ir.NodeKind, int]] = {}
        self.base_names: dict[int, str] = {}
        self.base_atoms: set[int] = set()
        # Base definitions that refer to themselves (v2's DType and StructuredDType): named
        # like a convention's own when a convention refines them, else they would be inlined
        # without end.
        self.base_recursive: set[int] = set()
        self._def_keys: dict[int, frozenset[int] | None] = {}
        self.warned: set[int] = set()  # schema objects already warned about
        self.constants: dict[str, ir.TypeRef] = {}  # canonical JSON of a const -> its type
        for doc in schema_set.documents:
            version = BASE_URIS.get(doc.uri)
            if version is None or not isinstance(doc.contents, dict):
                continue
            defs = doc.contents.get("$defs", {})
            if isinstance(defs, dict):
                for name, kind in (("GroupSpec", "group"), ("ArraySpec", "array")):
                    if isinstance(defs.get(name), dict):
                        self.base_nodes[id(defs[name])] = (kind, version)  # type: ignore[assignment]
                if isinstance(defs.get("NamedConfig"), dict):
                    self.base_names[id(defs["NamedConfig"])] = "NamedConfig"
                # the node kinds' own recursion (a group's members are nodes) is AnyNode's
                values = {n: v for n, v in defs.items() if n not in ("GroupSpec", "ArraySpec")}
                self.base_recursive.update(id(defs[n]) for n in _recursive_defs(values))
            self._mark_base(doc.contents)

    def _mark_base(self, node: object) -> None:
        if isinstance(node, dict):
            self.base_atoms.add(id(node))
            for value in node.values():
                self._mark_base(value)
        elif isinstance(node, list):
            for value in node:
                self._mark_base(value)

    # --- entry point --------------------------------------------------------------------

    def build(self) -> ir.Hierarchy:
        root = self.schema_set.root
        root_name = self._claim(self._document_name(root.contents, root.path.stem), "#")
        self._claim_declared_names(root.contents)
        try:
            atoms = self.x.expand(root.contents, self.x.root_resolver())
            result = self.type_of(Conj(atoms), root_name)
        except Impossible as exc:
            if not self.collect_all:
                exc = Builder(self.schema_set, collect_all=True).root_failure() or exc
            raise CompileError(_root_problems(str(root.path), exc)) from None
        named = self.types.get(result.name) if isinstance(result, ir.Ref) else None
        if not isinstance(named, ir.NodeType):
            raise CompileError.one(
                str(root.path),
                "",
                "the root is not a Zarr node: extend a base node with "
                '`"allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}]` (or ArraySpec, or urn:zom:v2)',
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

    def root_failure(self) -> Impossible | None:
        """Why the root admits no value, every required key that cannot hold included."""
        root = self.schema_set.root
        self._claim(self._document_name(root.contents, root.path.stem), "#")
        self._claim_declared_names(root.contents)
        try:
            atoms = self.x.expand(root.contents, self.x.root_resolver())
            self.type_of(Conj(atoms), self._document_name(root.contents, root.path.stem))
        except Impossible as exc:
            return exc
        except CompileError:
            return None
        return None

    def _document_name(self, contents: object, stem: str) -> str:
        title = contents.get("title") if isinstance(contents, dict) else None
        return pascal_case(title if isinstance(title, str) and title.strip() else stem)

    def _claim_declared_names(self, contents: object) -> None:
        if not isinstance(contents, dict):
            return
        for section in ("$defs", "definitions"):
            defs = contents.get(section)
            if isinstance(defs, dict):
                for key, schema in defs.items():
                    self._claim(pascal_case(key), self._pointer_text(schema))

    def _claim(self, name: str, where: str) -> str:
        """The name of the schema declared at `where`, claiming `name` for it if free.

        Two schemas of the input file that would share a name are an error the user can fix.
        A schema from another file (an upstream schema the user cannot rename) that meets a
        taken name is renamed deterministically: its file's stem (or, when the name already is
        the stem, its folder's name) goes in front, then `2`, `3`... (docs/input-language.md).
        """
        known = self.name_of.get(where)
        if known is not None:
            return known
        previous = self.declared.get(name)
        if previous is None and name not in self.types:
            self.declared[name] = where
            self.name_of[where] = name
            return name
        if where.startswith("#") and (previous is None or previous.startswith("#")):
            raise CompileError.one(
                str(self.schema_set.root.path),
                where.partition("#")[2],
                f"two types would be named {name!r}: {previous or 'an inline type'} and {where}; "
                "rename one of them",
            )
        path = Path(where.partition("#")[0])
        prefix = pascal_case(path.stem)
        if name.startswith(prefix):
            prefix = pascal_case(path.parent.name or "Other")
        candidate = prefix + name
        n = 2
        while candidate in self.declared or candidate in self.types:
            candidate = f"{prefix}{name}{n}"
            n += 1
        self.declared[candidate] = where
        self.name_of[where] = candidate
        return candidate

    def _pointer_text(self, schema: object) -> str:
        return self.schema_set.pointer_text(schema)

    # --- naming -------------------------------------------------------------------------

    def _def_name(
        self, conj: Conj, key: frozenset[int]
    ) -> tuple[str, object, frozenset[int]] | None:
        """The named schema this conjunction is exactly, if any (outermost first)."""
        for atom in conj.atoms:
            found = self.schema_set.locate(atom.schema)
            if found is None or (
                id(atom.schema) in self.base_atoms and id(atom.schema) not in self.base_recursive
            ):
                continue  # base schemas name GroupSpec, ArraySpec, NamedConfig, recursive defs
            doc, pointer = found
            if pointer == "":
                name = self._document_name(doc.contents, doc.path.stem)
            else:
                match = _DEF_POINTER.search(pointer)
                if match is None:
                    continue
                name = pascal_case(match.group(1).replace("~1", "/").replace("~0", "~"))
            own = self._key_of_schema(atom)
            # Constraints the base schemas add (`attributes` is an object...) hold everywhere,
            # so they do not make a named type a different one.
            if own is not None and (
                self._without_base(own) == self._without_base(key) != frozenset()
                or (id(atom.schema) in self.base_recursive and own == key)
            ):
                return name, atom.schema, own
        return None

    def _without_base(self, key: frozenset[int]) -> frozenset[int]:
        return frozenset(k for k in key if k not in self.base_atoms)

    def _key_of_schema(self, atom: Atom) -> frozenset[int] | None:
        cached = self._def_keys.get(id(atom.schema), ...)
        if cached is not ...:
            return cached
        try:
            key: frozenset[int] | None = Conj(self.x.expand(atom.schema, atom.resolver)).key()
        except Impossible:
            key = None
        self._def_keys[id(atom.schema)] = key
        return key

    def _fresh_name(self, hint: str) -> str:
        name = hint
        n = 2
        while name in self.types or name in self.declared:
            name = f"{hint}{n}"
            n += 1
        return name

    # --- types --------------------------------------------------------------------------

    def type_of(self, conj: Conj, hint: str) -> ir.TypeRef:
        key = conj.key()
        if not key:
            return ir.Json()
        known = self.by_key.get((key, ""))
        if known is not None:
            return known
        for atom in conj.atoms:
            if id(atom.schema) in self.base_nodes and self._key_of_schema(atom) == key:
                kind, version = self.base_nodes[id(atom.schema)]
                self.formats.add(version)
                return ir.BaseNode(kind, version)
            if id(atom.schema) in self.base_names and self._key_of_schema(atom) == key:
                return ir.Ref(self.base_names[id(atom.schema)])
        named = self._def_name(conj, key)
        pending = conj.pending_union()
        if pending is not None and (named is None or id(pending[0].schema) not in named[2]):
            # A union from outside the named schema (the base `Node` = group | array) is
            # distributed first; each branch then meets the named schema on its own.
            return self._union(conj, pending, hint)
        if named is not None:
            name, schema, _own = named
            name = self._claim(name, self._pointer_text(schema))
            if name in self.types:
                # The same named schema met with more base constraints (or while it is being
                # built): one type, provided the extra constraints can hold with it.
                self._literals(conj)
                self._type_set(conj)
                self._node_kind(conj)
                self.by_key[(key, "")] = ir.Ref(name)
                return ir.Ref(name)
            return self._define(conj, key, name, declared=True)
        if self._node_kind(conj) is not None or self._is_record(conj):
            return self._define(conj, key, self._fresh_name(hint), declared=False)
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
        description = self._description(conj)
        pointer = self._pointer_text(conj.atoms[0].schema) if conj.atoms else "#"
        pending = conj.pending_union()
        if pending is not None:
            return ir.AliasType(name, self._union(conj, pending, name), description, pointer)
        kind = self._node_kind(conj)
        if kind is not None:
            return self._node(conj, name, kind, description, pointer)
        if self._is_record(conj):
            return self._object(conj, name, description, pointer)
        return ir.AliasType(name, self._inline(conj, name), description, pointer)

    def _description(self, conj: Conj) -> str | None:
        for atom in conj.atoms:
            if id(atom.schema) in self.base_atoms:
                continue  # the base's prose describes the base, not the convention's type
            text = atom.get("description")
            if isinstance(text, str) and text.strip():
                return text
        return None

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
        inherited = self._description(conj)  # the union's prose, which goes on its alias
        for i, branch in enumerate(branches):
            try:
                extra = self.x.expand(branch, atom.resolver)
                option = self.type_of(
                    conj.with_atoms(extra, (id(atom.schema), keyword)),
                    self._branch_hint(branch, hint, i),
                )
            except Impossible as exc:
                failures.append(exc)
                continue
            self._keep_own_description(option, inherited, self._description(Conj(extra)))
            own = self._pointer_text(branch) if isinstance(branch, dict) else "#"
            for flat, inner in _flat_options(option):
                where = (own, *inner) if own != "#" and inner is not None else ()
                if flat not in options:
                    options.append(flat)
                    schemas.append(where)
                else:  # two branches give one type: no one subschema says it
                    schemas[options.index(flat)] = ()
        if not options:
            raise self._no_branch(atom, keyword, failures)
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

    def _no_branch(self, atom: Atom, keyword: str, failures: list[Impossible]) -> Impossible:
        """Why no branch of a union holds. A branch that failed inside a key (a required key
        that admits no value) went further than one whose own keywords contradict the rest (a
        group branch of an array): only those are reported, and one such branch is reported as
        it is. A keyword every branch contradicts is named once, against each branch."""
        where = f"{self.x.where_text(atom.schema)}/{keyword}"
        deep = [f for f in failures if any(at for at, _why in f.causes)]
        if len(deep) == 1:
            return deep[0]
        if deep:
            failures = deep
        common = [
            c
            for c in (failures[0].clauses if failures else ())
            if all(c in f.clauses for f in failures)
        ]
        if common:
            text = _clause_text(common[0])
            others = [
                ", ".join(_clause_text(c) for c in f.clauses if c != common[0]) or f.reason
                for f in failures
            ]
            return Impossible(
                f"{text} contradicts every branch of the `{keyword}` at {where}: "
                + "; ".join(others),
                (common[0], (f"`{keyword}`", where)),
            )
        reasons = "; ".join(
            f"branch {i + 1}: {f.reason or 'admits no value'}" for i, f in enumerate(failures)
        )
        return Impossible(f"no branch of the `{keyword}` at {where} holds: {reasons}")

    def _contradiction(
        self, atom: Atom, keyword: str, partners: list[tuple[Atom, str]]
    ) -> Impossible:
        """`keyword` of `atom` contradicts what `partners` (atom, keyword) say together."""
        if not partners:
            text, where = self._clause(atom, keyword)
            return Impossible(f"{text} at {where} admits no value")
        clauses = tuple(self._clause(a, k) for a, k in partners) + (self._clause(atom, keyword),)
        *first, last = clauses
        return Impossible(
            f"{', '.join(_clause_text(c) for c in first)} contradicts {_clause_text(last)}",
            clauses,
        )

    def _clause(self, atom: Atom, keyword: str) -> tuple[str, str]:
        value = atom.schema.get(keyword)
        if keyword == "type" and isinstance(value, (str, list)):
            shown = " | ".join(map(str, value)) if isinstance(value, list) else value
        else:
            shown = json.dumps(value, ensure_ascii=False)
            if len(shown) > 60:
                shown = shown[:57] + "..."
        return f"`{keyword}: {shown}`", f"{self.x.where_text(atom.schema)}/{keyword}"

    def _branch_hint(self, branch: object, hint: str, index: int) -> str:
        if isinstance(branch, dict):
            title = branch.get("title")
            if isinstance(title, str) and title.strip():
                return pascal_case(title)
            props = branch.get("properties")
            if isinstance(props, dict):
                for sub in props.values():
                    tag = _single_value(sub)
                    if isinstance(tag, str) and tag.strip():
                        return hint + pascal_case(tag)
        return f"{hint}Option{index + 1}"

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
                    or _canonical(match.type.values[0]) in seen
                ):
                    break
                seen.add(_canonical(match.type.values[0]))
            else:
                return candidate.key
        return None

    # --- merged keywords ----------------------------------------------------------------

    def _literals(self, conj: Conj) -> list[object] | None:
        result: dict[str, object] | None = None
        seen: list[tuple[Atom, str, set[str]]] = []
        for keyword in ("const", "enum"):
            for atom, value in conj.values(keyword):
                values = [value] if keyword == "const" else value
                if not isinstance(values, list):
                    file, pointer = self.x.where(atom.schema)
                    raise CompileError.one(file, f"{pointer}/enum", "`enum` must be an array")
                these = {_canonical(v): v for v in values}
                result = (
                    these if result is None else {k: v for k, v in result.items() if k in these}
                )
                if not result:
                    raise self._contradiction(atom, keyword, _disjoint(seen, set(these)))
                seen.append((atom, keyword, set(these)))
        if result is None:
            return None
        return list(result.values())

    def _type_set(self, conj: Conj) -> set[str] | None:
        """The JSON types `type` allows (`number` includes `integer`), or None when no `type`
        says: then every JSON type is valid, whatever other keywords say, because JSON Schema
        applies `properties`, `items`, `pattern`... only to values of their own type."""
        result: set[str] | None = None
        seen: list[tuple[Atom, str, set[str]]] = []
        for atom, value in conj.values("type"):
            these = (
                {value}
                if isinstance(value, str)
                else set(value)
                if isinstance(value, list)
                else set()
            )
            if "number" in these:
                these.add("integer")
            result = these if result is None else result & these
            if not result:
                raise self._contradiction(atom, "type", _disjoint(seen, these))
            seen.append((atom, "type", these))
        return result

    def _warn_open_type(self, conj: Conj) -> None:
        """Warn, once per schema object, where keywords of one JSON type stand without `type`:
        the static type stays open (any JSON value), which is exact but rarely what is meant."""
        for atom in conj.atoms:
            if id(atom.schema) in self.base_atoms or id(atom.schema) in self.warned:
                continue
            if atom.draft == "draft-07" and "$ref" in atom.schema:
                continue
            for kind, keywords in TYPED_KEYWORDS:
                used = [k for k in keywords if k in atom.schema]
                if used:
                    self.warned.add(id(atom.schema))
                    file, pointer = self.x.where(atom.schema)
                    self.schema_set.warn(
                        file,
                        pointer,
                        f"`{used[0]}` applies to {kind}s only and no `type` is given, so any "
                        f'JSON value is valid here and is typed so: add `"type": "{kind}"` '
                        f"if only {kind}s are meant",
                    )
                    break

    def _record_runtime(self, conj: Conj) -> None:
        for atom in conj.atoms:
            if id(atom.schema) in self.base_atoms:
                continue
            for keyword in atom.schema:
                if keyword in RUNTIME_KEYWORDS or keyword.startswith("x-zomgen-"):
                    where = self._pointer_text(atom.schema)
                    self.runtime.add(ir.RuntimeCheck(f"{where}/{escape_pointer(keyword)}", keyword))

    def _is_record(self, conj: Conj) -> bool:
        types = self._type_set(conj)
        if types != {"object"}:
            return False  # other JSON types are valid too: a union (see `_inline`)
        if self._literals(conj) is not None:
            return False
        return any(True for _ in conj.values("properties")) or any(
            True for _ in conj.values("required")
        )

    def _node_kind(self, conj: Conj) -> tuple[ir.NodeKind, int] | None:
        bases = {
            self.base_nodes[id(a.schema)] for a in conj.atoms if id(a.schema) in self.base_nodes
        }
        if len(bases) > 1:
            # a group refined as an array, or v2 refined as v3
            clauses = tuple(
                (
                    "a Zarr v{1} {0}".format(*self.base_nodes[id(a.schema)]),
                    self.x.where_text(a.schema),
                )
                for a in conj.atoms
                if id(a.schema) in self.base_nodes
            )
            raise Impossible(" contradicts ".join(_clause_text(c) for c in clauses), clauses)
        if bases:
            self._check_satisfiable(conj)
            return bases.pop()
        props = self._properties(conj)
        node_type = self._const_of(props.get("node_type", []))
        zarr_format = self._const_of(props.get("zarr_format", []))
        version = zarr_format if zarr_format in (2, 3) else None
        if node_type in ("group", "array"):
            return node_type, version or 3
        if "members" in props:
            return "group", version or 2
        if "shape" in props and ("chunks" in props or "dtype" in props):
            return "array", version or 2
        return None

    def _check_satisfiable(self, conj: Conj) -> None:
        """Raise Impossible when a listed or required key can hold no value: conflicting
        `const`s (`node_type` group vs array) or a key a closed atom forbids."""
        for key in list(self._properties(conj)) + sorted(self._required(conj)):
            try:
                field_conj = self._field_conj(conj, key)
                self._literals(field_conj)
                self._type_set(field_conj)
            except Impossible as exc:
                if key in self._required(conj):
                    raise exc.within(f"/{escape_pointer(key)}") from None

    def _const_of(self, subs: list[tuple[object, Atom]]) -> object:
        for sub, _atom in subs:
            if isinstance(sub, dict) and "const" in sub:
                return sub["const"]
            if (
                isinstance(sub, dict)
                and isinstance(sub.get("enum"), list)
                and len(sub["enum"]) == 1
            ):
                return sub["enum"][0]
        return None

    def _properties(self, conj: Conj) -> dict[str, list[tuple[object, Atom]]]:
        """Every listed property key with the subschemas its own atoms give it, in order."""
        props: dict[str, list[tuple[object, Atom]]] = {}
        for atom, value in conj.values("properties"):
            if isinstance(value, dict):
                for key, sub in value.items():
                    props.setdefault(key, []).append((sub, atom))
        return props

    def _field_conj(self, conj: Conj, key: str) -> Conj:
        """All that constrains property `key`: `properties`, matching `patternProperties`, and
        the `additionalProperties` of every atom that neither lists nor matches it."""
        atoms: list[Atom] = []
        for atom in conj.atoms:
            if atom.draft == "draft-07" and "$ref" in atom.schema:
                continue
            props = atom.get("properties")
            patterns = atom.get("patternProperties")
            subs: list[tuple[object, str]] = []
            listed = isinstance(props, dict) and key in props
            if listed:
                subs.append((props[key], f"properties/{escape_pointer(key)}"))  # type: ignore[index]
            matched = False
            if isinstance(patterns, dict):
                for pattern, sub in patterns.items():
                    if matches(pattern, key):
                        matched = True
                        subs.append((sub, f"patternProperties/{escape_pointer(pattern)}"))
            if not listed and not matched and "additionalProperties" in atom.schema:
                subs.append((atom.schema["additionalProperties"], "additionalProperties"))
            for sub, where in subs:
                if sub is False:
                    raise Impossible(
                        f"`false` at {self.x.where_text(atom.schema)}/{where} admits no value"
                    )
                atoms.extend(self.x.expand(sub, atom.resolver))
        return Conj(tuple(atoms))

    def _required(self, conj: Conj) -> set[str]:
        required: set[str] = set()
        for _atom, value in conj.values("required"):
            if isinstance(value, list):
                required.update(k for k in value if isinstance(k, str))
        return required

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
                self._warn_never(conj, None, exc)
            return None, tuple(patterns)

    def _fields(
        self, conj: Conj, owner: str, keys: Iterable[str], *, members: bool = False
    ) -> tuple[ir.Field, ...]:
        required = self._required(conj)
        fields: list[ir.Field] = []
        failed: Impossible | None = None
        for key in keys:
            if key == "":
                self._refuse_empty_key(conj)
            if failed is not None and (not self.collect_all or key not in required):
                continue
            try:
                field_conj = self._field_conj(conj, key)
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
                    self._warn_never(conj, key, exc)
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
                    description=self._description(field_conj),
                )
            )
        if failed is not None:
            raise failed
        return tuple(fields)

    def _warn_never(self, conj: Conj, key: str | None, exc: Impossible) -> None:
        """A member whose schemas contradict each other is typed as never present, and said so
        where it stands (`members/properties/<key>`, or `members/additionalProperties`)."""
        if not exc.clauses and not any(at for at, _why in exc.causes):
            return  # `false` or `enum: []`: written to forbid the member
        for atom in conj.atoms:
            if id(atom.schema) in self.base_atoms:
                continue
            props = atom.get("properties")
            if key is not None and isinstance(props, dict) and key in props:
                pointer = f"/properties/{escape_pointer(key)}"
            elif key is None and "additionalProperties" in atom.schema:
                pointer = "/additionalProperties"
            else:
                continue
            file, where = self.x.where(atom.schema)
            what = f"member {key!r}" if key is not None else "every member not listed"
            why = "; ".join(f"{at or '/'}: {reason}" for at, reason in exc.causes) or exc.reason
            self.schema_set.warn(
                file,
                where + pointer,
                f"{what} admits no value, so it is typed as never present (a group holding it "
                f"is invalid): {why}",
            )
            return

    def _refuse_empty_key(self, conj: Conj) -> None:
        for atom in conj.atoms:
            props = atom.get("properties")
            required = atom.get("required")
            if (isinstance(props, dict) and "" in props) or (
                isinstance(required, list) and "" in required
            ):
                file, pointer = self.x.where(atom.schema)
                raise CompileError.one(
                    file,
                    f"{pointer}/properties/",
                    "a property named '' (the empty string) cannot be a field in Python or "
                    "TypeScript types: rename it",
                )

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
        keys = list(self._properties(conj))
        keys += sorted(k for k in self._required(conj) if k not in keys)
        fields = self._fields(conj, name, keys)
        other, patterns = self._other(conj, name + "Value")
        extra = _merge_patterns(other, patterns)
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
        attributes_conj = self._field_conj(conj, "attributes")
        try:
            attributes = self.type_of(attributes_conj, name + "Attributes")
        except Impossible as exc:
            raise exc.within("/attributes") from None
        if isinstance(attributes, ir.Json):
            attributes = ir.JsonObject()
        members: ir.Members | None = None
        metadata: tuple[ir.Field, ...] = ()
        if node_kind == "group":
            members_conj = self._field_conj(conj, "members")
            self._record_runtime(members_conj)
            named_keys = list(self._properties(members_conj))
            named = self._fields(members_conj, name, named_keys, members=True)
            other, patterns = self._other(members_conj, name + "Member", members=True)
            members = ir.Members(named, other, patterns)
        else:
            refined = [key for key in ARRAY_METADATA[version] if self._refines(conj, key)]
            metadata = self._fields(conj, name, refined)
        return ir.NodeType(
            name, node_kind, version, attributes, members, metadata, description, pointer
        )

    def _refines(self, conj: Conj, key: str) -> bool:
        for atom in conj.atoms:
            if id(atom.schema) in self.base_atoms:
                continue
            props = atom.get("properties")
            required = atom.get("required")
            if (isinstance(props, dict) and key in props) or (
                isinstance(required, list) and key in required
            ):
                return True
        return False

    def _inline(self, conj: Conj, hint: str) -> ir.TypeRef:
        """The type of a conjunction that is not a named record or node: a literal, a scalar,
        an array, a map, or the union of those its JSON types allow."""
        self._record_runtime(conj)
        literals = self._literals(conj)
        types = self._type_set(conj)
        if literals is not None:
            if types is not None:
                kept = [v for v in literals if json_type(v) in types]
                if not kept:
                    literal_atoms = [(a, k) for k in ("const", "enum") for a, _v in conj.values(k)]
                    type_atoms = [(a, "type") for a, _v in conj.values("type")]
                    last_atom, last_keyword = (type_atoms or literal_atoms)[-1]
                    partners = [
                        p for p in literal_atoms + type_atoms if p != (last_atom, last_keyword)
                    ]
                    raise self._contradiction(last_atom, last_keyword, partners)
                literals = kept
            return self._literal_type(literals, hint)
        if types is None:
            shaped = [
                kind
                for kind, keywords in SHAPING.items()
                if any(True for k in keywords for _ in conj.values(k))
            ]
            if any(
                True for _kind, keywords in TYPED_KEYWORDS for k in keywords for _ in conj.values(k)
            ):
                self._warn_open_type(conj)
            if not shaped:
                return ir.Json()
            types = {"string", "number", "integer", "boolean", "null", "array", "object"}
        parts: list[ir.TypeRef] = []
        for kind in ("string", "integer", "number", "boolean", "null", "array", "object"):
            if kind not in types or (kind == "integer" and "number" in types):
                continue
            try:
                if kind == "array":
                    parts.append(self._array(conj, hint))
                elif kind == "object":
                    parts.append(self._object_part(conj, hint))
                else:
                    parts.append(ir.Primitive(kind))
            except Impossible:
                continue  # no array (object) fits, but values of the other types may
        if not parts:
            raise Impossible
        if len(parts) == 1:
            return parts[0]
        return ir.UnionOf(tuple(parts))

    def _literal_type(self, values: list[object], hint: str) -> ir.TypeRef:
        """`const`/`enum` values as types: scalars as one literal, arrays as tuples of their
        items' literals, objects as closed records of their keys' literals."""
        scalars = [v for v in values if v is None or isinstance(v, (str, int, float, bool))]
        parts: list[ir.TypeRef] = []
        if scalars:
            parts.append(ir.Literal(tuple(scalars)))
        for value in values:
            if isinstance(value, (list, dict)):
                parts.append(self._constant(value, hint))
        return parts[0] if len(parts) == 1 else ir.UnionOf(tuple(parts))

    def _constant(self, value: object, hint: str) -> ir.TypeRef:
        if not isinstance(value, (list, dict)):
            return ir.Literal((value,))  # type: ignore[arg-type]
        canonical = _canonical(value)
        known = self.constants.get(canonical)
        if known is not None:
            return known
        if isinstance(value, list):
            items = tuple(self._constant(v, f"{hint}Item{i + 1}") for i, v in enumerate(value))
            result: ir.TypeRef = ir.TupleOf(items)
        else:
            name = self._fresh_name(hint)
            result = ir.Ref(name)
            self.types[name] = None
            fields = tuple(
                ir.Field(key, self._constant(v, name + pascal_case(key)), True, v is None)
                for key, v in value.items()
            )
            self.types[name] = ir.ObjectType(
                name, fields, None, "The constant object the schema allows.", "#"
            )
        self.constants[canonical] = result
        return result

    def _object_part(self, conj: Conj, hint: str) -> ir.TypeRef:
        if any(True for _ in conj.values("properties")) or any(
            True for _ in conj.values("required")
        ):
            key = conj.key()
            known = self.by_key.get((key, "object"))
            if known is not None:
                return known
            name = self._fresh_name(hint if self._type_set(conj) == {"object"} else hint + "Object")
            ref = ir.Ref(name)
            self.by_key[(key, "object")] = ref
            self.types[name] = None
            try:
                self.types[name] = self._object(
                    conj, name, self._description(conj), self._pointer_text(conj.atoms[0].schema)
                )
            except Impossible:
                del self.types[name]
                del self.by_key[(key, "object")]
                raise
            return ref
        other, patterns = self._other(conj, hint + "Value")
        merged = _merge_patterns(other, patterns)
        if merged is None:
            return ir.JsonObject()  # closed and empty: only {} (checked at run time)
        if isinstance(merged, ir.Json):
            return ir.JsonObject()
        return ir.MapOf(merged)

    def _positions(self, conj: Conj) -> list[tuple[Atom, list[object], object]]:
        """Per atom: its positional item schemas and the schema of the items after them (or
        `_NO_SCHEMA`). 2020-12 says `prefixItems` + `items`; draft-07 and 2019-09 say array
        `items` + `additionalItems`, or `items` for every item (`additionalItems` is then
        ignored)."""
        found: list[tuple[Atom, list[object], object]] = []
        for atom in conj.atoms:
            if atom.draft == "draft-07" and "$ref" in atom.schema:
                continue
            items = atom.get("items")
            if atom.draft == "2020-12":
                prefix = atom.get("prefixItems")
                positional = prefix if isinstance(prefix, list) else []
                rest = items if "items" in atom.schema else _NO_SCHEMA
            elif isinstance(items, list):
                positional = items
                rest = (
                    atom.get("additionalItems") if "additionalItems" in atom.schema else _NO_SCHEMA
                )
            else:
                positional = []
                rest = items if "items" in atom.schema else _NO_SCHEMA
            if positional or rest is not _NO_SCHEMA:
                found.append((atom, positional, rest))
        return found

    def _array(self, conj: Conj, hint: str) -> ir.TypeRef:
        """Positions and the rest of an array, each the intersection of what every atom says
        of it (an atom's own `items` also covers the positions past its own prefix). A
        position or rest that admits nothing ends the array there: an array whose items can
        hold no value is still valid when empty."""
        min_items = max((_count(v) for _a, v in conj.values("minItems") if _is_count(v)), default=0)
        max_items = min(
            (_count(v) for _a, v in conj.values("maxItems") if _is_count(v)), default=None
        )
        if max_items is not None and max_items < min_items:
            raise Impossible(f"`maxItems: {max_items}` is below `minItems: {min_items}`")
        per_atom = self._positions(conj)
        width = max((len(p) for _a, p, _r in per_atom), default=0)
        item_hint = hint + "Item"
        items: list[ir.TypeRef] = []
        closed = False
        for i in range(width if max_items is None else min(width, max_items)):
            atoms: list[Atom] = []
            try:
                for atom, positional, rest in per_atom:
                    sub = positional[i] if i < len(positional) else rest
                    if sub is not _NO_SCHEMA:
                        atoms.extend(self.x.expand(sub, atom.resolver))
                items.append(self.type_of(Conj(tuple(atoms)), f"{item_hint}{i + 1}"))
            except Impossible:
                closed = True  # nothing fits position i: the array stops before it
                break
        if max_items is not None and max_items <= len(items):
            closed = True
        rest_type: ir.TypeRef | None = None
        if not closed:
            atoms = []
            try:
                for atom, _positional, rest in per_atom:
                    if rest is not _NO_SCHEMA:
                        atoms.extend(self.x.expand(rest, atom.resolver))
                rest_type = self.type_of(Conj(tuple(atoms)), item_hint)
            except Impossible:
                rest_type = None
        longest_fixed = len(items) if rest_type is None else None
        if longest_fixed is not None and longest_fixed < min_items:
            raise Impossible(
                f"`minItems: {min_items}` asks for more items than the positions that admit a "
                f"value ({longest_fixed})"
            )
        if not items and rest_type is not None:
            if max_items is not None and max_items == min_items and max_items <= MAX_TUPLE:
                return ir.TupleOf(tuple(rest_type for _ in range(max_items)))
            return ir.ListOf(rest_type)
        min_length = min(min_items, len(items))
        return ir.TupleOf(tuple(items), rest_type, None if min_length >= len(items) else min_length)


_NO_SCHEMA = object()  # an array keyword that is absent (not the same as `true`)


def _flat_options(option: ir.TypeRef) -> list[tuple[ir.TypeRef, tuple[str, ...] | None]]:
    """A branch's type as union options, each with the subschemas inside the branch that make
    it that option (None: not known, such as the options of an `enum`)."""
    if not isinstance(option, ir.UnionOf):
        return [(option, ())]
    if len(option.option_schemas) != len(option.options):
        return [(o, None) for o in option.options]
    return [(o, s or None) for o, s in zip(option.options, option.option_schemas, strict=True)]


def _clause_text(clause: tuple[str, str]) -> str:
    text, where = clause
    return f"{text} ({where})"


def _disjoint(seen: list[tuple[Atom, str, set[str]]], these: set[str]) -> list[tuple[Atom, str]]:
    """The earlier keywords that contradict `these` on their own, else all of them (together
    they leave nothing `these` allows)."""
    alone = [(a, k) for a, k, values in seen if not values & these]
    return alone or [(a, k) for a, k, _values in seen]


def _root_problems(file: str, exc: Impossible) -> list[InputProblem]:
    """One problem per required key that admits no value, each naming the keywords that
    contradict and where each stands."""
    if not exc.causes:
        return [InputProblem(file, "", "the root schema admits no value")]
    return [
        InputProblem(
            file,
            "",
            "the root schema admits no value"
            + (f": {at} (required) cannot hold one" if at else "")
            + f": {reason}",
        )
        for at, reason in exc.causes
    ]


def _count(value: object) -> int:
    return int(value) if isinstance(value, (int, float)) else 0


def _is_count(value: object) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, float) and value.is_integer()
    )


def _single_value(schema: object) -> object:
    """The one value a schema allows through `const` or a one-element `enum`, else None."""
    if not isinstance(schema, dict):
        return None
    if "const" in schema:
        return schema["const"]
    values = schema.get("enum")
    return values[0] if isinstance(values, list) and len(values) == 1 else None


def _merge_patterns(
    other: ir.TypeRef | None, patterns: tuple[tuple[str, ir.TypeRef], ...]
) -> ir.TypeRef | None:
    options: list[ir.TypeRef] = [t for _p, t in patterns]
    if other is not None:
        options.append(other)
    if not options:
        return None
    if any(isinstance(o, ir.Json) for o in options):
        return ir.Json()
    unique: list[ir.TypeRef] = []
    for option in options:
        if option not in unique:
            unique.append(option)
    return unique[0] if len(unique) == 1 else ir.UnionOf(tuple(unique))


def _recursive_defs(defs: dict[str, object]) -> set[str]:
    """The entries of a `$defs` that reach themselves through local `#/$defs/...` references."""
    refers: dict[str, set[str]] = {}
    for name, schema in defs.items():
        found: set[str] = set()
        stack: list[object] = [schema]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                ref = node.get("$ref")
                if isinstance(ref, str) and ref.startswith("#/$defs/"):
                    found.add(ref.removeprefix("#/$defs/"))
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
        refers[name] = found & defs.keys()
    recursive: set[str] = set()
    for start, direct in refers.items():
        seen: set[str] = set()
        frontier = list(direct)
        while frontier:
            name = frontier.pop()
            if name == start:
                recursive.add(start)
                break
            if name not in seen:
                seen.add(name)
                frontier.extend(refers.get(name, ()))
    return recursive
