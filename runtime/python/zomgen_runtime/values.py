"""Type guards for JSON values: `isinstance(x, dict)` narrows to `dict[Unknown, Unknown]` under
pyright strict; these narrow to what `json.loads` actually returns."""

from __future__ import annotations

from typing import Any, TypeGuard


def is_object(value: object) -> TypeGuard[dict[str, Any]]:
    return isinstance(value, dict)


def is_array(value: object) -> TypeGuard[list[Any]]:
    return isinstance(value, list)
