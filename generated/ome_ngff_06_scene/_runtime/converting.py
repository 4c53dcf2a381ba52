"""What every package's `_convert.py` calls: building a frozen model fast, a model's JSON value
as plain lists and dicts, a value deep inside a document, and JSON Schema's own tests of a
value's type (which Python's `isinstance` answers differently: `True` is an `int`, `1.0` is a
JSON integer).

A JSON value is `Any` here and stays so: `is_array` and `is_object` are functions rather than
`isinstance` checks in the converters, which would narrow it to `list[Unknown]` for pyright
strict.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

ABSENT: Any = object()  # what `value_at` gives where a key is missing

_Model = TypeVar("_Model")  # the class of a model `new_model` builds
# Bound once: `new_model` runs for every object of a document.
_new_object = object.__new__
_set_attribute = object.__setattr__


def new_model(cls: type[_Model], fields: dict[str, Any]) -> _Model:
    """`cls(**fields)` for a frozen dataclass given every one of its fields, in order, without
    running its `__init__`: that sets each field through `object.__setattr__`, which made up
    half of the conversion of a checked v3 document. `fields`, a new dict, becomes the
    instance's `__dict__`, exactly what `__init__` would have built."""
    model = _new_object(cls)
    _set_attribute(model, "__dict__", fields)
    return model


def plain_json(value: Any) -> Any:
    """A JSON value of a model as `json.loads` gives it: a model built by hand may hold tuples
    and read-only mappings where JSON has arrays and objects."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, Mapping):
        items = cast("Mapping[str, Any]", value).items()
        return {key: plain_json(item) for key, item in items}
    return [plain_json(item) for item in cast("list[Any]", value)]


def value_at(value: Any, *keys: str) -> Any:
    """The value at `keys` inside `value`, or `ABSENT` where one is missing."""
    found: Any = value
    for key in keys:
        if not isinstance(found, dict) or key not in found:
            return ABSENT
        found = cast("dict[str, Any]", found)[key]
    return found


def is_array(value: Any) -> bool:
    return isinstance(value, list)


def is_object(value: Any) -> bool:
    return isinstance(value, dict)


def is_tuple_of(value: Any, shortest: int, longest: int | None) -> bool:
    """A tuple of `shortest` to `longest` items (None: no most). A union's tuple options are
    told apart by their lengths (a 2x2 or a 3x3 matrix)."""
    if not isinstance(value, tuple):
        return False
    length = len(cast("tuple[object, ...]", value))
    return length >= shortest and (longest is None or length <= longest)


def is_integer(value: Any) -> bool:
    """JSON Schema's integer: `1` or `1.0`, never a boolean."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def is_number(value: Any) -> bool:
    """JSON Schema's number: never a boolean."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)
