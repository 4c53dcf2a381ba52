"""Making the synthesised hierarchy valid where the IR could not: ask the package's run time
what it refuses, and replace the refused value by the subschema's `examples` (or `default`),
or, for a bound, by the bound, or, for a `pattern`, by a string it matches (strings.py). What
cannot be repaired is reported with the schema pointer of the constraint that blocks it.

Longer than 400 lines because each kind of refusal has its repair here, one function beside
the others that `_candidates` and `_relations` try in turn: a new kind of refusal is a new
function of this module.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from zomgen_runtime.subschemas import holds

from zomgen.cases.indices import index_repairs
from zomgen.cases.mutate import json_copy
from zomgen.cases.raw import deref, escape, guess, options, put, resolve, tokens
from zomgen.cases.refusals import Check, Refusal
from zomgen.cases.strings import matching
from zomgen.cases.synth import Unsatisfiable, base_node

ROUNDS = 50  # one value is repaired per round
# Characters the repairs may add to a hierarchy, at the most: a repair that nests what it
# repairs (a CRS whose source is a CRS) stops here, a hierarchy that is large to begin with
# (SpatialData's tables are AnnData groups) does not.
MAX_SIZE = 4_000


Renames = list[tuple[tuple[str, ...], tuple[str, ...]]]


@dataclass(frozen=True)
class Renamed:
    """A repaired document in which members were renamed (a plate's row and well named after
    the plate's rows and columns): (old path, new path) for each, outer members first."""

    document: Any
    moves: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]


def repaired(
    document: Any,
    schema: Any,
    check: Check,
    renames: Renames | None = None,
    within: Sequence[tuple[str, Sequence[str]]] = (),
) -> Any:
    """`document` made valid by replacing refused values; raises Unsatisfiable naming the
    first constraint that nothing here can satisfy. Members a repair moved are appended to
    `renames` as (old path, new path), in order. `within` gives where an option is being
    built (its document pointer, its subschemas' pointers): a value there that no option of
    its `oneOf` holds is repaired as that option (a raw data type's `pattern`), where a repair
    can, rather than as the first option (an `enum` of names)."""
    doc = json_copy(document)
    limit = len(repr(doc)) + MAX_SIZE
    tried: set[tuple[tuple[str, str], str]] = set()
    for _ in range(ROUNDS):
        refusals = check(doc)
        if not refusals:
            return doc
        for refusal in refusals:
            key = (refusal.pointer, refusal.schema_path)
            whole = [
                put(json_copy(doc), refusal.pointer, c) for c in _candidates(refusal, schema, doc)
            ]
            whole += _relations(refusal, schema, check, doc)
            candidates = [c for c in whole if (key, repr(_document(c))) not in tried]
            own = [
                p
                for where, pointers in within
                if where == refusal.pointer
                for p in pointers
                if p.startswith(f"{refusal.schema_path}/")
            ]
            if own:  # the option being built is one of the refused `oneOf`'s: its value first
                candidates.sort(key=lambda c: not _holds_at(c, refusal.pointer, schema, own))
            if candidates:
                chosen = candidates[0]
                tried.add((key, repr(_document(chosen))))
                doc = _document(chosen)
                if isinstance(chosen, Renamed) and renames is not None:
                    renames.extend(chosen.moves)
                if len(repr(doc)) > limit:
                    # describing the problems of an ever-nesting tree costs exponential time
                    raise Unsatisfiable(
                        "", f"the repairs grew the hierarchy by over {MAX_SIZE} characters"
                    )
                break
        else:
            first = refusals[0]
            # a rule in CEL is named by its text: the synthesiser cannot read CEL, so no
            # repair makes it hold
            who = f"the rule {first.rule}" if first.rule else f"`{first.keyword}`"
            raise Unsatisfiable(
                first.schema_path,
                f"{who} refuses the synthesised value at document pointer "
                f"{first.pointer or '/'} ({first.message}); add `examples` to this subschema "
                "(or a valid example to the root schema)",
            )
    raise Unsatisfiable("", f"no valid hierarchy after {ROUNDS} repairs")


