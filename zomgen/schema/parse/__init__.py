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

from zomgen import ir
from zomgen.errors import InputProblem
from zomgen.schema.atoms import Expander
from zomgen.schema.documents import SchemaSet
from zomgen.schema.parse.builder import Builder

__all__ = ["Builder", "parse"]


def parse(schema_set: SchemaSet, x: Expander) -> tuple[ir.Hierarchy, tuple[InputProblem, ...]]:
    """The IR of the input schema, and the warnings of its types (raises CompileError)."""
    builder = Builder(schema_set, x)
    hierarchy = builder.build()
    return hierarchy, builder.warn.found.found()
