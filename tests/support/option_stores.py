"""Stores written by real tools (zarr-python, xarray, ome-zarr-py) with one fault inside an option
of an `anyOf`, and the problems both run times must report for it: each from the rule the node
broke, never from an option it was not meant as (tests/runtime/test_reporting.py, and its
twin in tests/runtime/test_typescript.py).

- A member group whose `attributes.kind` is "A" where its option says "a", with three valid
  arrays below it (tests/runtime/conventions/kinded-groups.json): the const, with the value
  given; not the plain folder's "attributes must be empty" nor its complaints about the arrays.
- A scalar variable given shape [2] (conventions/scalar-or-dimensioned.json: a variable is a
  scalar, shape [] and `_ARRAY_DIMENSIONS: []`, or a dimensioned array): the scalar's
  "[] was expected", not the dimensioned option's complaints about its dimension names.
- An OME-Zarr label image without `multiscales` (schemas/ome-ngff-04-image and -05-image): that
  it is missing, from the label-image option; not the labels folder's "attributes must be
  empty" nor "'group' was expected" at each of its levels.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from zomgen_runtime import read_document

from tests.support.runtime import ome_image_with_labels

# (node path, pointer, keyword, Python's message)
Expected = list[tuple[str, str, str, str]]
# (label, the convention's name for tests.support.runtime.convention, document, expected)
OptionCase = tuple[str, str, dict[str, Any], Expected]


def _read(store: Path) -> dict[str, Any]:
    document, problems = read_document(store)
    assert document is not None, problems
    return document


def _kinded_store(store: Path, kind: str, *, arrays: bool = True, folder: bool = False) -> None:
    """zarr-python: a v3 group whose member `t` (inside a plain group `f` when `folder`) has
    `attributes.kind` and three float arrays."""
    import zarr

    root = zarr.open_group(store, mode="w", zarr_format=3)
    parent = root.create_group("f") if folder else root
    group = parent.create_group("t", attributes={"kind": kind})
    for name in ("x", "y", "z") if arrays else ():
        group.create_array(name, shape=(4,), dtype="float64")


def kinded_groups(folder: Path) -> list[OptionCase]:
    cases: list[OptionCase] = []
    for label, kind, options in (
        ("kinds: valid", "a", {}),
        ("kinds: 'A' for 'a', three valid arrays below", "A", {}),
        ("kinds: 'A' for 'a', inside a plain folder", "A", {"folder": True}),
        ("kinds: 'c', no members", "c", {"arrays": False}),
    ):
        store = folder / f"kinds-{len(cases)}.zarr"
        _kinded_store(store, kind, **options)
        at = "/f/t" if options.get("folder") else "/t"
        expected: Expected = [(at, "/attributes/kind", "const", "'a' was expected (given: 'A')")]
        if kind == "a":
            expected = []
        elif kind == "c":
            # "c" is no option's tag and no option comes closer: each says where it fails
            message = (
                "{...} (an object with 4 keys) matches none of the anyOf options; "
                "option 0: /attributes/kind: 'a' was expected (given: 'c'); "
                "option 1: /attributes/kind: 'b' was expected (given: 'c'); "
                "option 2: /attributes: {'kind': 'c'} is expected to be empty"
            )
            expected = [(at, "", "anyOf", message)]
        cases.append((label, "kinded-groups", _read(store), expected))
    return cases


def scalar_variables(folder: Path) -> list[OptionCase]:
    """xarray writes a dataset (v2) with a scalar `crs` and an array `t`; zarr-python then
    rewrites `crs` as shape (2,), keeping its `_ARRAY_DIMENSIONS: []`."""
    import numpy as np
    import xarray as xr
    import zarr

    store = folder / "scalars.zarr"
    dataset = xr.Dataset({"t": (("x",), np.arange(3.0)), "crs": ((), np.int32(0))})
    dataset.to_zarr(store, zarr_format=2, consolidated=False)
    valid = _read(store)
    root = zarr.open_group(store, mode="r+", zarr_format=2)
    attributes: dict[str, Any] = {"_ARRAY_DIMENSIONS": []}
    root.create_array("crs", shape=(2,), dtype="int32", attributes=attributes, overwrite=True)
    return [
        ("scalars: valid", "scalar-or-dimensioned", valid, []),
        (
            "scalars: a scalar of shape [2]",
            "scalar-or-dimensioned",
            _read(store),
            [("/crs", "/shape", "const", "[] was expected (given: [2])")],
        ),
    ]


def label_images(folder: Path) -> list[OptionCase]:
    """ome-zarr-py writes an image with the label image `cells`; its `multiscales` is then
    removed (0.4: from .zattrs, 0.5: from zarr.json's attributes.ome)."""
    cases: list[OptionCase] = []
    for version, name in (("0.4", "ome-ngff-04-image"), ("0.5", "ome-ngff-05-image")):
        store = folder / f"labels-{version}.zarr"
        ome_image_with_labels(store, version)
        cases.append((f"OME {version}: valid", name, _read(store), []))
        broken = folder / f"labels-{version}-broken.zarr"
        shutil.copytree(store, broken)
        cells = broken / "labels" / "cells"
        path = cells / (".zattrs" if version == "0.4" else "zarr.json")
        metadata = json.loads(path.read_text("utf-8"))
        ome = metadata if version == "0.4" else metadata["attributes"]["ome"]
        del ome["multiscales"]
        path.write_text(json.dumps(metadata), encoding="utf-8")
        pointer = "/attributes" if version == "0.4" else "/attributes/ome"
        message = "'multiscales' is a required property"
        cases.append(
            (
                f"OME {version}: a label image without multiscales",
                name,
                _read(broken),
                [("/labels/cells", pointer, "required", message)],
            )
        )
    return cases


def option_cases(folder: Path) -> list[OptionCase]:
    """Every case above, its stores written into `folder`."""
    return kinded_groups(folder) + scalar_variables(folder) + label_images(folder)
