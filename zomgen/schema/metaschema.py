"""Is each schema document zomgen reads well-formed JSON Schema of its draft?

Every document that compilation reaches (the input and each file a `$ref` leads to) is checked
against its draft's meta-schema once, so a malformed keyword (`"type": 5`, `"items": [...]` in
2020-12, `"properties": ["a"]`) is reported with its pointer instead of being misread.

A pattern is well-formed when some engine a package runs reads it (patterns.py).
"""

from __future__ import annotations

from jsonschema import Draft7Validator, Draft201909Validator, Draft202012Validator, FormatChecker
from jsonschema.exceptions import best_match

from zomgen.errors import CompileError, InputProblem
from zomgen.runtime.pointers import to_pointer
from zomgen.schema.documents import SchemaDocument, SchemaSet
from zomgen.schema.patterns import readers

_VALIDATORS = {
    "2020-12": Draft202012Validator,
    "2019-09": Draft201909Validator,
    "draft-07": Draft7Validator,
}


_REGEX_ONLY = FormatChecker(formats=())


@_REGEX_ONLY.checks("regex")
def _is_regex(instance: object) -> bool:
    return not isinstance(instance, str) or readers(instance).accepted


def ensure_checked(schema_set: SchemaSet, doc: SchemaDocument) -> None:
    """Check `doc` once per compilation."""
    if id(doc) in schema_set.checked:
        return
    schema_set.checked.add(id(doc))
    check_document(doc)


def check_document(doc: SchemaDocument) -> None:
    validator_class = _VALIDATORS[doc.draft]
    validator = validator_class(validator_class.META_SCHEMA, format_checker=_REGEX_ONLY)
    errors = list(validator.iter_errors(doc.contents))
    if not errors:
        return
    problems: list[InputProblem] = []
    seen: set[str] = set()
    for error in sorted(errors, key=lambda e: [str(p) for p in e.absolute_path]):
        deepest = best_match([error])
        pointer = to_pointer(str(p) for p in deepest.absolute_path)
        if pointer in seen:
            continue
        seen.add(pointer)
        message = " ".join(deepest.message.split())
        if len(message) > 200:
            message = message[:200] + "..."
        problems.append(
            InputProblem(
                str(doc.path),
                pointer,
                f"not valid JSON Schema ({doc.draft}): {message}",
            )
        )
    raise CompileError(problems)
