"""The bundled OME-NGFF conventions (schemas/ome-ngff-04-image, schemas/ome-ngff-05-image)
against the community's own material and the reference writer.

- The OME-NGFF 0.4 and 0.5 suites and examples that concern images and label images: each
  attributes document becomes a whole image node (its levels are arrays named by its
  `datasets[].path`, with as many dimensions as its axes, and in 0.5 their names), a label's
  attributes become a label image under `labels/` of a valid image; the convention's verdict
  equals the suite's, in Python and under Node. The agreement counts are asserted.
- Real stores written by ome-zarr-py (the reference writer) for 0.4 and 0.5, valid and broken on
  purpose in the ways the spec forbids and the schema alone cannot see, read and checked by the
  generated packages: every verdict right, every problem at the faulty node and key.
"""

from __future__ import annotations

import copy
import json
import shutil
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import Problem, check_document

from tests.support.corpus_cases import MANIFEST, read_json
from tests.support.node import run_node
from tests.support.packages import import_package
from tests.support.runtime import CORPUS, ROOT, V3_GROUP, bundled, v2_array, v3_array
from zomgen.catalog.declarations import Matcher
from zomgen.catalog.dispatch import check_declared
from zomgen.catalog.entries import load_catalogs

warnings.filterwarnings("ignore", category=UserWarning)  # zarr: v3 consolidation is not in the spec

VERSIONS = {"0.4": "ome-ngff-04-image", "0.5": "ome-ngff-05-image"}
# Suites about images and label images; the plate, well and bf2raw ones wait for their
# conventions. strict_label is left out: its cases are about the strict schema's extra
# requirements, which a convention built on the plain schemas does not make.
SUITES = ("image_suite", "label_suite", "strict_image_suite")
EXAMPLES = ("multiscales_strict", "label_strict")


def _schema(version: str) -> dict[str, Any]:
    return bundled(ROOT / "schemas" / VERSIONS[version] / "schema.json")


def _ome(attributes: Any, version: str) -> Any:
    return (
        attributes.get("ome") if version == "0.5" and isinstance(attributes, dict) else attributes
    )


def _node(attributes: Any, members: dict[str, Any], version: str) -> dict[str, Any]:
    if version == "0.5":
        return {**V3_GROUP, "attributes": attributes, "members": members}
    return {"zarr_format": 2, "attributes": attributes, "members": members}


def _levels(attributes: Any, version: str, integers: bool = False) -> dict[str, Any]:
    """The arrays an image's `datasets[].path` name, shaped after its axes (what a writer that
    follows the spec stores beside these attributes); `integers`: of an integer data type, as a
    label image's pixels must be."""
    levels: dict[str, Any] = {}
    ome = _ome(attributes, version)
    multiscales = ome.get("multiscales") if isinstance(ome, dict) else None
    for multiscale in multiscales if isinstance(multiscales, list) else []:
        if not isinstance(multiscale, dict):
            continue
        axes = multiscale.get("axes")
        axes = axes if isinstance(axes, list) else [{"name": "y"}, {"name": "x"}]
        names = [a.get("name") if isinstance(a, dict) else None for a in axes]
        shape = [1] * len(axes)
        datasets = multiscale.get("datasets")
        for dataset in datasets if isinstance(datasets, list) else []:
            path = dataset.get("path") if isinstance(dataset, dict) else None
            if not isinstance(path, str) or any(n in ("", ".", "..") for n in path.split("/")):
                continue
            if version == "0.4":
                array = v2_array(shape, attributes={}, **({"dtype": "<u2"} if integers else {}))
            else:
                extra = {"dimension_names": names} if all(isinstance(n, str) for n in names) else {}
                array = v3_array(shape, **extra, **({"data_type": "uint16"} if integers else {}))
            *folders, name = path.split("/")
            members = levels
            for folder in folders:  # `path/to/0`: the level sits below groups
                group = members.setdefault(folder, _node({}, {}, version))
                members = group["members"]
            members[name] = array
    return levels


