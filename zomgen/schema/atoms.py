"""`$ref` and `allOf` flattened into conjunctions of atoms.

Refinement means intersection (input-language §4): a subschema, the schemas its `$ref` points
to and all its `allOf` branches hold at once. A `Conj` is that set, each member an `Atom` (one
schema object plus the resolver its own references resolve with). Atoms are identified by the
identity of their schema object, which makes intersection idempotent (a schema met twice counts
once) and lets two routes to the same schema compare equal: base `ArraySpec` refined by a
convention's `Variable` is exactly the atoms of `Variable`, because `Variable` already includes
`ArraySpec`.

`anyOf`/`oneOf` are not flattened here: the type builder distributes them over the rest of the
conjunction and marks the consumed keyword in `Conj.consumed`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import quote

from referencing import Resource
from referencing._core import Resolver
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT7, DRAFT201909, DRAFT202012

from zomgen.errors import CompileError
from zomgen.schema.documents import SchemaSet
from zomgen.schema.metaschema import ensure_checked
from zomgen.schema.registry import OutsideSearchFolders

# Keywords that carry no constraint: an atom made only of these adds nothing to a type.
ANNOTATIONS = frozenset(
    {
        "$id",
        "$schema",
        "$defs",
        "definitions",
        "$comment",
        "$anchor",
        "$dynamicAnchor",
        "$recursiveAnchor",
        "$vocabulary",
        "title",
        "description",
        "examples",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$ref",
        "allOf",
    }
)
UNSUPPORTED = {
    "$dynamicRef": "dynamic references cannot be resolved statically; use `$ref`",
    "$recursiveRef": "recursive references (2019-09) cannot be resolved statically; use `$ref`",
}
UNIONS = ("anyOf", "oneOf")
_POINTER_SAFE = "/~!$&'()*+,;=:@"
_SPECIFICATIONS = {"draft-07": DRAFT7, "2019-09": DRAFT201909, "2020-12": DRAFT202012}


class Impossible(Exception):
    """The conjunction admits no value (conflicting types or constants, `false`).

    `clauses` are the keywords that contradict each other, each as (its text, where it stands
    as `file#pointer`), so a report can name both sides (`type: object` in the convention
    against `type: string` in the base); `reason` is the sentence that says so, "" when nothing
    is known. `causes` lists (instance path inside the node's document, reason) of every
    required key that admits no value, outermost key first (`/dtype`, `/members/data/dtype`).
    """

    def __init__(
        self,
        reason: str = "",
        clauses: tuple[tuple[str, str], ...] = (),
        causes: tuple[tuple[str, str], ...] = (),
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.clauses = clauses
        self.causes = causes or ((("", reason),) if reason else ())

    def within(self, prefix: str) -> Impossible:
        """The same failure seen from the object that holds it under `prefix` (`/dtype`)."""
        return Impossible(
            self.reason, self.clauses, tuple((prefix + at, why) for at, why in self.causes)
        )


@dataclass(frozen=True, eq=False)
class Atom:
    schema: dict[str, object]
    resolver: Resolver[object]
    draft: str

    def get(self, keyword: str) -> object:
        return self.schema.get(keyword)


@dataclass(frozen=True)
class Conj:
    atoms: tuple[Atom, ...]
    consumed: frozenset[tuple[int, str]] = field(default_factory=frozenset)

    def with_atoms(self, more: tuple[Atom, ...], consumed: tuple[int, str]) -> Conj:
        seen = {id(a.schema) for a in self.atoms}
        extra = tuple(a for a in more if id(a.schema) not in seen)
        return Conj(self.atoms + extra, self.consumed | {consumed})

    def has_content(self, atom: Atom) -> bool:
        for keyword in atom.schema:
            if keyword in ANNOTATIONS:
                continue
            if keyword in UNIONS and (id(atom.schema), keyword) in self.consumed:
                continue
            if atom.draft == "draft-07" and "$ref" in atom.schema:
                continue  # draft-07 ignores every keyword beside `$ref`
            return True
        return False

    def key(self) -> frozenset[int]:
        """Identity of the type this conjunction denotes: its atoms that still constrain, and
        which of their unions are already distributed (as negative numbers, which no `id` is):
        one branch of a schema's `anyOf` is not that schema, though its atoms are the same."""
        key = {id(a.schema) for a in self.atoms if self.has_content(a)}
        for schema_id, keyword in self.consumed:
            if schema_id in key:
                key.add(-(2 * schema_id + UNIONS.index(keyword)))
        return frozenset(key)

    def values(self, keyword: str) -> Iterator[tuple[Atom, object]]:
        for atom in self.atoms:
            if keyword in atom.schema and not (atom.draft == "draft-07" and "$ref" in atom.schema):
                yield atom, atom.schema[keyword]

    def pending_union(self) -> tuple[Atom, str] | None:
        for atom in self.atoms:
            if atom.draft == "draft-07" and "$ref" in atom.schema:
                continue  # draft-07 ignores keywords beside `$ref`
            for keyword in UNIONS:
                if keyword in atom.schema and (id(atom.schema), keyword) not in self.consumed:
                    return atom, keyword
        return None


class Expander:
    """Turns a subschema into the atoms it stands for, reporting bad references by pointer."""

    def __init__(self, schema_set: SchemaSet) -> None:
        self.schema_set = schema_set
        # id(resolver) -> (resolver, id(schema)): resolvers already inside that schema's `$id`
        # (made by `_enter`, or handed back by a lookup that landed on the schema). Entering
        # again would resolve a relative `$id` twice (`nested/foo.json` ->
        # `nested/nested/foo.json`). The entry keeps the resolver alive, so its id stays its own.
        self._inside: dict[int, tuple[Resolver[object], int]] = {}
        # id(`$ref` target) -> the resolver inside it (see `_resolver_inside`)
        self._canonical: dict[int, Resolver[object]] = {}

    def where(self, schema: object) -> tuple[str, str]:
        found = self.schema_set.locate(schema)
        if found is None:
            return str(self.schema_set.root.path), ""
        doc, pointer = found
        return str(doc.path), pointer

    def where_text(self, schema: object) -> str:
        """Where a schema stands, for a message: `file#pointer`, the input file by its name, an
        other file by its label (relative to the input's folder, or its `$id`)."""
        found = self.schema_set.locate(schema)
        if found is None:
            return "an inline schema"
        doc, pointer = found
        label = doc.path.name if doc is self.schema_set.root else doc.label or doc.path.as_posix()
        return f"{label}#{pointer}"

    def draft_of(self, schema: object) -> str:
        found = self.schema_set.locate(schema)
        return found[0].draft if found else "2020-12"

    def root_resolver(self) -> Resolver[object]:
        root = self.schema_set.root
        return self.schema_set.registry.resolver(base_uri=root.uri)

    def expand(self, schema: object, resolver: Resolver[object]) -> tuple[Atom, ...]:
        atoms: list[Atom] = []
        self._expand(schema, resolver, atoms, [], set())
        return tuple(atoms)

    def _expand(
        self,
        schema: object,
        resolver: Resolver[object],
        out: list[Atom],
        chain: list[dict[str, object]],
        done: set[int],
    ) -> None:
        if schema is True:
            return
        if schema is False:
            holder = f" under {self.where_text(chain[-1])}" if chain else ""
            raise Impossible(f"a `false` schema{holder} admits no value")
        if not isinstance(schema, dict):
            file, pointer = self.where(chain[-1] if chain else None)
            raise CompileError.one(file, pointer, "a subschema must be an object or a boolean")
        if id(schema) in done:
            return
        if any(schema is seen for seen in chain):
            # Intersection is idempotent, so meeting a schema again on the same route adds
            # nothing; a chain made only of references is caught below.
            return
        done.add(id(schema))
        found = self.schema_set.locate(schema)
        if found is not None:
            ensure_checked(self.schema_set, found[0])
        for keyword, why in UNSUPPORTED.items():
            if keyword in schema:
                file, pointer = self.where(schema)
                raise CompileError.one(
                    file, f"{pointer}/{keyword}", f"`{keyword}` is not supported: {why}"
                )
        draft = self.draft_of(schema)
        resolver = self._enter(schema, resolver)
        out.append(Atom(schema, resolver, draft))
        ref = schema.get("$ref")
        if ref is not None:
            if not isinstance(ref, str):
                file, pointer = self.where(schema)
                raise CompileError.one(file, f"{pointer}/$ref", "`$ref` must be a string")
            target, target_resolver = self.lookup(schema, ref, resolver)
            looped = any(target is seen for seen in [*chain, schema])
            if looped and not _constrains(target):
                file, pointer = self.where(schema)
                raise CompileError.one(
                    file,
                    f"{pointer}/$ref",
                    f"`$ref` {ref!r} loops back without reaching a schema: give one of the "
                    "references in the loop a real schema",
                )
            self._expand(target, target_resolver, out, chain + [schema], done)
        all_of = schema.get("allOf")
        if all_of is not None and not (draft == "draft-07" and ref is not None):
            if not isinstance(all_of, list):
                file, pointer = self.where(schema)
                raise CompileError.one(file, f"{pointer}/allOf", "`allOf` must be an array")
            for branch in all_of:
                self._expand(branch, resolver, out, chain + [schema], done)

    def _enter(self, schema: dict[str, object], resolver: Resolver[object]) -> Resolver[object]:
        """The resolver for what `schema` holds: its `$id` (if any) taken as the base URI, as
        JSON Schema says, unless `resolver` is already inside it."""
        declared = schema.get("$id")
        draft = self.draft_of(schema)
        if draft == "draft-07" and "$ref" in schema:
            return resolver  # draft-07 ignores `$id` beside `$ref`
        if not isinstance(declared, str) or declared.startswith("#"):
            return resolver
        if self._is_inside(resolver, schema):
            return resolver
        resource = Resource.from_contents(schema, default_specification=_SPECIFICATIONS[draft])
        entered = resolver.in_subresource(resource)
        self._remember(entered, schema)
        return entered

    def _resolver_inside(
        self, target: dict[str, object], found: Resolver[object]
    ) -> Resolver[object]:
        """The resolver for what a `$ref` target holds: the base URI is the target's own
        canonical one (its document's `$id`, then each `$id` on the way down to it, its own
        included), however the reference named it. `referencing` hands back the URI the
        reference used, which differs when a document with an `$id` is named by its file."""
        cached = self._canonical.get(id(target))
        if cached is not None:
            return cached
        resolver = found
        where = self.schema_set.locate(target)
        if where is not None:
            doc, pointer = where
            try:
                resolver = found.lookup(f"{doc.uri}#{quote(pointer, safe=_POINTER_SAFE)}").resolver
            except Unresolvable:
                resolver = found
        # As python-jsonschema, the target's own `$id` is never entered again (with a relative
        # `$id`, `nested/foo.json` would become `nested/nested/foo.json`).
        self._remember(resolver, target)
        self._canonical[id(target)] = resolver
        return resolver

    def _is_inside(self, resolver: Resolver[object], schema: object) -> bool:
        known = self._inside.get(id(resolver))
        return known is not None and known[0] is resolver and known[1] == id(schema)

    def _remember(self, resolver: Resolver[object], schema: object) -> None:
        self._inside[id(resolver)] = (resolver, id(schema))

    def lookup(
        self, holder: dict[str, object], ref: str, resolver: Resolver[object]
    ) -> tuple[object, Resolver[object]]:
        try:
            resolved = resolver.lookup(ref)
        except Unresolvable as exc:
            cause: BaseException | None = exc
            file, pointer = self.where(holder)
            while cause is not None:
                if isinstance(cause, OutsideSearchFolders):
                    message = (
                        f"`$ref` {ref!r} names {cause.path}, outside the folders zomgen reads "
                        "schemas from (the schema's folder and below, -I DIR folders, the "
                        "bundled bases): copy the file there or pass its folder with -I DIR"
                    )
                    raise CompileError.one(file, f"{pointer}/$ref", message) from None
                if isinstance(cause, CompileError):
                    raise cause from None  # the target exists but is malformed
                cause = cause.__cause__
            remote = "://" in ref or ref.startswith("urn:")
            hint = (
                "zomgen never fetches schemas: put the target file in the schema's folder or "
                "in a folder given with -I DIR"
                if remote
                else "check the pointer and the file it names"
            )
            raise CompileError.one(
                file, f"{pointer}/$ref", f"cannot resolve `$ref` {ref!r} offline: {hint}"
            ) from None
        except (TypeError, AttributeError, LookupError):
            # referencing walks the pointer with `[]`: a step into a boolean schema or a scalar
            file, pointer = self.where(holder)
            raise CompileError.one(
                file,
                f"{pointer}/$ref",
                f"cannot resolve `$ref` {ref!r}: its pointer passes through a value that is not "
                "an object or an array (a boolean schema has no subschemas)",
            ) from None
        if isinstance(resolved.contents, dict):
            return resolved.contents, self._resolver_inside(resolved.contents, resolved.resolver)
        return resolved.contents, resolved.resolver


def _constrains(schema: object) -> bool:
    if not isinstance(schema, dict):
        return True
    return any(k not in ANNOTATIONS for k in schema) or "allOf" in schema
