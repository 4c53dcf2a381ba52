"""Shared helpers for the runtime tests: paths, bundled schemas, store snapshots."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

from tests.support.paths import CORPUS, ROOT
from zomgen.schema.bundle import bundle
from zomgen.schema.registry import load_schema_set

STORES = CORPUS / "stores"
CONVENTIONS = ROOT / "tests" / "runtime" / "conventions"


@functools.cache
def _bundled(path: str, includes: tuple[str, ...]) -> str:
    return json.dumps(bundle(load_schema_set(Path(path), [Path(i) for i in includes])))


def bundled(path: Path, *includes: Path) -> dict[str, Any]:
    """A fresh copy of the bundled schema (what a generated package ships as schema.json)."""
    result: dict[str, Any] = json.loads(_bundled(str(path), tuple(str(i) for i in includes)))
    return result


def convention(name: str) -> dict[str, Any]:
    """A convention of schemas/ (`xarray-v3`) or tests/runtime/conventions/ (`ome-0.4-image`)."""
    own = CONVENTIONS / f"{name}.json"
    if own.exists():
        return bundled(own, CORPUS / "ome-ngff" / "0.4" / "schemas")
    return bundled(ROOT / "schemas" / name / "schema.json")


def base(version: int) -> dict[str, Any]:
    """The bundled base ZOM (urn:zom:v2 / urn:zom:v3): any well-formed hierarchy."""
    return bundled(ROOT / "schemas" / "zom" / f"v{version}.schema.json")


def snapshot(root: Path) -> dict[str, object]:
    """Every entry below `root`: file bytes, symlink targets, folders; to prove a read wrote
    nothing (and created nothing)."""
    found: dict[str, object] = {}
    for folder, dirs, files in os.walk(root, followlinks=False):
        for name in dirs + files:
            path = Path(folder) / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                found[rel] = ("link", os.readlink(path))
            elif path.is_dir():
                found[rel] = ("dir",)
            elif path.is_file():
                found[rel] = path.read_bytes()
            else:
                found[rel] = ("special",)
    return found


def write_json(root: Path, rel: str, value: Any) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    return path


V3_GROUP: dict[str, Any] = {"zarr_format": 3, "node_type": "group", "attributes": {}}


def v3_array(shape: list[int], **extra: Any) -> dict[str, Any]:
    """A minimal valid v3 array document (what zarr-python writes, without members)."""
    doc: dict[str, Any] = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": shape,
        "data_type": "float64",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": shape}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0.0,
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
        "attributes": {},
    }
    doc.update(extra)
    return doc


def v2_array(shape: list[int], **extra: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "zarr_format": 2,
        "shape": shape,
        "chunks": shape,
        "dtype": "<f8",
        "compressor": None,
        "fill_value": 0.0,
        "order": "C",
        "filters": None,
    }
    doc.update(extra)
    return doc


_NDIM = "x-zomgen-ndim-length"
# (schema, document, valid): the zomgen checks are keywords like any other inside combinators.
CHECK_COMBINATOR_CASES: list[tuple[dict[str, Any], dict[str, Any], bool]] = [
    # anyOf: a failed check in one branch is rescued by the other
    (
        {"anyOf": [{_NDIM: ["/a"]}, {"required": ["b"]}]},
        {"shape": [1], "a": [1, 2], "b": 0},
        True,
    ),
    ({"anyOf": [{_NDIM: ["/a"]}, {"required": ["b"]}]}, {"shape": [1], "a": [1, 2]}, False),
    # oneOf: the check decides which branch holds
    ({"oneOf": [{_NDIM: ["/a"]}, {"required": ["a"]}]}, {"shape": [5, 5], "a": [1, 2]}, False),
    ({"oneOf": [{_NDIM: ["/a"]}, {"required": ["a"]}]}, {"shape": [1], "a": [1, 2]}, True),
    # not / if-then: the check is an ordinary assertion
    ({"not": {_NDIM: ["/a"]}}, {"shape": [1], "a": [1, 2]}, True),
    ({"not": {_NDIM: ["/a"]}}, {"shape": [5, 5], "a": [1, 2]}, False),
    (
        {"if": {_NDIM: ["/a"]}, "then": {"required": ["ok"]}},
        {"shape": [5, 5], "a": [1, 2]},
        False,
    ),
    ({"if": {_NDIM: ["/a"]}, "then": {"required": ["ok"]}}, {"shape": [3], "a": [1, 2]}, True),
    # wildcards over list items
    ({_NDIM: ["/l/*/d"]}, {"shape": [1, 1], "l": [{"d": [1, 2]}, {"d": [3]}]}, False),
    ({_NDIM: ["/l/*/d"]}, {"shape": [1, 1], "l": [{"d": [1, 2]}, {"x": 0}]}, True),
]

# The relations (tests/runtime/test_relations.py) are keywords like any other too.
_EQUAL, _UNIQUE = "x-zomgen-equal", "x-zomgen-unique-by"
_EQUAL_LENGTH, _COUNT = "x-zomgen-equal-length", "x-zomgen-count-equal"
CHECK_COMBINATOR_CASES += [
    ({"anyOf": [{_EQUAL: [["/a", "/b"]]}, {"required": ["c"]}]}, {"a": 1, "b": 2, "c": 0}, True),
    ({"anyOf": [{_EQUAL: [["/a", "/b"]]}, {"required": ["c"]}]}, {"a": 1, "b": 2}, False),
    ({"anyOf": [{_EQUAL: [["/a", "/b"]]}, {"required": ["c"]}]}, {"a": [1], "b": [1.0]}, True),
    ({"not": {_UNIQUE: {"/l": "/k"}}}, {"l": [{"k": 1}, {"k": 1}]}, True),
    ({"not": {_UNIQUE: {"/l": "/k"}}}, {"l": [{"k": 1}, {"k": True}]}, False),
    ({"oneOf": [{_EQUAL_LENGTH: [["/a", "/b"]]}, {"required": ["a"]}]}, {"a": [1], "b": []}, True),
    ({"if": {_COUNT: [["/n", "/l/*"]]}, "then": {"required": ["ok"]}}, {"n": 1, "l": [0]}, False),
    ({"if": {_COUNT: [["/n", "/l/*"]]}, "then": {"required": ["ok"]}}, {"n": 2, "l": [0]}, True),
]


def xarray_dataset() -> Any:
    """A small xarray Dataset: two data variables, three coordinates, attributes."""
    import numpy as np
    import xarray as xr

    return xr.Dataset(
        {
            "temperature": (("time", "y", "x"), np.zeros((2, 3, 4)), {"units": "K"}),
            "mask": (("y", "x"), np.ones((3, 4), dtype=bool)),
        },
        coords={"time": [0, 1], "y": [10.0, 20.0, 30.0], "x": np.arange(4)},
        attrs={"title": "test"},
    )


def ome_image_store(tmp_path: Path) -> Path:
    """A writable copy of the corpus' OME-NGFF 0.4 challenge image (2d.zarr, v2)."""
    import shutil

    store = tmp_path / "image.zarr"
    shutil.copytree(STORES / "ome2024-ngff-challenge" / "2d.zarr", store)
    for path in store.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)  # the corpus is read-only
    return store


