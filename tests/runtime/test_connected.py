"""`x-zomgen-connected` (docs/extra-checks.md): what the rules link forms one connected graph.
OME-Zarr 0.6's scene: "The graph MUST be connected ...: any two coordinate systems in the
metadata MUST be linked by a path of one or more coordinate transformations", with the scene's
systems named, its images by their paths, and each image's own transformations linking it to
the groups they name (its labels). Each case runs in both run times, with the same problems
and messages."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import Problem, check_document, is_valid

from tests.support.node import run_node
from tests.support.runtime import V3_GROUP

ROOT = Path(__file__).resolve().parents[2]
CONNECTED = "x-zomgen-connected"
SCENE_RULES: dict[str, Any] = {
    CONNECTED: json.loads((ROOT / "schemas/ome-ngff-06-scene/schema.json").read_text("utf-8"))[
        "$defs"
    ]["SceneRules"][CONNECTED]
}
EDGES = "/attributes/ome/scene/coordinateTransformations"

Row = tuple[str, str, str, str]


def _end(end: str) -> dict[str, str]:
    """`image:system` -> a reference to that image's system; `system` -> the scene's."""
    path, _, name = end.rpartition(":")
    return {"path": path, "name": name} if path else {"name": name}


def _image(*links: str, members: dict[str, Any] | None = None) -> dict[str, Any]:
    """An image whose own transformations link its system to the groups `links` name."""
    transformations = [
        {"type": "identity", "input": {"name": "physical"}, "output": _end(f"{g}:physical")}
        for g in links
    ]
    ms = {"coordinateSystems": [{"name": "physical"}], "coordinateTransformations": transformations}
    return {**V3_GROUP, "attributes": {"ome": {"multiscales": [ms]}}, "members": members or {}}


def _folder(**members: Any) -> dict[str, Any]:
    return {**V3_GROUP, "attributes": {}, "members": members}


# A, its label A/labels/x, and that label's own label A/labels/x/y, each linked to the next
NESTED = _image("labels/x", members={"labels": _folder(x=_image("y", members={"y": _image()}))})


def _scene(*edges: tuple[str, str], images: dict[str, Any] | None = None) -> dict[str, Any]:
    transformations = [{"type": "identity", "input": _end(a), "output": _end(b)} for a, b in edges]
    scene = {"coordinateTransformations": transformations}
    return {**V3_GROUP, "attributes": {"ome": {"scene": scene}}, "members": images or {}}


def _fault(edge: int, rule: int = 0) -> Row:
    return ("/", f"{EDGES}/{edge}", CONNECTED, f"/{CONNECTED}/{rule}")


TILES = [(f"tile_{i}:physical", "world") for i in range(4)]
CASES: list[tuple[str, dict[str, Any], list[Row]]] = [
    ("tiles stitched into one world", _scene(*TILES), []),
    ("two images registered to each other", _scene(("A:physical", "B:physical")), []),
    ("two systems of one image", _scene(("A:physical", "world"), ("A:other", "world2")), []),
    (
        "two worlds, nothing between them",
        _scene(("A:physical", "world"), ("B:physical", "other")),
        [_fault(1)],
    ),
    (
        "a third world",
        _scene(("A:physical", "world"), ("B:physical", "other"), ("C:physical", "third")),
        [_fault(1), _fault(2)],
    ),
    (
        "two worlds joined by an image's own link to its label",
        _scene(
            ("A:physical", "world"),
            ("A/labels/cells:physical", "other"),
            images={"A": _image("labels/cells")},
        ),
        [],
    ),
    (
        "the same, the image without that link",
        _scene(
            ("A:physical", "world"), ("A/labels/cells:physical", "other"), images={"A": _image()}
        ),
        [_fault(1)],
    ),
    (
        "two worlds joined through a chain of two images' own links",
        _scene(("A:physical", "world"), ("A/labels/x/y:physical", "other"), images={"A": NESTED}),
        [],
    ),
    (
        "the same, the chain broken in the middle",
        _scene(
            ("A:physical", "world"),
            ("A/labels/x/y:physical", "other"),
            images={
                "A": _image(
                    "labels/x", members={"labels": _folder(x=_image(members={"y": _image()}))}
                )
            },
        ),
        [_fault(1)],
    ),
    (
        "images below the scene that it does not name: not judged",
        _scene(
            ("A:physical", "world"), images={"A": _image(), "B": _image("labels/x"), "C": _image()}
        ),
        [],
    ),
    (
        "an image and a system of the same name are not one node",
        _scene(("A:physical", "world"), ("A", "other")),
        [_fault(1)],
    ),
    ("no transformations", _scene(), []),
]


def _rows(problems: list[Problem]) -> list[Row]:
    return sorted((p.node_path, p.pointer, p.keyword, p.schema_path) for p in problems)


@pytest.mark.parametrize(("name", "document", "expected"), CASES, ids=[c[0] for c in CASES])
def test_the_scene_graph_is_connected(
    name: str, document: dict[str, Any], expected: list[Row]
) -> None:
    assert _rows(check_document(document, SCENE_RULES, fast=False)) == sorted(expected)
    assert _rows(check_document(document, SCENE_RULES)) == sorted(expected)
    assert is_valid(document, SCENE_RULES) is (not expected)  # jsonschema-rs's verdict


def test_the_problem_names_both_groups() -> None:
    many = [(f"t{i}:physical", "world") for i in range(5)]
    (problem,) = check_document(_scene(*many, ("B:physical", "other")), SCENE_RULES)
    assert problem.message == (
        "links group 'B', system 'other', which no chain of links joins to "
        "group 't0', system 'world', group 't1' and 3 more"
    )


MALFORMED: list[Any] = [
    "/a",
    [["/a"]],
    [[1, "/b"]],
    [["/a", {"path": "/b"}]],
    [["/a", {"node": 1, "path": "/b"}]],
    [["/a", {"node": "n", "path": "/b", "plus": 1}]],
    [["/a", {"node": "n", "values": [1]}]],
    [["/a", {"node": "n", "join": ["/b"], "with": "/", "and": 1}]],
    [["/a/{", "/b"]],
]


@pytest.mark.parametrize("value", MALFORMED, ids=[json.dumps(v) for v in MALFORMED])
def test_a_malformed_rule_is_reported(value: Any) -> None:
    (problem,) = check_document(_scene(), {CONNECTED: value})
    assert "is malformed" in problem.message


@pytest.mark.node
def test_typescript_gives_the_same_problems(runtime: Path) -> None:
    cases = [(SCENE_RULES, d) for _n, d, _e in CASES]
    cases += [({CONNECTED: v}, _scene()) for v in MALFORMED]
    many = [(f"t{i}:physical", "world") for i in range(5)]
    cases.append((SCENE_RULES, _scene(*many, ("B:physical", "other"))))
    payload = [{"schema": json.dumps(s), "documents": [d]} for s, d in cases]
    results = run_node(runtime / "harness" / "verdicts.mjs", payload)
    for (schema, document), (result,) in zip(cases, results, strict=True):
        python = check_document(copy.deepcopy(document), schema)
        assert (result["valid"], _rows(python)) == (
            not python,
            sorted(
                (p["node_path"], p["pointer"], p["keyword"], p["schema_path"])
                for p in result["problems"]
            ),
        )
        assert [p["message"] for p in result["problems"]] == [p.message for p in python]
