"""The bundled OME-Zarr 0.6 conventions (schemas/ome-ngff-06-image, -plate, -well, -bf2raw,
-scene; vendored from ome/ngff-spec 0.6rc0) against the community's own material.

- Every `tests/attributes` case of 0.6rc0 that these conventions cover, and every upstream
  example that is an attributes document: each becomes a whole node (an image with the levels
  its `datasets[].path` name, shaped after its coordinate systems; a label's attributes a label
  image under `labels/` of a valid image; a plate with a valid well and field at every listed
  path; a well with a valid image at every listed field; a scene with an image at every path
  its transformations name, holding the coordinate systems they name; the `OME` group inside
  a bioformats2raw collection holding its series), run through the generated package's
  `parse` (and `validate` on a store); each verdict pinned against upstream's, each departure
  with its reason.
- Real stores: ome-zarr-py 0.18 cannot write 0.6 (no FormatV06), so upstream's own
  `tests/zarr` one-node stores are loaded instead, with their stale cases pinned.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import check_document

from tests.support.node import run_node
from tests.support.ome06 import VALID_IMAGE, VERSION
from tests.support.packages import import_package
from tests.support.runtime import CORPUS, ROOT, V3_GROUP, bundled, v3_array

FOLDER = CORPUS / "ome-ngff" / VERSION
PACKAGES = {
    "image": "ome_ngff_06_image",
    "plate": "ome_ngff_06_plate",
    "well": "ome_ngff_06_well",
    "bf2raw": "ome_ngff_06_bf2raw",
    "scene": "ome_ngff_06_scene",
}
# The schema a case names (`_conformance.schema.id`, or an example folder's `.config.json`)
# -> the convention whose root node it becomes (a label is a label image inside an image).
CONVENTION_OF = {
    "image.schema": "image",
    "strict_image.schema": "image",
    "label.schema": "label",
    "strict_label.schema": "label",
    "plate.schema": "plate",
    "strict_plate.schema": "plate",
    "well.schema": "well",
    "strict_well.schema": "well",
    "scene.schema": "scene",
    "bf2raw.schema": "bf2raw",
    "ome.schema": "ome",
}


def _package(kind: str) -> Any:
    """The checked-in generated package of the convention."""
    return import_package(ROOT / "generated", PACKAGES[kind])


def _group(attributes: Any, members: dict[str, Any] | None = None) -> dict[str, Any]:
    return {**V3_GROUP, "attributes": attributes, "members": members or {}}


def _name_ok(path: Any) -> bool:
    return isinstance(path, str) and all(p not in ("", ".", "..") for p in path.split("/"))


def _put(members: dict[str, Any], path: str, node: dict[str, Any]) -> None:
    """`node` at `path` (`a/b/c`: below groups `a` and `b`, made as needed)."""
    *folders, name = path.split("/")
    for folder in folders:
        members = members.setdefault(folder, _group({}))["members"]
    members.setdefault(name, node)


def _axes(multiscale: dict[str, Any]) -> list[Any]:
    """The axes of the multiscale's intrinsic coordinate system (the `output` of its first
    dataset's transformation; else its first coordinate system)."""
    systems = multiscale.get("coordinateSystems")
    systems = [s for s in systems if isinstance(s, dict)] if isinstance(systems, list) else []
    try:
        intrinsic = multiscale["datasets"][0]["coordinateTransformations"][0]["output"]["name"]
    except (KeyError, IndexError, TypeError):
        intrinsic = None
    for system in sorted(systems, key=lambda s: s.get("name") != intrinsic):
        axes = system.get("axes")
        if isinstance(axes, list):
            return axes
    return [{"name": "y"}, {"name": "x"}]


def _multiscales(attributes: Any) -> list[dict[str, Any]]:
    ome = attributes.get("ome") if isinstance(attributes, dict) else None
    found = ome.get("multiscales") if isinstance(ome, dict) else None
    return [m for m in found if isinstance(m, dict)] if isinstance(found, list) else []


LABEL_PIXELS = "uint16"  # a label image's levels: "The pixels ... MUST be integer data types"


def _image(attributes: Any, data_type: str = "float64") -> dict[str, Any]:
    """An image node: `attributes`, the arrays its `datasets[].path` name (as many dimensions
    as its intrinsic coordinate system has axes, of `data_type`), and the label images its
    multiscale `coordinateTransformations` name by `path`, each holding the coordinate system
    named."""
    members: dict[str, Any] = {}
    for multiscale in _multiscales(attributes):
        axes = _axes(multiscale)
        names = [a.get("name") if isinstance(a, dict) else None for a in axes]
        extra = {"dimension_names": names} if all(isinstance(n, str) for n in names) else {}
        datasets = multiscale.get("datasets")
        paths = (
            [d.get("path") for d in datasets if isinstance(d, dict)]
            if isinstance(datasets, list)
            else []
        )
        for path in paths:
            if _name_ok(path):
                _put(members, path, v3_array([1] * len(axes), data_type=data_type, **extra))
        transformations = multiscale.get("coordinateTransformations")
        for transformation in transformations if isinstance(transformations, list) else []:
            for end in ("input", "output"):
                ref = transformation.get(end) if isinstance(transformation, dict) else None
                if (
                    isinstance(ref, dict)
                    and _name_ok(ref.get("path"))
                    and isinstance(ref.get("name"), str)
                ):
                    _put_label(
                        members, ref["path"], ref["name"], axes, [p for p in paths if _name_ok(p)]
                    )
    return _group(attributes, members)


def _put_label(
    members: dict[str, Any], path: str, system: str, axes: list[Any], levels: list[str]
) -> None:
    """A label image at `path` (listed in its `labels` group when `path` is `labels/<name>`)
    whose intrinsic coordinate system is `system`, with the image's levels."""
    multiscale = {
        "coordinateSystems": [{"name": system, "axes": axes}],
        "datasets": [
            {
                "path": level,
                "coordinateTransformations": [
                    {"type": "identity", "input": {"path": level}, "output": {"name": system}}
                ],
            }
            for level in levels
        ],
    }
    attributes = {"ome": {"version": VERSION, "multiscales": [multiscale], "image-label": {}}}
    label = _image(attributes, LABEL_PIXELS)
    first, _, rest = path.partition("/")
    if first == "labels" and rest:
        labels = members.setdefault("labels", _group({"ome": {"version": VERSION, "labels": []}}))
        listed = labels["attributes"]["ome"]["labels"]
        if rest not in listed:
            listed.append(rest)
        _put(labels["members"], rest, label)
    else:
        _put(members, path, label)


def _labelled(label_attributes: Any) -> dict[str, Any]:
    """A valid image whose `labels` group lists one label image: `label_attributes` merged over
    the image's own metadata (a label image is an image too)."""
    ome = label_attributes.get("ome") if isinstance(label_attributes, dict) else None
    merged: Any = (
        {**label_attributes, "ome": {**VALID_IMAGE["ome"], **ome}}
        if isinstance(ome, dict)
        else label_attributes
    )
    image = _image(copy.deepcopy(VALID_IMAGE))
    listing = {"ome": {"version": VERSION, "labels": ["l"]}}
    image["members"]["labels"] = _group(listing, {"l": _image(merged, LABEL_PIXELS)})
    return image