def _holds_at(candidate: Any, pointer: str, schema: Any, pointers: Sequence[str]) -> bool:
    try:
        return holds(resolve(_document(candidate), pointer), schema, *pointers)
    except (KeyError, IndexError, ValueError, TypeError):
        return False


def _document(candidate: Any) -> Any:
    return candidate.document if isinstance(candidate, Renamed) else candidate


def moved(path: tuple[str | int, ...], renames: Renames) -> tuple[str | int, ...]:
    """Where `path` of the document before the repairs is after them."""
    for old, new in renames:
        if path[: len(old)] == old:
            path = new + path[len(old) :]
    return path


def _candidates(refusal: Refusal, schema: Any, doc: Any) -> list[Any]:
    parent = "/".join(refusal.schema_path.split("/")[:-1])
    try:
        subschema = resolve(schema, parent)
        current = resolve(doc, refusal.pointer)
    except (KeyError, IndexError, ValueError, TypeError):
        return []
    if not isinstance(subschema, dict):
        return []
    found: list[Any] = []
    examples = subschema.get("examples")
    if isinstance(examples, list):
        found.extend(examples)
    if "default" in subschema:
        found.append(subschema["default"])
    pattern = subschema.get("pattern")
    if refusal.keyword == "pattern" and isinstance(pattern, str):
        text = matching(pattern)
        found.extend([] if text is None else [text])
    found.extend(_guessed(refusal.keyword, subschema, current, schema))
    found.extend(_bound(refusal.keyword, subschema, current))
    found.extend(_items(refusal.keyword, subschema, current, schema))
    return [json_copy(c) for c in found]


def _guessed(keyword: str, subschema: dict[str, Any], current: Any, schema: Any) -> list[Any]:
    """Values read off the raw subschema (raw.py) where the IR could not guide: each option of
    a refused `oneOf`/`anyOf`, the keys a `required` (say, under `if`/`then`) asks for, a value
    of a refused `type`."""
    if keyword in ("oneOf", "anyOf"):
        # Each option's own value, then the current value brought to an option that only asks
        # for certain items (`contains`: OME-NGFF's "two or three space axes").
        found = options(schema, subschema)
        for option in subschema.get(keyword) or []:
            option = deref(schema, option)
            if isinstance(option, dict) and "contains" in option:
                found.extend(_items("contains", option, current, schema))
        return found
    if keyword == "required" and isinstance(current, dict):
        properties = subschema.get("properties")
        properties = properties if isinstance(properties, dict) else {}
        missing = [k for k in subschema.get("required") or [] if k not in current]
        return [{**current, **{k: guess(schema, properties.get(k, {})) for k in missing}}]
    if keyword == "type":
        value = guess(schema, subschema)
        return [] if value is None else [value]
    if keyword == "enum" and isinstance(subschema.get("enum"), list):
        # a value made for another constraint (an item added for `minItems`, varied to be
        # distinct) brought back to a value the enum allows
        return list(subschema["enum"])
    if keyword == "const":
        return [subschema["const"]]
    return []