def _image(attributes: Any, version: str) -> dict[str, Any]:
    return _node(attributes, _levels(attributes, version), version)


VALID_IMAGE: dict[str, Any] = {
    "multiscales": [
        {
            "axes": [{"name": "y", "type": "space"}, {"name": "x", "type": "space"}],
            "datasets": [
                {"path": "0", "coordinateTransformations": [{"type": "scale", "scale": [1, 1]}]}
            ],
        }
    ]
}


def _labelled(label_attributes: Any, version: str) -> dict[str, Any]:
    """A valid image whose `labels` group lists one label image with `label_attributes`
    merged over the image's own multiscales (a label image is an image too)."""
    if version == "0.5":
        image_attributes: dict[str, Any] = {"ome": {"version": "0.5", **VALID_IMAGE}}
        ome = _ome(label_attributes, version)
        merged: Any = (
            {**label_attributes, "ome": {**image_attributes["ome"], **ome}}
            if isinstance(ome, dict)
            else label_attributes
        )
        listing: dict[str, Any] = {"ome": {"version": "0.5", "labels": ["l"]}}
    else:
        image_attributes = {**VALID_IMAGE, "multiscales": [{**VALID_IMAGE["multiscales"][0]}]}
        image_attributes["multiscales"][0]["version"] = "0.4"
        merged = (
            {**image_attributes, **label_attributes}
            if isinstance(label_attributes, dict)
            else label_attributes
        )
        listing = {"labels": ["l"]}
    label = _node(merged, _levels(merged, version, integers=True), version)
    labels = _node(listing, {"l": label}, version)
    image = _image(image_attributes, version)
    image["members"]["labels"] = labels
    return image


def suite_cases() -> Iterator[tuple[str, str, dict[str, Any], bool]]:
    """(label, version, whole node document, the suite's verdict)."""
    for version in VERSIONS:
        folder = CORPUS / "ome-ngff" / version
        for name in SUITES:
            for index, test in enumerate(read_json(folder / "tests" / f"{name}.json")["tests"]):
                data = test["data"]
                document = _labelled(data, version) if "label" in name else _image(data, version)
                yield f"{version}/tests/{name}#{index}", version, document, bool(test["valid"])
        for rel, entry in MANIFEST.items():
            parts = rel.split("/")
            if parts[1] != version or parts[2] != "examples" or parts[3] not in EXAMPLES:
                continue
            if "expected_valid" not in entry:
                continue
            data = read_json(CORPUS / rel)
            if "validate .attributes" in (entry.get("notes") or ""):
                data = data["attributes"]
            document = _labelled(data, version) if "label" in parts[3] else _image(data, version)
            yield rel, version, document, bool(entry["expected_valid"])


SUITE_CASES = list(suite_cases())
# Where zomgen's verdict departs from the suite's, and why (schemas/README.md, "Upstream defects").
DEPARTURES = {
    # `valid/mismatch_axes_units.json`: three axes, but a scale of two items. The 0.4 spec: "The
    # length of the scale and translation array MUST be the same as the length of "axes"": the
    # suite calls it valid only because JSON Schema cannot compare the two lengths.
    "0.4/tests/image_suite#0": "a scale of 2 items for 3 axes",
}
# The agreement: version -> (cases, cases whose verdict equals the suite's).
EXPECTED_COUNTS = {"0.4": (47, 46), "0.5": (45, 45)}


def test_suites_and_examples_agree_in_python() -> None:
    counts: dict[str, list[int]] = {v: [0, 0] for v in VERSIONS}
    differ: dict[str, list[Problem]] = {}
    for label, version, document, expected in SUITE_CASES:
        problems = check_document(document, _schema(version))
        counts[version][0] += 1
        if (not problems) != expected:
            differ[label] = problems
        else:
            counts[version][1] += 1
    assert set(differ) == set(DEPARTURES), differ
    assert {v: tuple(c) for v, c in counts.items()} == EXPECTED_COUNTS


# Where the catalog's verdict departs from the convention's: a case that declares a version
# the catalog has no schema for is reported (a warning), not checked as 0.4.
UNKNOWN_VERSION = {"0.4/tests/image_suite#21": "its multiscale says version 0.3"}


