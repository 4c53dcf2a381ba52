"""The language-neutral intermediate representation: the contract between the schema front end
and the Python and TypeScript targets.

Everything here is frozen plain data with no spelling of any target language. Type names are
already final (PascalCase, unique); JSON keys are kept exactly as the schema writes them, and each
target decides how to spell them. `to_json` dumps the IR for `zomgen ir`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal as TLiteral

JsonScalar = str | int | float | bool | None
PrimitiveName = TLiteral["string", "integer", "number", "boolean", "null"]
NodeKind = TLiteral["group", "array"]


# --- type forms -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Primitive:
    """A JSON scalar type (`type: string` ...)."""

    name: PrimitiveName
    form: TLiteral["primitive"] = "primitive"


@dataclass(frozen=True)
class Literal:
    """`const` or `enum` of scalars: the value must be one of `values`."""

    values: tuple[JsonScalar, ...]
    form: TLiteral["literal"] = "literal"


@dataclass(frozen=True)
class Json:
    """Any JSON value (a schema that constrains nothing a static type can say)."""

    form: TLiteral["json"] = "json"


@dataclass(frozen=True)
class Never:
    """No value at all: a key that can never be present (`properties: {"x": false}`, an empty
    `enum`, an `anyOf` of `false`s). Only optional fields have this type; a required one makes
    its object admit no value."""

    form: TLiteral["never"] = "never"


@dataclass(frozen=True)
class JsonObject:
    """Any JSON object (`type: object` with no properties)."""

    form: TLiteral["json_object"] = "json_object"


@dataclass(frozen=True)
class ListOf:
    """A JSON array whose items all have one type."""

    item: TypeRef
    form: TLiteral["list"] = "list"


@dataclass(frozen=True)
class TupleOf:
    """A JSON array with positional item types (`prefixItems`, or `minItems == maxItems`).

    `rest` types the items after the positional ones; `None` means there are none.
    `min_length` is how many positions must be present: JSON Schema lets an array stop before
    its last `prefixItems` position unless `minItems` says otherwise (`None`: all of them).
    """

    items: tuple[TypeRef, ...]
    rest: TypeRef | None = None
    min_length: int | None = None
    form: TLiteral["tuple"] = "tuple"

    @property
    def required_length(self) -> int:
        return len(self.items) if self.min_length is None else self.min_length


@dataclass(frozen=True)
class MapOf:
    """A JSON object with arbitrary keys and one value type (`additionalProperties: {...}`)."""

    value: TypeRef
    form: TLiteral["map"] = "map"


@dataclass(frozen=True)
class UnionOf:
    """One of several types (`anyOf`, `oneOf`, `type: [...]`).

    `discriminator` names a property that holds a distinct literal in every object option.
    `option_schemas` says, for each option, where its own subschema is: the `anyOf`/`oneOf`
    branches (file and JSON pointer, as `pointer` fields write them) a value must satisfy to be
    that option; `()` where the option has no subschema of its own (an `enum` or a `type`
    list) or comes from several branches. The run time asks its engine about them where no
    shape tells two options apart.
    """

    options: tuple[TypeRef, ...]
    discriminator: str | None = None
    option_schemas: tuple[tuple[str, ...], ...] = ()
    form: TLiteral["union"] = "union"


@dataclass(frozen=True)
class Ref:
    """A reference to a named type of the hierarchy (an object, node or alias)."""

    name: str
    form: TLiteral["ref"] = "ref"


@dataclass(frozen=True)
class BaseNode:
    """An unrefined base ZOM node: a `GroupSpec`/`ArraySpec` of the given Zarr version with
    arbitrary attributes and (for groups) arbitrary members."""

    kind: NodeKind
    zarr_format: int
    form: TLiteral["base_node"] = "base_node"


TypeRef = (
    Primitive
    | Literal
    | Json
    | Never
    | JsonObject
    | ListOf
    | TupleOf
    | MapOf
    | UnionOf
    | Ref
    | BaseNode
)


# --- named types ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """One property of an object, or one named member of a group.

    `key` is the exact JSON key. `nullable` says whether JSON `null` is a valid value, which
    targets need to tell "absent" from "null" for optional fields.
    """

    key: str
    type: TypeRef
    required: bool
    nullable: bool = False
    description: str | None = None


@dataclass(frozen=True)
class ObjectType:
    """A JSON object with known properties (an attribute object or one of its parts).

    `extra` types the keys that are not listed: `None` when the object is closed
    (`additionalProperties: false`), `Json()` when it is open and unconstrained.
    """

    name: str
    fields: tuple[Field, ...]
    extra: TypeRef | None
    description: str | None
    pointer: str
    kind: TLiteral["object"] = "object"


@dataclass(frozen=True)
class Members:
    """The `members` of a group node: named members, the type of all other members (`None`
    when the group is closed), and `patternProperties` patterns with their member types."""

    named: tuple[Field, ...]
    other: TypeRef | None
    patterns: tuple[tuple[str, TypeRef], ...] = ()


@dataclass(frozen=True)
class NodeType:
    """A group or array node type of the convention.

    `metadata` lists the node-level fields the convention narrows beyond the base node (for
    instance `data_type` fixed to an enum, `dimension_names` required), then the keys it
    declares beside the base node's own (a writer's key in `.zgroup`/`.zarray`, a v3 extension
    field), on groups and arrays alike; the others keep the base node's types. `members` is set
    for groups only.
    """

    name: str
    node_kind: NodeKind
    zarr_format: int
    attributes: TypeRef
    members: Members | None
    metadata: tuple[Field, ...]
    description: str | None
    pointer: str
    kind: TLiteral["node"] = "node"


@dataclass(frozen=True)
class AliasType:
    """A named type that is not an object: an enum, a union, a list... (`$defs` entries)."""

    name: str
    target: TypeRef
    description: str | None
    pointer: str
    kind: TLiteral["alias"] = "alias"


NamedType = ObjectType | NodeType | AliasType


@dataclass(frozen=True)
class RuntimeCheck:
    """A keyword that no static type can express; it is enforced at run time by validating
    against the bundled schema, and listed in the package's docs."""

    pointer: str
    keyword: str