def _well(attributes: Any) -> dict[str, Any]:
    ome = attributes.get("ome") if isinstance(attributes, dict) else None
    well = ome.get("well") if isinstance(ome, dict) else None
    images = well.get("images") if isinstance(well, dict) else None
    members: dict[str, Any] = {}
    for field in images if isinstance(images, list) else []:
        path = field.get("path") if isinstance(field, dict) else None
        if _name_ok(path):
            _put(members, path, _image(copy.deepcopy(VALID_IMAGE)))
    return _group(attributes, members)


VALID_WELL: dict[str, Any] = {"ome": {"version": VERSION, "well": {"images": [{"path": "0"}]}}}


def _plate(attributes: Any) -> dict[str, Any]:
    ome = attributes.get("ome") if isinstance(attributes, dict) else None
    plate = ome.get("plate") if isinstance(ome, dict) else None
    wells = plate.get("wells") if isinstance(plate, dict) else None
    members: dict[str, Any] = {}
    for well in wells if isinstance(wells, list) else []:
        path = well.get("path") if isinstance(well, dict) else None
        if _name_ok(path) and path.count("/") == 1:
            _put(members, path, _well(copy.deepcopy(VALID_WELL)))
    return _group(attributes, members)


# A transformation's parameters with one item per axis of the systems it maps between.
PER_AXIS = ("scale", "translation", "mapAxis", "rotation")


def _scene(attributes: Any) -> dict[str, Any]:
    """A scene with an image at every `path` its transformations' `input`/`output` name, holding
    every coordinate system named there, with as many axes as the parameters of the
    transformations that name it have items (else 2)."""
    ome = attributes.get("ome") if isinstance(attributes, dict) else None
    scene = ome.get("scene") if isinstance(ome, dict) else None
    transformations = scene.get("coordinateTransformations") if isinstance(scene, dict) else None
    systems: dict[str, dict[str, int]] = {}  # path -> system name -> number of axes
    for transformation in transformations if isinstance(transformations, list) else []:
        if not isinstance(transformation, dict):
            continue
        lengths = [len(v) for k in PER_AXIS if isinstance(v := transformation.get(k), list)]
        for end in ("input", "output"):
            ref = transformation.get(end)
            if (
                isinstance(ref, dict)
                and _name_ok(ref.get("path"))
                and isinstance(ref.get("name"), str)
            ):
                names = systems.setdefault(ref["path"], {})
                names.setdefault(ref["name"], lengths[0] if lengths else 2)
    members: dict[str, Any] = {}
    for path, names in systems.items():
        image = copy.deepcopy(VALID_IMAGE)
        multiscale = image["ome"]["multiscales"][0]
        multiscale["coordinateSystems"] = [
            {"name": n, "axes": _n_axes(k)} for n, k in names.items()
        ]
        transformation = multiscale["datasets"][0]["coordinateTransformations"][0]
        transformation["output"]["name"] = next(iter(names))
        transformation["scale"] = [1] * len(multiscale["coordinateSystems"][0]["axes"])
        _put(members, path, _image(image))
    return _group(attributes, members)


def _n_axes(count: int) -> list[dict[str, str]]:
    """`count` (1 to 5) axes as an image orders them: t, c, z, y, x."""
    kinds = {"t": "time", "c": "channel", "z": "space", "y": "space", "x": "space"}
    return [{"name": name, "type": kinds[name]} for name in list(kinds)[-count:]]


def _collection(attributes: Any) -> dict[str, Any]:
    """A bioformats2raw collection whose `OME` group has `attributes`, with an image at every
    series path."""
    ome = attributes.get("ome") if isinstance(attributes, dict) else None
    series = ome.get("series") if isinstance(ome, dict) else None
    members: dict[str, Any] = {"OME": _group(attributes)}
    for path in series if isinstance(series, list) else []:
        if _name_ok(path):
            _put(members, path, _image(copy.deepcopy(VALID_IMAGE)))
    layout = {"ome": {"version": VERSION, "bioformats2raw.layout": 3}}
    return _group(layout, members)


def _node(kind: str, attributes: Any) -> tuple[str, dict[str, Any]]:
    """(the package that checks it, the whole node an attributes document of `kind` becomes)."""
    if kind == "image":
        return "image", _image(attributes)
    if kind == "label":
        return "image", _labelled(attributes)
    if kind == "plate":
        return "plate", _plate(attributes)
    if kind == "well":
        return "well", _well(attributes)
    if kind == "scene":
        return "scene", _scene(attributes)
    if kind == "ome":
        return "bf2raw", _collection(attributes)
    assert kind == "bf2raw", kind
    ome = attributes.get("ome") if isinstance(attributes, dict) else None
    if isinstance(ome, dict) and "plate" in ome:  # the layout key beside a plate: a plate
        return "plate", _plate(attributes)
    return "bf2raw", _group(attributes)


def _read(path: Path) -> Any:
    """A JSON file; upstream's examples may carry `//` comment lines (upstream strips them)."""
    text = path.read_text("utf-8")
    return json.loads("\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//")))


Case = tuple[str, str, dict[str, Any], bool]


def attribute_cases() -> Iterator[Case]:
    """(label, package, whole node, upstream's verdict) of every tests/attributes case."""
    root = FOLDER / "tests" / "attributes"
    for path in sorted(root.rglob("*.json")):
        rel = path.relative_to(root).as_posix()
        strictness, validity, *_ = rel.split("/")
        data = _read(path)
        conformance = data.pop("_conformance", {})
        # spec/valid/scene/scene.json carries no `_conformance`: its folder names its schema
        default = f"{rel.split('/')[2]}.schema"
        schema = conformance.get("schema", {}).get("id", default).removeprefix("schemas/")
        if strictness == "strict" and validity == "invalid":
            continue  # about the strict schemas' extra requirements (see NOT_COVERED)
        package, node = _node(CONVENTION_OF[schema], data)
        yield f"tests/attributes/{rel}", package, node, validity == "valid"


# Upstream examples that are no attributes document, and the strict suite's invalid cases.
NOT_COVERED = {
    "examples/transformations": "coordinateTransformation snippets, not attribute documents; "
    "their .config.json names schemas/coordinate_systems_and_transforms.schema, which does "
    "not exist",
    "tests/attributes/strict/invalid": "each is invalid only under a strict_*.schema's extra "
    "`required` (a label's colors, a plate's name, an acquisition's name and "
    "maximumfieldcount), which the conventions, built on the plain schemas, do not make",
}


def example_cases() -> Iterator[Case]:
    """(label, package, whole node, upstream's verdict: every example is valid)."""
    root = FOLDER / "examples"
    for config in sorted(root.glob("*/.config.json")):
        schema = json.loads(config.read_text("utf-8"))["schema"].removeprefix("schemas/")
        if config.parent.name == "transformations":
            continue  # NOT_COVERED
        for path in sorted(config.parent.glob("[!.]*.json")):
            data = _read(path)
            if isinstance(data, dict) and "zarr_format" in data:
                data = data.get("attributes")
            # subspace/.config.json names the missing schema too, but its example is a whole
            # image document: the image convention checks it.
            kind = "image" if config.parent.name == "subspace" else CONVENTION_OF[schema]
            package, node = _node(kind, data)
            yield f"examples/{path.relative_to(root).as_posix()}", package, node, True
    # displacements/ has its own .config.json (image.schema) below transformations/
    config = root / "transformations" / "displacements" / ".config.json"
    assert json.loads(config.read_text("utf-8"))["schema"] == "schemas/image.schema"
    for path in sorted(config.parent.glob("[!.]*.json")):
        package, node = _node("image", _read(path))
        yield f"examples/{path.relative_to(root).as_posix()}", package, node, True


