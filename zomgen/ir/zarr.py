"""The Zarr base nodes (ZEP 6, Zarr v2 and v3) as IR: the one table of their keys that the
parser, both targets and `zomgen cases` read.

A node document holds `zarr_format`, `node_type` (v3 only), `attributes`, and for a group
`members`, for an array its metadata (`ARRAY_FIELDS`). The types are what the bundled base
schemas (schemas/zom/) admit; a convention narrows them, and `example` is a value every base
schema accepts (the smallest valid array: one element of one byte).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from zomgen import ir

# A v3 extension point: a name, or `{name, configuration?, must_understand?}`.
EXTENSION = ir.UnionOf((ir.Primitive("string"), ir.Ref("NamedConfig")))
_INTEGERS = ir.ListOf(ir.Primitive("integer"))


@dataclass(frozen=True)
class BaseField:
    """One metadata key of a base array."""

    key: str
    type: ir.TypeRef
    required: bool
    nullable: bool = False  # `null` is a value the key may hold
    # A value the models keep as the JSON they read (no record can be inside), converted as
    # any JSON value whatever its narrower type.
    plain_json: bool = False
    example: object = None  # for a required key: its value in the smallest valid array


ARRAY_FIELDS: dict[int, tuple[BaseField, ...]] = {
    3: (
        BaseField("shape", _INTEGERS, True, example=[1]),
        BaseField("data_type", EXTENSION, True, example="uint8"),
        BaseField(
            "chunk_grid",
            EXTENSION,
            True,
            example={"name": "regular", "configuration": {"chunk_shape": [1]}},
        ),
        BaseField("chunk_key_encoding", EXTENSION, True, example={"name": "default"}),
        BaseField("fill_value", ir.Json(), True, nullable=True, plain_json=True, example=0),
        BaseField("codecs", ir.ListOf(EXTENSION), True, example=[{"name": "bytes"}]),
        BaseField("storage_transformers", ir.ListOf(EXTENSION), False),
        BaseField(
            "dimension_names",
            ir.ListOf(ir.UnionOf((ir.Primitive("string"), ir.Primitive("null")))),
            False,
            plain_json=True,
        ),
    ),
    2: (
        BaseField("shape", _INTEGERS, True, example=[1]),
        BaseField("chunks", _INTEGERS, True, example=[1]),
        BaseField(
            "dtype",
            ir.UnionOf((ir.Primitive("string"), ir.ListOf(ir.Json()))),
            True,
            plain_json=True,
            example="|u1",
        ),
        BaseField(
            "compressor",
            ir.UnionOf((ir.JsonObject(), ir.Primitive("null"))),
            True,
            nullable=True,
            plain_json=True,
            example=None,
        ),
        BaseField("fill_value", ir.Json(), True, nullable=True, plain_json=True, example=0),
        BaseField("order", ir.Literal(("C", "F")), True, plain_json=True, example="C"),
        BaseField(
            "filters",
            ir.UnionOf((ir.ListOf(ir.JsonObject()), ir.Primitive("null"))),
            True,
            nullable=True,
            example=None,
        ),
        BaseField("dimension_separator", ir.Literal((".", "/")), False, plain_json=True),
    ),
}


def node_keys(kind: ir.NodeKind, version: int) -> tuple[str, ...]:
    """The keys every node of this kind and version has, in document order."""
    own = ("members",) if kind == "group" else tuple(f.key for f in ARRAY_FIELDS[version])
    return ("zarr_format", *(("node_type",) if version == 3 else ()), "attributes", *own)


# Every key a node document of either version may hold besides its convention's own.
ALL_NODE_KEYS = frozenset(
    key for kind in ("group", "array") for version in (2, 3) for key in node_keys(kind, version)
)


def example_array(version: int) -> dict[str, object]:
    """The smallest valid array document of this version (a fresh copy each time)."""
    head: dict[str, object] = {"zarr_format": version}
    if version == 3:
        head["node_type"] = "array"
    head["attributes"] = {}
    fields = {f.key: copy.deepcopy(f.example) for f in ARRAY_FIELDS[version] if f.required}
    return head | fields
