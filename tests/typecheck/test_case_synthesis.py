"""The valid hierarchy `zomgen cases` starts from, where the IR alone cannot build it: strings
for `pattern`s, items for `contains`, keys an `if`/`then` requires, an option of a `oneOf` that
only asks for certain items, and the optional keys filled in (docs/derived-cases.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import check_document

from zomgen.cases.derive import derive
from zomgen.cases.repair import repaired
from zomgen.cases.strings import matching

PATTERNS = [
    r"^ID-[0-9]{4}$",
    r"^(EPSG|ESRI):[0-9]+$",
    r"^[^/]+$",
    r"^\d{2,}x$",
    r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$",
    r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
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


# `^([a-z])\1$`: a back reference, which zomgen refuses (RE2 cannot match it)
@pytest.mark.parametrize("pattern", ["[", r"^(?=.*[0-9])[a-z0-9]{4}$", "a{2000}", r"^([a-z])\1$"])
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
    # a length relation refused at the list with other constraints (two axes at least): the
    # other list (a scale's factors) is resized to it
    "other-length": {
        **group(
            {
                "type": "object",
                "properties": {
                    "axes": {"type": "array", "items": {"type": "string"}, "minItems": 2},
                    "scale": {"type": "array", "items": {"type": "number"}},
                },
                "required": ["axes", "scale"],
            }
        ),
        "x-zomgen-equal-length": [["/attributes/scale", "/attributes/axes"]],
    },
    # a key found twice where it must be unique: varied
    "unique-by": {
        **group(
            {
                "type": "object",
                "properties": {
                    "axes": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"name": {"type": "string"}, "unit": {"type": "string"}},
                            "required": ["name", "unit"],
                        },
                        "minItems": 2,
                    }
                },
                "required": ["axes"],
            }
        ),
        "x-zomgen-unique-by": {"/attributes/axes": "/unit"},
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
    elif name == "other-length":
        assert len(valid["axes"]) >= 2 and len(valid["scale"]) == len(valid["axes"])
    elif name == "unique-by":
        assert len({axis["unit"] for axis in valid["axes"]}) == len(valid["axes"]) >= 2
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


def test_an_option_that_holds_its_own_union_is_built(tmp_path: Path) -> None:
    """A sequence of transformations holds at least one transformation (SpatialData's and
    OME-NGFF 0.6's `sequence`): the inner one takes an option that ends, so the sequence is
    built, parsed as its class and dumped back unchanged."""
    transformation = {
        "oneOf": [
            {"$ref": "#/$defs/Scale"},
            {"$ref": "#/$defs/Sequence"},
        ]
    }
    defs = {
        "Transformation": transformation,
        "Scale": {
            "type": "object",
            "properties": {"type": {"const": "scale"}, "scale": {"type": "number"}},
            "required": ["type", "scale"],
        },
        "Sequence": {
            "type": "object",
            "properties": {
                "type": {"const": "sequence"},
                "transformations": {
                    "type": "array",
                    "items": {"$ref": "#/$defs/Transformation"},
                    "minItems": 1,
                },
            },
            "required": ["type", "transformations"],
        },
    }
    attributes = {
        "type": "object",
        "properties": {"transform": {"$ref": "#/$defs/Transformation"}},
        "required": ["transform"],
    }
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(group(attributes, defs)), encoding="utf-8")
    derive(schema, tmp_path / "out", (), "lab")
    report = json.loads((tmp_path / "out" / "lab_cases" / "report.json").read_text("utf-8"))
    assert report["options"]["not_built"] == []
    assert report["options"]["failures"] == []
    # both options where the attribute holds a transformation, and where a sequence does
    assert (report["options"]["built"], report["options"]["options"]) == (4, 4)


def _options_report(convention: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(convention), encoding="utf-8")
    derive(schema, tmp_path / "out", (), "lab")
    report = json.loads((tmp_path / "out" / "lab_cases" / "report.json").read_text("utf-8"))
    options: dict[str, Any] = report["options"]
    return options


IMAGE_OR_FOLDER = {
    "anyOf": [
        {
            "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
            "properties": {
                "attributes": {
                    "type": "object",
                    "properties": {"image": {"const": True}},
                    "required": ["image"],
                }
            },
        },
        {
            "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
            "properties": {"attributes": {"maxProperties": 0}},
        },
    ]
}


def test_a_series_that_must_name_a_member_is_repaired_to_name_one(tmp_path: Path) -> None:
    """OME-NGFF bf2raw: the names a list gives must reach members (`x-zomgen-reaches` with a
    target `/members/{source}`); the synthesised '' is repaired to an existing member's name,
    so both options of the members' union are built."""
    convention = {
        **group(
            {
                "type": "object",
                "properties": {"series": {"type": "array", "items": {"type": "string"}}},
                "required": ["series"],
            }
        ),
        "x-zomgen-reaches": [["/attributes/series/*", "/members/{/attributes/series/*}"]],
    }
    convention["properties"]["members"] = {"additionalProperties": IMAGE_OR_FOLDER}
    options = _options_report(convention, tmp_path)
    assert options["not_built"] == [] and options["failures"] == []
    assert options["built"] == options["options"] >= 2


def test_a_path_across_two_members_is_repaired_by_renaming_them(tmp_path: Path) -> None:
    """OME-NGFF plate: a well's `path` is its row's name, `/`, its column's name, and names a
    group two members down; the row and well built are renamed to it, and the options of the
    union inside the well are built there."""
    row = {
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "properties": {"members": {"additionalProperties": {"$ref": "#/$defs/Well"}}},
    }
    well = {
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "properties": {"members": {"additionalProperties": IMAGE_OR_FOLDER}},
    }
    name = {"type": "string", "pattern": "^[A-Z]$"}
    convention = {
        **group(
            {
                "type": "object",
                "properties": {
                    "rows": {"type": "array", "items": name, "minItems": 1},
                    "wells": {
                        "type": "array",
                        "items": {"type": "string"},
                        "minItems": 1,
                    },
                },
                "required": ["rows", "wells"],
            },
            {"Row": row, "Well": well},
        ),
        "x-zomgen-member-kind": {"/attributes/wells/*": "group"},
        "x-zomgen-equal": [
            [
                "/attributes/wells/*",
                {"join": ["/attributes/rows/0", "/attributes/rows/0"], "with": "/"},
            ]
        ],
    }
    convention["properties"]["members"] = {"additionalProperties": {"$ref": "#/$defs/Row"}}
    options = _options_report(convention, tmp_path)
    assert options["not_built"] == [] and options["failures"] == []
    assert options["built"] == options["options"] >= 2


def test_options_told_apart_by_an_optional_tag_are_built_with_it(tmp_path: Path) -> None:
    """PROJJSON: a projected CRS and a derived geodetic CRS have the same required keys and
    differ by their optional `type` alone, so a `oneOf` of the two refuses a value without
    it. An option is built with its optional keys of literal type, so each is built (before:
    neither, in an optional key)."""

    def crs(tag: str) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {"type": {"const": tag}, "name": {"type": "string"}},
            "required": ["name"],
            "additionalProperties": False,
        }

    attributes = {
        "type": "object",
        "properties": {
            "crs": {"oneOf": [{"$ref": "#/$defs/Projected"}, {"$ref": "#/$defs/Derived"}]}
        },
    }
    defs = {"Projected": crs("ProjectedCRS"), "Derived": crs("DerivedGeodeticCRS")}
    options = _options_report(group(attributes, defs), tmp_path)
    assert options["not_built"] == [] and options["failures"] == []
    assert options["built"] == options["options"] >= 2


