"""Which patterns a convention may hold, and what they match.

JSON Schema's dialect is ECMA-262. Every run time of a package matches patterns with RE2, in
linear time (runtime/patterns.py, runtime_ts/patterns.ts), so a pattern is accepted when RE2
can match it as ECMA-262 means it (runtime/linear_patterns.py says why not: a back reference, a
lookbehind). The one engine that reads patterns on its own is jsonschema-rs, the Python run
time's fast engine; `zomgen build` warns about a pattern it cannot read (bundle.py), because
then the slower reference engine alone checks documents.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

import jsonschema_rs
from zomgen_runtime.linear_patterns import linear_parts
from zomgen_runtime.patterns import RE2_REFUSES, search, unreadable


def refused(pattern: str) -> str | None:
    """Why zomgen refuses `pattern` (None when it accepts it), with RE2's own words."""
    reason = unreadable(pattern)
    if reason != RE2_REFUSES:
        return reason
    re2: Any = importlib.import_module("re2")  # google-re2 has no type information
    options = re2.Options()
    options.log_errors = False
    for part in linear_parts(pattern):
        try:
            re2.compile(part.source, options)
        except re2.error as exc:
            said = exc.args[0] if exc.args else ""
            text = said.decode("utf-8", "replace") if isinstance(said, bytes) else str(said)
            return f"{reason}: {text}"
    return reason


@functools.lru_cache(maxsize=4096)
def _rust_reads(pattern: str) -> bool:
    try:
        jsonschema_rs.validator_for({"pattern": pattern})
    except ValueError:
        return False
    return True


def matches(pattern: str, text: str) -> bool:
    """Whether `pattern` matches somewhere in `text`, as the Python run time decides it (the
    same function: runtime/patterns.py). For the compiler's own questions (does this named key
    match a `patternProperties` pattern?)."""
    matcher = search(pattern)
    return matcher is not None and matcher(text)


def pattern_problem(pattern: str) -> str | None:
    """What `zomgen build` warns about an accepted pattern: jsonschema-rs cannot read it."""
    if refused(pattern) is not None or _rust_reads(pattern):
        return None
    return (
        f"pattern {pattern!r}: jsonschema-rs cannot read it: the Python run time checks "
        "documents with python-jsonschema alone (slower)"
    )
