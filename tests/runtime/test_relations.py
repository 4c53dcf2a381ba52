"""The relation keywords (docs/extra-checks.md, "Relations"): x-zomgen-equal, -equal-length,
-count-equal, -reaches, -in, -unique-by, -index-of, -partition, and x-zomgen-member-kind over the same paths (`*`, `[*]`, `->`,
`{path}`), each problem at the faulty node and key; the reference engine, jsonschema-rs and
zomgen's TypeScript runtime under Node give the same verdicts and the same problems."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import Problem, check_document, is_valid
from zomgen_runtime.paths import canonical, same
from zomgen_runtime.pointers import escape

from tests.support.node import run_node
from tests.support.runtime import CHECK_COMBINATOR_CASES, V3_GROUP, v3_array

EQUAL = "x-zomgen-equal"
LENGTH = "x-zomgen-equal-length"
COUNT = "x-zomgen-count-equal"
REACHES = "x-zomgen-reaches"
IN = "x-zomgen-in"
UNIQUE = "x-zomgen-unique-by"
KIND = "x-zomgen-member-kind"
INDEX_OF = "x-zomgen-index-of"
PARTITION = "x-zomgen-partition"

Row = tuple[str, str, str, str]

# The OME-NGFF 0.5 rules, one keyword use each (the bundled conventions say the same).
MS = "/attributes/ome/multiscales/*"
LEVEL = f"{MS}/datasets/*/path/->"
LABEL_DATASETS = "/members/labels/attributes/ome/labels/*/->/attributes/ome/multiscales/*/datasets"
OME_RULES: dict[str, Any] = {
    KIND: {f"{MS}/datasets/*/path": "array"},
    LENGTH: [
        [
            f"{MS}/axes",
            f"{LEVEL}/shape",
            f"{MS}/datasets/*/coordinateTransformations/*/scale",
            f"{MS}/datasets/*/coordinateTransformations/*/translation",
        ],
        [f"{MS}/datasets", LABEL_DATASETS],
    ],
    EQUAL: [[f"{MS}/axes/[*]/name", f"{LEVEL}/dimension_names"]],
    UNIQUE: {f"{MS}/axes": "/name"},
}
LABELS_AT = "/properties/members/properties/labels"
SCHEMA: dict[str, Any] = {
    **OME_RULES,
    "properties": {
        "members": {"properties": {"labels": {KIND: {"/attributes/ome/labels/*": "group"}}}}
    },
}


def _at(keyword: str, entry: str | int, where: str = "") -> str:
    """The schema path of one entry of a keyword's value."""
    return f"{where}/{escape(keyword)}/{escape(entry)}"


def _group(attributes: dict[str, Any], members: dict[str, Any]) -> dict[str, Any]:
    return {**V3_GROUP, "attributes": attributes, "members": members}


def _image(levels: int = 2, names: tuple[str, ...] = ("y", "x")) -> dict[str, Any]:
    datasets = [
        {"path": f"s{i}", "coordinateTransformations": [{"type": "scale", "scale": [2.0**i] * 2}]}
        for i in range(levels)
    ]
    axes = [{"name": n, "type": "space"} for n in names]
    members = {
        f"s{i}": v3_array([64 >> i, 64 >> i], dimension_names=list(names)) for i in range(levels)
    }
    ome = {"version": "0.5", "multiscales": [{"axes": axes, "datasets": datasets}]}
    return _group({"ome": ome}, members)


def _labelled(levels: int = 2) -> dict[str, Any]:
    image = _image()
    image["members"]["labels"] = _group({"ome": {"labels": ["cells"]}}, {"cells": _image(levels)})
    return image


def _ms(document: dict[str, Any]) -> Any:
    return document["attributes"]["ome"]["multiscales"][0]