CASES = [*attribute_cases(), *example_cases()]


def _problems(package: str, document: dict[str, Any]) -> list[Any]:
    module = _package(package)
    try:
        module.parse(document)
    except module.ZomError as error:
        return list(error.problems)
    return []


MS = "/attributes/ome/multiscales/0"
WELL0 = "/attributes/ome/plate/wells/0/path"
# Where zomgen's verdict departs from upstream's, why, and the exact problems it gives
# (node, pointer, keyword); schemas/README.md, "Upstream defects and zomgen's decisions (0.6)".
COLUMN_FIRST = (
    "rows [1] and columns [A] (or rows [A1], columns [A]) but the well path names the column "
    "first; the spec: the path MUST consist of a name in `rows`, `/`, and a name from "
    "`columns`, in that order (the 0.5 suite swapped rows and columns in these cases, 0.6rc0 "
    "went back to 0.4's)"
)
DEPARTURES: dict[str, tuple[str, set[tuple[str, str, str]]]] = {
    "tests/attributes/spec/valid/image/mismatch_axes_units.json": (
        (
            "a scale of 2 items for 3 axes (3-dimensional levels); the spec: a scale's input and "
            "output dimensionality MUST equal the length of the `scale` array"
        ),
        {("/", f"{MS}/datasets/0/coordinateTransformations/0/scale", "x-zomgen-equal-length")},
    ),
    "tests/attributes/spec/valid/plate/minimal_acquisitions.json": (
        COLUMN_FIRST,
        {("/", WELL0, "x-zomgen-equal")},
    ),
    "tests/attributes/spec/valid/plate/minimal_no_acquisitions.json": (
        COLUMN_FIRST,
        {("/", WELL0, "x-zomgen-equal")},
    ),
    "tests/attributes/spec/valid/plate/non_alphanumeric_row.json": (
        COLUMN_FIRST,
        {("/", WELL0, "x-zomgen-equal")},
    ),
    "tests/attributes/strict/valid/plate/strict_acquisitions.json": (
        COLUMN_FIRST,
        {("/", WELL0, "x-zomgen-equal")},
    ),
    "tests/attributes/strict/valid/plate/strict_no_acquisitions.json": (
        COLUMN_FIRST,
        {("/", WELL0, "x-zomgen-equal")},
    ),
    "tests/attributes/strict/valid/image/multiscales_example.json": (
        (
            "dataset 1 has path `1` but its transformation's input path `s1`; the spec: the "
            "`input` object MUST specify a `path` field matching the `path` field of the dataset "
            "(the example of the same name under examples/ says `s1` in both)"
        ),
        {
            (
                "/",
                f"{MS}/datasets/1/coordinateTransformations/0/input/path",
                "x-zomgen-equal",
            )
        },
    ),
    "tests/attributes/strict/valid/image/image_omero.json": (
        (
            "the multiscale's transformation maps from `intrinsic`, which is no coordinate system "
            "of the multiscale (it defines `world` and `physical`, and its levels output to "
            "`physical`); the spec: the other of `input` or `output` MUST reference a named "
            "coordinate system in the same multiscales group, and one of them MUST reference "
            "the intrinsic system, `physical`, which neither `intrinsic` nor `world` is (so no "
            "transformation links `physical` to `world`: the graph MUST be connected)"
        ),
        {
            ("/", f"{MS}/coordinateTransformations/0/input/name", "x-zomgen-in"),
            ("/", f"{MS}/coordinateTransformations/0", "x-zomgen-reaches"),
            ("/", f"{MS}/coordinateSystems/1/name", "x-zomgen-in"),
        },
    ),
    "examples/multiscales_strict/multiscales_example_relative.json": (
        (
            "written in the 0.4 layout: `multiscales` at the top of the attributes, the version "
            "inside it, no `ome` key (every 0.6 schema requires `ome`)"
        ),
        {("/", "/attributes", "required")},
    ),
    "examples/transformations/displacements/displacement_field.json": (
        (
            "three axes (c, y, x), so three-dimensional levels, but a scale of 2 items; the spec: a "
            "scale's dimensionality MUST equal the length of the `scale` array"
        ),
        {("/", f"{MS}/datasets/0/coordinateTransformations/0/scale", "x-zomgen-equal-length")},
    ),
    "examples/transformations/displacements/multiscales.json": (
        '`"ome": "0.6rc0"` (a string where the `ome` object belongs)',
        {("/", "/attributes/ome", "type")},
    ),
}
# package -> (cases, cases whose verdict equals upstream's)
EXPECTED_COUNTS = {
    "image": (95, 89),
    "plate": (35, 30),
    "well": (14, 14),
    "bf2raw": (2, 2),
    "scene": (10, 10),
}


def _rows(problems: list[Any]) -> set[tuple[str, str, str]]:
    return {(p.node_path, p.pointer, p.keyword) for p in problems}


def test_upstream_cases_and_examples_agree() -> None:
    """Every covered case through the generated package's `parse`: upstream's verdict, but for
    the pinned departures, which give exactly their problems."""
    counts: dict[str, list[int]] = {k: [0, 0] for k in EXPECTED_COUNTS}
    differ: dict[str, set[tuple[str, str, str]]] = {}
    for label, package, document, expected in CASES:
        problems = _problems(package, copy.deepcopy(document))
        counts[package][0] += 1
        if (not problems) != expected:
            differ[label] = _rows(problems)
        else:
            counts[package][1] += 1
    assert differ == {label: rows for label, (_why, rows) in DEPARTURES.items()}
    assert {k: tuple(c) for k, c in counts.items()} == EXPECTED_COUNTS


def test_every_attributes_case_is_covered_or_said_not_to_be() -> None:
    root = FOLDER / "tests" / "attributes"
    every = {f"tests/attributes/{p.relative_to(root).as_posix()}" for p in root.rglob("*.json")}
    covered = {label for label, *_ in CASES if label.startswith("tests/")}
    left = {e for e in every - covered if not e.startswith("tests/attributes/strict/invalid/")}
    assert not left
    assert len(covered) == 139 and len(every - covered) == 4


def test_valid_documents_load_as_typed_models() -> None:
    """`parse` returns the frozen models, and `dump` gives the document back."""
    for label, package, document, expected in CASES:
        if not expected or label in DEPARTURES:
            continue
        module = _package(package)
        model = module.parse(copy.deepcopy(document))
        assert module.dump(model) == document, label


def test_scene_references_are_checked() -> None:
    """The scene's cross-node rules: an `input`/`output` path names a member image, and the
    name it gives is one of that image's coordinate systems."""
    data = _read(FOLDER / "examples" / "scene" / "scene_stitching.json")["attributes"]
    document = _scene(data)
    assert _problems("scene", copy.deepcopy(document)) == []
    del document["members"]["tile_1"]
    scene = document["attributes"]["ome"]["scene"]
    scene["coordinateTransformations"][2]["input"]["name"] = "other"
    t = "/attributes/ome/scene/coordinateTransformations"
    assert _rows(_problems("scene", document)) == {
        ("/", f"{t}/1/input/path", "x-zomgen-member-kind"),
        ("/", f"{t}/2/input/name", "x-zomgen-in"),
    }