def _relations(refusal: Refusal, schema: Any, check: Check, doc: Any) -> list[Any]:
    """Whole documents that may satisfy a refused `x-zomgen-member-kind`: the string names an
    existing member of the kind, else a new member of that kind is added under that name."""
    if refusal.keyword in LENGTHS:
        if _OTHER_PLUS.match(refusal.message):
            # the axes are right as they are, and the numbers in the message are the row's
            return _other_resized(refusal, doc)
        # A list grown may need its new items repaired (a fourth axis gets a type) in a later
        # round; one shrunk and refused where it is can only grow back (a 0.6 system's axes
        # cut to an affine's one row), so the other list is resized before it.
        resized = _resized(refusal, doc)
        kept = _kept(refusal, check, resized)
        size = len(resolve(doc, refusal.pointer)) if resized else 0  # a list: it was resized
        grown = [d for d in resized if d not in kept and len(resolve(d, refusal.pointer)) > size]
        shrunk = [d for d in resized if d not in kept and d not in grown]
        return kept + grown + _other_resized(refusal, doc) + shrunk
    if refusal.keyword == "x-zomgen-unique-by":
        return [put(json_copy(doc), refusal.pointer, v) for v in _variants(refusal, doc)]
    if refusal.keyword in ("x-zomgen-equal", "x-zomgen-in"):
        named = [put(json_copy(doc), refusal.pointer, v) for v in _named_values(refusal)]
        return _kept(refusal, check, named)
    if refusal.keyword == "x-zomgen-reaches":
        return _reached_members(refusal, schema, doc) + _climbed_to(refusal, schema, doc)
    if refusal.keyword in ("x-zomgen-index-of", "x-zomgen-partition"):
        return _kept(refusal, check, index_repairs(refusal, schema, doc))
    if refusal.keyword != "x-zomgen-member-kind":
        return []
    try:
        kind = resolve(schema, refusal.schema_path)
        current = resolve(doc, refusal.pointer)
    except (KeyError, IndexError, ValueError, TypeError):
        return []
    node_pointer = _node_of(refusal.pointer)
    node = resolve(doc, node_pointer)
    members = node.get("members") if isinstance(node, dict) else None
    if not isinstance(members, dict) or kind not in ("array", "group", "node"):
        return []
    found: list[Any] = []
    for name, member in members.items():
        if name and (kind == "node" or _kind(member) == kind):
            found.append(put(json_copy(doc), refusal.pointer, name))
    if isinstance(current, str) and "/" in current:
        found.extend(_renamed_chain(doc, node_pointer, current.split("/"), kind))
    if kind != "node":
        taken = set(members)
        name = current if isinstance(current, str) and current and "/" not in current else None
        name = name or next(n for n in (str(i) for i in range(len(taken) + 1)) if n not in taken)
        out = json_copy(doc)
        zarr_format = int(node.get("zarr_format", 3))
        resolve(out, node_pointer)["members"][name] = base_node(kind, zarr_format)
        found.append(put(out, refusal.pointer, name))
    return found


def _node_of(pointer: str) -> str:
    """The document pointer of the node that holds `pointer` (its leading `/members/<name>`
    steps)."""
    path = tokens(pointer)
    depth = 0
    while depth + 1 < len(path) and path[depth] == "members":
        depth += 2
    return "".join(f"/{escape(t)}" for t in path[:depth])


def _path_pair(refusal: Refusal, schema: Any) -> tuple[str, str] | None:
    """The refused rule, if it is one of two plain paths (source, target)."""
    try:
        rule = resolve(schema, refusal.schema_path)
    except (KeyError, IndexError, ValueError, TypeError):
        return None
    if not (isinstance(rule, list) and len(rule) == 2 and all(isinstance(p, str) for p in rule)):
        return None
    return rule[0], rule[1]


def _reached_members(refusal: Refusal, schema: Any, doc: Any) -> list[Any]:
    """Whole documents that may satisfy a refused `x-zomgen-reaches` whose target is the member
    a value names (`[source, "/members/{source}"]`: an OME-NGFF bf2raw group's series name its
    images): the value becomes the name of each member there, members off its own path first."""
    pair = _path_pair(refusal, schema)
    if pair is None:
        return []
    source, target = pair
    prefix, named, rest = target.partition("/members/{")
    if not named or rest != source + "}" or "{" in source + prefix:
        return []
    # the node the rule belongs to: the refused value's pointer less the source's steps
    path = tokens(refusal.pointer)
    steps = len(tokens(source))
    if steps > len(path):
        return []
    node_pointer = "".join(f"/{escape(t)}" for t in path[: len(path) - steps])
    try:
        container = resolve(doc, node_pointer + prefix)
    except (KeyError, IndexError, ValueError, TypeError):
        return []
    members = container.get("members") if isinstance(container, dict) else None
    if not isinstance(members, dict):
        return []
    own = set(path)
    names = sorted((n for n in members if n), key=lambda n: n in own)
    return [put(json_copy(doc), refusal.pointer, name) for name in names]


