"""A schema that admits no value is reported by the keywords that contradict, each with its file
and JSON pointer; a member type that admits no value is reported where it stands (a warning)
and typed as never present, while the group that holds it stays valid.

The real case is the OGC/GeoZarr array-metadata building block of ../shared/specs: its `dtype`
and `fill_value` are declared `type: object`, which the base ZOM's `dtype` (a string or a
structured list) and `fill_value` (a scalar, a list or null) never are."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import validate_store

from tests.support.cli import run_zomgen
from tests.support.paths import SHARED
from zomgen.errors import CompileError
from zomgen.pipeline import Options, build_ir, generate_package, load
from zomgen.schema.bundle import bundle
from zomgen.schema.registry import load_schema_set

SPEC = SHARED / "specs" / "geozarr-zarr-array-metadata-building-block.md"
BLOCK = "zarr_array_metadata.yaml"

DTYPE = (
    "`type: object` (zarr_array_metadata.yaml#/properties/dtype/type) contradicts every branch "
    "of the `anyOf` at urn:zom:v2#/$defs/DType/anyOf: `type: string` "
    "(urn:zom:v2#/$defs/DType/anyOf/0/type); `type: array` (urn:zom:v2#/$defs/StructuredDType/type)"
)
FILL_VALUE = (
    "`type: object` (zarr_array_metadata.yaml#/properties/fill_value/type) contradicts every "
    "branch of the `anyOf` at urn:zom:v2#/$defs/FillValue/anyOf: "
    "`type: number` (urn:zom:v2#/$defs/FillValue/anyOf/0/type); "
    '`enum: ["NaN", "Infinity", "-Infinity"]` (urn:zom:v2#/$defs/FillValue/anyOf/1/enum); '
    "`type: string` (urn:zom:v2#/$defs/FillValue/anyOf/2/type); "
    "`type: boolean` (urn:zom:v2#/$defs/FillValue/anyOf/3/type); "
    "`type: array` (urn:zom:v2#/$defs/FillValue/anyOf/4/type); "
    "`type: null` (urn:zom:v2#/$defs/FillValue/anyOf/5/type)"
)


def _building_block(folder: Path) -> None:
    """The building block's schema, exactly as the spec page publishes it (YAML, draft-07)."""
    found = re.search(r"## Schema\n\n```yaml\n(.*?)```", SPEC.read_text("utf-8"), re.DOTALL)
    assert found is not None
    (folder / BLOCK).write_text(found.group(1), "utf-8")


def _write(folder: Path, name: str, schema: dict[str, Any]) -> Path:
    path = folder / name
    path.write_text(json.dumps(schema, indent=1), "utf-8")
    return path


ARRAY = {
    "title": "GeoZarrArray",
    "allOf": [{"$ref": "urn:zom:v2#/$defs/ArraySpec"}, {"$ref": BLOCK}],
}


def _group(required: bool) -> dict[str, Any]:
    members: dict[str, Any] = {"properties": {"data": {"$ref": "array.json"}}}
    if required:
        members["required"] = ["data"]
    return {
        "title": "GeoZarrGroup",
        "allOf": [{"$ref": "urn:zom:v2#/$defs/GroupSpec"}],
        "properties": {"members": members},
    }


def _refused(schema: Path) -> list[tuple[str, str, str]]:
    with pytest.raises(CompileError) as caught:
        build_ir(load(Options(schema=schema)))
    return [(Path(p.file).name, p.pointer, p.message) for p in caught.value.problems]


def test_the_building_block_as_an_array_names_both_contradictions(tmp_path: Path) -> None:
    _building_block(tmp_path)
    schema = _write(tmp_path, "array.json", ARRAY)
    assert _refused(schema) == [
        (
            "array.json",
            "",
            f"the root schema admits no value: /dtype (required) cannot hold one: {DTYPE}",
        ),
        (
            "array.json",
            "",
            f"the root schema admits no value: /fill_value (required) cannot hold one: {FILL_VALUE}",
        ),
    ]


def test_the_cli_says_it_in_one_line_per_key_and_exits_2(tmp_path: Path) -> None:
    _building_block(tmp_path)
    schema = _write(tmp_path, "array.json", ARRAY)
    done = run_zomgen("build", schema, "-o", tmp_path / "pkg")
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines == [
        (
            f"zomgen: {schema}:/: the root schema admits no value: /dtype (required) cannot hold "
            f"one: {DTYPE}"
        ),
        (
            f"zomgen: {schema}:/: the root schema admits no value: /fill_value (required) cannot "
            f"hold one: {FILL_VALUE}"
        ),
    ]
    assert not (tmp_path / "pkg").exists()


