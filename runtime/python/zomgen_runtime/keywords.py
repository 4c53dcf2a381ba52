"""The zomgen check keywords (checks.py) as keywords of each JSON Schema engine.

jsonschema-rs runs them as custom keywords (verdicts only), so they compose with `anyOf` and
friends exactly like standard ones; python-jsonschema, the reference, runs them with the
pattern keywords of patterns.py and reports each problem with its place.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, ClassVar

from .checks import CHECKS
from .false_schemas import false_schema_keywords
from .patterns import pattern_keywords
from .violations import Check


class _FastKeyword:
    """A zomgen check as a jsonschema-rs custom keyword (verdict only: details come from the
    reference engine)."""

    keyword: ClassVar[str] = ""

    def __init__(self, parent_schema: dict[str, Any], value: Any, schema_path: list[Any]) -> None:
        self._check = CHECKS[self.keyword](value)

    def validate(self, instance: Any) -> None:
        found = self._check(instance)
        if found:
            raise ValueError(found[0].message)


# One jsonschema-rs keyword class per check keyword (its name is a class attribute).
FAST_KEYWORDS: dict[str, type[_FastKeyword]] = {
    name: type(f"_Fast_{name}", (_FastKeyword,), {"keyword": name}) for name in CHECKS
}


def reference_validator(schema: dict[str, Any], wrap: Callable[[Any], Any] | None = None) -> Any:
    """python-jsonschema for `schema`'s draft, with the check keywords and the pattern keywords
    (each keyword passed through `wrap` when given: engines.py makes it skip what jsonschema-rs
    says a value satisfies)."""
    # jsonschema ships no type information; importlib keeps its names `Any` for mypy and pyright.
    validators: Any = importlib.import_module("jsonschema.validators")
    ValidationError: Any = importlib.import_module("jsonschema.exceptions").ValidationError

    def keyword(name: str) -> Any:
        compile_check = CHECKS[name]
        # id(value) -> its compiled check; the values live in `schema`, as long as this does
        compiled: dict[int, Check] = {}

        def run(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
            check = compiled.get(id(value))
            if check is None:
                check = compiled[id(value)] = compile_check(value)
            for found in check(instance):
                yield ValidationError(
                    found.message,
                    path=found.path,
                    schema_path=() if found.at is None else (found.at,),
                )

        return run

    base: Any = validators.validator_for(schema, default=validators.Draft202012Validator)
    keywords = {**base.VALIDATORS, **pattern_keywords(base.VALIDATORS, ValidationError)}
    keywords |= false_schema_keywords(keywords, ValidationError)
    keywords |= {name: keyword(name) for name in CHECKS}
    if wrap is not None:
        keywords = {name: wrap(run) for name, run in keywords.items()}
    extended: Any = validators.extend(base, keywords)
    return extended(schema)