def ome_image_with_labels(store: Path, version: str) -> None:
    """An OME-Zarr image (0.4: v2, 0.5: v3) with one label image, written by ome-zarr-py: two
    channels of 32x32, two levels; the label `cells`."""
    import numpy as np
    import zarr
    from ome_zarr import format as formats
    from ome_zarr import writer

    fmt = formats.FormatV04() if version == "0.4" else formats.FormatV05()
    root = zarr.open_group(store, mode="w", zarr_format=2 if version == "0.4" else 3)
    image = np.zeros((2, 32, 32), "uint16")
    writer.write_image(image, root, axes="cyx", fmt=fmt, scale_factors=(2,))
    labels = np.zeros((2, 32, 32), "uint8")
    writer.write_labels(
        labels, root, name="cells", axes="cyx", fmt=fmt, scaler=None, scale_factors=(2,)
    )


# ---------------------------------------------------------------- options told apart by a tag


def _encoded_group(attributes: dict[str, Any], members: dict[str, Any]) -> dict[str, Any]:
    return {**V3_GROUP, "attributes": attributes, "members": members}


def _sparse(kind: str, *, without: str = "") -> dict[str, Any]:
    parts = {name: v3_array([3]) for name in ("data", "indices", "indptr") if name != without}
    attributes = {"encoding-type": kind, "encoding-version": "0.1.0", "shape": [3, 3]}
    return _encoded_group(attributes, parts)


def _encoded_array(kind: str, version: str = "0.2.0") -> dict[str, Any]:
    return v3_array([3], attributes={"encoding-type": kind, "encoding-version": version})


def _categorical(ordered: Any = False, *, without: str = "") -> dict[str, Any]:
    parts = {name: v3_array([3]) for name in ("codes", "categories") if name != without}
    attributes = {"encoding-type": "categorical", "encoding-version": "0.2.0", "ordered": ordered}
    return _encoded_group(attributes, parts)


def encoded_cases() -> list[tuple[str, dict[str, Any], list[tuple[str, str, str]]]]:
    """(label, document, its problems as (node, pointer, keyword)) under
    conventions/encoded-elements.json, whose members are an anyOf of seven options, six told
    apart by `attributes.encoding-type` and one (a plain folder) by its empty attributes: each
    fault is reported from the option the tag selects."""

    def store(**members: Any) -> dict[str, Any]:
        return _encoded_group({}, members)

    nullable = _encoded_group(
        {"encoding-type": "nullable-integer", "encoding-version": "0.1.0"},
        {"values": v3_array([3]), "mask": v3_array([3])},
    )
    valid = store(
        X=_sparse("csr_matrix"),
        Y=_sparse("csc_matrix"),
        c=_categorical(),
        d=_encoded_array("array"),
        folder=_encoded_group({}, {"n": nullable}),
    )
    return [
        ("every option, valid", valid, []),
        (
            "csr without indptr",
            store(X=_sparse("csr_matrix", without="indptr")),
            [("/X", "/members", "required")],
        ),
        (
            "csc without data",
            store(Y=_sparse("csc_matrix", without="data")),
            [("/Y", "/members", "required")],
        ),
        (
            "categorical without codes",
            store(c=_categorical(without="codes")),
            [("/c", "/members", "required")],
        ),
        (
            "categorical whose ordered is a string",
            store(c=_categorical("no")),
            [("/c", "/attributes/ordered", "type")],
        ),
        (
            "dense array of a wrong encoding-version",
            store(d=_encoded_array("array", "9")),
            [("/d", "/attributes/encoding-version", "const")],
        ),
        (
            "a folder with attributes",
            store(f=_encoded_group({"x": 1}, {})),
            [("/f", "/attributes", "maxProperties")],
        ),
        (
            "csr in a folder without data",
            store(f=_encoded_group({}, {"X": _sparse("csr_matrix", without="data")})),
            [("/f/X", "/members", "required")],
        ),
        # no option has this tag: nothing is ruled out, and no option comes closest
        ("an unknown encoding-type", store(X=_sparse("coo_matrix")), [("/X", "", "anyOf")]),
    ]
