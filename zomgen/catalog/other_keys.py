"""Keys a writer put in `.zgroup` or `.zarray` beside the Zarr v2 spec's own.

The v2 spec says other keys SHOULD NOT be present and SHOULD be ignored; zarr-python reads such
stores, and the bundled v2 base accepts them (docs/base-schemas.md). `zomgen validate` does not
refuse them: each is a warning, unless a convention checked in the same run declares the key on
a node (then it is the convention's field, checked by its schema).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from zomgen_runtime import Problem
from zomgen_runtime.metadata_files import V2_NODE_KEYS
from zomgen_runtime.pointers import escape

OTHER_KEY = "other key"

# A subschema is a node's when it refines one of the base node definitions.
_BASE_NODES = ("/GroupSpec", "/ArraySpec", "/Node")


def other_keys(node: dict[str, Any]) -> list[str]:
    """The keys of a v2 node's document outside the spec's own (none for a v3 node: there an
    unknown key must say `must_understand: false`, which the base schema checks)."""
    if node.get("zarr_format") != 2:
        return []
    known = set(V2_NODE_KEYS["array" if "shape" in node else "group"])
    return [key for key in node if key not in known]


def warning(node_path: str, node: dict[str, Any], key: str) -> Problem:
    file = ".zarray" if "shape" in node else ".zgroup"
    message = (
        f"{key!r} in {file} is not a Zarr v2 key (the spec: other keys SHOULD NOT be present, "
        "and readers ignore them); no convention checked here declares it"
    )
    return Problem(node_path, "/" + escape(key), message, OTHER_KEY)


def declared_node_keys(schema: Any) -> frozenset[str]:
    """Every key a convention's schema lists on a node: its own `properties` or `required` in
    a subschema that refines a base group or array."""
    return frozenset(key for sub in _node_schemas(schema) for key in _listed(sub))


def _node_schemas(value: Any) -> Iterator[dict[str, Any]]:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if _refines_a_node(item):
                yield item
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _refines_a_node(schema: dict[str, Any]) -> bool:
    refs = [schema.get("$ref")]
    all_of = schema.get("allOf")
    if isinstance(all_of, list):
        refs += [part.get("$ref") for part in all_of if isinstance(part, dict)]
    return any(isinstance(ref, str) and ref.endswith(_BASE_NODES) for ref in refs)


def _listed(schema: dict[str, Any]) -> Iterator[str]:
    properties = schema.get("properties")
    if isinstance(properties, dict):
        yield from (key for key in properties if isinstance(key, str))
    required = schema.get("required")
    if isinstance(required, list):
        yield from (key for key in required if isinstance(key, str))