def test_multiscale_rules() -> None:
    """The image's cross-key rules 0.6 adds: a dataset's input path is its own path, every
    level's output is the same coordinate system and one the multiscale defines, levels share
    their dimensionality and data type, a scale has one item per dimension of its level, and
    a transformation into a label image's coordinate system names one that exists."""
    image = _image(copy.deepcopy(VALID_IMAGE))
    multiscale = image["attributes"]["ome"]["multiscales"][0]
    second = copy.deepcopy(multiscale["datasets"][0])
    second["path"] = "1"
    second["coordinateTransformations"][0].update(input={"path": "0"}, output={"name": "x"})
    second["coordinateTransformations"][0]["scale"] = [2, 2]
    multiscale["datasets"].append(second)
    image["members"]["1"] = v3_array([1, 1, 1], data_type="int8")
    multiscale["coordinateTransformations"] = [
        {
            "type": "identity",
            "input": {"name": "physical"},
            "output": {"name": "nope", "path": "labels/l"},
        }
    ]
    _put_label(
        image["members"], "labels/l", "physical", multiscale["coordinateSystems"][0]["axes"], ["0"]
    )
    ds = f"{MS}/datasets/1/coordinateTransformations/0"
    assert _rows(_problems("image", image)) == {
        ("/", f"{ds}/input/path", "x-zomgen-equal"),
        ("/", f"{ds}/output/name", "x-zomgen-equal"),
        ("/", f"{ds}/output/name", "x-zomgen-in"),
        ("/", f"{ds}/scale", "x-zomgen-equal-length"),
        ("/1", "/shape", "x-zomgen-equal-length"),
        ("/1", "/data_type", "x-zomgen-equal"),
        ("/", f"{MS}/coordinateTransformations/0/output/name", "x-zomgen-in"),
        ("/labels/l", f"{MS}/datasets", "x-zomgen-equal-length"),
    }


def test_multiscale_transformations_map_between_systems_that_exist() -> None:
    """A multiscale transformation's `input` or `output` without `path` names a coordinate
    system of the same multiscale (`[!path]`); a scale, translation, mapAxis or rotation has
    one item per axis of each system it maps between, each looked up by its name here or, with
    a `path`, in the group it names. The problem of a length stands at that system's `axes`."""
    image = _image(copy.deepcopy(VALID_IMAGE))
    multiscale = image["attributes"]["ome"]["multiscales"][0]
    systems = multiscale["coordinateSystems"]
    systems.append({"name": "world", "axes": copy.deepcopy(systems[0]["axes"])})
    _put_label(image["members"], "labels/l", "physical", systems[0]["axes"], ["0"])
    to_world = {"input": {"name": "physical"}, "output": {"name": "world"}}
    to_label = {"input": {"name": "physical"}, "output": {"name": "physical", "path": "labels/l"}}
    multiscale["coordinateTransformations"] = [
        {"type": "scale", "scale": [2, 2], **to_world},
        {"type": "translation", "translation": [1, 1], **to_label},
        {"type": "mapAxis", "mapAxis": [1, 0], **to_world},
        {"type": "rotation", "rotation": [[0, 1], [1, 0]], **to_label},
    ]
    assert _problems("image", copy.deepcopy(image)) == []
    transformations = multiscale["coordinateTransformations"]
    transformations[0]["scale"] = [2, 2, 2]
    transformations[1]["translation"] = [1]
    transformations[2]["input"] = {"name": "nowhere"}
    cs = f"{MS}/coordinateSystems"
    assert _rows(_problems("image", image)) == {
        ("/", f"{cs}/0/axes", "x-zomgen-equal-length"),  # both inputs, physical
        ("/", f"{cs}/1/axes", "x-zomgen-equal-length"),  # the scale's output, world
        ("/labels/l", f"{cs}/0/axes", "x-zomgen-equal-length"),  # the translation's output
        ("/", f"{MS}/coordinateTransformations/2/input/name", "x-zomgen-in"),
        ("/", f"{MS}/coordinateTransformations/2", "x-zomgen-reaches"),  # neither end intrinsic
    }


def _with_transformations(*transformations: dict[str, Any]) -> dict[str, Any]:
    """The valid image with a second coordinate system `world` (the same axes as the intrinsic
    `physical`), a label image `labels/l` in `physical`, and these multiscale transformations."""
    image = _image(copy.deepcopy(VALID_IMAGE))
    multiscale = image["attributes"]["ome"]["multiscales"][0]
    systems = multiscale["coordinateSystems"]
    systems.append({"name": "world", "axes": copy.deepcopy(systems[0]["axes"])})
    _put_label(image["members"], "labels/l", "physical", systems[0]["axes"], ["0"])
    multiscale["coordinateTransformations"] = copy.deepcopy(list(transformations))
    return image


INTRINSIC = {"name": "physical"}
WORLD = {"name": "world"}
LABEL = {"name": "physical", "path": "labels/l"}
SAME_SYSTEM = {"input": INTRINSIC, "output": WORLD}  # two systems of the same axes


def _transformation_rows(*transformations: dict[str, Any]) -> set[tuple[str, str, str]]:
    return _rows(_problems("image", _with_transformations(*transformations)))


# Ends of a multiscale transformation that reference the intrinsic system (valid), and ends
# that do not (the problem at the transformation).
TO_OR_FROM_INTRINSIC = [
    {"input": INTRINSIC, "output": WORLD},
    {"input": WORLD, "output": INTRINSIC},
    {"input": INTRINSIC, "output": LABEL},
    {"input": LABEL, "output": INTRINSIC},
    {"input": {**INTRINSIC, "path": None}, "output": WORLD},
    {"input": INTRINSIC, "output": INTRINSIC},
]
ELSEWHERE = [
    {"input": WORLD, "output": WORLD},
    {"input": WORLD, "output": LABEL},
    {"input": LABEL, "output": WORLD},
]


def _intrinsic_cases() -> Iterator[tuple[tuple[dict[str, Any], ...], set[tuple[str, str, str]]]]:
    """(transformations, problems): each end above after a valid transformation."""
    first = {"type": "identity", **SAME_SYSTEM}
    for ends in TO_OR_FROM_INTRINSIC:
        yield (first, {"type": "identity", **ends}), set()
    at = f"{MS}/coordinateTransformations/1"
    for ends in ELSEWHERE:
        yield (first, {"type": "identity", **ends}), {("/", at, "x-zomgen-reaches")}


def test_a_multiscale_transformation_maps_from_or_to_the_intrinsic_system() -> None:
    """ "One of `input` or `output` MUST reference the intrinsic coordinate system by `name`
    (`path` MAY be omitted or null)": the system the levels output to, in this multiscale, so
    without a `path`; either end may be it, and the other may be a label image's system. A
    transformation whose ends are both elsewhere is the problem, at the transformation."""
    for transformations, expected in _intrinsic_cases():
        assert _transformation_rows(*transformations) == expected, transformations
    linked = {"type": "identity", **SAME_SYSTEM}
    unlinked = {"type": "identity", "input": WORLD, "output": WORLD}
    (problem,) = _problems("image", _with_transformations(linked, unlinked))
    multiscales = "/attributes/ome/multiscales/*"
    assert problem.message.endswith(
        f"{multiscales}/coordinateTransformations/*/[name={{{multiscales}/datasets/0/"
        "coordinateTransformations/0/output/name}]/[!path] reaches nothing"
    )