def _counted(kind: str) -> dict[str, Any]:
    return {"properties": {"type": {"const": kind}}, "required": ["type"]}


def test_too_many_items_a_contains_counts_are_taken_off_it() -> None:
    """OME-NGFF 0.6's axes: two or three of type `space` (else two of type `array`), and a
    5 x 5 rotation needs five. Five `space` axes are repaired by keeping the first two and
    varying the type of the rest, which no other repair of a `contains` does."""
    axes = {
        "type": "array",
        "items": {"type": "object", "properties": {"name": {}, "type": {"type": "string"}}},
        "uniqueItems": True,
        "oneOf": [
            {"contains": _counted("space"), "minContains": 2, "maxContains": 3},
            {"contains": _counted("array"), "minContains": 2},
        ],
    }
    schema = {"type": "object", "properties": {"axes": axes}}
    document = {"axes": [{"name": f"a{i}", "type": "space"} for i in range(5)]}
    out = repaired(document, schema, lambda d: check_document(d, schema))
    assert check_document(out, schema) == []
    types = [axis["type"] for axis in out["axes"]]
    assert types == ["space", "space", "space1", "space2", "space3"]
    assert [axis["name"] for axis in out["axes"]] == [f"a{i}" for i in range(5)]


def test_indices_a_relation_refuses_are_repaired_into_range_and_once_each() -> None:
    """OME-NGFF 0.6 byDimension: each child's input axes are indices of the input system's
    axes (`x-zomgen-index-of`), and the children's output axes hold each index of the output
    system's axes once (`x-zomgen-partition`); a synthesised child mapping axis 0 alone, or an
    index past the end, is repaired to a document the run time accepts."""
    schema = {
        "type": "object",
        "x-zomgen-index-of": [["/children/*/[!type]/in/*", "/from"]],
        "x-zomgen-partition": [["/children/[*]/[!type]/out", "/to"]],
    }
    document = {
        "from": ["f0", "f1"],
        "to": ["t0", "t1", "t2"],
        "children": [{"in": [5], "out": [0]}, {"in": [1], "out": [0]}],
    }
    refused = {p.keyword for p in check_document(document, schema)}
    assert refused == {"x-zomgen-index-of", "x-zomgen-partition"}
    out = repaired(document, schema, lambda d: check_document(d, schema))
    assert check_document(out, schema) == []
    held = sorted(i for child in out["children"] for i in child["out"])
    assert held == [0, 1, 2]
    assert all(0 <= i < 2 for child in out["children"] for i in child["in"])