def test_suites_and_examples_agree_through_the_catalog() -> None:
    """`zomgen validate STORE` without `--schema`: each case's node is checked by what it
    declares (its OME-Zarr version and keys), reaching the same verdicts and the same
    problems as the convention named outright."""
    matcher = Matcher(load_catalogs([]))
    differ: dict[str, list[Problem]] = {}
    for label, version, document, expected in SUITE_CASES:
        report = check_declared(document, matcher)
        if label in UNKNOWN_VERSION:
            # a published version without a schema: not checked, never "valid"
            assert (report.status, expected) == ("not fully checked", False), label
            assert [(u.pointer, u.reason) for u in report.unchecked] == [
                ("/attributes/multiscales/0/version", "no schema")
            ]
            continue
        assert [a.entry.name for a in report.nodes["/"]] == [VERSIONS[version]], label
        if report.valid != expected:
            differ[label] = report.problems
        assert _rows(report.problems) == _rows(check_document(document, _schema(version)))
    assert set(differ) == set(DEPARTURES), differ


def _rows(problems: list[Problem] | list[dict[str, str]]) -> list[tuple[str, str, str, str]]:
    rows = [p if isinstance(p, dict) else p.to_json() for p in problems]
    return sorted((p["node_path"], p["pointer"], p["keyword"], p["schema_path"]) for p in rows)


@pytest.mark.node
def test_suites_and_examples_agree_under_node(runtime: Path) -> None:
    payload = [
        {
            "schema": json.dumps(_schema(v)),
            "documents": [d for _l, version, d, _e in SUITE_CASES if version == v],
        }
        for v in VERSIONS
    ]
    results = run_node(runtime / "harness" / "verdicts.mjs", payload)
    for v, job in zip(VERSIONS, results, strict=True):
        cases = [(label, d, e) for label, version, d, e in SUITE_CASES if version == v]
        for (label, document, expected), result in zip(cases, job, strict=True):
            assert result["valid"] is (expected and label not in DEPARTURES), label
            python = check_document(copy.deepcopy(document), _schema(v))
            assert _rows(result["problems"]) == _rows(python), label


# ---------------------------------------------------------------- ome-zarr-py's stores


def _package(version: str) -> Any:
    """The checked-in generated package of the convention."""
    return import_package(ROOT / "generated", VERSIONS[version].replace("-", "_"))


def _write(store: Path, version: str, labels: bool = True) -> None:
    """An image (c, y, x) of three levels `s0`..`s2`, and a label image `cells` of three levels,
    written by ome-zarr-py."""
    np = pytest.importorskip("numpy")
    zarr = pytest.importorskip("zarr")
    writer = pytest.importorskip("ome_zarr.writer")
    formats = pytest.importorskip("ome_zarr.format")
    fmt = formats.FormatV04() if version == "0.4" else formats.FormatV05()
    root = zarr.open_group(store, mode="w", zarr_format=2 if version == "0.4" else 3)
    writer.write_image(
        np.zeros((2, 64, 64), "uint16"), root, axes="cyx", fmt=fmt, scale_factors=(2, 4)
    )
    if labels:
        writer.write_labels(
            np.zeros((2, 64, 64), "uint8"),
            root,
            name="cells",
            axes="cyx",
            fmt=fmt,
            scaler=None,
            scale_factors=(2, 4),
            # the spec's default, which ome-zarr-py's own sample data writes
            label_metadata={"source": {"image": "../../"}},
        )


def _attributes_file(store: Path, version: str) -> Path:
    return store / (".zattrs" if version == "0.4" else "zarr.json")


def _edit(store: Path, version: str, change: Callable[[dict[str, Any]], None]) -> None:
    """Change the image's OME metadata (the first multiscale) in place, as a careless tool would."""
    path = _attributes_file(store, version)
    document = json.loads(path.read_text("utf-8"))
    attributes = document if version == "0.4" else document["attributes"]
    multiscale = _ome(attributes, version)["multiscales"][0]
    change(multiscale)
    path.write_text(json.dumps(document), "utf-8")