def _broken(mutate: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    document = _labelled()
    mutate(document)
    return document


def _rename(document: dict[str, Any]) -> None:
    document["members"]["s1"]["dimension_names"] = ["y", "z"]


def _three_dims(document: dict[str, Any]) -> None:
    document["members"]["s1"]["shape"] = [1, 32, 32]


PLATE_RULE: dict[str, Any] = {
    EQUAL: [
        [
            "/attributes/plate/wells/*/path",
            {
                "join": [
                    "/attributes/plate/rows/{/attributes/plate/wells/*/rowIndex}/name",
                    "/attributes/plate/columns/{/attributes/plate/wells/*/columnIndex}/name",
                ],
                "with": "/",
            },
        ]
    ],
    UNIQUE: {"/attributes/plate/wells": "/path"},
    KIND: {"/attributes/plate/wells/*/path": "group"},
}


# An OME plate's indices name a row and a column; a field's acquisition is one the plate lists.
INDEX_RULES: dict[str, Any] = {
    REACHES: [
        [
            "/attributes/plate/wells/*/rowIndex",
            "/attributes/plate/rows/{/attributes/plate/wells/*/rowIndex}",
        ],
        [
            "/attributes/plate/wells/*/columnIndex",
            "/attributes/plate/columns/{/attributes/plate/wells/*/columnIndex}",
        ],
    ],
    IN: [
        [
            "/members/*/members/*/attributes/well/images/*/acquisition",
            "/attributes/plate/acquisitions/*/id",
        ]
    ],
}


# OME label images: every level has an integer data type; the type is in the level, so the
# values are listed in the rule (`{"values": [...]}`).
PIXEL_RULE: dict[str, Any] = {IN: [[f"{LEVEL}/data_type", {"values": ["uint8", "uint16", 1]}]]}


def _pixels(*data_types: Any) -> dict[str, Any]:
    """An image with a level of each data type."""
    image = _image(len(data_types))
    for i, data_type in enumerate(data_types):
        image["members"][f"s{i}"]["data_type"] = data_type
    return image


def _acquired(acquisitions: list[int] | None, fields: list[int]) -> dict[str, Any]:
    """A plate of one well `A/1` whose fields name `fields` as their acquisitions (None: the
    plate lists no `acquisitions` at all)."""
    plate = _plate([("A/1", 0, 0)])
    if acquisitions is not None:
        plate["attributes"]["plate"]["acquisitions"] = [{"id": i} for i in acquisitions]
    images = [{"path": str(i), "acquisition": a} for i, a in enumerate(fields)]
    plate["members"]["A"]["members"]["1"]["attributes"] = {"well": {"images": images}}
    return plate


def _plate(wells: list[tuple[str, int, int]]) -> dict[str, Any]:
    rows = [{"name": "A"}, {"name": "B"}]
    columns = [{"name": "1"}, {"name": "2"}]
    plate = {
        "rows": rows,
        "columns": columns,
        "wells": [{"path": p, "rowIndex": r, "columnIndex": c} for p, r, c in wells],
    }
    members = {
        row["name"]: _group({}, {col["name"]: _group({}, {}) for col in columns}) for row in rows
    }
    return _group({"plate": plate}, members)


# OME-Zarr 0.6: a level has as many dimensions as the coordinate system its transformation
# outputs to has axes, that system looked up by its name.
# An affine matrix's rows: one item more than the axes (the last is the translation).
PLUS_RULE = {LENGTH: [["/attributes/m/*/affine/*", {"path": "/attributes/m/*/axes", "plus": 1}]]}
LOOKUP_RULE: dict[str, Any] = {
    LENGTH: [
        [
            f"{LEVEL}/shape",
            f"{MS}/coordinateSystems/[name={{{MS}/datasets/*/coordinateTransformations/0/output/name}}]/axes",
        ]
    ]
}


# The same looked up from the anchor: the selection's path shares the anchor's multiscale `*`,
# so each multiscale's levels are compared with its own coordinate system.
OWN_LOOKUP_RULE: dict[str, Any] = {
    LENGTH: [
        [
            f"{MS}/coordinateSystems/[name={{{MS}/datasets/0/coordinateTransformations/0/output/name}}]/axes",
            f"{LEVEL}/shape",
        ]
    ]
}


def _two_multiscales(second_axes: int) -> dict[str, Any]:
    """Two multiscales, each with its levels (2-d, then 3-d arrays) and one coordinate system
    `intrinsic` (2 axes, then `second_axes`)."""
    first = _systems("intrinsic", systems=(("intrinsic", 2),))
    second = _systems("intrinsic", systems=(("intrinsic", second_axes),))
    second_ms = _ms(second)
    second_ms["datasets"][0]["path"] = "t0"
    first["attributes"]["ome"]["multiscales"].append(second_ms)
    first["members"]["t0"] = v3_array([4, 8, 8])
    return first


def _systems(*outputs: str, systems: tuple[tuple[str, int], ...]) -> dict[str, Any]:
    """A 0.6-style image: one level per output name (2-d arrays), and coordinate systems
    (name, number of axes)."""
    datasets = [
        {"path": f"s{i}", "coordinateTransformations": [{"output": {"name": name}}]}
        for i, name in enumerate(outputs)
    ]
    cs = [{"name": n, "axes": [{"name": f"a{k}"} for k in range(k_)]} for n, k_ in systems]
    members = {f"s{i}": v3_array([8, 8]) for i in range(len(outputs))}
    ome = {"multiscales": [{"coordinateSystems": cs, "datasets": datasets}]}
    return _group({"ome": ome}, members)


# OME-Zarr 0.6: a multiscale transformation's reference without `path` (or with a null one)
# names a coordinate system of the same multiscale; one with a `path` names one elsewhere.
SAME_DOCUMENT_RULE: dict[str, Any] = {
    IN: [
        [f"{MS}/coordinateTransformations/*/{end}/[!path]/name", f"{MS}/coordinateSystems/*/name"]
        for end in ("input", "output")
    ]
}


def _referencing(*references: dict[str, Any]) -> dict[str, Any]:
    """An image with systems `intrinsic` and `world`, and one multiscale transformation from
    each reference to `world`."""
    document = _systems("intrinsic", systems=(("intrinsic", 2), ("world", 2)))
    _ms(document)["coordinateTransformations"] = [
        {"type": "identity", "input": reference, "output": {"name": "world"}}
        for reference in references
    ]
    return document


# (name, schema, document, expected problems: node, pointer, keyword, schema path)
# OME-Zarr 0.6's byDimension: each child's `inputAxes` name axes of the input system, and the
# children's `outputAxes` hold each axis of the output system exactly once.
AXES_RULES: dict[str, Any] = {
    INDEX_OF: [["/attributes/children/*/[!type]/in/*", "/attributes/from"]],
    PARTITION: [["/attributes/children/[*]/[!type]/out", "/attributes/to"]],
}


def _children(*children: tuple[list[Any], list[Any]], axes: int = 2) -> dict[str, Any]:
    """A group whose `children` map indices `in` of `from` to indices `out` of `to` (2 axes)."""
    return _group(
        {
            "from": [f"f{i}" for i in range(axes)],
            "to": [f"t{i}" for i in range(axes)],
            "children": [{"in": i, "out": o} for i, o in children],
        },
        {},
    )


def _typed(document: dict[str, Any]) -> dict[str, Any]:
    """The same children with a `type` each: a sequence's transformations, not a byDimension's
    children (the `[!type]` in AXES_RULES leaves them alone)."""
    for child in document["attributes"]["children"]:
        child["type"] = "scale"
    return document


AXES_CASES: list[tuple[str, dict[str, Any], dict[str, Any], list[Row]]] = [
    ("indices in range, each output once", AXES_RULES, _children(([0], [1]), ([1], [0])), []),
    ("1.0 is the index 1", AXES_RULES, _children(([0, 1.0], [0]), ([1], [1.0])), []),
    ("no children: nothing judged", AXES_RULES, _children(), []),
    ("children with a type: not judged", AXES_RULES, _typed(_children(([5], [1]))), []),
    (
        "input indices past the end, below zero and not whole",
        AXES_RULES,
        _children(([2, -1], [0]), ([0.5], [1])),
        [
            ("/", "/attributes/children/0/in/0", INDEX_OF, _at(INDEX_OF, 0)),
            ("/", "/attributes/children/0/in/1", INDEX_OF, _at(INDEX_OF, 0)),
            ("/", "/attributes/children/1/in/0", INDEX_OF, _at(INDEX_OF, 0)),
        ],
    ),
    (
        "an output index held twice, and one held by none",  # upstream's byDimensionInvalid2
        AXES_RULES,
        _children(([1], [1]), ([0], [1])),
        [("/", "/attributes/children", PARTITION, _at(PARTITION, 0))],
    ),
    (
        "an output index past the end",  # upstream's byDimensionInvalid1
        AXES_RULES,
        _children(([1], [2]), ([0], [2])),
        [("/", "/attributes/children", PARTITION, _at(PARTITION, 0))],
    ),
]

CASES: list[tuple[str, dict[str, Any], dict[str, Any], list[Row]]] = [
    ("an image with a label", SCHEMA, _labelled(), []),
    (
        "a dataset path that names nothing",
        SCHEMA,
        _broken(lambda d: _ms(d)["datasets"][1].update(path="s9")),
        [
            (
                "/",
                "/attributes/ome/multiscales/0/datasets/1/path",
                KIND,
                _at(KIND, f"{MS}/datasets/*/path"),
            )
        ],
    ),
    (
        "a level whose dimensions disagree with the axes",
        SCHEMA,
        _broken(_three_dims),
        [("/s1", "/shape", LENGTH, _at(LENGTH, 0))],
    ),
    (
        "a scale of the wrong length",
        SCHEMA,
        _broken(lambda d: _ms(d)["datasets"][0]["coordinateTransformations"][0].update(scale=[1])),
        [
            (
                "/",
                "/attributes/ome/multiscales/0/datasets/0/coordinateTransformations/0/scale",
                LENGTH,
                _at(LENGTH, 0),
            )
        ],
    ),
    (
        "dimension_names that are not the axes' names",
        SCHEMA,
        _broken(_rename),
        [("/s1", "/dimension_names", EQUAL, _at(EQUAL, 0))],
    ),
    (
        "two axes with one name",
        SCHEMA,
        _broken(lambda d: _ms(d)["axes"][1].update(name="y")),
        [
            ("/", "/attributes/ome/multiscales/0/axes/1/name", UNIQUE, _at(UNIQUE, f"{MS}/axes")),
            # and then the levels' dimension_names differ from ["y", "y"]
            ("/s0", "/dimension_names", EQUAL, _at(EQUAL, 0)),
            ("/s1", "/dimension_names", EQUAL, _at(EQUAL, 0)),
        ],
    ),
    (
        "a label listed but missing",
        SCHEMA,
        _broken(lambda d: d["members"]["labels"]["attributes"]["ome"]["labels"].append("nuclei")),
        [
            (
                "/labels",
                "/attributes/ome/labels/1",
                KIND,
                _at(KIND, "/attributes/ome/labels/*", LABELS_AT),
            )
        ],
    ),
    (
        "a label with fewer levels than its image",
        SCHEMA,
        _labelled(levels=1),
        [("/labels/cells", "/attributes/ome/multiscales/0/datasets", LENGTH, _at(LENGTH, 1))],
    ),
    ("a plate whose wells match", PLATE_RULE, _plate([("A/1", 0, 0), ("B/2", 1, 1)]), []),
    (
        "a well whose indices disagree with its path",
        PLATE_RULE,
        _plate([("A/1", 0, 0), ("B/2", 1, 0)]),
        [("/", "/attributes/plate/wells/1/path", EQUAL, _at(EQUAL, 0))],
    ),
    (
        "a well listed twice, and one that does not exist",
        PLATE_RULE,
        _plate([("A/1", 0, 0), ("A/1", 0, 0), ("C/1", 2, 0)]),
        [
            ("/", "/attributes/plate/wells/1/path", UNIQUE, _at(UNIQUE, "/attributes/plate/wells")),
            (
                "/",
                "/attributes/plate/wells/2/path",
                KIND,
                _at(KIND, "/attributes/plate/wells/*/path"),
            ),
        ],
    ),
    ("indices that name a row and a column", INDEX_RULES, _plate([("B/2", 1, 1)]), []),
    (
        "a rowIndex beyond the rows, and a columnIndex beyond the columns",
        INDEX_RULES,
        _plate([("A/1", 0, 0), ("B/2", 2, 1), ("B/2", 1, 5)]),
        [
            ("/", "/attributes/plate/wells/1/rowIndex", REACHES, _at(REACHES, 0)),
            ("/", "/attributes/plate/wells/2/columnIndex", REACHES, _at(REACHES, 1)),
        ],
    ),
    ("acquisitions the plate lists", INDEX_RULES, _acquired([0, 1], [1, 0, 1]), []),
    ("no acquisitions key: nothing to be one of", INDEX_RULES, _acquired(None, [4]), []),
    (
        "an empty list of acquisitions: nothing is one of it",
        INDEX_RULES,
        _acquired([], [4, 5]),
        [
            ("/A/1", "/attributes/well/images/0/acquisition", IN, _at(IN, 0)),
            ("/A/1", "/attributes/well/images/1/acquisition", IN, _at(IN, 0)),
        ],
    ),
    (
        "an acquisition the plate does not list",
        INDEX_RULES,
        _acquired([0, 1], [1, 2]),
        [("/A/1", "/attributes/well/images/1/acquisition", IN, _at(IN, 0))],
    ),
    ("levels of the data types listed", PIXEL_RULE, _pixels("uint8", "uint16"), []),
    ("a listed number compares as JSON: 1.0 is 1", PIXEL_RULE, _pixels(1.0), []),
    (
        "a level of a data type not listed, and one not a string",
        PIXEL_RULE,
        _pixels("uint8", "float32", {"name": "uint8"}),
        [
            ("/s1", "/data_type", IN, _at(IN, 0)),
            ("/s2", "/data_type", IN, _at(IN, 0)),
        ],
    ),
    (
        "listed objects, in any key order",
        {IN: [["/attributes/o/*", {"values": [{"a": 1, "b": [2]}, None]}]]},
        _group({"o": [{"b": [2.0], "a": 1}, None, {"a": 1}]}, {}),
        [("/", "/attributes/o/2", IN, _at(IN, 0))],
    ),
    (
        "a count that holds",
        {COUNT: [["/attributes/n", "/members/*"]]},
        _group({"n": 2}, {"a": _group({}, {}), "b": _group({}, {})}),
        [],
    ),
    (
        "a count that does not",
        {COUNT: [["/attributes/n", "/members/*"]]},
        _group({"n": 3}, {"a": _group({}, {})}),
        [("/", "/attributes/n", COUNT, _at(COUNT, 0))],
    ),
    (
        "per-item binding: each multiscale against its own axes",
        {LENGTH: [["/attributes/m/*/axes", "/attributes/m/*/scale"]]},
        _group(
            {"m": [{"axes": [1, 2], "scale": [1, 1]}, {"axes": [1, 2, 3], "scale": [1, 1, 1]}]},
            {},
        ),
        [],
    ),
    (
        "plus: each affine row has one item more than the axes, per matrix",
        PLUS_RULE,
        _group(
            {
                "m": [
                    {"axes": [1, 2], "affine": [[1, 0, 0], [0, 1, 0]]},
                    {"axes": [1], "affine": [[1, 0]]},
                ]
            },
            {},
        ),
        [],
    ),
    (
        "plus: a row as long as the axes, one too few (the problem at the axes)",
        PLUS_RULE,
        _group(
            {
                "m": [
                    {"axes": [1], "affine": [[1, 0]]},
                    {"axes": [1, 2], "affine": [[1, 0, 0], [0, 1]]},
                ]
            },
            {},
        ),
        [("/", "/attributes/m/1/axes", LENGTH, _at(LENGTH, 0))],
    ),
    (
        "plus: a negative count; a value that is no list is not compared",
        {
            LENGTH: [
                [
                    "/attributes/rows",
                    {"path": "/attributes/axes", "plus": -1},
                    {"path": "/attributes/other", "plus": 1},
                ]
            ]
        },
        _group({"rows": [1, 2], "axes": [1, 2, 3], "other": 1}, {}),
        [],
    ),
    (
        "a coordinate system looked up by name: as many axes as the level's dimensions",
        LOOKUP_RULE,
        _systems("intrinsic", "intrinsic", systems=(("world", 3), ("intrinsic", 2))),
        [],
    ),
    (
        "a coordinate system looked up by name: fewer axes than dimensions",
        LOOKUP_RULE,
        _systems("intrinsic", "world", systems=(("world", 3), ("intrinsic", 2))),
        [
            (
                "/",
                "/attributes/ome/multiscales/0/coordinateSystems/0/axes",
                LENGTH,
                _at(LENGTH, 0),
            )
        ],
    ),
    (
        "a name no coordinate system has: nothing to compare",
        LOOKUP_RULE,
        _systems("nowhere", systems=(("world", 3),)),
        [],
    ),
    (
        "two coordinate systems of one name: each is compared",
        LOOKUP_RULE,
        _systems("same", systems=(("same", 2), ("same", 1))),
        [
            (
                "/",
                "/attributes/ome/multiscales/0/coordinateSystems/1/axes",
                LENGTH,
                _at(LENGTH, 0),
            )
        ],
    ),
    (
        "a lookup from the anchor: each multiscale against its own coordinate system",
        OWN_LOOKUP_RULE,
        _two_multiscales(3),
        [],
    ),
    (
        "a lookup from the anchor: the second multiscale's levels disagree with its system",
        OWN_LOOKUP_RULE,
        _two_multiscales(2),
        [("/t0", "/shape", LENGTH, _at(LENGTH, 0))],
    ),
    (
        "references without a path name systems of the multiscale; one with a path is skipped",
        SAME_DOCUMENT_RULE,
        _referencing({"name": "intrinsic"}, {"path": "other", "name": "elsewhere"}, "intrinsic"),
        [],
    ),
    (
        "a reference without a path, or with a null one, to a system the multiscale lacks",
        SAME_DOCUMENT_RULE,
        _referencing({"name": "nowhere"}, {"path": None, "name": "nowhere"}),
        [
            (
                "/",
                f"/attributes/ome/multiscales/0/coordinateTransformations/{i}/input/name",
                IN,
                _at(IN, 0),
            )
            for i in (0, 1)
        ],
    ),
    (
        "absent targets are not the relation's business",
        SCHEMA,
        _group({"ome": {"multiscales": [{"datasets": [{"path": 3}]}]}}, {}),
        [],
    ),
    (
        "a relation inside an anyOf branch: the other branch rescues the document",
        {"anyOf": [{LENGTH: [["/a", "/b"]]}, {"required": ["ok"]}]},
        _group({}, {}) | {"a": [1], "b": [1, 2], "ok": True},
        [],
    ),
    (
        "a relation inside an anyOf branch: its own problem is reported",
        {
            "properties": {
                "members": {
                    "additionalProperties": {
                        "anyOf": [
                            {"required": ["shape"]},
                            {LENGTH: [["/attributes/a", "/attributes/b"]]},
                        ]
                    }
                }
            }
        },
        _group({}, {"g": _group({"a": [1], "b": [1, 2]}, {})}),
        [
            (
                "/g",
                "/attributes/b",
                LENGTH,
                _at(LENGTH, 0, "/properties/members/additionalProperties/anyOf/1"),
            )
        ],
    ),
]

CASES += AXES_CASES

MALFORMED: list[tuple[str, Any]] = [
    (INDEX_OF, {"/a": "/b"}),
    (PARTITION, [["/a"]]),
    (PARTITION, [["/a", {"values": [1]}]]),
    (EQUAL, "/a"),
    (EQUAL, [["/a"]]),
    (EQUAL, [[{"join": ["/a"]}, "/b"]]),
    (EQUAL, [["/a", {"join": ["/b"], "sep": "/"}]]),
    (LENGTH, [["/a", {"join": ["/b"]}]]),
    (LENGTH, [["/a/{/b", "/c"]]),
    (LENGTH, [["/a", {"path": "/b"}]]),
    (LENGTH, [["/a", {"path": "/b", "plus": 1.5}]]),
    (LENGTH, [["/a", {"path": "/b", "plus": True}]]),
    (LENGTH, [["/a", {"path": "/b", "plus": 1, "with": "/"}]]),
    (LENGTH, [["/a", {"path": "/b/{/c", "plus": 1}]]),
    (EQUAL, [["/a", {"path": "/b", "plus": 1}]]),
    (REACHES, [["/a", {"path": "/b", "plus": 1}]]),
    (LENGTH, [["/a/[name={/b]", "/c"]]),
    (LENGTH, [["/a/[name={/b}]x", "/c"]]),
    (COUNT, {"/a": "/b"}),
    (REACHES, [["/a"]]),
    (REACHES, [["/a", {"join": ["/b"], "with": "/"}]]),
    (IN, {"/a": "/b"}),
    (IN, [["/a", {"values": []}]]),
    (IN, [["/a", {"values": "uint8"}]]),
    (IN, [["/a", {"values": ["uint8"], "with": "/"}]]),
    (EQUAL, [["/a", {"values": ["uint8"]}]]),
    (UNIQUE, [["/a", "/b"]]),
    (UNIQUE, {"/a": 1}),
    (KIND, {"/a/{": "array"}),
]


def _rows(problems: list[Problem]) -> list[Row]:
    return sorted((p.node_path, p.pointer, p.keyword, p.schema_path) for p in problems)


@pytest.mark.parametrize(
    ("name", "schema", "document", "expected"), CASES, ids=[c[0] for c in CASES]
)
def test_relation_problems(
    name: str, schema: dict[str, Any], document: dict[str, Any], expected: list[Row]
) -> None:
    reference = check_document(document, schema, fast=False)
    assert _rows(reference) == sorted(expected)
    assert _rows(check_document(document, schema)) == sorted(expected)
    assert is_valid(document, schema) is (not expected)  # jsonschema-rs's verdict
    for problem in reference:
        assert problem.message and "malformed" not in problem.message


@pytest.mark.parametrize(("keyword", "value"), MALFORMED)
def test_a_malformed_relation_is_reported(keyword: str, value: Any) -> None:
    problems = check_document(_labelled(), {keyword: value})
    assert [(p.node_path, p.pointer, p.keyword) for p in problems] == [("/", "", keyword)]
    assert "malformed" in problems[0].message
    assert not is_valid(_labelled(), {keyword: value})


def test_plus_says_how_long_the_list_must_be() -> None:
    document = _group({"m": [{"axes": [1, 2], "affine": [[1, 0, 0], [0, 1, 0, 0]]}]}, {})
    (problem,) = check_document(document, PLUS_RULE)
    assert (
        problem.message == "has 2 items, so /attributes/m/0/affine/1 must have 3 items, but has 4"
    )


def test_reaches_and_in_say_what_is_missing() -> None:
    (index,) = check_document(_plate([("B/2", 1, 7)]), INDEX_RULES)
    assert index.message == (
        "7: /attributes/plate/columns/{/attributes/plate/wells/*/columnIndex} reaches nothing"
    )
    (acquisition,) = check_document(_acquired([0, 1], [3]), INDEX_RULES)
    assert acquisition.message == (
        "3 is not one of [0, 1], the values of /attributes/plate/acquisitions/*/id of the group "
        "2 levels above"
    )
    (listed_empty,) = check_document(_acquired([], [3]), INDEX_RULES)
    assert listed_empty.message == (
        "3 is not one of [], the values of /attributes/plate/acquisitions/*/id: "
        "/attributes/plate/acquisitions of the group 2 levels above is empty"
    )


@pytest.mark.node
def test_typescript_says_the_same_of_an_empty_list(runtime: Path) -> None:
    import json

    documents = [_acquired([], [3]), _acquired([0, 1], [3])]
    payload = [{"schema": json.dumps(INDEX_RULES), "documents": documents}]
    (results,) = run_node(runtime / "harness" / "verdicts.mjs", payload)
    python = [[p.message for p in check_document(d, INDEX_RULES)] for d in documents]
    assert [[p["message"] for p in r["problems"]] for r in results] == python


AXES_MESSAGES = [
    (
        _children(([0], [2]), ([1], [1, 1])),
        (
            "must hold each index of /attributes/to (2 items) exactly once: item 0 holds 2, "
            "which is not an index; 1 is held 2 times (by items 1, 1); 0 is held by no item"
        ),
    ),
    (
        _children(([0], [0]), ([3], [1])),
        "3 is not an index of /attributes/from (2 items)",
    ),
]


def test_index_problems_say_which_index_and_how_often() -> None:
    for document, message in AXES_MESSAGES:
        (problem,) = check_document(document, AXES_RULES)
        assert problem.message == message


@pytest.mark.node
def test_typescript_says_the_same_of_indices(runtime: Path) -> None:
    import json

    payload = [{"schema": json.dumps(AXES_RULES), "documents": [d for d, _m in AXES_MESSAGES]}]
    (results,) = run_node(runtime / "harness" / "verdicts.mjs", payload)
    assert [[p["message"] for p in r["problems"]] for r in results] == [
        [m] for _d, m in AXES_MESSAGES
    ]


def test_in_a_list_says_which_values_are_allowed() -> None:
    (problem,) = check_document(_pixels("float32"), PIXEL_RULE)
    assert problem.message == "'float32' is not one of ['uint8', 'uint16', 1]"


def test_problems_name_the_faulty_node_and_key() -> None:
    document = _broken(_three_dims)
    (problem,) = check_document(document, SCHEMA)
    assert (problem.node_path, problem.pointer) == ("/s1", "/shape")
    assert (
        "3 dimensions" in problem.message
        and "/attributes/ome/multiscales/0/axes" in problem.message
    )


def test_values_compare_as_their_canonical_texts() -> None:
    """Relations compare values with `same`, which must agree with comparing `canonical` texts
    (the TypeScript run time's way) on every pair: numbers of both kinds, NaN, huge integers,
    booleans against integers, nested lists and objects in any key order."""
    values: list[Any] = [0, 1, 1.0, -0.0, 0.5, True, False, None, "1", "a", float("nan")]
    values += [float("inf"), 2**60, float(2**60), 1e300, 10**300, 10**400]
    values += [[], {}, [1, 2], [1.0, 2], [True, 2], [[1]], [[1.0]], ["1"]]
    values += [{"a": 1}, {"a": 1.0}, {"b": 1}, {"a": 1, "b": 2}, {"b": 2, "a": 1}]
    for a in values:
        for b in values:
            assert same(a, b) is (canonical(a) == canonical(b)), (a, b)


def test_other_validators_ignore_the_keywords() -> None:
    jsonschema: Any = pytest.importorskip("jsonschema")
    document = _broken(_three_dims)
    assert jsonschema.Draft202012Validator(SCHEMA).is_valid(document)


@pytest.mark.node
def test_typescript_gives_the_same_verdicts_and_problems(runtime: Path) -> None:
    import json

    cases: list[tuple[str, dict[str, Any], Any]] = [(n, s, d) for n, s, d, _e in CASES]
    cases += [(f"malformed {k}", {k: v}, _labelled()) for k, v in MALFORMED]
    cases += [(f"combinator {i}", s, d) for i, (s, d, _v) in enumerate(CHECK_COMBINATOR_CASES)]
    payload = [{"schema": json.dumps(s), "documents": [d]} for _n, s, d in cases]
    results = run_node(runtime / "harness" / "verdicts.mjs", payload)
    agree = 0
    for (name, schema, document), (result,) in zip(cases, results, strict=True):
        python = _rows(check_document(copy.deepcopy(document), schema))
        typescript = sorted(
            (p["node_path"], p["pointer"], p["keyword"], p["schema_path"])
            for p in result["problems"]
        )
        assert (result["valid"], typescript) == (not python, python), name
        agree += 1
    assert agree == len(CASES) + len(MALFORMED) + len(CHECK_COMBINATOR_CASES)
