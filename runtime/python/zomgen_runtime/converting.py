"""What every package's `_convert.py` calls: building a frozen model fast, a model's JSON value
as plain lists and dicts, the document of a node model where another class was expected, a
value deep inside a document, and JSON Schema's own tests of a value's type (which Python's `isinstance` answers differently: `True` is an `int`, `1.0` is a
JSON integer).

A JSON value is `Any` here and stays so: `is_array` and `is_object` are functions rather than
`isinstance` checks in the converters, which would narrow it to `list[Unknown]` for pyright
strict.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping, Sequence
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
    and read-only mappings where JSON has arrays and objects. Without recursion: a value may
    nest as deep as a document is read (512 levels, jsontext.py), past Python's stack."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    top = _empty_like(value)
    stack: list[tuple[Any, Any]] = [(value, top)]
    while stack:
        source, target = stack.pop()
        if isinstance(source, Mapping):
            for key, item in cast("Mapping[str, Any]", source).items():
                target[key] = _placed(item, stack)
        else:
            target.extend(_placed(item, stack) for item in cast("list[Any]", source))
    return top


def _empty_like(value: Any) -> Any:
    if isinstance(value, Mapping):
        return dict[str, Any]()
    return list[Any]()


def _placed(item: Any, stack: list[tuple[Any, Any]]) -> Any:
    """`item` as it goes into its container: itself, or an empty one filled later."""
    if item is None or isinstance(item, (str, int, float, bool)):
        return item
    copy = _empty_like(item)
    stack.append((item, copy))
    return copy


def model_is(model: object, cls: type[Any]) -> bool:
    """`isinstance(model, cls)`, asked where the checkers take the annotation as given: a model
    built by hand may hold another node than its type says (a group where an array must be),
    which the checkers refuse and `dump` must still turn into a document the check reports."""
    return isinstance(model, cls)


def dump_other_node(
    model: object, dumps: Mapping[type[Any], Callable[[Any], dict[str, Any]]]
) -> dict[str, Any]:
    """The document of a node model that stands where another class was expected: the dump of
    its own class (or nearest base) when this package has one; otherwise (a model of another
    package, or not a model) its dataclass fields as keys, absent ones left out, as the best
    guess of the document it means. The document is checked next, and its problems reported."""
    for cls in type(model).__mro__:
        dump = dumps.get(cls)
        if dump is not None:
            return dump(model)
    # Typed as the document it stands for: not a model at all, it is given back as it is.
    return cast("dict[str, Any]", _fields_as_json(model))


def _fields_as_json(value: object) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        document: dict[str, Any] = {}
        for field in dataclasses.fields(value):
            item: object = getattr(value, field.name)
            if field.name in ("extensions", "extras"):
                document.update(_fields_as_json(item) if item else {})  # the other keys
            elif item is not None and not isinstance(item, enum.Enum):
                document[field.name] = _fields_as_json(item)
        return document
    if isinstance(value, Mapping):
        items = cast("Mapping[str, object]", value).items()
        return {key: _fields_as_json(item) for key, item in items}
    if isinstance(value, (list, tuple)):
        return [_fields_as_json(item) for item in cast("Sequence[object]", value)]
    return value


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