def test_a_group_with_the_array_as_an_optional_member_is_valid(tmp_path: Path) -> None:
    _building_block(tmp_path)
    _write(tmp_path, "array.json", ARRAY)
    schema = _write(tmp_path, "group.json", _group(required=False))
    generated = generate_package(Options(schema=schema, package="gz"))
    assert [(Path(w.file).name, w.pointer, w.message) for w in generated.warnings] == [
        (
            "group.json",
            "/properties/members/properties/data",
            (
                "member 'data' admits no value, so it is typed as never present (a group holding "
                f"it is invalid): /dtype: {DTYPE}"
            ),
        )
    ]
    hierarchy = build_ir(load(Options(schema=schema)))
    root = next(t for t in hierarchy.types if t.name == hierarchy.root)
    members = root.members  # type: ignore[attr-defined]
    assert [(f.key, type(f.type).__name__, f.required) for f in members.named] == [
        ("data", "Never", False)
    ]
    # the generated types say it too
    assert '"data": NotRequired["Never"]' in generated.files["models.py"]


def test_the_verdicts_on_real_stores(tmp_path: Path) -> None:
    """zarr-python writes the stores: the group alone is valid, with a `data` array it is not
    (the member admits no value), and so is any array that follows the building block's
    example, which its own schema refuses."""
    import numpy as np
    import zarr

    _building_block(tmp_path)
    _write(tmp_path, "array.json", ARRAY)
    schema_path = _write(tmp_path, "group.json", _group(required=False))
    schema = bundle(load_schema_set(schema_path, []))

    empty = tmp_path / "empty.zarr"
    zarr.open_group(str(empty), mode="w", zarr_format=2)
    assert validate_store(empty, schema) == []

    full = tmp_path / "full.zarr"
    group = zarr.open_group(str(full), mode="w", zarr_format=2)
    array = group.create_array("data", shape=(4, 4), chunks=(2, 2), dtype="<f8", fill_value=np.nan)
    array[:] = 1.0
    problems = validate_store(full, schema)
    assert problems and {p.node_path for p in problems} <= {"/", "/data"}
    assert any(p.pointer in ("/members/data", "/dtype", "/fill_value", "") for p in problems)


def test_a_required_member_that_admits_no_value_refuses_the_group_where_it_stands(
    tmp_path: Path,
) -> None:
    _building_block(tmp_path)
    _write(tmp_path, "array.json", ARRAY)
    schema = _write(tmp_path, "group.json", _group(required=True))
    assert _refused(schema) == [
        (
            "group.json",
            "",
            "the root schema admits no value: /members/data/dtype (required) cannot hold one: "
            + DTYPE,
        ),
        (
            "group.json",
            "",
            "the root schema admits no value: /members/data/fill_value (required) cannot hold "
            "one: " + FILL_VALUE,
        ),
    ]


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        (
            {
                "allOf": [
                    {"$ref": "urn:zom:v3#/$defs/GroupSpec"},
                    {"$ref": "urn:zom:v3#/$defs/ArraySpec"},
                ]
            },
            (
                "the root schema admits no value: a Zarr v3 group (urn:zom:v3#/$defs/GroupSpec) "
                "contradicts a Zarr v3 array (urn:zom:v3#/$defs/ArraySpec)"
            ),
        ),
        (
            {
                "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
                "properties": {
                    "attributes": {
                        "properties": {"n": {"allOf": [{"type": "string"}, {"type": "integer"}]}},
                        "required": ["n"],
                    }
                },
            },
            (
                "the root schema admits no value: /attributes/n (required) cannot hold one: "
                "`type: string` (c.json#/properties/attributes/properties/n/allOf/0/type) "
                "contradicts `type: integer` (c.json#/properties/attributes/properties/n/allOf/1/type)"
            ),
        ),
        (
            {
                "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
                "properties": {
                    "attributes": {
                        "properties": {"v": {"const": "0.4", "enum": ["0.5", "0.6"]}},
                        "required": ["v"],
                    }
                },
            },
            (
                "the root schema admits no value: /attributes/v (required) cannot hold one: "
                '`const: "0.4"` (c.json#/properties/attributes/properties/v/const) contradicts '
                '`enum: ["0.5", "0.6"]` (c.json#/properties/attributes/properties/v/enum)'
            ),
        ),
        (
            {
                "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
                "properties": {"node_type": False},
            },
            (
                "the root schema admits no value: /node_type (required) cannot hold one: `false` at "
                "c.json#/properties/node_type admits no value"
            ),
        ),
    ],
    ids=["group-and-array", "two-types", "const-and-enum", "false"],
)
def test_each_contradiction_is_named(tmp_path: Path, schema: dict[str, Any], message: str) -> None:
    path = _write(tmp_path, "c.json", schema)
    assert _refused(path) == [("c.json", "", message)]