def _climbed_to(refusal: Refusal, schema: Any, doc: Any) -> list[Any]:
    """Whole documents that may satisfy a refused `x-zomgen-reaches` whose target is what the
    value names as a path (`[source, "<source>/->/..."]`: an OME-NGFF label image's
    `source.image` names an image above it): the value becomes `../`, `../../`, ... up to the
    top of the document."""
    pair = _path_pair(refusal, schema)
    if pair is None:
        return []
    source, target = pair
    if not target.startswith(source + "/->/"):
        return []
    depth = len(tokens(_node_of(refusal.pointer))) // 2
    return [put(json_copy(doc), refusal.pointer, "../" * up) for up in range(1, depth + 1)]


def _renamed_chain(doc: Any, node_pointer: str, names: list[str], kind: str) -> list[Any]:
    """The document whose first chain of members as deep as `names` (a plate's row group and
    its well) is renamed to `names` ("A/1"), where the path a value gives names no member: the
    members keep what was built for them, where a new member would start bare."""
    if not all(names):
        return []
    out = json_copy(doc)
    node = resolve(out, node_pointer)
    here = tuple(tokens(node_pointer))
    moves: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for depth, name in enumerate(names):
        members = node.get("members") if isinstance(node, dict) else None
        if not isinstance(members, dict) or not members:
            return []
        if name not in members:
            old = next(iter(members))
            members[name] = members.pop(old)
            moves.append(((*here, "members", old), (*here, "members", name)))
        here = (*here, "members", name)
        node = members[name]
        if depth + 1 < len(names) and _kind(node) != "group":
            return []
    if kind != "node" and _kind(node) != kind:
        return []
    return [Renamed(out, tuple(moves))]


# Relations between lengths: the problem's message names the length the list should have.
LENGTHS = ("x-zomgen-equal-length", "x-zomgen-ndim-length", "x-zomgen-member-ndim-length")


def _resized(refusal: Refusal, doc: Any) -> list[Any]:
    """The refused list resized to each length its problem's message names (a longer list
    repeats variants of its last item, so `uniqueItems` still holds; an empty one is filled
    with nulls, which a later round repairs by the items' type)."""
    try:
        current = resolve(doc, refusal.pointer)
    except (KeyError, IndexError, ValueError, TypeError):
        return []
    if not isinstance(current, list):
        return []
    found: list[Any] = []
    for length in sorted({int(n) for n in re.findall(r"\b\d+\b", refusal.message)}):
        if 0 < length <= 32 and length != len(current):
            more = range(1, length - len(current) + 1)
            last = current[-1] if current else None
            value = current[:length] + [variant(last, n) for n in more]
            found.append(put(json_copy(doc), refusal.pointer, value))
    return found


# "has 2 items, but /attributes/.../scale has 1 item": the other list, in the same node, and
# its length; with a `plus`, "has 2 items, so /attributes/.../affine/0 must have 3 items, but
# has 4"
_OTHER_LENGTH = re.compile(r"^has (?P<length>\d+) items?, but (?P<other>/\S*) has \d+ items?$")
_OTHER_PLUS = re.compile(
    r"^has \d+ items?, so (?P<other>/\S*) must have (?P<length>\d+) items?, but has \d+$"
)


def _other_resized(refusal: Refusal, doc: Any) -> list[Any]:
    """The other list of a refused length relation resized to the refused list's length: the
    refused one (a multiscale's axes) has other constraints to keep (two space axes), the other
    (a scale transformation's factors) only this one."""
    found = _OTHER_LENGTH.match(refusal.message) or _OTHER_PLUS.match(refusal.message)
    if found is None:
        return []
    other = _node_of(refusal.pointer) + found.group("other")
    try:
        current = resolve(doc, other)
    except (KeyError, IndexError, ValueError, TypeError):
        return []
    length = int(found.group("length"))
    if not isinstance(current, list) or not 0 < length <= 32 or length == len(current):
        return []
    last = current[-1] if current else None
    value = current[:length] + [variant(last, n) for n in range(1, length - len(current) + 1)]
    return [put(json_copy(doc), other, value)]