def _linking_cases() -> Iterator[tuple[dict[str, Any], set[tuple[str, str, str]]]]:
    """(image, problems) of a third system `island`, linked or not."""
    image = _with_transformations({"type": "identity", **SAME_SYSTEM})
    multiscale = image["attributes"]["ome"]["multiscales"][0]
    multiscale["coordinateSystems"].append(
        {"name": "island", "axes": copy.deepcopy(multiscale["coordinateSystems"][0]["axes"])}
    )
    yield copy.deepcopy(image), {("/", f"{MS}/coordinateSystems/2/name", "x-zomgen-in")}
    multiscale["coordinateTransformations"].append(
        {"type": "identity", "input": {"name": "island"}, "output": INTRINSIC}
    )
    yield image, set()
    # a label image's system, reached by `path`, does not link `world`
    yield (
        _with_transformations({"type": "identity", "input": INTRINSIC, "output": LABEL}),
        {("/", f"{MS}/coordinateSystems/1/name", "x-zomgen-in")},
    )
    # two systems and no transformation at all: the second is linked to nothing
    image = _with_transformations()
    del image["attributes"]["ome"]["multiscales"][0]["coordinateTransformations"]
    yield image, {("/", f"{MS}/coordinateSystems/1", "x-zomgen-reaches")}


def test_every_coordinate_system_is_linked_to_the_others() -> None:
    """ "The graph MUST be connected ...: any two coordinate systems in the metadata MUST be
    linked by a path of one or more coordinate transformations". Every multiscale
    transformation has the intrinsic system at one end, so the graph is connected exactly when
    every other system is an end of one (`in`); a multiscale with a second system has a
    transformation (`reaches` from the second system to the first transformation), since `in`
    holds over an empty list."""
    for image, expected in _linking_cases():
        assert _rows(_problems("image", image)) == expected


def _matrix_cases() -> Iterator[tuple[dict[str, Any], set[tuple[str, str, str]]]]:
    """(transformation, problems) of a mapAxis, a rotation and an affine between `physical` and
    `world` (2 axes each)."""
    at = f"{MS}/coordinateTransformations/0"
    map_axis: dict[tuple[int, ...], str | None] = {
        (0, 1): None,
        (1, 0): None,
        (2, 0): "0",  # indices past the last axis
        (0, 3): "1",
    }
    for indices, wrong in map_axis.items():
        rows = set() if wrong is None else {("/", f"{at}/mapAxis/{wrong}", "x-zomgen-reaches")}
        yield {"type": "mapAxis", "mapAxis": list(indices), **SAME_SYSTEM}, rows
    length = "x-zomgen-equal-length"
    yield {"type": "rotation", "rotation": [[0, 1], [1, 0]], **SAME_SYSTEM}, set()
    yield {"type": "affine", "affine": [[1, 0, 0], [0, 1, 0]], **SAME_SYSTEM}, set()
    yield (  # one row for two output axes
        {"type": "affine", "affine": [[1, 0, 0]], **SAME_SYSTEM},
        {("/", f"{MS}/coordinateSystems/1/axes", length)},
    )
    yield (  # a row shorter than the first, and than the input axes plus one
        {"type": "affine", "affine": [[1, 0, 0], [0, 1]], **SAME_SYSTEM},
        {("/", f"{at}/affine/1", length), ("/", f"{MS}/coordinateSystems/0/axes", length)},
    )
    yield (  # rows of N items for N input axes: the translation column is missing
        {"type": "affine", "affine": [[1, 0], [0, 1]], **SAME_SYSTEM},
        {("/", f"{MS}/coordinateSystems/0/axes", length)},
    )


def test_map_axis_and_matrices_fit_their_systems() -> None:
    """mapAxis: "Each integer in the array MUST be a valid zero-based index into the input
    coordinate system's axes" (its length is the number of axes, and `uniqueItems` says each
    index appears once), so an index the list itself cannot hold is the problem, where it is.
    An affine has one row per output axis, every row as long as the first and one item longer
    than the input system has axes ("the outer array MUST be length M and the inner arrays
    MUST be length N+1": `{"path": ..., "plus": 1}`)."""
    for transformation, expected in _matrix_cases():
        assert _transformation_rows(transformation) == expected, transformation


def _by_dimension(*children: tuple[dict[str, Any], list[int], list[int]]) -> dict[str, Any]:
    return {
        "type": "byDimension",
        **SAME_SYSTEM,
        "transformations": [
            {"transformation": t, "inputAxes": i, "outputAxes": o} for t, i, o in children
        ],
    }


