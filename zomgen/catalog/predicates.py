"""A catalog entry's `declared_when` or `used_when` as a test of one node's document.

The schema engine decides (jsonschema-rs, python-jsonschema where it is not installed), but
it is imported and the schema compiled only when a node could satisfy the schema at all.
Most nodes of most stores satisfy none of the catalog's tests, and a one-node store would
otherwise spend half of `zomgen validate`'s time importing the engine and compiling 37
schemas (issue 54: the command starts in 100 ms).

"Could satisfy" is a few conditions read off the schema that every document satisfying it
meets: the keys `required` names, scalar `const` values, `minProperties`, the JSON type
`type` names, followed through `properties`, `additionalProperties` (alone) and `allOf`.
Every other keyword is left to the engine, so a document failing these conditions fails the
schema: the shortcut can say "no" only where the engine would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# The documents (nodes) tried by the conditions before the engine takes over: the engine's
# import costs about what the conditions cost on 250 nodes.
SHORTCUT_CALLS = 256
# A condition on one value: False where no document whose value this is satisfies the schema.
Condition = Callable[[Any], bool]

_TYPES: dict[str, type | tuple[type, ...]] = {
    "object": dict,
    "array": list,
    "string": str,
    "null": type(None),
    "boolean": bool,
}


class Predicate:
    """`predicate(document)`: whether `document` satisfies `schema`. The conditions are
    tried on the first `shortcut_calls` documents only: past them, a big store has paid for
    the engine's import, and the engine (in Rust) decides faster than the conditions (in
    Python) can say no (a 4,000-node plate: 0.25 s against 0.5 s)."""

    def __init__(self, schema: dict[str, Any], shortcut_calls: int = SHORTCUT_CALLS) -> None:
        self.schema = schema
        self._could_hold = _conditions(schema)
        self._engine: Callable[[Any], bool] | None = None
        self._shortcuts_left = shortcut_calls

    def __call__(self, document: Any) -> bool:
        if self._engine is None:
            self._shortcuts_left -= 1
            if self._shortcuts_left >= 0 and not self._could_hold(document):
                return False
        return self.compiled()(document)

    def compiled(self) -> Callable[[Any], bool]:
        """The engine's test, compiled on first use."""
        if self._engine is None:
            self._engine = _compiled(self.schema)
        return self._engine


def _conditions(schema: Any) -> Condition:
    """What every value satisfying `schema` meets, as one test (True where unsure)."""
    if not isinstance(schema, dict):
        return _anything  # `true`, `false` and the engine's errors are the engine's to say
    tests: list[Condition] = []
    if "const" in schema and _is_scalar(schema["const"]):
        tests.append(_equals(schema["const"]))
    kind = schema.get("type")
    if isinstance(kind, str) and kind in _TYPES:
        tests.append(_is_type(_TYPES[kind]))
    required = schema.get("required")
    if isinstance(required, list) and all(isinstance(key, str) for key in required):
        tests.append(_has_keys(tuple(required)))
    fewest = schema.get("minProperties")
    if isinstance(fewest, int) and not isinstance(fewest, bool):
        tests.append(_has_at_least(fewest))
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for key, subschema in properties.items():
            below = _conditions(subschema)
            if below is not _anything:
                tests.append(_where_present(key, below))
    others = schema.get("additionalProperties")
    if "properties" not in schema and "patternProperties" not in schema:  # then every member
        each = _conditions(others)
        if each is not _anything:
            tests.append(_each_member(each))
    all_of = schema.get("allOf")
    if isinstance(all_of, list):
        tests += [test for test in map(_conditions, all_of) if test is not _anything]
    if not tests:
        return _anything
    if len(tests) == 1:
        return tests[0]
    return lambda value: all(test(value) for test in tests)


def _anything(value: Any) -> bool:
    return True


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float))


def _equals(expected: Any) -> Condition:
    # JSON equality: 1 and 1.0 are one number, and a boolean is no number.
    if isinstance(expected, bool) or expected is None:
        return lambda value: value is expected
    if isinstance(expected, str):
        return lambda value: value == expected
    return lambda value: (
        isinstance(value, (int, float)) and not isinstance(value, bool) and value == expected
    )


def _is_type(python: type | tuple[type, ...]) -> Condition:
    return lambda value: isinstance(value, python)


def _has_keys(keys: tuple[str, ...]) -> Condition:
    # `required` says nothing of a value that is not an object
    return lambda value: not isinstance(value, dict) or all(key in value for key in keys)


def _has_at_least(count: int) -> Condition:
    return lambda value: not isinstance(value, dict) or len(value) >= count


def _where_present(key: str, condition: Condition) -> Condition:
    return lambda value: not isinstance(value, dict) or key not in value or condition(value[key])


def _each_member(condition: Condition) -> Condition:
    return lambda value: not isinstance(value, dict) or all(map(condition, value.values()))


def _compiled(schema: dict[str, Any]) -> Callable[[Any], bool]:
    """The engine's test: jsonschema-rs where installed (it runs for every node of a store
    and every entry), python-jsonschema otherwise."""
    try:
        import jsonschema_rs
    except ImportError:
        import jsonschema  # slower to import than the whole check of a small store

        return jsonschema.Draft202012Validator(schema).is_valid
    # Never fetched: entries.py admits only references inside the schema, and a retriever that
    # refuses keeps jsonschema-rs from reaching a file or URL should one get past.
    validator = jsonschema_rs.validator_for(schema, retriever=_refuse)
    return validator.is_valid


def _refuse(uri: str) -> Any:
    raise ValueError(f"{uri}: a catalog's schemas are read offline, never fetched")
