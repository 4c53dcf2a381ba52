"""A later option of an `anyOf` built where the value made for it satisfies an earlier option
too: one key changed so that the earlier option fails and this one still holds.

PROJJSON's `object_usage` is an `anyOf` of two open objects, one typing `scope`, `area`,
`bbox` ..., the other `usages`, and a CRS takes both into its `allOf`. The smallest CRS holds
both, so the run time (`anyOf`: the first option that holds wins) reads it as the first, and
the second is what a document means only where the first fails: a `scope` that is not a
string, which the CRS's own `scope: {}` allows. The synthesiser cannot see that from the IR;
here each key an earlier option's `properties` name is given a value of another JSON type, or
a key it requires is dropped, and the change is kept where the earlier option then fails,
this one still holds and the whole hierarchy is valid. The run time's engine answers each of
those questions, so a change kept is one the schema allows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from zomgen_runtime.subschemas import holds

from zomgen.cases.mutate import edited, get
from zomgen.cases.raw import all_of_merged, deref, resolve
from zomgen.cases.walk import Path

# Values of every JSON type, the plainest first: one of them is of another type than the one an
# earlier option gives the key.
_OTHER_TYPES: tuple[Any, ...] = (0, "", None, False, [], {})


def spoiled(
    document: Any,
    path: Path,
    options: Sequence[Sequence[str]],
    index: int,
    schema: Any,
    valid: Callable[[Any], bool],
) -> Any | None:
    """`document` with its value at `path` changed, one key for each earlier option that held
    it, so that option `index` is the first of `options` (each option's subschema pointers into
    the bundled `schema`) that holds there; None where no such change keeps `valid`."""
    value = get(document, path)
    own = options[index]
    for earlier in range(index):
        if not options[earlier] or not holds(value, schema, *options[earlier]):
            continue
        for changed in _changes(value, schema, options[earlier]):
            if holds(changed, schema, *options[earlier]) or not holds(changed, schema, *own):
                continue
            if any(o and holds(changed, schema, *o) for o in options[:earlier]):
                continue  # an option spoiled before holds again
            candidate = edited(document, path, changed)
            if valid(candidate):
                value, document = changed, candidate
                break
        else:
            return None
    return document


def _changes(value: Any, schema: Any, pointers: Sequence[str]) -> Iterator[dict[str, Any]]:
    """`value` with one key the subschemas at `pointers` name given another value, or with one
    key they require left out."""
    if not isinstance(value, dict):
        return
    properties: dict[str, Any] = {}
    required: list[str] = []
    for pointer in pointers:
        try:
            subschema = deref(schema, resolve(schema, pointer))
        except (KeyError, IndexError, ValueError, TypeError):
            continue
        if isinstance(subschema, dict):
            words = all_of_merged(schema, subschema)
            properties.update(words["properties"])
            required += [k for k in words["required"] if isinstance(k, str)]
    for key in properties:
        for other in _OTHER_TYPES:
            if key not in value or value[key] != other or type(value[key]) is not type(other):
                yield {**value, key: other}
    for key in dict.fromkeys(required):
        if key in value:
            yield {k: v for k, v in value.items() if k != key}
