"""The schema jsonschema-rs compiles for verdicts: `x-zomgen-ndim-length` written out as plain
JSON Schema wherever that says exactly the same.

Why: a custom keyword is a call back into Python, and jsonschema-rs first copies the instance
(the whole array's metadata) into new Python objects for it. The base ZOM and most conventions
put the keyword on every array, and schemas that compose reach it two or three times per array:
on 10,000 v3 arrays the callbacks were 0.3-0.45x of the floor of `load` (docs/performance.md).

What it says, for plain pointers: "where `shape` is a list of n items, the list each pointer
reaches, if any, has n items". As JSON Schema: `if` `shape` has at most 0 items `then` each
target has 0, `else` `if` at most 1 ..., each target bounded with `minItems` and `maxItems`.
Shapes of `MAX_NDIM` items or more keep the Python keyword. On 10,000 v3 arrays of the xarray
convention this took `is_valid` from about 145-200 ms to 110 ms (95 ms with no ndim check).

Only the verdict engine gets this schema. Problems are described by the reference engine from
the schema as written, and so is the fast engine's fallback description. Left as they are:
pointers with a wildcard or an array index (the JSON Schema would need more than `properties`),
malformed values, and every schema that holds `unevaluatedProperties` or `unevaluatedItems`
(the `properties` added here would count as evaluated there).

Second, members checked twice: the base `GroupSpec` checks every member as a `Node` (a group or
an array), and a convention whose group says `"members": {"additionalProperties": {"$ref":
"#/$defs/Variable"}}`, where `Variable` is `allOf` the base `ArraySpec` and more, checks each
member again through `ArraySpec`: half of `is_valid` on 10,000 v3 arrays. Where that holds
exactly (no named or patterned members, `Variable` requires a schema `Node` offers, no `$id`,
anchors, dynamic references or `unevaluated*` anywhere), such a group refers to a copy of
`GroupSpec` without the `Node` check of members, which `Variable` implies.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .checks import NDIM_LENGTH
from .pointers import WILDCARD, parse_pointer
from .values import is_array, is_object

MAX_NDIM = 32

# Keywords whose value is a map of names to subschemas, a list of subschemas, or one subschema.
_NAMED_SCHEMAS = frozenset(
    ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
)
_SCHEMA_LISTS = frozenset(("allOf", "anyOf", "oneOf", "prefixItems", "items"))
_ONE_SCHEMA = frozenset(
    (
        "items",
        "additionalItems",
        "additionalProperties",
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
    )
)


def verdict_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with its ndim keywords in plain JSON Schema and its members checked once, where
    that is exact; `schema` itself where nothing changes or where it cannot be done safely."""
    try:
        text = json.dumps(schema)
        if "unevaluated" in text:
            return schema
        rewritten = _rewrite(schema) if NDIM_LENGTH in text else schema
        if is_object(rewritten) and not any(k in text for k in _CHANGING_REFERENCES):
            rewritten = _members_checked_once(rewritten)
    except (RecursionError, TypeError, ValueError):
        # nested past Python's stack, or not JSON (a schema built by hand): keep the callbacks
        return schema
    return rewritten if is_object(rewritten) else schema


def _subschemas_mapped(schema: dict[str, Any], visit: Callable[[Any], Any]) -> dict[str, Any]:
    """A copy of `schema` with `visit` applied to each of its direct subschemas."""
    out: dict[str, Any] = {}
    for keyword, value in schema.items():
        if keyword in _NAMED_SCHEMAS and is_object(value):
            out[keyword] = {name: visit(sub) for name, sub in value.items()}
        elif keyword in _SCHEMA_LISTS and is_array(value):
            out[keyword] = [visit(sub) for sub in value]
        elif keyword in _ONE_SCHEMA:
            out[keyword] = visit(value)
        else:
            out[keyword] = value  # data (const, enum, default ...) and keywords with no subschema
    return out


def _rewrite(schema: Any) -> Any:
    if not is_object(schema):
        return schema
    out = _subschemas_mapped(schema, _rewrite)
    pointers = _plain_pointers(out.get(NDIM_LENGTH))
    existing = out.get("allOf", [])
    if pointers is not None and is_array(existing):
        original = out.pop(NDIM_LENGTH)
        out["allOf"] = [*existing, _by_ndim(pointers, original)]
    return out


def _plain_pointers(value: Any) -> list[list[str]] | None:
    """The tokens of each pointer, where every pointer reaches its target through objects
    alone; None otherwise."""
    if not is_array(value) or not value or not all(isinstance(p, str) for p in value):
        return None
    parsed = [parse_pointer(p) for p in value]
    for tokens in parsed:
        if not tokens or any(t == WILDCARD or (t.isascii() and t.isdigit()) for t in tokens):
            return None
    return parsed


