"""Which regular-expression engines read a schema's pattern, and what it matches.

JSON Schema's dialect is ECMA-262, but the engines that run a generated package read three
dialects. The Python run time's reference engine (python-jsonschema) uses
Python's `re`, its fast engine (jsonschema-rs) Rust's regex crates, and validate.ts (Ajv)
JavaScript's `RegExp` with the `u` flag, then without it. A pattern is accepted when Python's
`re` or ECMA-262 (checked with `regress`, with the `u` flag or without) reads it; `readers`
says which engines can, so that the bundler can warn about the others (bundle.py), and the
Python run time matches a pattern `re` cannot read as ECMA-262 (runtime/patterns.py, whose
`search` `matches` calls too). python-jsonschema's own `regex` format checker (4.26) knows only `re`, hence the checker here.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import jsonschema_rs
import regress

from zomgen.runtime.patterns import python_reads, search


@dataclass(frozen=True)
class Readers:
    """Which regular-expression engines can read a pattern."""

    python: bool  # Python's `re`: python-jsonschema, the Python run time's reference engine
    ecma: bool  # ECMA-262 with the `u` flag (as Ajv compiles it): validate.ts
    ecma_legacy: bool  # ECMA-262 without the `u` flag (Annex B): validate.ts's second try
    rust: bool  # jsonschema-rs, the Python run time's fast engine

    @property
    def accepted(self) -> bool:
        return self.python or self.ecma or self.ecma_legacy


@functools.lru_cache(maxsize=4096)
def readers(pattern: str) -> Readers:
    return Readers(
        python=python_reads(pattern),
        ecma=_ecma_reads(pattern, "u"),
        ecma_legacy=_ecma_reads(pattern, None),
        rust=_rust_reads(pattern),
    )


def _ecma_reads(pattern: str, flags: str | None) -> bool:
    try:
        regress.Regex(pattern, flags)
    except regress.RegressError:
        return False
    return True


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
    """What `zomgen build` warns about a pattern that some run time cannot read as written,
    None when every engine reads it."""
    found = readers(pattern)
    said: list[str] = []
    if not found.python:
        said.append(
            "Python's `re` cannot read it: the Python run time matches it as ECMA-262 with "
            "`regress` (jsonschema-rs when that is missing)"
        )
    if not found.ecma and found.ecma_legacy:
        said.append(
            "validate.ts reads it only without the `u` flag (ECMA-262 Annex B), where it may "
            "mean something else than in Python (`\\Z` is a plain `Z` there)"
        )
    elif not found.ecma:
        said.append(
            "validate.ts cannot read it (not ECMA-262): the TypeScript run time throws on its "
            "first use; only the Python run time checks it"
        )
    if not found.rust:
        said.append(
            "jsonschema-rs cannot read it: the Python run time checks documents with "
            "python-jsonschema alone (slower)"
        )
    if not said:
        return None
    return f"pattern {pattern!r}: " + "; ".join(said)