def _two_dimensional_level(store: Path, version: str) -> None:
    zarr = pytest.importorskip("zarr")
    root = zarr.open_group(store, mode="r+")
    extra = {"dimension_names": ["y", "x"]} if version == "0.5" else {}
    root.create_array("s1", shape=(32, 32), dtype="uint16", overwrite=True, **extra)


def _float_labels(store: Path, version: str) -> None:
    """The label image's levels rewritten as float32 arrays of the same shapes."""
    zarr = pytest.importorskip("zarr")
    cells = zarr.open_group(store / "labels" / "cells", mode="r+")
    for name in ("s0", "s1", "s2"):
        shape = cells[name].shape
        extra = {"dimension_names": ["c", "y", "x"]} if version == "0.5" else {}
        cells.create_array(name, shape=shape, dtype="float32", overwrite=True, **extra)


def _label_source(store: Path, version: str, source: str, label: str = "cells") -> None:
    """The label image `label` names `source` as its source image."""
    path = _attributes_file(store / "labels" / label, version)
    document = json.loads(path.read_text("utf-8"))
    attributes = document if version == "0.4" else document["attributes"]
    _ome(attributes, version)["image-label"]["source"]["image"] = source
    path.write_text(json.dumps(document), "utf-8")


MS = {"0.4": "/attributes/multiscales/0", "0.5": "/attributes/ome/multiscales/0"}
LABELS = {"0.4": "/attributes/labels/0", "0.5": "/attributes/ome/labels/0"}
ATTRIBUTES = {"0.4": "/attributes", "0.5": "/attributes/ome"}  # where the OME keys are

# (name, how the store is broken, the expected (node, pointer, keyword) of each problem)
Breakage = Callable[[Path, str], None]
BROKEN: list[tuple[str, Breakage, Callable[[str], set[tuple[str, str, str]]]]] = [
    (
        "a dataset path that names nothing",
        lambda s, v: _edit(s, v, lambda m: m["datasets"][2].update(path="s9")),
        lambda v: {("/", f"{MS[v]}/datasets/2/path", "x-zomgen-member-kind")},
    ),
    (
        "a level whose dimensions disagree with the axes",
        _two_dimensional_level,
        lambda v: (
            {("/s1", "/shape", "x-zomgen-equal-length")}
            | ({("/s1", "/dimension_names", "x-zomgen-equal")} if v == "0.5" else set())
        ),
    ),
    (
        "a scale of the wrong length",
        lambda s, v: _edit(
            s, v, lambda m: m["datasets"][1]["coordinateTransformations"][0].update(scale=[1, 2])
        ),
        lambda v: {
            (
                "/",
                f"{MS[v]}/datasets/1/coordinateTransformations/0/scale",
                "x-zomgen-equal-length",
            )
        },
    ),
    (
        "a missing label",
        lambda s, v: shutil.rmtree(s / "labels" / "cells"),
        lambda v: {("/labels", LABELS[v], "x-zomgen-member-kind")},
    ),
    (
        "label pixels of a float data type",
        _float_labels,
        lambda v: {
            (f"/labels/cells/s{i}", "/dtype" if v == "0.4" else "/data_type", "x-zomgen-in")
            for i in range(3)
        },
    ),
    (
        "a label whose source is the labels group, not the image",
        lambda s, v: _label_source(s, v, "../"),
        lambda v: {
            ("/labels/cells", f"{ATTRIBUTES[v]}/image-label/source/image", "x-zomgen-reaches")
        },
    ),
    (
        "two axes with one name",
        lambda s, v: _edit(s, v, lambda m: m["axes"][1].update(name="x", unit="micrometer")),
        lambda v: (
            {("/", f"{MS[v]}/axes/2/name", "x-zomgen-unique-by")}
            | (
                {(f"/s{i}", "/dimension_names", "x-zomgen-equal") for i in range(3)}
                if v == "0.5"
                else set()
            )
        ),
    ),
]


