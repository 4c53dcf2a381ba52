"""Conventions a store says it follows: an offline catalog of known conventions
(`entries.py`), what each node declares or evidently uses (`declarations.py`), and the check of
every node against each of them (`dispatch.py`), which `zomgen validate STORE` runs when no
`--schema` is given (docs/catalog.md).

    report = zomgen.catalog.validate_declared("image.zarr")
    report.status, report.nodes, report.problems, report.unchecked, report.warnings

The names are imported from `dispatch` on first use (PEP 562): `zomgen validate` imports the
catalog's small modules (its `--only` patterns) before it knows it needs the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from zomgen.catalog.dispatch import Report, validate_declared

__all__ = ["Report", "validate_declared"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from zomgen.catalog import dispatch

        return getattr(dispatch, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
