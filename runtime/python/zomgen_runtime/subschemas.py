"""Whether a value satisfies one subschema of a convention schema: how the converters pick the
option of a union that no constant, JSON type or required key tells apart from a later one
(an OME-NGFF label image and an intermediate labels group are both groups; only the schema's
`maxProperties: 0` on the group's attributes says which is which).

jsonschema-rs compiles every subschema of the bundled schema once (`validator_map_for`), each
resolving its `$ref`s inside the whole schema; python-jsonschema, the reference, answers where
jsonschema-rs is missing or cannot compile the schema (a pattern it cannot read).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from .checks import uses_checks
from .keywords import FAST_KEYWORDS, reference_validator
from .pointers import resolve_local_ref

_Verdict = Callable[[Any], bool]

# Schemas whose compiled subschemas are kept (the most recently used): a package has one, a
# process that checks documents against many fresh schema objects must not keep them all.
_CACHE_SIZE = 16
# id(schema) -> (the schema, kept alive so the id is not reused; pointer -> its verdict)
_compiled: OrderedDict[int, tuple[dict[str, Any], dict[str, _Verdict]]] = OrderedDict()
_lock = threading.Lock()


def holds(value: Any, schema: dict[str, Any], *pointers: str) -> bool:
    """Whether `value` satisfies every subschema of `schema` at `pointers` (JSON pointers)."""
    return all(_verdict(schema, pointer)(value) for pointer in pointers)


def _verdict(schema: dict[str, Any], pointer: str) -> _Verdict:
    with _lock:
        entry = _compiled.get(id(schema))
        if entry is None or entry[0] is not schema:
            fresh: dict[str, _Verdict] = {}
            entry = (schema, fresh)
            _compiled[id(schema)] = entry
            _trim(_compiled)
        _compiled.move_to_end(id(schema))
        verdicts = entry[1]
        if pointer not in verdicts:
            verdicts[pointer] = _fast(schema, pointer) or _reference(schema, pointer)
        return verdicts[pointer]


def fast_verdict(schema: dict[str, Any], pointer: str, value: Any) -> bool | None:
    """jsonschema-rs's verdict on `value` under the subschema at `pointer`, or None when it has
    none (not installed, the schema or that subschema not compiled, a value it cannot convert).
    Never falls back to python-jsonschema: pruned.py calls this from inside that engine."""
    compiled = _map_of(schema)
    validator = None if compiled is None else compiled.get("#" + pointer)
    if validator is None:
        return None
    try:
        return bool(validator.is_valid(value))
    except (ValueError, TypeError, OverflowError):
        return None


# Per schema (kept alive, so that its id is not reused): what jsonschema-rs compiled, as a map
# from "#pointer" to a validator (None: it could not), and python-jsonschema's validator.
_maps: OrderedDict[int, tuple[dict[str, Any], Any]] = OrderedDict()
_references: OrderedDict[int, tuple[dict[str, Any], Any]] = OrderedDict()
_per_schema_lock = threading.Lock()


def per_schema(
    cache: OrderedDict[int, tuple[dict[str, Any], Any]],
    schema: dict[str, Any],
    make: Callable[[dict[str, Any]], Any],
) -> Any:
    """What `make(schema)` gave for this schema object, kept in `cache` (the most recently
    used schemas, keyed by id and kept alive so that the id is not reused)."""
    with _per_schema_lock:
        entry = cache.get(id(schema))
        if entry is None or entry[0] is not schema:
            entry = (schema, make(schema))
            cache[id(schema)] = entry
            _trim(cache)
        cache.move_to_end(id(schema))
        return entry[1]


def _map_of(schema: dict[str, Any]) -> Any:
    return per_schema(_maps, schema, _validator_map)


def _trim(cache: OrderedDict[int, Any]) -> None:
    while len(cache) > _CACHE_SIZE:
        cache.popitem(last=False)


def _fast(schema: dict[str, Any], pointer: str) -> _Verdict | None:
    compiled = _map_of(schema)
    validator = None if compiled is None else compiled.get("#" + pointer)
    if validator is None:
        return None

    def verdict(value: Any) -> bool:
        try:
            return bool(validator.is_valid(value))
        except (ValueError, TypeError, OverflowError):  # a value it cannot convert
            return _reference(schema, pointer)(value)

    return verdict


def _validator_map(schema: dict[str, Any]) -> Any:
    try:
        import jsonschema_rs
    except ImportError:
        return None
    keywords: dict[str, Any] | None = dict(FAST_KEYWORDS) if uses_checks(schema) else None
    try:
        return jsonschema_rs.validator_map_for(
            schema, validate_formats=False, offline=True, keywords=keywords
        )
    except ValueError:
        return None


def _reference(schema: dict[str, Any], pointer: str) -> _Verdict:
    subschema = resolve_local_ref(schema, "#" + quote(pointer, safe="/~!$&'()*+,;=:@"))
    if subschema is None:
        raise LookupError(f"the schema has no subschema at {pointer!r}")
    validator = per_schema(_references, schema, reference_validator).evolve(schema=subschema)
    return lambda value: bool(validator.is_valid(value))
