"""A `false` subschema under `properties` or `patternProperties` forbids a key: the reference
engine reports it at that key's own pointer, naming the key, with the keyword `false schema`.

python-jsonschema answers a `false` subschema before it knows where it stands: its error has no
path and no keyword, so the problem stood at the object holding the key ("`/attributes`: False
schema does not allow 1", keyword `None`) while validate.ts, from Ajv, names the key itself.
The two keywords are wrapped here: the keys whose subschema is `false` are reported by name, the
others checked by the keyword as before.
"""

from __future__ import annotations

from typing import Any

from .patterns import search
from .values import is_object

FALSE_SCHEMA = "false schema"


def false_schema_keywords(keywords: dict[str, Any], ValidationError: Any) -> dict[str, Any]:
    """`properties` and `patternProperties` of `keywords`, each reporting the keys a `false`
    subschema forbids at their own pointer."""
    return {
        name: _forbidding(keywords[name], ValidationError, by_pattern=name == "patternProperties")
        for name in ("properties", "patternProperties")
    }


def _forbidding(inner: Any, ValidationError: Any, *, by_pattern: bool) -> Any:
    def keyword(validator: Any, value: Any, instance: Any, schema: Any) -> Any:
        if (
            not is_object(value)
            or not any(sub is False for sub in value.values())
            or not validator.is_type(instance, "object")
        ):
            yield from inner(validator, value, instance, schema)
            return
        yield from inner(
            validator, {k: v for k, v in value.items() if v is not False}, instance, schema
        )
        for key, sub in value.items():
            if sub is not False:
                continue
            matcher = search(key) if by_pattern else None
            names = (
                [n for n in instance if matcher is not None and matcher(n)] if by_pattern else [key]
            )
            for name in names:
                if name in instance:
                    yield ValidationError(
                        f"{name!r} is not allowed here: its schema is false",
                        validator=FALSE_SCHEMA,
                        validator_value=False,
                        instance=instance[name],
                        path=(name,),
                        schema_path=(key,),
                    )

    return keyword