def _usage_crs() -> dict[str, Any]:
    """PROJJSON's shape: a CRS takes `object_usage` into its `allOf`, an `anyOf` of two open
    objects, the first typing `scope`, the second `usages`; the CRS allows any `scope`."""
    usage = {
        "anyOf": [
            {"type": "object", "properties": {"scope": {"type": "string"}}},
            {
                "type": "object",
                "properties": {"usages": {"type": "array", "items": {"type": "string"}}},
            },
        ]
    }
    crs = {
        "type": "object",
        "allOf": [{"$ref": "#/$defs/Usage"}],
        "properties": {"name": {"type": "string"}, "scope": {}, "usages": {}},
        "required": ["name"],
        "additionalProperties": False,
    }
    return {"Usage": usage, "Crs": crs}


@pytest.mark.parametrize("required", [True, False], ids=["required", "optional"])
def test_a_later_option_an_earlier_one_also_holds_is_built_off_it(
    required: bool, tmp_path: Path
) -> None:
    """The smallest CRS holds both options of the `anyOf`, and the run time reads the first.
    The second is built with a `scope` that is not a string, which the first refuses and the
    CRS allows (cases/spoil.py), in a required key and in an optional one (where the key was
    left out before); the package parses it as the second option's class."""
    attributes = {
        "type": "object",
        "properties": {"crs": {"$ref": "#/$defs/Crs"}},
        "required": ["crs"] if required else [],
    }
    options = _options_report(group(attributes, _usage_crs()), tmp_path)
    assert options["not_built"] == [] and options["failures"] == []
    assert options["built"] == options["options"] >= 2
    models = (tmp_path / "out" / "lab_cases" / "models_cases.py").read_text("utf-8")
    assert "CrsOption2(" in models and "scope=0" in models, models


def test_an_option_no_change_can_tell_from_an_earlier_one_is_named_not_built(
    tmp_path: Path,
) -> None:
    """An `anyOf` whose first option is any object: no key tells the second apart, so it is
    never what a document means, and the report says why rather than building a value the run
    time would read as the first."""
    attributes = {
        "type": "object",
        "properties": {
            "meta": {
                "anyOf": [
                    {"type": "object"},
                    {"type": "object", "properties": {"a": {"type": "string"}}},
                ]
            }
        },
        "required": ["meta"],
    }
    options = _options_report(group(attributes), tmp_path)
    assert options["failures"] == []
    (missing,) = options["not_built"]
    assert (missing["union"], missing["option"]) == ("LabAttributes.meta", 2)
    assert "option 1" in missing["reason"] and "holds for every value" in missing["reason"]
    assert missing["pointer"].endswith("/properties/meta/anyOf/1"), missing


def test_a_group_whose_other_members_may_be_groups_like_it_is_built_inside_itself(
    tmp_path: Path,
) -> None:
    """GeoZarr: a group's other members are groups like itself or arrays. The group option is
    the type being built, so it is built once more inside itself, whose own other member then
    takes the array (before: only the array was ever built)."""
    convention = group({"type": "object"})
    convention["properties"]["members"] = {
        "additionalProperties": {
            "anyOf": [{"$ref": "#"}, {"allOf": [{"$ref": "urn:zom:v3#/$defs/ArraySpec"}]}]
        }
    }
    options = _options_report(convention, tmp_path)
    assert options["not_built"] == [] and options["failures"] == []
    assert options["built"] == options["options"] == 2


def test_an_option_in_a_key_the_model_keeps_as_json_parses_as_that_json(tmp_path: Path) -> None:
    """A v2 array whose `compressor` is a codec record or null: the model keeps the base
    field's `JsonObject | None` (the record would not be a subtype of it), so the codec option
    parses as the JSON read, unchanged, which is what its type says (before: reported as
    "parse built dict, not Codec")."""
    convention = {
        "title": "Lab",
        "allOf": [{"$ref": "urn:zom:v2#/$defs/ArraySpec"}],
        "properties": {"compressor": {"anyOf": [{"$ref": "#/$defs/Codec"}, {"type": "null"}]}},
        "$defs": {
            "Codec": {
                "type": "object",
                "properties": {"id": {"type": "string"}},
                "required": ["id"],
            }
        },
    }
    options = _options_report(convention, tmp_path)
    assert options["not_built"] == [] and options["failures"] == []
    assert options["built"] == options["options"] >= 2


