r"""Regular expressions the way every engine of a package reads them: in linear time, by RE2.

JSON Schema's dialect is ECMA-262. A backtracking engine (Python's `re`, which python-jsonschema
uses) can be held for hours by a short value against a pattern such as `^(a+)+$`, so no pattern
is given to one: `search` spells the pattern for RE2 (linear_patterns.py) and matches with
google-re2, as the TypeScript run time does with re2js. A pattern RE2 cannot match (a back
reference, a lookbehind) is refused by `zomgen build` and is a problem here, never a hang.

The reference engine's `pattern`, `patternProperties`, `additionalProperties` and
`unevaluatedProperties` use `search` (`pattern_keywords`); zomgen's compiler asks the same
questions of this same code, so the two never disagree about what a pattern matches.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import threading
from collections.abc import Callable, Generator
from typing import Any

from .linear_patterns import Unreadable, linear_parts
from .values import is_array, is_object

_Search = Callable[[str], bool]
# in the words of the TypeScript twin (re2js's own messages differ from RE2's; the compiler
# quotes RE2's: schema/patterns.py)
RE2_REFUSES = "RE2 cannot read it"
_NO_RE2 = (
    "google-re2 is not installed (`pip install google-re2`): zomgen matches patterns only with "
    "RE2, so that no value can hold a check"
)


@functools.lru_cache(maxsize=1024)
def search(pattern: str) -> _Search | None:
    """`text -> does pattern match somewhere in it`, in linear time; None when RE2 cannot
    match the pattern as ECMA-262 means it (`unreadable` says why)."""
    try:
        return _linear_search(pattern)
    except Unreadable:
        return None


@functools.lru_cache(maxsize=1024)
def unreadable(pattern: str) -> str | None:
    """Why RE2 cannot match `pattern` (None when it can)."""
    try:
        _linear_search(pattern)
    except Unreadable as exc:
        return str(exc)
    return None


def _linear_search(pattern: str) -> _Search:
    try:
        re2: Any = importlib.import_module("re2")
    except ImportError:
        raise Unreadable(_NO_RE2) from None
    options = re2.Options()
    options.log_errors = False  # a pattern RE2 refuses is reported here, not on stderr
    tests: list[tuple[Any, bool]] = []
    for part in linear_parts(pattern):
        try:
            tests.append((re2.compile(part.source, options), part.must_match))
        except re2.error:
            raise Unreadable(RE2_REFUSES) from None
    if len(tests) == 1 and tests[0][1]:
        single = tests[0][0]
        return lambda text: single.search(encodable(text)) is not None
    return lambda text: all(
        (compiled.search(encodable(text)) is not None) == must for compiled, must in tests
    )


def any_unmatchable(schema: Any) -> bool:
    """Whether `schema` holds a `pattern` or `patternProperties` key RE2 cannot match: then no
    other engine may give a verdict on it (jsonschema-rs reads back references and would call
    such a value valid; the reference engine reports the pattern as a problem)."""
    stack: list[Any] = [schema]
    while stack:
        value = stack.pop()
        if is_object(value):
            found = value.get("pattern")
            if isinstance(found, str) and search(found) is None:
                return True
            keyed = value.get("patternProperties")
            if is_object(keyed) and any(search(key) is None for key in keyed):
                return True
            stack.extend(value.values())
        elif is_array(value):
            stack.extend(value)
    return False


def encodable(text: str) -> str:
    """`text` with lone surrogates (which JSON may carry, but Rust strings cannot) replaced."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


def _unreadable(pattern: str) -> str:
    return f"the schema's pattern {pattern!r} cannot be matched: {unreadable(pattern)}"


def pattern_keywords(originals: dict[str, Any], ValidationError: Any) -> dict[str, Any]:
    """`pattern`, `patternProperties`, `additionalProperties` and `unevaluatedProperties` for
    the reference engine, matching with `search`, in python-jsonschema's words."""
    return {
        "pattern": _pattern(ValidationError),
        "patternProperties": _pattern_properties(ValidationError),
        "additionalProperties": _additional_properties(originals, ValidationError),
        "unevaluatedProperties": _unevaluated_properties(originals),
    }


def _pattern(ValidationError: Any) -> Any:
    def pattern(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        if not isinstance(value, str) or not validator.is_type(instance, "string"):
            return
        matcher = search(value)
        if matcher is None:
            yield ValidationError(_unreadable(value))
        elif not matcher(instance):
            yield ValidationError(f"{instance!r} does not match {value!r}")

    return pattern


def _pattern_properties(ValidationError: Any) -> Any:
    def pattern_properties(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        if not is_object(value) or not validator.is_type(instance, "object"):
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
        if not is_object(patterns) or not patterns:
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


def _unevaluated_properties(originals: dict[str, Any]) -> Any:
    """python-jsonschema's own, with the `re` its helper module calls directly (to find the
    keys a `patternProperties` evaluated) answering through `search` while it runs."""

    def unevaluated_properties(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        with _linear_re_in_jsonschema():
            yield from originals["unevaluatedProperties"](validator, value, instance, schema)

    return unevaluated_properties


class _LinearRe:
    """What python-jsonschema's `_utils` module asks of `re` (`search`), answered by RE2; a
    pattern RE2 cannot match matches nothing (the `patternProperties` keyword reports it)."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def search(self, pattern: Any, text: Any, *args: Any) -> bool:
        if not isinstance(pattern, str) or not isinstance(text, str) or args:
            return bool(self.real.search(pattern, text, *args))
        matcher = search(pattern)
        return matcher is not None and matcher(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


_swap_lock = threading.Lock()
_swapped = [0]


@contextlib.contextmanager
def _linear_re_in_jsonschema() -> Generator[None]:
    """python-jsonschema's `_utils.re` swapped for `_LinearRe` while any check needs it (counted,
    so that overlapping checks in threads put the real module back only when the last ends)."""
    utils: Any = importlib.import_module("jsonschema._utils")
    with _swap_lock:
        if _swapped[0] == 0 and not isinstance(utils.re, _LinearRe):
            utils.re = _LinearRe(utils.re)
        _swapped[0] += 1
    try:
        yield
    finally:
        with _swap_lock:
            _swapped[0] -= 1
            if _swapped[0] == 0 and isinstance(utils.re, _LinearRe):
                utils.re = utils.re.real