@pytest.mark.parametrize("version", list(VERSIONS))
def test_ome_zarr_py_stores_are_valid(tmp_path: Path, version: str) -> None:
    store = tmp_path / "image.zarr"
    _write(store, version)
    package = _package(version)
    assert package.validate(store) == []
    image = package.load(store)
    assert sorted(image.members) == ["labels", "s0", "s1", "s2"]
    assert sorted(image.members["labels"].members["cells"].members) == ["s0", "s1", "s2"]


@pytest.mark.parametrize("version", list(VERSIONS))
def test_a_label_image_below_an_intermediate_group(tmp_path: Path, version: str) -> None:
    """`labels` lists `sub/cells`: `sub` is a group without metadata (the schema's
    `LabelsFolder`), `cells` a label image. Both options of `LabelsMember` are groups of the
    same version; only the schema's `maxProperties: 0` tells them apart, and `load` must build
    each as its own class."""
    store = tmp_path / "image.zarr"
    _write(store, version)
    (store / "labels" / "sub").mkdir()
    shutil.move(store / "labels" / "cells", store / "labels" / "sub" / "cells")
    if version == "0.4":
        (store / "labels" / "sub" / ".zgroup").write_text('{"zarr_format": 2}', "utf-8")
    else:
        folder = {"zarr_format": 3, "node_type": "group", "attributes": {}}
        (store / "labels" / "sub" / "zarr.json").write_text(json.dumps(folder), "utf-8")
    listing_file = _attributes_file(store / "labels", version)
    listing = json.loads(listing_file.read_text("utf-8"))
    (listing if version == "0.4" else listing["attributes"]["ome"])["labels"] = ["sub/cells"]
    listing_file.write_text(json.dumps(listing), "utf-8")
    package = _package(version)
    # its source, `../../`, is now the labels group, one level short of the image
    (problem,) = package.validate(store)
    assert (problem.node_path, problem.keyword) == ("/labels/sub/cells", "x-zomgen-reaches")
    _label_source(store, version, "../../../", "sub/cells")
    assert package.validate(store) == []
    image = package.load(store)
    folder_model = image.members["labels"].members["sub"]
    assert type(folder_model) is package.models.LabelsFolder
    assert type(folder_model.members["cells"]) is package.models.LabelImage
    assert sorted(folder_model.members["cells"].members) == ["s0", "s1", "s2"]
    document = package.dump(image)
    assert package.dump(package.parse(document)) == document


@pytest.mark.parametrize("version", list(VERSIONS))
@pytest.mark.parametrize(("name", "breakage", "expected"), BROKEN, ids=[b[0] for b in BROKEN])
def test_ome_zarr_py_stores_broken_on_purpose(
    tmp_path: Path,
    version: str,
    name: str,
    breakage: Breakage,
    expected: Callable[[str], set[tuple[str, str, str]]],
) -> None:
    store = tmp_path / "image.zarr"
    _write(store, version)
    breakage(store, version)
    problems = _package(version).validate(store)
    assert {(p.node_path, p.pointer, p.keyword) for p in problems} == expected(version), problems
    for problem in problems:
        assert problem.message


def test_a_label_with_fewer_levels_than_its_image(tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")
    zarr = pytest.importorskip("zarr")
    writer = pytest.importorskip("ome_zarr.writer")
    formats = pytest.importorskip("ome_zarr.format")
    for version, fmt in (("0.4", formats.FormatV04()), ("0.5", formats.FormatV05())):
        store = tmp_path / f"image{version}.zarr"
        _write(store, version, labels=False)
        root = zarr.open_group(store, mode="r+")
        writer.write_labels(
            np.zeros((2, 64, 64), "uint8"),
            root,
            name="cells",
            axes="cyx",
            fmt=fmt,
            scaler=None,
            scale_factors=(2,),
        )
        problems = _package(version).validate(store)
        where = {(p.node_path, p.pointer, p.keyword) for p in problems}
        datasets = MS[version].replace("/0", "/0/datasets")
        assert where == {("/labels/cells", datasets, "x-zomgen-equal-length")}, problems
