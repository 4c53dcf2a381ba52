"""How mypy reads a dict literal whose type is a union of TypedDicts.

mypy (2.4.1, `checkexpr.py`) first keeps the options whose keys the literal fits (every
required key present, no key it does not list). None left: it types the literal as a plain
dict, and the union's container says it does not fit (`typeddict-item`, `dict-item`,
`list-item`). One left: it checks the literal against that option, and reports what is wrong
inside as anywhere else. Several left and none fits without an error (a disabled one counts
too): it says the union is ambiguous (`misc`) besides the container's code.

`verdict` follows a mutated document down the unions on a mutation's path, outermost first,
the way mypy does, and says which of the three happened where.
"""

from __future__ import annotations

from typing import Any, Literal

from zomgen import ir
from zomgen.cases.walk import Context, Path, alias_target

Verdict = Literal["", "dict", "ambiguous"]
Keys = dict[str, tuple[frozenset[str], frozenset[str]]]  # TypedDict -> (listed, required)


def verdict(
    document: Any, path: Path, ctx: Context, keys: Keys, h: ir.Hierarchy
) -> tuple[Verdict, str]:
    """("dict" or "ambiguous", the container of the union) where mypy stops matching options,
    going down the unions of `ctx` on `path`; ("", "") when each leaves one option (or none is
    of TypedDicts)."""
    for (where, union), container in zip(ctx.unions, ctx.union_containers, strict=True):
        if path[: len(where)] != where:
            continue
        value = _get(document, where)
        if not isinstance(value, dict):
            continue
        flat = _flat(union.options, h)
        options = [k for k in (_keys_of(o, keys, h) for o in flat) if k is not None]
        if not options:
            continue
        fitting = [1 for listed, required in options if required <= value.keys() <= listed]
        if not fitting:
            return "dict", container
        if len(fitting) > 1:
            return "ambiguous", container
    return "", ""


def _flat(options: tuple[ir.TypeRef, ...], h: ir.Hierarchy) -> list[ir.TypeRef]:
    """The options as mypy sees them: an option naming an alias of a union is that union's
    options (GeoZarr's `Crs` among a bound CRS's options)."""
    found: list[ir.TypeRef] = []
    for option in options:
        target = alias_target(option, h)
        found.extend(_flat(target.options, h) if isinstance(target, ir.UnionOf) else [option])
    return found


def _keys_of(
    ref: ir.TypeRef, keys: Keys, h: ir.Hierarchy, seen: frozenset[str] = frozenset()
) -> tuple[frozenset[str], frozenset[str]] | None:
    """The (listed, required) keys of the TypedDict an option is, if it is one."""
    if isinstance(ref, ir.Ref):
        if ref.name in keys:
            return keys[ref.name]
        if ref.name in seen:
            return None
        for named in h.types:
            if isinstance(named, ir.AliasType) and named.name == ref.name:
                return _keys_of(named.target, keys, h, seen | {ref.name})
        return None
    if isinstance(ref, ir.BaseNode):
        return keys.get(base_name(ref.kind, ref.zarr_format))
    return None


def base_name(kind: str, zarr_format: int) -> str:
    """The key of a base node's TypedDict in `Keys` (one no convention's type can have)."""
    return f"<base {kind} v{zarr_format}>"


def _get(document: Any, path: Path) -> Any:
    for step in path:
        try:
            document = document[step]
        except (KeyError, IndexError, TypeError):
            return None
    return document
