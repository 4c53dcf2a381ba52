"""The official JSON-Schema-Test-Suite as zomgen conventions (issue: exact types).

Each test group's `schema` becomes one attribute of a Zarr v3 array node: the group's schema is
written unchanged to `case.json` (draft-07 files get the `$schema` the suite leaves implicit),
and the convention `schema.json` beside it requires attribute `value` to match it by `$ref`. A
test's `data` is then the `value` attribute of an otherwise fixed, valid array document, so the
document is valid exactly when the suite says the instance is.

Also here: spelling a JSON value as a Python or TypeScript literal, and a parsed model as the
Python expression that constructs it, for the static checks.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.paths import SHARED

SUITE = SHARED / "corpus" / "json-schema-test-suite" / "tests"
DRAFTS = {"draft2020-12": None, "draft7": "http://json-schema.org/draft-07/schema#"}
ROOT_TYPE = "Case"
VALUE_KEY = "value"


@dataclass(frozen=True)
class Instance:
    id: str  # "<group id>/<test index>"
    description: str
    data: Any
    valid: bool


@dataclass(frozen=True)
class Group:
    id: str  # "draft7/items/3": draft folder, file stem, index of the group in the file
    package: str  # a Python identifier naming the group's package
    description: str
    schema: Any
    dialect: str | None
    instances: tuple[Instance, ...]


def groups() -> Iterator[Group]:
    for draft, dialect in DRAFTS.items():
        for path in sorted((SUITE / draft).glob("*.json")):
            for index, group in enumerate(json.loads(path.read_text("utf-8"))):
                gid = f"{draft}/{path.stem}/{index}"
                instances = tuple(
                    Instance(f"{gid}/{i}", t["description"], t["data"], t["valid"])
                    for i, t in enumerate(group["tests"])
                )
                yield Group(
                    gid,
                    _package_name(draft, path.stem, index),
                    group["description"],
                    group["schema"],
                    dialect,
                    instances,
                )


def _package_name(draft: str, stem: str, index: int) -> str:
    short = "d7" if draft == "draft7" else "d2020"
    return f"{short}_{re.sub(r'[^0-9a-zA-Z]', '_', stem).lower()}_{index}"


def wrap(group: Group, folder: Path) -> Path:
    """Write the group as a convention into `folder`; returns the convention's path."""
    folder.mkdir(parents=True, exist_ok=True)
    case = group.schema
    if group.dialect is not None and isinstance(case, dict) and "$schema" not in case:
        case = {"$schema": group.dialect, **case}
    elif group.dialect is not None and isinstance(case, bool):
        case = {"$schema": group.dialect, "allOf": [case]}
    (folder / "case.json").write_text(json.dumps(case, indent=1), encoding="utf-8")
    convention = {
        "title": ROOT_TYPE,
        "allOf": [{"$ref": "urn:zom:v3#/$defs/ArraySpec"}],
        "properties": {
            "attributes": {
                "properties": {VALUE_KEY: {"$ref": "case.json"}},
                "required": [VALUE_KEY],
            }
        },
    }
    path = folder / "schema.json"
    path.write_text(json.dumps(convention, indent=1), encoding="utf-8")
    return path


def document(data: Any) -> dict[str, Any]:
    """A valid v3 array document whose attribute `value` is `data`."""
    return {
        "zarr_format": 3,
        "node_type": "array",
        "attributes": {VALUE_KEY: data},
        "shape": [4],
        "data_type": "float32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4]}},
        "chunk_key_encoding": {"name": "default"},
        "fill_value": 0,
        "codecs": [{"name": "bytes"}],
    }


def typed(value: Any) -> Any:
    """A JSON value with its JSON type made explicit, so that `1`, `1.0` and `true` differ."""
    if isinstance(value, bool) or value is None:
        return [type(value).__name__, value]
    if isinstance(value, int | float | str):
        return [type(value).__name__, value]
    if isinstance(value, list):
        return ["list", [typed(v) for v in value]]
    if isinstance(value, dict):
        return ["dict", {k: typed(v) for k, v in value.items()}]
    return ["other", repr(value)]


def python_literal(value: Any) -> str:
    """A JSON value as a Python literal on one line."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(python_literal(v) for v in value) + "]"
    items = ", ".join(f"{json.dumps(k)}: {python_literal(v)}" for k, v in value.items())
    return "{" + items + "}"


def typescript_literal(value: Any) -> str:
    """A JSON value as a TypeScript literal on one line (`__proto__` as a computed key, which
    makes an own property, as JSON.parse does, instead of setting the prototype)."""
    if isinstance(value, list):
        return "[" + ", ".join(typescript_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(
            f"{'[' + json.dumps(k) + ']' if k == '__proto__' else json.dumps(k)}: "
            f"{typescript_literal(v)}"
            for k, v in value.items()
        )
        return "{" + items + "}"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        return repr(value)
    return json.dumps(value)


def model_source(value: Any, module: str) -> str:
    """The Python expression that constructs `value` (a parsed model, or a part of one) through
    the dataclass constructors of `module`, on one line."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        args = ", ".join(
            f"{f.name}={model_source(getattr(value, f.name), module)}"
            for f in dataclasses.fields(value)
            if f.init
        )
        return f"{module}.{type(value).__name__}({args})"
    if type(value).__name__ == "Unset":
        return f"{module}.UNSET"
    if isinstance(value, tuple):
        inner = ", ".join(model_source(v, module) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, Mapping):
        items = ", ".join(f"{json.dumps(k)}: {model_source(v, module)}" for k, v in value.items())
        return "{" + items + "}"
    if isinstance(value, list):
        return "[" + ", ".join(model_source(v, module) for v in value) + "]"
    return python_literal(value)
