"""IR -> TypeScript files of a package (`types.ts`, `validate.ts`)."""

from __future__ import annotations

from zomgen import ir


def typescript_files(hierarchy: ir.Hierarchy, bundled_schema: dict[str, object]) -> dict[str, str]:
    """{file name: text} of the TypeScript side of a package."""
    return {}
