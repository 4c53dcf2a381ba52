"""The valid hierarchy `zomgen cases` starts from, where the IR alone cannot build it: strings
for `pattern`s, items for `contains`, keys an `if`/`then` requires, an option of a `oneOf` that
only asks for certain items, and the optional keys filled in (docs/derived-cases.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from zomgen.cases.derive import derive
from zomgen.cases.strings import matching

PATTERNS = [
    r"^ID-[0-9]{4}$",
    r"^(EPSG|ESRI):[0-9]+$",
    r"^[^/]+$",
    r"^\d{2,}x$",
    r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$",
    r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
    r"^([a-z])\1$",
    r"^(?!zz)[a-z]{3}$",
    r"^https?://\S+$",
    r"^[\w.-]+@[a-z]+\.com$",
    r"x{3}y?z*$",
]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_a_string_is_made_for_each_pattern(pattern: str) -> None:
    made = matching(pattern)
    assert made is not None
    assert re.search(pattern, made), made


@pytest.mark.parametrize("pattern", ["[", r"^(?=.*[0-9])[a-z0-9]{4}$", "a{2000}"])
def test_no_string_where_none_is_found_or_the_pattern_is_unreadable(pattern: str) -> None:
    assert matching(pattern) is None


def group(attributes: dict[str, Any], defs: dict[str, Any] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "title": "Lab",
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "properties": {"attributes": attributes},
    }
    if defs:
        schema["$defs"] = defs
    return schema


CONVENTIONS = {
    "pattern": group(
        {
            "type": "object",
            "properties": {"id": {"type": "string", "pattern": "^ID-[0-9]{4}$"}},
            "required": ["id"],
        }
    ),
    "contains": group(
        {
            "type": "object",
            "properties": {
                "conventions": {
                    "type": "array",
                    "contains": {
                        "type": "object",
                        "properties": {"name": {"const": "lab"}, "version": {"enum": ["1", "2"]}},
                        "required": ["name", "version"],
                    },
                }
            },
            "required": ["conventions"],
        }
    ),
    "if-then": group(
        {
            "type": "object",
            "properties": {"kind": {"enum": ["plain", "scaled"]}, "scale": {"type": "number"}},
            "required": ["kind"],
            "if": {"properties": {"kind": {"const": "plain"}}},
            "then": {
                "required": ["scale"],
                "properties": {"scale": {"type": "number", "minimum": 2}},
            },
        }
    ),
    "oneof-contains": group(
        {
            "type": "object",
            "properties": {
                "axes": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"name": {"type": "string"}, "type": {"type": "string"}},
                        "required": ["name"],
                    },
                    "uniqueItems": True,
                    "oneOf": [
                        {
                            "contains": {
                                "properties": {"type": {"const": "space"}},
                                "required": ["type"],
                            },
                            "minContains": 2,
                        },
                        {"maxItems": 0},
                    ],
                }
            },
            "required": ["axes"],
        }
    ),
    # an item added for `minItems` (varied, to be distinct) that the items' `enum` refuses:
    # brought back to a value the enum allows (SpatialData's point axes)
    "enum-items": group(
        {
            "type": "object",
            "properties": {
                "axes": {"type": "array", "items": {"enum": ["x", "y", "z"]}, "minItems": 2}
            },
            "required": ["axes"],
        }
    ),
    # a smallest hierarchy of over 4,000 characters (twenty arrays) with one value to repair:
    # the repair's size limit counts what the repairs add, not the hierarchy (SpatialData's
    # tables are AnnData groups)
    "large": {
        **group({}),
        "properties": {
            "attributes": {
                "type": "object",
                "properties": {
                    "axes": {"type": "array", "items": {"type": "string"}, "minItems": 2}
                },
                "required": ["axes"],
            },
            "members": {
                "properties": {
                    f"level{i}": {"$ref": "urn:zom:v3#/$defs/ArraySpec"} for i in range(20)
                },
                "required": [f"level{i}" for i in range(20)],
            },
        },
    },
    # the relations: `b` must equal `a`, `c` be one of `ids` (repair.py takes the value the
    # refusal names)
    "relations": {
        **group(
            {
                "type": "object",
                "properties": {
                    "a": {"enum": ["left", "right"]},
                    "b": {"type": "string"},
                    "c": {"type": "string"},
                    "ids": {
                        "type": "array",
                        "items": {"type": "string", "minLength": 2},
                        "minItems": 1,
                    },
                },
                "required": ["a", "b", "c", "ids"],
            }
        ),
        "x-zomgen-equal": [["/attributes/a", "/attributes/b"]],
        "x-zomgen-in": [["/attributes/c", "/attributes/ids/*"]],
    },
}


@pytest.mark.parametrize("name", sorted(CONVENTIONS))
def test_a_valid_hierarchy_is_found(name: str, tmp_path: Path) -> None:
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(CONVENTIONS[name]), encoding="utf-8")
    derived = derive(schema, tmp_path / "out", (), "lab")
    assert derived.source == "synthesised"
    suite = json.loads((tmp_path / "out" / "lab_cases" / "cases.json").read_text("utf-8"))
    valid = suite["valid"]["attributes"]
    if name == "pattern":
        assert re.fullmatch("ID-[0-9]{4}", valid["id"])
    elif name == "contains":
        assert {"name": "lab", "version": "1"} in valid["conventions"]
    elif name == "if-then":
        assert valid["kind"] != "plain" or valid["scale"] >= 2
    elif name == "relations":
        assert valid["b"] == valid["a"] and valid["c"] in valid["ids"]
    elif name == "enum-items":
        assert len(valid["axes"]) == 2 and set(valid["axes"]) <= {"x", "y", "z"}
    elif name == "large":
        assert len(valid["axes"]) == 2
        assert {f"level{i}" for i in range(20)} <= set(suite["valid"]["members"])
        assert len(repr(suite["valid"])) > 4_000
    else:
        assert sum(1 for axis in valid["axes"] if axis.get("type") == "space") >= 2
    assert derived.cases > 0


def test_optional_keys_are_filled_in_where_the_run_time_accepts_them(tmp_path: Path) -> None:
    """An optional object gets its required key, and its constraints get cases; an optional
    key that a `not` forbids beside the others stays out."""
    schema = tmp_path / "schema.json"
    attributes = {
        "type": "object",
        "properties": {
            "instrument": {
                "type": "object",
                "properties": {"make": {"enum": ["zeiss", "leica"]}},
                "required": ["make"],
            },
            "legacy": {"type": "string"},
        },
        "not": {"required": ["legacy"]},
    }
    schema.write_text(json.dumps(group(attributes)), encoding="utf-8")
    derive(schema, tmp_path / "out", (), "lab")
    suite = json.loads((tmp_path / "out" / "lab_cases" / "cases.json").read_text("utf-8"))
    assert suite["valid"]["attributes"] == {"instrument": {"make": "zeiss"}}
    kinds = {(c["kind"], c["pointer"]) for c in suite["cases"]}
    assert ("near-miss-literal", "/attributes/instrument/make") in kinds
    assert ("missing-required-key", "/attributes/instrument/make") in kinds
