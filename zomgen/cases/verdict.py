"""Whether a package's run time accepts a document, asked where documents are tried by the
thousand (coverage.py and derive.py add optional keys one at a time)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from zomgen_runtime.validation import is_valid


def accepts(module: ModuleType, document: Any) -> bool:
    """Does the package's run time accept `document`? The verdict engine's answer alone, which
    `refusals` would describe in detail: a tenth of the cost where documents are tried by the
    thousand (optional keys added one at a time). Where the engines disagree (jsonschema-rs
    refuses, the detailed walk finds nothing) this says no, so a document it accepts is
    always one `parse` accepts."""
    return is_valid(document, module.schema())
