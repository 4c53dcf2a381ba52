"""Conventions a store says it follows: an offline catalog of known conventions
(`entries.py`), what each node declares or evidently uses (`declarations.py`), and the check of
every node against each of them (`dispatch.py`), which `zomgen validate STORE` runs when no
`--schema` is given (docs/catalog.md).

    report = zomgen.catalog.validate_declared("image.zarr")
    report.status, report.nodes, report.problems, report.unchecked, report.warnings
"""

from zomgen.catalog.dispatch import Report, validate_declared

__all__ = ["Report", "validate_declared"]
