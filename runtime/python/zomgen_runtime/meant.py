"""Which options of a failed `anyOf` / `oneOf` a value cannot have meant, by the constants that
tell the options apart: an AnnData matrix whose `attributes.encoding-type` is "csr_matrix" was
not meant as the "csc_matrix" option, so its problems come from the CSR option (the missing
`indptr`), not from whichever option happens to fail least.

An option's *tags* are the `const` and `enum` values it requires at a path below the value
(`/attributes/encoding-type`, `/attributes/ome/version`, `/zarr_format`), its *closed*
objects those where it allows no key (`maxProperties: 0`) or only named ones
(`additionalProperties: false`), and its *parts* the subschemas it gives each such path, read
through `$ref`, `allOf` and up to three levels of `properties`. An option is ruled out when the
value carries another option's tag (a value that option allows at its path) and this option
forbids that value there: its own tag at that path allows something else, a closed object on
the way to it does not allow the key that leads there, or one of its parts at that path refuses
the value. So a tag that no option allows rules out nothing (it may be a typo), and neither does
a missing key; an OME-NGFF labels folder (attributes must be empty) is ruled out by a label
image's `attributes.ome.version`, and a dimensioned variable (`_ARRAY_DIMENSIONS` of one item or
more) by a scalar's `_ARRAY_DIMENSIONS: []`, whatever else is wrong with the value.

The same rule, step for step, is in runtime_ts/meant.ts: the twin tests hold the two run times
to equal problems.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from .keywords import reference_validator
from .pointers import resolve_local_ref
from .subschemas import per_schema
from .values import is_array, is_object

# How many levels of `properties` an option's tags are read through (attributes/ome/version).
_DEPTH = 3


# The readings of the options of the schemas seen last (a schema does not change while it is
# used): describing a document reads the same options again for every value that fails them,
# and reading each anew took a fifth of the time `zomgen cases` took on GeoZarr.
# id(root) -> (root, {id(option) -> (option, kept alive so that its id is not reused; reading)})
_readings: OrderedDict[int, tuple[dict[str, Any], Any]] = OrderedDict()
# python-jsonschema for the schemas seen last, to ask whether a part of an option holds
_validators: OrderedDict[int, tuple[dict[str, Any], Any]] = OrderedDict()


def ruled_out(options: Sequence[Any], value: Any, root: Any) -> set[int]:
    """The indexes of `options` that `value` cannot have meant (see the module's docstring)."""
    read = [_reading(option, root) for option in options]
    out: set[int] = set()
    for i, own in enumerate(read):
        for j, other in enumerate(read):
            if j != i and any(own.rejects(path, v, root) for path, v in other.tagged_in(value)):
                out.add(i)
                break
    return out


def _holds(part: Any, value: Any, root: Any) -> bool:
    """Whether `value` satisfies `part`, a subschema of `root` (its `$ref`s read in `root`)."""
    if isinstance(part, bool):
        return part
    if not is_object(root):
        return True
    validator = per_schema(_validators, root, reference_validator)
    return bool(validator.evolve(schema=part).is_valid(value))


def _reading(option: Any, root: Any) -> _Reading:
    readings: dict[int, tuple[Any, _Reading]] = per_schema(_readings, root, lambda _root: {})
    known = readings.get(id(option))
    if known is None or known[0] is not option:
        # two threads may read the same option at once: both readings are the same
        known = (option, _Reading(option, root))
        readings[id(option)] = known
    return known[1]


class _Reading:
    """One option's tags (path -> the values allowed there), closed objects (path -> the
    keys allowed there, None for none) and parts (path -> a subschema it gives that path)."""

    def __init__(self, option: Any, root: Any) -> None:
        self.tags: list[tuple[tuple[str, ...], list[Any]]] = []
        self.closed: list[tuple[tuple[str, ...], frozenset[str] | None]] = []
        self.parts: list[tuple[tuple[str, ...], Any]] = []
        self._read(option, root, (), set())

    def _read(self, schema: Any, root: Any, path: tuple[str, ...], seen: set[int]) -> None:
        if not is_object(schema) or id(schema) in seen:
            return
        seen = seen | {id(schema)}
        if "const" in schema:
            self.tags.append((path, [schema["const"]]))
        if is_array(schema.get("enum")):
            self.tags.append((path, list(schema["enum"])))
        properties = schema.get("properties")
        named: frozenset[str] = frozenset(properties) if is_object(properties) else frozenset()
        if schema.get("maxProperties") == 0:
            self.closed.append((path, None))
        elif schema.get("additionalProperties") is False and "patternProperties" not in schema:
            self.closed.append((path, named))
        ref = schema.get("$ref")
        if isinstance(ref, str):
            self._read(resolve_local_ref(root, ref), root, path, seen)
        if is_array(schema.get("allOf")):
            for part in schema["allOf"]:
                self._read(part, root, path, seen)
        if len(path) < _DEPTH and is_object(properties):
            for key, sub in properties.items():
                if sub is False or is_object(sub):
                    self.parts.append(((*path, key), sub))
                self._read(sub, root, (*path, key), seen)

    def tagged_in(self, value: Any) -> list[tuple[tuple[str, ...], Any]]:
        """(path, the value there) for each tag of this option the value carries."""
        found: list[tuple[tuple[str, ...], Any]] = []
        for path, allowed in self.tags:
            present, held = _at(value, path)
            if present and _allows(allowed, held):
                found.append((path, held))
        return found

    def rejects(self, path: tuple[str, ...], held: Any, root: Any) -> bool:
        """Whether this option forbids `held` at `path`: a tag there that does not allow it, a
        closed object on the way that does not allow the key leading there, or a part there
        that `held` does not satisfy."""
        if any(p == path and not _allows(allowed, held) for p, allowed in self.tags):
            return True
        if any(
            len(p) < len(path)
            and p == path[: len(p)]
            and (keys is None or path[len(p)] not in keys)
            for p, keys in self.closed
        ):
            return True
        return any(p == path and not _holds(part, held, root) for p, part in self.parts)


def _at(value: Any, path: tuple[str, ...]) -> tuple[bool, Any]:
    for key in path:
        if not is_object(value) or key not in value:
            return False, None
        value = value[key]
    return True, value


def _allows(allowed: list[Any], value: Any) -> bool:
    return any(_same(a, value) for a in allowed)


def _same(a: Any, b: Any) -> bool:
    """JSON equality: 1 and 1.0 are equal, True and 1 are not."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if is_object(a) and is_object(b):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if is_array(a) and is_array(b):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b