def _variants(refusal: Refusal, doc: Any) -> list[Any]:
    """A value that a refused `x-zomgen-unique-by` finds twice, varied (an axis named 'a'
    like the one before it)."""
    try:
        current = resolve(doc, refusal.pointer)
    except (KeyError, IndexError, ValueError, TypeError):
        return []
    return [v for v in (variant(current, n) for n in range(1, 4)) if v != current]


def _kept(refusal: Refusal, check: Check, documents: list[Any]) -> list[Any]:
    """The documents in which the refused place's own schema accepts its new value: a
    relation does not know what else the place must be, so a 0.6 coordinate system is not
    renamed to the empty name a transformation was built with (`minLength`), nor its axes cut
    to the one row of an affine (`oneOf`); the other end of the relation is repaired instead.
    Another relation refusing it is for a later round (a well path `A/1` names members the
    `x-zomgen-member-kind` repair then renames)."""
    return [
        d
        for d in documents
        if all(r.pointer != refusal.pointer or r.keyword.startswith("x-zomgen-") for r in check(d))
    ]


def _named_values(refusal: Refusal) -> list[Any]:
    """The values a refused `x-zomgen-equal` or `x-zomgen-in` names (relations.py writes them
    as Python literals): the value the refused place must equal ("'' does not equal /path of
    ... ('0')", or "... does not equal 'A/1', the join of ..." for a join), or each value it may be one of
    ("3 is not one of [0, 1], the values of ...")."""
    message = refusal.message
    if refusal.keyword == "x-zomgen-equal":
        _, found, text = message.partition(" does not equal ")
        text = text.split(", the join of ")[0]
        if found and text.endswith(")") and " (" in text:
            text = text[text.rindex(" (") + 2 : -1]
        value = _literal_text(text) if found else None
        return [] if value is None else [value[0]]
    _, found, text = message.partition(" is not one of ")
    listed = _literal_text(text.split(", the values of ")[0]) if found else None
    return list(listed[0]) if listed is not None and isinstance(listed[0], list) else []


def _literal_text(text: str) -> tuple[Any] | None:
    """The value a Python literal writes, in a 1-tuple; None where the text is cut short
    (`...`) or no literal."""
    if text.endswith("..."):
        return None
    try:
        return (ast.literal_eval(text),)
    except (ValueError, SyntaxError, RecursionError):
        return None


def _kind(member: Any) -> str:
    if not isinstance(member, dict):
        return ""
    if member.get("zarr_format") == 3:
        return str(member.get("node_type", ""))
    return "array" if "shape" in member else "group" if "members" in member else ""


def _bound(keyword: str, subschema: dict[str, Any], current: Any) -> list[Any]:
    """The value a failed bound asks for, where it is plain."""
    limit = subschema.get(keyword)
    if isinstance(limit, int | float) and not isinstance(limit, bool):
        if keyword in ("minimum", "maximum", "multipleOf"):
            return [limit]
        if keyword == "exclusiveMinimum":
            return [math.floor(limit) + 1]
        if keyword == "exclusiveMaximum":
            return [math.ceil(limit) - 1]
    if keyword == "minLength" and isinstance(limit, int) and isinstance(current, str):
        return [current + "a" * (limit - len(current))]
    if keyword == "minItems" and isinstance(limit, int) and isinstance(current, list) and current:
        # Distinct items first (a `uniqueItems` beside it would refuse repeated ones).
        more = range(1, limit - len(current) + 1)
        padded = current + [variant(current[-1], n) for n in more]
        repeated = current + [current[-1]] * (limit - len(current))
        return [padded, repeated] if padded != repeated else [repeated]
    return []