@dataclass(frozen=True)
class Hierarchy:
    """A whole compiled convention: its root type, every named type in a deterministic order,
    the Zarr versions it uses, and the keywords only checked at run time."""

    source: str
    root: str
    types: tuple[NamedType, ...]
    zarr_formats: tuple[int, ...]
    runtime_checks: tuple[RuntimeCheck, ...]
    description: str | None

    def type_named(self, name: str) -> NamedType:
        for named in self.types:
            if named.name == name:
                return named
        raise KeyError(name)


def map_types(hierarchy: Hierarchy, change: Callable[[TypeRef], TypeRef]) -> Hierarchy:
    """`hierarchy` with `change` applied to every type expression in it, innermost first."""

    def each(t: TypeRef) -> TypeRef:
        if isinstance(t, ListOf):
            t = dataclasses.replace(t, item=each(t.item))
        elif isinstance(t, MapOf):
            t = dataclasses.replace(t, value=each(t.value))
        elif isinstance(t, TupleOf):
            rest = None if t.rest is None else each(t.rest)
            t = dataclasses.replace(t, items=tuple(map(each, t.items)), rest=rest)
        elif isinstance(t, UnionOf):
            t = dataclasses.replace(t, options=tuple(map(each, t.options)))
        return change(t)

    def fields(found: tuple[Field, ...]) -> tuple[Field, ...]:
        return tuple(dataclasses.replace(f, type=each(f.type)) for f in found)

    def named(t: NamedType) -> NamedType:
        if isinstance(t, AliasType):
            return dataclasses.replace(t, target=each(t.target))
        if isinstance(t, ObjectType):
            extra = None if t.extra is None else each(t.extra)
            return dataclasses.replace(t, fields=fields(t.fields), extra=extra)
        members = t.members
        if members is not None:
            members = Members(
                fields(members.named),
                None if members.other is None else each(members.other),
                tuple((p, each(m)) for p, m in members.patterns),
            )
        return dataclasses.replace(
            t, attributes=each(t.attributes), members=members, metadata=fields(t.metadata)
        )

    return dataclasses.replace(hierarchy, types=tuple(map(named, hierarchy.types)))


def to_json(hierarchy: Hierarchy) -> object:
    """The IR as plain JSON data, for `zomgen ir`."""
    return dataclasses.asdict(hierarchy)