def test_options_that_differ_only_inside_a_required_key_are_walked_as_the_one_that_holds(
    tmp_path: Path,
) -> None:
    """OME-Zarr's `ome_zarr.schema`: every option requires `ome` and types it its own way.
    The places of a document are those of the option whose type admits it all the way down,
    not of the first whose top level fits (bf2raw's), or the transformations inside an
    image's optional key would never be reached (before: both of `scale`'s were not built)."""
    layout = {
        "type": "object",
        "properties": {"ome": {"type": "object", "properties": {"layout": {"const": 3}}}},
        "required": ["ome"],
    }
    layout["properties"]["ome"]["required"] = ["layout"]
    image = {
        "type": "object",
        "properties": {
            "ome": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "scale": {
                        "anyOf": [
                            {
                                "type": "object",
                                "properties": {"by": {"type": "number"}},
                                "required": ["by"],
                                "additionalProperties": False,
                            },
                            {
                                "type": "object",
                                "properties": {"to": {"type": "string"}},
                                "required": ["to"],
                                "additionalProperties": False,
                            },
                        ]
                    },
                },
                "required": ["name"],
            }
        },
        "required": ["ome"],
    }
    options = _options_report(group({"anyOf": [layout, image]}), tmp_path)
    assert options["not_built"] == [] and options["failures"] == []
    assert options["built"] == options["options"] == 6  # with the other members' two kinds


def test_a_json_value_union_builds_its_number_and_its_recursive_list(tmp_path: Path) -> None:
    """A JSON value: `anyOf` integer, number, ..., a list of JSON values. The number option is
    built as a number no integer option holds (0 is read as the integer), and the list holds a
    JSON value that ends (before: the list was built inside itself until the budget ran out)."""
    attributes = {
        "type": "object",
        "properties": {"fill": {"$ref": "#/$defs/JSONValue"}, "name": {"type": "string"}},
        "required": ["fill", "name"],
    }
    convention = group(attributes)
    convention["$defs"] = {
        "JSONValue": {
            "anyOf": [
                {"type": "integer"},
                {"type": "number"},
                {"type": "string"},
                {"type": "array", "items": {"$ref": "#/$defs/JSONValue"}},
                {"type": "object", "additionalProperties": {"$ref": "#/$defs/JSONValue"}},
                {"type": "null"},
            ]
        }
    }
    options = _options_report(convention, tmp_path)
    assert options["not_built"] == [] and options["failures"] == []
    assert options["built"] == options["options"] == 8  # with the other members' two kinds


def test_an_option_the_repairs_would_turn_into_another_is_repaired_as_itself(
    tmp_path: Path,
) -> None:
    """A `oneOf` of an enum of names and a `pattern`: the empty string built for the pattern's
    option matches neither, and the repair makes it match the option being built (`r0`), not
    the first option's enum (before: the pattern's option was not built)."""
    attributes = {
        "type": "object",
        "properties": {
            "data_type": {
                "oneOf": [
                    {"type": "string", "enum": ["bool", "int8"]},
                    {"type": "string", "pattern": "^r[0-9]+$"},
                ]
            }
        },
        "required": ["data_type"],
    }
    options = _options_report(group(attributes), tmp_path)
    assert options["not_built"] == [] and options["failures"] == []
    assert options["built"] == options["options"] == 4


def test_a_oneof_option_another_option_always_holds_too_is_named_with_why(
    tmp_path: Path,
) -> None:
    """pr347's codecs: a `oneOf` whose extension option admits every name but the core ones,
    which leave out the sharding codec's. No document is a sharding codec, and the report
    names the option that holds it too rather than "repaired into another"."""
    attributes = {
        "type": "object",
        "properties": {
            "codec": {
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {"name": {"const": "sharding"}},
                        "required": ["name"],
                    },
                    {
                        "type": "object",
                        "properties": {"name": {"type": "string", "not": {"enum": ["bytes"]}}},
                        "required": ["name"],
                    },
                ]
            }
        },
        "required": ["codec"],
    }
    options = _options_report(group(attributes), tmp_path)
    assert options["failures"] == []
    (missing,) = options["not_built"]
    assert (missing["union"], missing["option"]) == ("LabAttributes.codec", 1)
    assert missing["reason"].startswith("option 2 (") and "the `oneOf` refuses" in missing["reason"]