def _by_ndim(pointers: list[list[str]], original: Any) -> dict[str, Any]:
    has_shape = {"required": ["shape"], "properties": {"shape": {"type": "array"}}}
    return {"if": has_shape, "then": _from(pointers, original, 0)}


def _from(pointers: list[list[str]], original: Any, ndim: int) -> dict[str, Any]:
    """The schema for shapes of `ndim` items or more: one `if` per length, the short (common)
    ones first; measured faster in jsonschema-rs than a binary search on the length."""
    if ndim == MAX_NDIM:
        return {NDIM_LENGTH: original}
    bound = {"minItems": ndim, "maxItems": ndim}
    targets = [_at(tokens, bound) for tokens in pointers]
    return {
        "if": {"properties": {"shape": {"maxItems": ndim}}},
        "then": targets[0] if len(targets) == 1 else {"allOf": targets},
        "else": _from(pointers, original, ndim + 1),
    }


def _at(tokens: list[str], schema: dict[str, Any]) -> dict[str, Any]:
    for token in reversed(tokens):
        schema = {"properties": {token: schema}}
    return schema


# --- members checked once -------------------------------------------------------------------

# Keywords that change what a "#/..." reference means, or add references a copy would miss.
_CHANGING_REFERENCES = ('"$id"', '"$anchor"', '"$dynamicRef"', '"$dynamicAnchor"', '"$recursive')
_COPY = "zomgen-verdict-group-"  # + a number: the name of a copy of GroupSpec in `$defs`
_ANNOTATIONS = frozenset(("title", "description", "$comment"))


def _members_checked_once(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` where each group whose members are all checked by a schema that implies the
    base group's check of them refers to a copy of the base group without that check."""
    copies: dict[str, str] = {}  # reference to a base group -> reference to its copy
    groups: dict[str, dict[str, Any]] = {}  # reference to a base group -> the group

    def visit(node: Any) -> Any:
        if not is_object(node):
            return node
        out = _subschemas_mapped(node, visit)
        implied = _implied_base_group(schema, out)
        if implied is not None:
            index, group_ref, groups[group_ref] = implied
            copy_ref = copies.setdefault(group_ref, f"#/$defs/{_COPY}{len(copies)}")
            out["allOf"] = [*out["allOf"][:index], {"$ref": copy_ref}, *out["allOf"][index + 1 :]]
        return out

    rewritten = visit(schema)
    defs = rewritten.get("$defs", {})
    if not copies or not is_object(defs) or any(k.startswith(_COPY) for k in defs):
        return schema
    defs = dict(defs)
    for group_ref, copy_ref in copies.items():
        group = groups[group_ref]
        members = dict(group["properties"]["members"])
        del members["additionalProperties"]  # what the convention's own member schema implies
        defs[copy_ref.removeprefix("#/$defs/")] = {
            **group,
            "properties": {**group["properties"], "members": members},
        }
    return {**rewritten, "$defs": defs}


def _implied_base_group(
    root: dict[str, Any], node: dict[str, Any]
) -> tuple[int, str, dict[str, Any]] | None:
    """(where in `allOf`, which, the schema of the) base group `node` refers to whose check of each member as a
    node (`anyOf` references) `node`'s own schema of every member implies: that schema is
    `allOf` one of the same references. None where this does not hold exactly."""
    all_of, properties = node.get("allOf"), node.get("properties")
    if not is_array(all_of) or not is_object(properties):
        return None
    members = properties.get("members")
    if not is_object(members) or "properties" in members or "patternProperties" in members:
        return None
    member = _target(root, members.get("additionalProperties"))
    if member is None or not is_array(member.get("allOf")):
        return None
    requires = {item["$ref"] for item in member["allOf"] if _is_ref(item)}
    for index, item in enumerate(all_of):
        group = _target(root, item)
        if group is None:
            continue
        group_properties = group.get("properties")
        if not is_object(group_properties) or not is_object(group_properties.get("members")):
            continue
        each = _target(root, group_properties["members"].get("additionalProperties"))
        if each is None or not set(each) <= {"anyOf", *_ANNOTATIONS}:
            continue  # the node check says more than "one of these"
        options = each.get("anyOf")
        if is_array(options) and requires & {o["$ref"] for o in options if _is_ref(o)}:
            return index, item["$ref"], group
    return None


def _is_ref(schema: Any) -> bool:
    return is_object(schema) and list(schema) == ["$ref"] and isinstance(schema["$ref"], str)


def _target(root: dict[str, Any], schema: Any) -> dict[str, Any] | None:
    """The object a `{"$ref": "#/..."}` schema refers to, or None."""
    if not _is_ref(schema) or not schema["$ref"].startswith("#/"):
        return None
    found: Any = root
    for token in parse_pointer(schema["$ref"][1:]):
        found = found.get(token) if is_object(found) else None
    return found if is_object(found) else None
