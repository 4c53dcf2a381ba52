"""`zomgen validate --strict`: the catalog's strict schemas (OME-Zarr 0.6rc0's strict_image,
strict_label, strict_plate, strict_well) applied to every node that declares the convention,
beside its schema, including nodes inside a subtree their family's schema already checked."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import zarr

from tests.support.ome06 import VALID_IMAGE, VERSION
from zomgen.catalog.dispatch import validate_attributes, validate_declared

ZOMGEN = [sys.executable, "-m", "zomgen", "validate"]


def _multiscale(**strict_keys: Any) -> dict[str, Any]:
    """The smallest valid image's multiscale; `strict_keys` are what only the strict schema
    requires (`name`, `type`, `metadata`)."""
    return {**strict_keys, **copy.deepcopy(VALID_IMAGE["ome"]["multiscales"][0])}


STRICT_KEYS = {"name": "image", "type": "gaussian", "metadata": {"method": "skimage"}}


def _image(group: zarr.Group, multiscale: dict[str, Any], **more: Any) -> None:
    group.attrs["ome"] = {"version": VERSION, "multiscales": [multiscale], **more}
    group.create_array("0", shape=(4, 4), dtype="uint8", dimension_names=["y", "x"])


def _store(tmp_path: Path, *, image_strict: bool, label_colors: bool) -> Path:
    """An image with one label image, written by zarr-python: strict or not at the image, and
    at the label (whose `image-label` has `colors` or not)."""
    path = tmp_path / "image.zarr"
    root = zarr.open_group(path, mode="w", zarr_format=3)
    _image(root, _multiscale(**(STRICT_KEYS if image_strict else {})))
    labels = root.create_group("labels")
    labels.attrs["ome"] = {"version": VERSION, "labels": ["cells"]}
    label = {"colors": [{"label-value": 1, "rgba": [255, 0, 0, 255]}]} if label_colors else {}
    _image(labels.create_group("cells"), _multiscale(**STRICT_KEYS), **{"image-label": label})
    return path


def _rows(report: Any) -> set[tuple[str, str, str]]:
    return {(p.node_path, p.pointer, p.message) for p in report.problems}


@pytest.mark.parametrize(
    ("image_strict", "label_colors"), [(True, True), (False, True), (True, False), (False, False)]
)
def test_strict_rules_apply_at_every_declaring_node(
    tmp_path: Path, image_strict: bool, label_colors: bool
) -> None:
    store = _store(tmp_path, image_strict=image_strict, label_colors=label_colors)
    assert validate_declared(store).problems == []  # the specification allows all four
    expected = set()
    if not image_strict:
        expected |= {
            ("/", "/attributes/ome/multiscales/0", f"'{key}' is a required property")
            for key in ("metadata", "type", "name")
        }
    if not label_colors:
        # The label image sits below the image, whose family's schema checked it: the strict
        # rules, which are about the node's own metadata, still reach it.
        expected.add(
            ("/labels/cells", "/attributes/ome/image-label", "'colors' is a required property")
        )
    report = validate_declared(store, strict=True)
    assert _rows(report) == expected
    assert report.valid == (image_strict and label_colors)


@pytest.mark.parametrize(
    ("attributes", "problem"),
    [
        (
            {
                "ome": {
                    "version": VERSION,
                    "plate": {
                        "name": "p",
                        "columns": [{"name": "1"}],
                        "rows": [{"name": "A"}],
                        "wells": [{"path": "A/1", "rowIndex": 0, "columnIndex": 0}],
                    },
                }
            },
            None,
        ),
        (
            {
                "ome": {
                    "version": VERSION,
                    "plate": {
                        "columns": [{"name": "1"}],
                        "rows": [{"name": "A"}],
                        "wells": [{"path": "A/1", "rowIndex": 0, "columnIndex": 0}],
                    },
                }
            },
            ("/attributes/ome/plate", "'name' is a required property"),
        ),
        ({"ome": {"version": VERSION, "well": {"images": [{"path": "0"}]}}}, None),
    ],
    ids=["strict-plate", "plate-without-name", "well"],
)
def test_strict_attributes_cli(
    tmp_path: Path, attributes: dict[str, Any], problem: tuple[str, str] | None
) -> None:
    """`--attributes --strict --format verdict`, as a conformance runner calls it, and the same
    through the Python API; without --strict every one is valid."""
    path = tmp_path / "attributes.json"
    path.write_text(json.dumps(attributes), "utf-8")
    assert validate_attributes(path).valid
    report = validate_attributes(path, strict=True)
    assert _rows(report) == (set() if problem is None else {("/", *problem)})
    result = subprocess.run(
        [*ZOMGEN, "--attributes", "--strict", "--format", "verdict", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    verdict = json.loads(result.stdout)
    assert result.returncode == 0 and verdict["valid"] == (problem is None)
    assert (
        verdict["message"].endswith("(strict)")
        if problem is None
        else problem[1] in verdict["message"]
    )


def test_strict_needs_the_catalog(tmp_path: Path) -> None:
    """With --schema there is no catalog entry to take a strict schema from: refused, exit 2."""
    schema = Path(__file__).parents[2] / "schemas" / "ome-ngff-06-image" / "schema.json"
    result = subprocess.run(
        [*ZOMGEN, "--strict", "--schema", str(schema), str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "--strict applies where the store says its conventions" in result.stderr
