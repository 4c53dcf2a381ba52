"""Is each schema document zomgen reads well-formed JSON Schema of its draft?

Every document that compilation reaches (the input and each file a `$ref` leads to) is checked
against its draft's meta-schema once, so a malformed keyword (`"type": 5`, `"items": [...]` in
2020-12, `"properties": ["a"]`) is reported with its pointer instead of being misread.

A pattern is well-formed when RE2 can match it as ECMA-262 means it (patterns.py); a refused
pattern is reported with the reason. The rules of `x-zomgen-rules` must compile as CEL
(rules.py).
"""

from __future__ import annotations

from jsonschema import Draft7Validator, Draft201909Validator, Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError, best_match
from zomgen_runtime.pointers import to_pointer

from zomgen.errors import CompileError, InputProblem
from zomgen.schema.documents import SchemaDocument, SchemaSet
from zomgen.schema.patterns import refused
from zomgen.schema.rules import rule_problems

_VALIDATORS = {
    "2020-12": Draft202012Validator,
    "2019-09": Draft201909Validator,
    "draft-07": Draft7Validator,
}


_REGEX_ONLY = FormatChecker(formats=())


@_REGEX_ONLY.checks("regex")
def _is_regex(instance: object) -> bool:
    return not isinstance(instance, str) or refused(instance) is None


def _pattern_refused(error: ValidationError) -> str | None:
    """Why a pattern the meta-schema's `format: regex` refused is refused (None: not that)."""
    if error.validator != "format" or not isinstance(error.instance, str):
        return None
    return refused(error.instance)


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
        rules = rule_problems(doc)  # when the rest is well-formed, the rules' CEL
        if rules:
            raise CompileError(rules)
        return
    problems: list[InputProblem] = []
    seen: set[str] = set()
    for error in sorted(errors, key=lambda e: [str(p) for p in e.absolute_path]):
        deepest = best_match([error])
        path = [str(p) for p in deepest.absolute_path]
        message = " ".join(deepest.message.split())
        reason = _pattern_refused(deepest)
        if reason is not None:  # a pattern: say why, not only that
            message = f"the pattern {deepest.instance!r} is refused: {reason}"
            if "propertyNames" in deepest.absolute_schema_path:  # a patternProperties key
                path.append(str(deepest.instance))
        pointer = to_pointer(path)
        if pointer in seen:
            continue
        seen.add(pointer)
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
