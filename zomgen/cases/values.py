"""Every `const`/`enum` value and every optional key absent, built: for each valid hierarchy
given (the smallest, enriched, and one per union option built by coverage.py), each place a
literal admits other values gets each of them, and each optional key present is taken out.
Each changed hierarchy the run time accepts must parse, and `dump` must give it back
unchanged. The synthesised hierarchies hold one value per literal and every optional key they
can, so without this the other values and the absent keys are never converted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from zomgen import ir
from zomgen.cases import walk
from zomgen.cases.mutate import edited, get
from zomgen.cases.raw import escape


@dataclass(frozen=True)
class ValueCase:
    pointer: str  # where the change is (array indices as in the document it was made in)
    what: str  # "value 'x'" or "without 'key'"
    failure: str | None  # None: parsed, and dumped back unchanged


def value_cases(
    documents: list[Any],
    h: ir.Hierarchy,
    module: ModuleType,
    accepts: Callable[[Any], bool],
) -> list[ValueCase]:
    """A case for each other literal value and each optional key left out, in `documents`
    (each change once, at the first document where the run time accepts it)."""
    found: dict[tuple[str, str], ValueCase] = {}
    for document in documents:
        for path, what, changed in _changes(document, h):
            key = (_pointer(path), what)
            if key not in found and accepts(changed):
                found[key] = ValueCase(key[0], what, _round_trip(module, changed))
    return list(found.values())


def _changes(document: Any, h: ir.Hierarchy) -> Iterator[tuple[walk.Path, str, Any]]:
    for place in walk.places(document, h):
        if isinstance(place, walk.LiteralPlace):
            here = get(document, place.path)
            for value in place.type.values:
                if value != here or type(value) is not type(here):
                    yield place.path, f"value {value!r}", edited(document, place.path, value)
        elif isinstance(place, walk.FieldPlace) and not place.field.required:
            parent = get(document, place.path[:-1])
            if isinstance(parent, dict) and place.field.key in parent:
                changed = edited(document, place.path, None, drop=True)
                yield place.path, f"without {place.field.key!r}", changed


def _round_trip(module: ModuleType, document: Any) -> str | None:
    try:
        model = module.parse(document)
    except (LookupError, AttributeError, TypeError, ValueError, module.ZomError) as exc:
        return f"parse raised {type(exc).__name__}: {exc}"
    if module.dump(model) != document:
        return "dump(parse(document)) differs from the document"
    return None


def _pointer(path: walk.Path) -> str:
    return "".join(f"/{escape(step)}" for step in path)