def _wrapper_cases() -> Iterator[tuple[dict[str, Any], set[tuple[str, str, str]]]]:
    """(transformation, problems) of a byDimension and a bijection between `physical` and
    `world` (2 axes each), every kind of parameter list in each."""
    at = f"{MS}/coordinateTransformations/0"
    length = "x-zomgen-equal-length"
    scale, translation = (
        {"type": "scale", "scale": [2]},
        {"type": "translation", "translation": [1]},
    )
    yield _by_dimension((scale, [0], [0]), (translation, [1], [1])), set()
    yield _by_dimension(({"type": "mapAxis", "mapAxis": [1, 0]}, [0, 1], [1, 0])), set()
    yield _by_dimension(({"type": "rotation", "rotation": [[0, 1], [1, 0]]}, [0, 1], [0, 1])), set()
    yield (
        _by_dimension(({"type": "affine", "affine": [[1, 0]]}, [0], [0]), (scale, [1], [1])),
        set(),
    )
    yield (  # a scale of two items for one axis each side
        _by_dimension(({"type": "scale", "scale": [2, 3]}, [0], [0]), (translation, [1], [1])),
        {
            ("/", f"{at}/transformations/0/inputAxes", length),
            ("/", f"{at}/transformations/0/outputAxes", length),
        },
    )
    yield (  # two input axes for a translation of one item
        _by_dimension((scale, [0], [0]), (translation, [0, 1], [1])),
        {("/", f"{at}/transformations/1/inputAxes", length)},
    )
    yield (  # an affine row of N+2 items
        _by_dimension(({"type": "affine", "affine": [[1, 0, 0]]}, [0], [0]), (scale, [1], [1])),
        {("/", f"{at}/transformations/0/inputAxes", length)},
    )
    yield (  # two affine rows for one output axis
        _by_dimension(
            ({"type": "affine", "affine": [[1, 0], [0, 1]]}, [0], [0]), (scale, [1], [1])
        ),
        {("/", f"{at}/transformations/0/outputAxes", length)},
    )
    partition, index_of = "x-zomgen-partition", "x-zomgen-index-of"
    yield (  # upstream's byDimensionInvalid1: both children output to axis 2 of 2
        _by_dimension((translation, [1], [2]), (scale, [0], [2])),
        {("/", f"{at}/transformations", partition)},
    )
    yield (  # upstream's byDimensionInvalid2: axis 1 twice, axis 0 never
        _by_dimension((translation, [1], [1]), (scale, [1], [1])),
        {("/", f"{at}/transformations", partition)},
    )
    yield (  # an input axis the input system does not have
        _by_dimension((scale, [2], [0]), (translation, [1], [1])),
        {("/", f"{at}/transformations/0/inputAxes/0", index_of)},
    )
    children = [
        {"transformation": scale, "inputAxes": [0], "outputAxes": [0]},
        {"transformation": translation, "inputAxes": [3], "outputAxes": [0]},
    ]
    yield (  # a label image's system (2 axes, by `path`) as input, this image's as output
        {"type": "byDimension", "input": LABEL, "output": INTRINSIC, "transformations": children},
        {
            ("/", f"{at}/transformations/1/inputAxes/0", index_of),
            ("/", f"{at}/transformations", partition),
            ("/", f"{MS}/coordinateSystems/1/name", "x-zomgen-in"),
        },  # `world` is linked no more
    )
    yield (  # the label image's system as output
        {"type": "byDimension", "input": INTRINSIC, "output": LABEL, "transformations": children},
        {
            ("/", f"{at}/transformations/1/inputAxes/0", index_of),
            ("/", f"{at}/transformations", partition),
            ("/", f"{MS}/coordinateSystems/1/name", "x-zomgen-in"),
        },
    )
    both = {"type": "scale", "scale": [2, 2]}
    matrix = {"type": "affine", "affine": [[1, 0, 0], [0, 1, 0]]}
    for forward, inverse in ((both, both), (matrix, matrix)):
        yield {"type": "bijection", **SAME_SYSTEM, "forward": forward, "inverse": inverse}, set()
    yield (  # ends of its own, the bijection's
        {
            "type": "bijection",
            **SAME_SYSTEM,
            "forward": {"type": "translation", "translation": [1, 1], **SAME_SYSTEM},
            "inverse": {
                "type": "translation",
                "translation": [1, 1],
                "input": WORLD,
                "output": INTRINSIC,
            },
        },
        set(),
    )
    yield (  # a forward scale of one item between systems of two axes
        {"type": "bijection", **SAME_SYSTEM, "forward": scale, "inverse": both},
        {
            ("/", f"{MS}/coordinateSystems/0/axes", length),
            ("/", f"{MS}/coordinateSystems/1/axes", length),
        },
    )
    yield (  # the same, from a label image's system
        {
            "type": "bijection",
            "input": LABEL,
            "output": INTRINSIC,
            "forward": scale,
            "inverse": both,
        },
        {
            ("/", f"{MS}/coordinateSystems/0/axes", length),
            ("/labels/l", f"{MS}/coordinateSystems/0/axes", length),
            ("/", f"{MS}/coordinateSystems/1/name", "x-zomgen-in"),
        },  # `world` is linked no more
    )
    yield (  # an inverse affine has a row per axis of the bijection's input
        {
            "type": "bijection",
            **SAME_SYSTEM,
            "forward": matrix,
            "inverse": {"type": "affine", "affine": [[1, 0, 0]]},
        },
        {("/", f"{MS}/coordinateSystems/0/axes", length)},
    )
    # Below the top: what holds inside one transformation holds at any depth (`**`), a
    # sequence's first step maps from the sequence's input system, its last to its output.
    sequence = {"type": "sequence", **SAME_SYSTEM}
    yield (
        {**sequence, "transformations": [both, {"type": "translation", "translation": [1, 1]}]},
        set(),
    )
    yield (  # the first step's scale of one item for an input of two axes
        {**sequence, "transformations": [scale, {"type": "translation", "translation": [1, 1]}]},
        {("/", f"{MS}/coordinateSystems/0/axes", length)},
    )
    yield (  # the last step's translation of one item for an output of two axes
        {**sequence, "transformations": [both, {"type": "translation", "translation": [1]}]},
        {("/", f"{MS}/coordinateSystems/1/axes", length)},
    )
    yield (  # the last step's affine with one row for an output of two axes
        {**sequence, "transformations": [both, {"type": "affine", "affine": [[1, 0, 0]]}]},
        {("/", f"{MS}/coordinateSystems/1/axes", length)},
    )
    yield (  # a mapAxis index past its end, as a sequence's step
        {**sequence, "transformations": [both, {"type": "mapAxis", "mapAxis": [0, 2]}]},
        {("/", f"{at}/transformations/1/mapAxis/1", "x-zomgen-reaches")},
    )
    inner = _by_dimension(({"type": "scale", "scale": [2, 3]}, [0], [0]), (translation, [1], [1]))
    yield (  # a byDimension child's scale longer than its axes, the byDimension in a sequence
        {**sequence, "transformations": [{k: v for k, v in inner.items() if k not in SAME_SYSTEM}]},
        {
            ("/", f"{at}/transformations/0/transformations/0/inputAxes", length),
            ("/", f"{at}/transformations/0/transformations/0/outputAxes", length),
        },
    )
    yield (  # unequal affine rows in a bijection's forward sequence
        {
            "type": "bijection",
            **SAME_SYSTEM,
            "forward": {
                "type": "sequence",
                "transformations": [{"type": "affine", "affine": [[1, 0, 0], [0, 1]]}],
            },
            "inverse": both,
        },
        {("/", f"{at}/forward/transformations/0/affine/1", length)},
    )


def test_wrapped_transformations_fit_their_axes() -> None:
    """byDimension: "The `inputAxes` and `outputAxes` arrays of each item MUST have the same
    length as that transformation's parameter arrays" (an affine: a row per output axis, each
    row one item longer than the input axes); bijection: "The input and output dimensions for
    both the forward and inverse transformations MUST match bijection's input and output space
    dimensions" (the inverse maps the bijection's output to its input); byDimension: "The
    integer values in these arrays correspond to the axis indices in the byDimension's ...
    `input` and `output` coordinate systems" and "Every axis index in the parent byDimension's
    `output` coordinate system MUST appear in exactly one child transformation's `outputAxes`
    array" (upstream's two invalid examples among the cases). Against the systems: for
    wrappers at the top of a multiscale's or scene's transformations, and a sequence's first
    and last steps; what holds inside one transformation (a mapAxis's indices, an affine's rows, a
    byDimension child's axes), at any depth: schemas/README.md."""
    for transformation, expected in _wrapper_cases():
        assert _transformation_rows(transformation) == expected, transformation


def test_scene_transformations_map_between_systems_that_exist() -> None:
    """The same in a scene: a reference without `path` names one of the scene's coordinate
    systems, and a translation has one item per axis of the system in the scene and of the one
    in the image its `path` names."""
    document = _scene(_read(FOLDER / "examples" / "scene" / "scene_stitching.json")["attributes"])
    scene = document["attributes"]["ome"]["scene"]
    scene["coordinateTransformations"][0]["translation"] = [0, 0, 0]
    scene["coordinateTransformations"][3]["output"]["name"] = "nowhere"
    t = "/attributes/ome/scene/coordinateTransformations"
    assert _rows(_problems("scene", document)) == {
        ("/", "/attributes/ome/scene/coordinateSystems/0/axes", "x-zomgen-equal-length"),
        ("/tile_0", f"{MS}/coordinateSystems/0/axes", "x-zomgen-equal-length"),
        ("/", f"{t}/3/output/name", "x-zomgen-in"),
        # and so `tile_3` is linked to no other tile
        ("/", f"{t}/3", "x-zomgen-connected"),
    }


def _scene_with_matrices(map_axis: list[int], rotation: list[list[int]]) -> dict[str, Any]:
    """Upstream's stitching scene with its second and third transformations made a mapAxis and
    a rotation from `tile_1`'s `physical` (2 axes) to the scene's `world`."""
    document = _scene(_read(FOLDER / "examples" / "scene" / "scene_stitching.json")["attributes"])
    transformations = document["attributes"]["ome"]["scene"]["coordinateTransformations"]
    ends = _ends(transformations[1])
    transformations[1] = {"type": "mapAxis", "mapAxis": map_axis, **ends}
    transformations[2] = {"type": "rotation", "rotation": rotation, **ends}
    return document


