"""The two engines a convention schema is checked with, compiled once per schema.

jsonschema-rs (when installed) decides valid / invalid, about 250 times faster than
python-jsonschema (0.4 vs 100 us per node); only when it says "invalid" does python-jsonschema,
the reference, walk the document again to collect every error with its location
(validation.py); tests hold the two to the same verdict on every document of the corpus.
python-jsonschema is imported only then. A schema jsonschema-rs cannot compile (a pattern it
cannot read, such as `\\Z`) is checked by python-jsonschema alone.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from .checks import uses_checks
from .keywords import FAST_KEYWORDS
from .keywords import reference_validator as reference_keywords_validator
from .patterns import any_unmatchable
from .pruned import skip_satisfied

# Compiled validators are kept for this many schemas. The key is id(schema) and the entry keeps
# the schema alive, so the id cannot be reused by another dict while it is cached.
_CACHE_SIZE = 16


@dataclass
class Engines:
    schema: dict[str, Any]
    fast: Any = None  # verdicts only
    # False: the verdict engine's "invalid" may be wrong for arrays of many dimensions
    # (fastschema.py), and `fast_detail` confirms it
    fast_invalid_is_final: bool = True
    fast_detail: Any = None  # jsonschema-rs on the schema as written, to describe problems
    reference: Any = None
    # id(subschema) -> its JSON pointer in `schema`, for Problem.schema_path
    locations: dict[int, str] | None = None
    # how many invalid documents the reference engine has described (pruned.worth_pruning)
    described: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


_cache: OrderedDict[int, Engines] = OrderedDict()


_cache_lock = threading.Lock()


def engines_for(schema: dict[str, Any]) -> Engines:
    with _cache_lock:
        entry = _cache.get(id(schema))
        if entry is not None and entry.schema is schema:
            _cache.move_to_end(id(schema))
            return entry
        fast, invalid_is_final = _verdict_validator(schema)
        entry = Engines(schema, fast=fast, fast_invalid_is_final=invalid_is_final)
        _cache[id(schema)] = entry
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
        return entry


def _verdict_validator(schema: dict[str, Any]) -> tuple[Any, bool]:
    """jsonschema-rs compiled for verdicts (or None), from the schema with its ndim keywords in
    plain JSON Schema (fastschema.py), and whether its "invalid" is final."""
    from .fastschema import verdict_schema

    verdicts = verdict_schema(schema)
    validator = _fast_validator(verdicts.schema)
    return validator, verdicts.invalid_is_final or validator is None


def _fast_validator(schema: dict[str, Any]) -> Any:
    """jsonschema-rs compiled for `schema`, or None (not installed, or a schema it cannot
    compile). The check keywords are registered only for a schema that uses them: with any
    custom keyword registered, jsonschema-rs took 1.45x as long on 10,000 v3 arrays."""
    try:
        import jsonschema_rs
    except ImportError:  # optional: python-jsonschema alone gives the same answers, slower
        return None
    if any_unmatchable(schema):
        return None
    keywords: dict[str, Any] = dict(FAST_KEYWORDS) if uses_checks(schema) else {}
    try:
        return jsonschema_rs.validator_for(
            schema, validate_formats=False, offline=True, keywords=keywords or None
        )
    except ValueError:  # a schema jsonschema-rs cannot compile: the reference engine decides
        return None


def fast_verdict(engines: Engines, document: Any) -> bool | None:
    """jsonschema-rs's verdict, or None when it has none to give (not installed, or a value it
    cannot convert, such as a non-string key): the reference engine then decides."""
    if engines.fast is None:
        return None
    try:
        if engines.fast.is_valid(document):
            return True
        if engines.fast_invalid_is_final:
            return False
        # "invalid" may stand for an array of many dimensions: the schema as written decides
        detail = detail_validator(engines)
        return None if detail is None else bool(detail.is_valid(document))
    except (ValueError, TypeError, OverflowError):
        return None


def detail_validator(engines: Engines) -> Any:
    """jsonschema-rs on the schema as written (compiled on first use)."""
    with engines.lock:
        if engines.fast_detail is None:
            engines.fast_detail = _fast_validator(engines.schema)
        return engines.fast_detail


def reference_validator(schema: dict[str, Any]) -> Any:
    """python-jsonschema with the check keywords, for `schema` (made once per schema)."""
    engines = engines_for(schema)
    with engines.lock:
        if engines.reference is None:
            # every keyword skips a subschema jsonschema-rs says the value satisfies (pruned.py)
            engines.reference = reference_keywords_validator(schema, skip_satisfied)
        return engines.reference