def _items(keyword: str, subschema: dict[str, Any], current: Any, schema: Any) -> list[Any]:
    """The list a failed `uniqueItems` or `contains` asks for: items made distinct, or the
    first items given the literals the `contains` subschema requires. Where more items count
    than `maxContains` allows, the first candidate also takes the items past those off what
    the `contains` counts (OME-NGFF 0.6's five axes, at most three of type `space`)."""
    if not isinstance(current, list) or not current:
        return []
    if keyword == "uniqueItems":
        return [[variant(item, n) for n, item in enumerate(current)]]
    if keyword in ("contains", "minContains"):
        contains = deref(schema, subschema.get("contains"))
        wanted = subschema.get("minContains", 1)
        if not isinstance(contains, dict) or not isinstance(wanted, int):
            return []
        if len(current) < wanted <= 32:
            current = current + [
                variant(current[-1], n) for n in range(1, wanted - len(current) + 1)
            ]
        count = min(max(wanted, 1), len(current))
        coerced = [_coerced(item, contains, schema) for item in current[:count]]
        guessed = [guess(schema, contains)] * count
        found = [coerced + current[count:], guessed + current[count:]]
        most = subschema.get("maxContains")
        held = sum(1 for item in current if _coerced(item, contains, schema) == item)
        if isinstance(most, int) and held > most:
            # too many items count: only the first ones keep what the `contains` asks for
            rest = current[count:]
            off = [_off(item, contains, schema, n) for n, item in enumerate(rest, 1)]
            found.insert(0, coerced + off)
        return found
    return []


def _off(item: Any, subschema: dict[str, Any], schema: Any, n: int) -> Any:
    """`item` with the `n`-th variant of each literal `subschema` asks for that it holds, so
    that it no longer counts for a `contains`."""
    if not isinstance(item, dict):
        return item
    varied = {k: variant(v, n) for k, v in _keyed_literals(subschema, schema) if item.get(k) == v}
    return {**item, **varied}


def _coerced(item: Any, subschema: dict[str, Any], schema: Any) -> Any:
    """`item` given the `const` or first `enum` value `subschema` asks for, key by key."""
    fixed = _literal(subschema)
    if fixed is not None:
        return fixed[0]
    if not isinstance(item, dict):
        return item
    return {**item, **dict(_keyed_literals(subschema, schema))}


def _keyed_literals(subschema: dict[str, Any], schema: Any) -> list[tuple[str, Any]]:
    """(key, the value its property schema fixes) for each property of `subschema` that has
    a `const` or `enum`."""
    properties = subschema.get("properties")
    found: list[tuple[str, Any]] = []
    for key, sub in properties.items() if isinstance(properties, dict) else ():
        literal = _literal(deref(schema, sub))
        if literal is not None:
            found.append((key, literal[0]))
    return found


def _literal(subschema: Any) -> tuple[Any] | None:
    if not isinstance(subschema, dict):
        return None
    if "const" in subschema:
        return (subschema["const"],)
    enum = subschema.get("enum")
    return (enum[0],) if isinstance(enum, list) and enum else None


def variant(value: Any, n: int) -> Any:
    """The `n`-th variant of a value (`n` = 0: the value itself), distinct for distinct `n`
    where the value has a string or number to change: a string gets a suffix, a number `n`
    added, an object its first empty string (else first string, else first number) varied; a
    boolean is negated for odd `n` (two booleans are all it has)."""
    if n == 0:
        return value
    if isinstance(value, bool):
        return not value if n % 2 else value
    if isinstance(value, str):
        return value + str(n)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value + n
    if isinstance(value, list) and value:
        return [variant(value[0], n), *value[1:]]
    if isinstance(value, dict):
        for wanted in (_empty_string, _string, _number):
            for key, item in value.items():
                if wanted(item):
                    return {**value, key: variant(item, n)}
    return value


def _empty_string(value: Any) -> bool:
    return isinstance(value, str) and not value


def _string(value: Any) -> bool:
    return isinstance(value, str)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