SCENE_MATRICES = [
    (([1, 0], [[0, 1], [1, 0]]), set()),
    (
        ([0, 2], [[0, 1, 0], [1, 0, 0], [0, 0, 1]]),
        {
            (
                "/",
                "/attributes/ome/scene/coordinateTransformations/1/mapAxis/1",
                "x-zomgen-reaches",
            ),
            (
                "/",
                "/attributes/ome/scene/coordinateSystems/0/axes",
                "x-zomgen-equal-length",
            ),
            ("/tile_1", f"{MS}/coordinateSystems/0/axes", "x-zomgen-equal-length"),
        },
    ),
]


def _scene_with_wrappers(forward: list[int], child: list[int]) -> dict[str, Any]:
    """Upstream's stitching scene with its second transformation a bijection (a forward
    `scale`) and its third a byDimension (one child `scale` on both axes)."""
    document = _scene(_read(FOLDER / "examples" / "scene" / "scene_stitching.json")["attributes"])
    transformations = document["attributes"]["ome"]["scene"]["coordinateTransformations"]
    transformations[1] = {
        "type": "bijection",
        **_ends(transformations[1]),
        "forward": {"type": "scale", "scale": forward},
        "inverse": {"type": "scale", "scale": [1, 1]},
    }
    child_scale = {"type": "scale", "scale": child}
    transformations[2] = {
        "type": "byDimension",
        **_ends(transformations[2]),
        "transformations": [
            {"transformation": child_scale, "inputAxes": [0, 1], "outputAxes": [0, 1]}
        ],
    }
    return document


def _ends(transformation: dict[str, Any]) -> dict[str, Any]:
    """A transformation's `input` and `output`."""
    return {k: transformation[k] for k in ("input", "output")}


SCENE_WRAPPERS = [
    (([2, 2], [2, 2]), set()),
    (
        ([2], [2, 2, 2]),
        {
            ("/", "/attributes/ome/scene/coordinateSystems/0/axes", "x-zomgen-equal-length"),
            ("/tile_1", f"{MS}/coordinateSystems/0/axes", "x-zomgen-equal-length"),
            (
                "/",
                "/attributes/ome/scene/coordinateTransformations/2/transformations/0/inputAxes",
                "x-zomgen-equal-length",
            ),
            (
                "/",
                "/attributes/ome/scene/coordinateTransformations/2/transformations/0/outputAxes",
                "x-zomgen-equal-length",
            ),
        },
    ),
]


def test_scene_wrapped_transformations_fit_their_axes() -> None:
    """A scene's bijection and byDimension follow the image's rules, with ends in its images."""
    for (forward, child), expected in SCENE_WRAPPERS:
        assert _rows(_problems("scene", _scene_with_wrappers(forward, child))) == expected


def _scene_with_bad_axes() -> dict[str, Any]:
    """The scene of _scene_with_wrappers whose byDimension child takes input axis 5 of 2 and
    outputs twice to axis 1."""
    document = _scene_with_wrappers([2, 2], [2, 2])
    scene = document["attributes"]["ome"]["scene"]
    (child,) = scene["coordinateTransformations"][2]["transformations"]
    child["inputAxes"], child["outputAxes"] = [0, 5], [1, 1]
    return document


def test_scene_by_dimension_axes_are_axes_of_its_systems() -> None:
    """A scene's byDimension: its children's input axes are axes of the input system (here in
    the image its `path` names) and their output axes hold each axis of the output system
    once."""
    t = "/attributes/ome/scene/coordinateTransformations/2/transformations"
    assert _rows(_problems("scene", _scene_with_bad_axes())) == {
        ("/", f"{t}/0/inputAxes/1", "x-zomgen-index-of"),
        ("/", t, "x-zomgen-partition"),
    }


def test_scene_map_axis_and_matrices_fit_their_systems() -> None:
    """The scene's transformations follow the image's rules for a mapAxis (every index one the
    list can hold), with inputs in its images; a rotation has one row per axis."""
    for (map_axis, rotation), expected in SCENE_MATRICES:
        assert _rows(_problems("scene", _scene_with_matrices(map_axis, rotation))) == expected


def _scene_with_island() -> dict[str, Any]:
    """Upstream's stitching scene with a second coordinate system that no transformation
    names."""
    document = _scene(_read(FOLDER / "examples" / "scene" / "scene_stitching.json")["attributes"])
    systems = document["attributes"]["ome"]["scene"]["coordinateSystems"]
    systems.append({**copy.deepcopy(systems[0]), "name": "island"})
    return document


def test_a_scene_system_no_transformation_names_is_not_linked() -> None:
    """In a scene, every coordinate system of its own is an end of one of its transformations
    (when it has any): a system no transformation names cannot be linked to the rest."""
    assert _rows(_problems("scene", _scene_with_island())) == {
        ("/", "/attributes/ome/scene/coordinateSystems/1/name", "x-zomgen-in")
    }


def _scene_with_two_worlds() -> dict[str, Any]:
    """Upstream's stitching scene with a second system of its own, `island`, to which the
    second tile (and only it) is mapped: every system is an end of a transformation, but no
    chain of them joins the two worlds."""
    document = _scene_with_island()
    document["attributes"]["ome"]["scene"]["coordinateTransformations"][1]["output"] = {
        "name": "island"
    }
    return document


def test_the_scene_graph_is_connected() -> None:
    """ "The graph MUST be connected ...: any two coordinate systems in the metadata MUST be
    linked by a path of one or more coordinate transformations": through the scene's own
    transformations, its images, and the groups their transformations name (the rule's every
    shape: tests/runtime/test_connected.py)."""
    (problem,) = _problems("scene", _scene_with_two_worlds())
    assert (problem.node_path, problem.pointer, problem.keyword) == (
        "/",
        "/attributes/ome/scene/coordinateTransformations/1",
        "x-zomgen-connected",
    )
    assert problem.message.startswith("links group 'tile_1', system 'island', which no chain")


def _label_pixels(*data_types: Any) -> dict[str, Any]:
    """A valid image whose label image `l` has a level of each data type."""
    # a copy: the label's multiscales are VALID_IMAGE's own lists, shared with other tests
    image = copy.deepcopy(_labelled({"ome": {"image-label": {}}}))
    label = image["members"]["labels"]["members"]["l"]
    multiscale = label["attributes"]["ome"]["multiscales"][0]
    first = multiscale["datasets"][0]
    multiscale["datasets"] = []
    for i, data_type in enumerate(data_types):
        dataset = copy.deepcopy(first)
        dataset["path"] = str(i)
        dataset["coordinateTransformations"][0]["input"] = {"path": str(i)}
        multiscale["datasets"].append(dataset)
        label["members"][str(i)] = {**label["members"]["0"], "data_type": data_type}
    return image


# (a label image's levels' data types, the levels refused): "The pixels of the label images
# MUST be integer data types", every integer type Zarr v3 and its registered extensions name.
LABEL_PIXELS_CASES: list[tuple[tuple[Any, ...], set[int]]] = [
    (("int8", "int16", "int32", "int64"), set()),
    (("uint8", "uint16", "uint32", "uint64"), set()),
    (("int2", "int4", "uint2", "uint4"), set()),
    (("float32", "bool", "uint8"), {0, 1}),
    (("uint8", {"name": "uint8"}, "complex64"), {1, 2}),
]


