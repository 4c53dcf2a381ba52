r"""Regular expressions the way every engine of a package reads them.

JSON Schema's dialect is ECMA-262; python-jsonschema reads patterns with Python's `re`, which
cannot read some valid ones (`\p{Letter}`). Such a pattern is matched by the first engine that
reads it: `regress` (ECMA-262, with the `u` flag as Ajv compiles it, then without), then
jsonschema-rs. The reference engine's `pattern`, `patternProperties` and `additionalProperties`
use it (`pattern_keywords`), and any other keyword that trips over it (`unevaluatedProperties`)
leaves the details to jsonschema-rs. zomgen's compiler asks the same questions of this same
code, so the two never disagree about what a pattern matches.
"""

from __future__ import annotations

import functools
import importlib
import re
import warnings
from collections.abc import Callable
from typing import Any

from .values import is_object

_Search = Callable[[str], bool]


@functools.lru_cache(maxsize=1024)
def python_reads(pattern: str) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a FutureWarning (`[[`) is still a pattern `re` reads
        try:
            re.compile(pattern)
        except (re.error, RecursionError, OverflowError):
            return False
    return True


@functools.lru_cache(maxsize=1024)
def search(pattern: str) -> _Search | None:
    """`text -> does pattern match somewhere in it`, by the first engine that reads the pattern
    (Python's `re`, regress with and without the `u` flag, jsonschema-rs); None if none does."""
    if python_reads(pattern):
        compiled = re.compile(pattern)
        return lambda text: compiled.search(text) is not None
    try:
        regress: Any = importlib.import_module("regress")
    except ImportError:
        regress = None
    if regress is not None:
        for flags in ("u", None):
            try:
                ecma: Any = regress.Regex(pattern, flags)
            except regress.RegressError:
                continue
            return lambda text: ecma.find(encodable(text)) is not None
    try:
        rs: Any = importlib.import_module("jsonschema_rs")
        single: Any = rs.validator_for({"pattern": pattern})
    except (ImportError, ValueError):
        return None
    return lambda text: bool(single.is_valid(encodable(text)))


def encodable(text: str) -> str:
    """`text` with lone surrogates (which JSON may carry, but Rust strings cannot) replaced."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


def _unreadable(pattern: str) -> str:
    return f"the schema's pattern {pattern!r} cannot be read by any regular-expression engine"


def pattern_keywords(originals: dict[str, Any], ValidationError: Any) -> dict[str, Any]:
    """`pattern`, `patternProperties` and `additionalProperties` for the reference engine:
    python-jsonschema's own while `re` reads every pattern involved, else the same checks with
    `search`, reported in the same words."""
    return {
        "pattern": _pattern(originals, ValidationError),
        "patternProperties": _pattern_properties(originals, ValidationError),
        "additionalProperties": _additional_properties(originals, ValidationError),
    }


# Each keyword below looks its original up in `originals` when it runs, as jsonschema would.


def _pattern(originals: dict[str, Any], ValidationError: Any) -> Any:
    def pattern(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        if not isinstance(value, str) or python_reads(value):
            yield from originals["pattern"](validator, value, instance, schema)
            return
        if not validator.is_type(instance, "string"):
            return
        matcher = search(value)
        if matcher is None:
            yield ValidationError(_unreadable(value))
        elif not matcher(instance):
            yield ValidationError(f"{instance!r} does not match {value!r}")

    return pattern


def _pattern_properties(originals: dict[str, Any], ValidationError: Any) -> Any:
    def pattern_properties(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        if not is_object(value) or all(python_reads(p) for p in value):
            yield from originals["patternProperties"](validator, value, instance, schema)
            return
        if not validator.is_type(instance, "object"):
            return
        for key, subschema in value.items():
            matcher = search(key)
            if matcher is None:
                yield ValidationError(_unreadable(key), schema_path=(key,))
                continue
            for name, item in instance.items():
                if matcher(name):
                    yield from validator.descend(item, subschema, path=name, schema_path=key)

    return pattern_properties


def _additional_properties(originals: dict[str, Any], ValidationError: Any) -> Any:
    def additional_properties(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        patterns = schema.get("patternProperties")
        if not is_object(patterns) or all(python_reads(p) for p in patterns):
            yield from originals["additionalProperties"](validator, value, instance, schema)
            return
        if not validator.is_type(instance, "object"):
            return
        named = schema.get("properties")
        searches = [search(p) for p in patterns]
        extras = [
            name
            for name in instance
            if not (is_object(named) and name in named)
            and not any(matcher is not None and matcher(name) for matcher in searches)
        ]
        if validator.is_type(value, "object"):
            for name in extras:
                yield from validator.descend(instance[name], value, path=name)
        elif value is False and extras:
            verb = "does" if len(extras) == 1 else "do"
            names = ", ".join(repr(name) for name in sorted(extras))
            regexes = ", ".join(repr(p) for p in sorted(patterns))
            yield ValidationError(f"{names} {verb} not match any of the regexes: {regexes}")

    return additional_properties
