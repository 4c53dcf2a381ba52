"""The schema jsonschema-rs compiles for verdicts: `x-zomgen-ndim-length` written out as plain
JSON Schema wherever that says exactly the same.

Why: a custom keyword is a call back into Python, and jsonschema-rs first copies the instance
(the whole array's metadata) into new Python objects for it. The base ZOM and most conventions
put the keyword on every array, and schemas that compose reach it two or three times per array:
on 10,000 v3 arrays the callbacks were 0.3-0.45x of the floor of `load` (zomgen's measurements).

What it says, for plain pointers: "where `shape` is a list of n items, the list each pointer
reaches, if any, has n items". As JSON Schema: `if` `shape` has at most 0 items `then` each
target has 0, `else` `if` at most 1 ..., each target bounded with `minItems` and `maxItems`.
On 10,000 v3 arrays of the xarray convention this took `is_valid` from about 145-200 ms to
110 ms (95 ms with no ndim check).

Shapes of `MAX_NDIM` items or more keep the Python keyword, or get `{"not": {}}` instead where
every ndim keyword sits where a stricter subschema can only make the whole schema stricter
(`_only_strengthens`) and no other check keyword is left: jsonschema-rs with any custom keyword
registered took 1.45x as long on 10,000 v3 arrays, although no array reached one. The verdict
engine's "valid" is then final, and its "invalid" is confirmed on the schema as written
(`VerdictSchema.invalid_is_final`).

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
from dataclasses import dataclass
from typing import Any

from .checks import NDIM_LENGTH, uses_checks
from .pointers import WILDCARD, parse_pointer
from .values import is_array, is_object

MAX_NDIM = 32
_NOTHING: dict[str, Any] = {"not": {}}  # `false` in every draft (draft 4 has no boolean schema)

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


@dataclass(frozen=True)
class VerdictSchema:
    """What the verdict engine compiles. `invalid_is_final` is False where the schema says
    "invalid" for arrays of `MAX_NDIM` dimensions or more that may be valid: only its "valid"
    is then final, and the schema as written decides the rest."""

    schema: dict[str, Any]
    invalid_is_final: bool = True


def verdict_schema(schema: dict[str, Any]) -> VerdictSchema:
    """`schema` with its ndim keywords in plain JSON Schema and its members checked once, where
    that is exact; `schema` itself where nothing changes or where it cannot be done safely."""
    try:
        text = json.dumps(schema)
        if "unevaluated" in text:
            return VerdictSchema(schema)
        plain_references = not any(k in text for k in _CHANGING_REFERENCES)
        rewritten: Any = schema
        undecided = False
        if NDIM_LENGTH in text:
            strict = plain_references and _only_strengthens(schema, NDIM_LENGTH)
            rewritten = _rewrite(schema, strict)
            if strict and uses_checks(rewritten):
                # other check keywords are registered anyway: the exact Python keyword costs
                # no more, and keeps "invalid" final
                strict, rewritten = False, _rewrite(schema, False)
            undecided = strict and rewritten != schema
        if is_object(rewritten) and plain_references:
            rewritten = _members_checked_once(rewritten)
    except (RecursionError, TypeError, ValueError):
        # nested past Python's stack, or not JSON (a schema built by hand): keep the callbacks
        return VerdictSchema(schema)
    if not is_object(rewritten):
        return VerdictSchema(schema)
    return VerdictSchema(rewritten, invalid_is_final=not undecided)


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


def _rewrite(schema: Any, strict: bool) -> Any:
    """`schema` with each ndim keyword it can write out as plain JSON Schema written out; for
    shapes of `MAX_NDIM` items or more, `{"not": {}}` if `strict`, else the keyword."""
    if not is_object(schema):
        return schema
    out = _subschemas_mapped(schema, lambda sub: _rewrite(sub, strict))
    pointers = _plain_pointers(out.get(NDIM_LENGTH))
    existing = out.get("allOf", [])
    if pointers is not None and is_array(existing):
        original = out.pop(NDIM_LENGTH)
        leaf = _NOTHING if strict else {NDIM_LENGTH: original}
        out["allOf"] = [*existing, _by_ndim(pointers, leaf)]
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


def _by_ndim(pointers: list[list[str]], leaf: dict[str, Any]) -> dict[str, Any]:
    has_shape = {"required": ["shape"], "properties": {"shape": {"type": "array"}}}
    return {"if": has_shape, "then": _from(pointers, leaf, 0)}


def _from(pointers: list[list[str]], leaf: dict[str, Any], ndim: int) -> dict[str, Any]:
    """The schema for shapes of `ndim` items or more: one `if` per length, the short (common)
    ones first; measured faster in jsonschema-rs than a binary search on the length. `leaf`
    from `MAX_NDIM` items on."""
    if ndim == MAX_NDIM:
        return leaf
    bound = {"minItems": ndim, "maxItems": ndim}
    targets = [_at(tokens, bound) for tokens in pointers]
    return {
        "if": {"properties": {"shape": {"maxItems": ndim}}},
        "then": targets[0] if len(targets) == 1 else {"allOf": targets},
        "else": _from(pointers, leaf, ndim + 1),
    }


def _at(tokens: list[str], schema: dict[str, Any]) -> dict[str, Any]:
    for token in reversed(tokens):
        schema = {"properties": {token: schema}}
    return schema


# --- where a stricter subschema makes the whole schema stricter ----------------------------

# Keywords under which a stricter subschema can make the whole schema accept more: `not`
# reverses it, and `if`, `oneOf` and a bounded `contains` count matches both ways.
_EITHER_WAY = frozenset(("not", "if", "oneOf"))
_EITHER_WAY_BOUNDED = _EITHER_WAY | {"contains"}  # beside `maxContains`


def _only_strengthens(root: dict[str, Any], keyword: str) -> bool:
    """Whether no subschema holding `keyword`, directly or through "#/..." references, sits
    under a keyword that can turn a stricter subschema into a more lenient schema: then a
    stricter stand-in for `keyword` can only make `root` stricter. Every object of `root` is
    taken for a subschema (data that looks like one only makes the answer False), and any other
    reference, which this does not follow, makes it False."""

    def reaches(start: Any) -> bool:
        seen: set[int] = set()
        stack = [start]
        while stack:
            value = stack.pop()
            if is_array(value):
                stack.extend(value)
            if not is_object(value) or id(value) in seen:
                continue
            seen.add(id(value))
            if keyword in value:
                return True
            reference = value.get("$ref")
            if isinstance(reference, str):
                stack.append(_target(root, {"$ref": reference}))
            stack.extend(value.values())
        return False

    stack: list[Any] = [root]
    while stack:
        value = stack.pop()
        if is_array(value):
            stack.extend(value)
        if not is_object(value):
            continue
        reference = value.get("$ref")
        if reference is not None and _target(root, {"$ref": reference}) is None:
            return False  # not followed: what it reaches is unknown
        either_way = _EITHER_WAY_BOUNDED if "maxContains" in value else _EITHER_WAY
        if any(name in value and reaches(value[name]) for name in either_way):
            return False
        stack.extend(value.values())
    return True


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