def test_label_pixels_are_of_an_integer_data_type() -> None:
    """Every level of a label image, whatever the other levels (the rule that levels share a
    data type reports those that differ from the first too)."""
    for data_types, refused in LABEL_PIXELS_CASES:
        problems = _problems("image", _label_pixels(*data_types))
        found = {int(p.node_path.rsplit("/", 1)[1]) for p in problems if p.keyword == "x-zomgen-in"}
        assert found == refused, (data_types, problems)
        for problem in problems:
            if problem.keyword == "x-zomgen-in":
                level = int(problem.node_path.rsplit("/", 1)[1])
                assert problem.node_path == f"/labels/l/{level}"
                assert problem.pointer == "/data_type"
                assert problem.message.startswith(
                    f"{data_types[level]!r} is not one of ['int8', 'int16', 'int32', "
                ), problem.message


def _rule_documents() -> dict[str, list[dict[str, Any]]]:
    """Every document above, by the package that checks it: upstream's cases and examples, and
    the transformations of the rule tests."""
    documents: dict[str, list[dict[str, Any]]] = {kind: [] for kind in PACKAGES}
    for _label, package, node, _valid in CASES:
        documents[package].append(node)
    for transformations, _problems_of in _intrinsic_cases():
        documents["image"].append(_with_transformations(*transformations))
    for image, _problems_of in _linking_cases():
        documents["image"].append(image)
    for transformation, _problems_of in [*_matrix_cases(), *_wrapper_cases()]:
        documents["image"].append(_with_transformations(transformation))
    for (map_axis, rotation), _problems_of in SCENE_MATRICES:
        documents["scene"].append(_scene_with_matrices(map_axis, rotation))
    for (forward, child), _problems_of in SCENE_WRAPPERS:
        documents["scene"].append(_scene_with_wrappers(forward, child))
    documents["scene"].append(_scene_with_island())
    documents["scene"].append(_scene_with_two_worlds())
    documents["scene"].append(_scene_with_bad_axes())
    documents["image"] += [_label_pixels(*types) for types, _refused in LABEL_PIXELS_CASES]
    return documents


@pytest.mark.node
def test_typescript_gives_the_same_problems(runtime: Path) -> None:
    """validate.ts, over the same documents, gives the same problems (and, for zomgen's own
    keywords, the same messages) as the Python run time."""
    documents = _rule_documents()
    schemas = {
        kind: bundled(ROOT / "schemas" / f"ome-ngff-06-{kind}" / "schema.json")
        for kind in documents
    }
    payload = [{"schema": json.dumps(schemas[k]), "documents": d} for k, d in documents.items()]
    results = run_node(runtime / "harness" / "verdicts.mjs", payload)
    compared = 0
    for (kind, batch), job in zip(documents.items(), results, strict=True):
        for document, result in zip(batch, job, strict=True):
            python = [p.to_json() for p in check_document(copy.deepcopy(document), schemas[kind])]
            assert _problem_rows(result["problems"]) == _problem_rows(python), (kind, document)
            assert result["valid"] is (not python)
            compared += 1
    assert compared == sum(len(d) for d in documents.values()) > len(CASES)


def _problem_rows(problems: list[dict[str, str]]) -> list[tuple[str, ...]]:
    return sorted(
        (
            p["node_path"],
            p["pointer"],
            p["keyword"],
            p["schema_path"],
            p["message"] if p["keyword"].startswith("x-zomgen-") else "",
        )
        for p in problems
    )


def test_levels_have_as_many_dimensions_as_their_coordinate_system_has_axes() -> None:
    """The intrinsic coordinate system is looked up by the name the datasets' transformations
    output to (`[name={...}]`); a system of another name may have other axes (upstream's own
    projectAxis case), linked by an affine; the problem stands at each level's `shape`."""
    image = _image(copy.deepcopy(VALID_IMAGE))
    multiscale = image["attributes"]["ome"]["multiscales"][0]
    systems = multiscale["coordinateSystems"]
    other = {"name": "stack", "axes": [{"name": n, "type": "space"} for n in ("z", "y", "x")]}
    systems.insert(0, other)
    multiscale["coordinateTransformations"] = [
        {
            "type": "affine",
            "affine": [[1, 0, 0], [0, 1, 0], [0, 0, 0]],
            "input": {"name": systems[1]["name"]},
            "output": {"name": "stack"},
        }
    ]
    assert _problems("image", image) == []
    systems[1]["axes"].insert(0, {"name": "t", "type": "time"})
    assert _rows(_problems("image", image)) == {
        ("/0", "/shape", "x-zomgen-equal-length"),
        ("/", f"{MS}/coordinateSystems/1/axes", "x-zomgen-equal-length"),  # the affine's rows
    }
    (problem,) = [p for p in _problems("image", image) if p.node_path == "/0"]
    assert problem.message == (
        "the array has 2 dimensions (shape [1, 1]), but "
        f"{MS}/coordinateSystems/1/axes of the group above has 3 items"
    )


# ---------------------------------------------------------------- upstream's tests/zarr stores

STORES = FOLDER / "tests" / "zarr"
STORE_PACKAGE = {"image": "image", "label": "image", "plate": "plate", "well": "well"}
# Each store is one node (its zarr.json): the levels, wells and fields its metadata names are
# absent, so `x-zomgen-member-kind` reports them; the verdict compared is the one on the rest.
STALE_STORES = {
    "spec/valid/image": "stale copies: transformations' `input`/`output` are strings, the "
    "schema wants objects (MANIFEST)",
    "strict/valid/image": "as spec/valid/image",
    "spec/valid/label": "a label image's `zarr.json` MUST implement the multiscales "
    "specification: the store holds the `image-label` key alone, which label.schema, a "
    "fragment, accepts and the image convention does not",
    "spec/valid/plate": COLUMN_FIRST,
    "strict/valid/plate": COLUMN_FIRST,
}


def store_cases() -> Iterator[tuple[str, str, bool]]:
    for store in sorted(STORES.glob("*/*/*/*.ome.zarr")):
        strictness, validity, kind = store.relative_to(STORES).parts[:3]
        if strictness == "strict" and validity == "invalid":
            continue  # NOT_COVERED
        yield store.relative_to(STORES).as_posix(), STORE_PACKAGE[kind], validity == "valid"


def test_upstream_stores() -> None:
    """ome-zarr-py 0.18 writes 0.4 and 0.5 only (`ome_zarr.format` has no 0.6 format), so the
    real stores are upstream's tests/zarr, loaded by the generated packages' `validate`."""
    formats = pytest.importorskip("ome_zarr.format")
    assert not any("06" in name for name in dir(formats))
    verdicts: dict[str, bool | None] = {}
    for rel, package, _expected in store_cases():
        module = _package(package)
        try:
            problems = module.validate(str(STORES / rel))
        except module.ZomError as error:  # not JSON: one problem, no crash
            assert [p.message.split(":")[0] for p in error.problems] == ["zarr.json is not JSON"]
            verdicts[rel] = None
            continue
        verdicts[rel] = not [p for p in problems if p.keyword != "x-zomgen-member-kind"]
    cases = list(store_cases())
    unparseable = {r for r, v in verdicts.items() if v is None}
    assert unparseable == {
        "spec/invalid/label/colors_rgba_length.ome.zarr",
        "spec/invalid/plate/zero_field_count.ome.zarr",
    }
    differ = {r for r, _p, expected in cases if verdicts[r] is not None and verdicts[r] != expected}
    assert {r.rsplit("/", 1)[0] for r in differ} == set(STALE_STORES)
    assert len(cases) == 81 and len(differ) == 17
    assert all(not expected for r, _p, expected in cases if r in unparseable)
