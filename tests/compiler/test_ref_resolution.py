"""A `$ref` resolves against the base URI JSON Schema gives it, when compiling and bundling.

The base is the nearest `$id`: the `$ref`'s own sibling in 2020-12 (draft-07 ignores every
keyword beside `$ref`, `$id` included), a parent's, and for a schema reached through another
`$ref`, that schema's own `$id` taken once (not once more relative to itself:
`nested/foo.json` must not become `nested/nested/foo.json`), whatever name led to its file.

tests/cases/nested-id-refs holds the compiler's view (every field resolves to the `$defs` entry
the rules name); here the same schema's bundle gives the verdicts those rules give, and the
JSON-Schema-Test-Suite groups about `$id` and `$ref` (those that need no remote file, which
zomgen never fetches) compile, and their bundles give the suite's verdicts under
python-jsonschema. Each group's schema is one attribute of an array node, as a convention
would use it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry

from tests.support.paths import CASES, SHARED
from zomgen.pipeline import build_ir
from zomgen.schema.bundle import bundle
from zomgen.schema.registry import load_schema_set

SUITE = SHARED / "corpus" / "json-schema-test-suite" / "tests"
D7 = "http://json-schema.org/draft-07/schema#"
ARRAY: dict[str, Any] = {
    "zarr_format": 3,
    "node_type": "array",
    "shape": [1],
    "data_type": "float64",
    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [1]}},
    "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
    "fill_value": 0.0,
    "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
}
CONVENTION = {
    "title": "Case",
    "allOf": [{"$ref": "urn:zom:v3#/$defs/ArraySpec"}],
    "properties": {
        "attributes": {"properties": {"value": {"$ref": "case.json"}}, "required": ["value"]}
    },
}
# (file, group description): every group of ref.json with a nested or relative `$id` that
# needs no remote file, and the draft-07 pointer into array `items` (bundle.py rewrites it).
GROUPS = [
    ("draft2020-12/ref.json", "refs with relative uris and defs"),
    ("draft2020-12/ref.json", "relative refs with absolute uris and defs"),
    (
        "draft2020-12/ref.json",
        "$id must be resolved against nearest parent, not just immediate parent",
    ),
    ("draft2020-12/ref.json", "order of evaluation: $id and $ref"),
    ("draft2020-12/ref.json", "order of evaluation: $id and $anchor and $ref"),
    ("draft2020-12/ref.json", "order of evaluation: $id and $ref on nested schema"),
    ("draft2020-12/ref.json", "simple URN base URI with $ref via the URN"),
    ("draft2020-12/ref.json", "URN base URI with URN and JSON pointer ref"),
    ("draft2020-12/ref.json", "URN base URI with URN and anchor ref"),
    ("draft2020-12/ref.json", "URN ref with nested pointer ref"),
    ("draft2020-12/ref.json", "ref with absolute-path-reference"),
    ("draft2020-12/ref.json", "$id with file URI still resolves pointers - *nix"),
    ("draft7/ref.json", "$ref prevents a sibling $id from changing the base uri"),
    ("draft7/ref.json", "Location-independent identifier"),
    ("draft7/ref.json", "Reference an anchor with a non-relative URI"),
    ("draft7/ref.json", "refs with relative uris and defs"),
    ("draft7/ref.json", "relative refs with absolute uris and defs"),
    ("draft7/ref.json", "$id must be resolved against nearest parent, not just immediate parent"),
    ("draft7/ref.json", "URN base URI with URN and JSON pointer ref"),
    ("draft7/ref.json", "ref with absolute-path-reference"),
    ("draft7/ref.json", "relative pointer ref to array"),
]


def suite_group(file: str, description: str) -> dict[str, Any]:
    groups = json.loads((SUITE / file).read_text("utf-8"))
    (group,) = [g for g in groups if g["description"] == description]
    return dict(group)


def write_case(folder: Path, file: str, schema: Any) -> Path:
    """The group's schema as `case.json` beside a convention that puts it on an attribute."""
    if file.startswith("draft7/"):
        schema = {"$schema": D7, **schema}
    (folder / "case.json").write_text(json.dumps(schema), encoding="utf-8")
    convention = folder / "convention.json"
    convention.write_text(json.dumps(CONVENTION), encoding="utf-8")
    return convention


@pytest.mark.parametrize(("file", "description"), GROUPS, ids=[f"{f}: {d}" for f, d in GROUPS])
def test_suite_groups_compile_and_their_bundle_gives_the_suite_verdicts(
    file: str, description: str, tmp_path: Path
) -> None:
    group = suite_group(file, description)
    schema_set = load_schema_set(write_case(tmp_path, file, group["schema"]), [])
    build_ir(schema_set)  # no CompileError: every reference resolves
    check = Draft202012Validator(bundle(schema_set), registry=Registry())
    for test in group["tests"]:
        document = {**ARRAY, "attributes": {"value": test["data"]}}
        assert check.is_valid(document) == test["valid"], test["description"]


def test_the_nested_id_case_bundles_to_the_same_resolution() -> None:
    """tests/cases/nested-id-refs: `beside`, `below`, `through` and `draft07_below` reach the
    integer (`nested/a.json`), `draft07_beside` the string (`a.json`): draft-07 ignores the
    `$id` beside its `$ref`."""
    schema_set = load_schema_set(CASES / "nested-id-refs" / "schema.json", [])
    check = Draft202012Validator(bundle(schema_set), registry=Registry())
    good = {
        "beside": 1,
        "below": {"v": 2},
        "through": 3,
        "draft07_beside": "s",
        "draft07_below": {"w": 4},
    }
    group = {"zarr_format": 3, "node_type": "group", "members": {}}
    assert check.is_valid({**group, "attributes": good})
    for key, wrong in [
        ("beside", "s"),
        ("below", {"v": "s"}),
        ("through", "s"),
        ("draft07_beside", 1),
        ("draft07_below", {"w": "s"}),
    ]:
        assert not check.is_valid({**group, "attributes": {**good, key: wrong}}), key
