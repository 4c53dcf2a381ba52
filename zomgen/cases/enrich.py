"""The valid hierarchy with its optional keys filled in, so their constraints get cases too.

The synthesiser builds the smallest hierarchy: required keys only. A constraint inside an
optional key (an optional object's required keys, an optional `enum`, the items of an optional
list) would then be reached by no mutation and be missing from the agreement report. Here each
optional key of the valid hierarchy (attribute objects and node metadata) is given its
smallest value, one at a time, and kept when the run time still accepts the whole document;
the keys that brings in are tried in the next round. A key the run time refuses (a `not`, a
`maxProperties`, an exclusive `oneOf` it would break) is left out: the hierarchy stays valid.
Where a `repair` is given, a refused key is first repaired (an OME-Zarr 0.6 transformation
between coordinate systems gets the names and lengths those systems have), and kept if that
makes the whole document valid with the key still there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from zomgen import ir
from zomgen.cases import walk
from zomgen.cases.mutate import edited, get
from zomgen.cases.synth import Synthesiser, Unsatisfiable

ROUNDS = 4  # nesting levels of optional objects filled in (each round goes one deeper)


def enriched(
    valid: Any,
    h: ir.Hierarchy,
    accepts: Callable[[Any], bool],
    synthesiser: Synthesiser | None = None,
    first: Callable[[ir.Field], bool] | None = None,
    repair: Callable[[Any], Any | None] | None = None,
    kept: Callable[[Any], Any | None] = lambda document: document,
) -> Any:
    """`valid` with every optional key added that the run time accepts (their values built
    by `synthesiser`, by default one that chooses no union's option; the fields `first`
    picks are tried before the others, as where only one of several keys may be present),
    and that `kept` keeps (None: a key that would turn the option built into another; it
    may give the document changed, so that the option built stays that option)."""
    synthesiser = synthesiser or Synthesiser(h)
    tried: set[walk.Path] = set()
    for _ in range(ROUNDS):
        added = False
        found = walk.places(valid, h)
        if first is not None:
            found.sort(key=lambda p: not (isinstance(p, walk.FieldPlace) and first(p.field)))
        for place in found:
            if not isinstance(place, walk.FieldPlace) or place.path in tried:
                continue
            tried.add(place.path)
            if not _holds_key(valid, place.path[:-1]):
                continue  # a repair this round changed the hierarchy around it
            parent = get(valid, place.path[:-1])
            if not isinstance(parent, dict) or place.field.key in parent:
                continue
            if isinstance(place.field.type, ir.Never):
                continue
            try:
                value = synthesiser.value_at(place.path, place.field.type)
            except Unsatisfiable:
                continue
            candidate = edited(valid, place.path, value)
            if accepts(candidate):
                keep = kept(candidate)
            elif repair is not None:
                fixed = repair(candidate)
                keep = kept(fixed) if fixed is not None and _holds_key(fixed, place.path) else None
            else:
                keep = None
            if keep is not None:
                valid, added = keep, True
        if not added:
            break
    return valid


def _holds_key(document: Any, path: walk.Path) -> bool:
    try:
        get(document, path)
    except (KeyError, IndexError, TypeError):
        return False
    return True
