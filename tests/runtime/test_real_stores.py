"""Stores written by real tools, read through every kind of `store` argument.

xarray's Dataset.to_zarr (v2 and v3, consolidated or not) and zarr-python's groups and arrays
are read into ZOM documents that (a) list exactly the nodes zarr-python itself sees, (b) hold
exactly the metadata each node's files hold, and (c) follow the xarray convention. Every read
leaves every byte of the store as it was.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import zarr
import zarr.storage
from zomgen_runtime import load_document, read_document, validate_store

from tests.support.runtime import base, convention, snapshot, xarray_dataset

warnings.filterwarnings("ignore", category=UserWarning)  # zarr: v3 consolidation is not in the spec


def _nodes(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """node path -> node document without members, for the whole tree."""
    found: dict[str, dict[str, Any]] = {}
    stack = [("", document)]
    while stack:
        path, node = stack.pop()
        found[path or "/"] = {k: v for k, v in node.items() if k != "members"}
        for name, child in node.get("members", {}).items():
            stack.append((f"{path}/{name}", child))
    return found


def _files_view(root: Path) -> dict[str, dict[str, Any]]:
    """node path -> the node's metadata as its files hold it (the input-language §1 rules)."""
    found: dict[str, dict[str, Any]] = {}
    for meta in sorted(root.rglob("zarr.json")):
        doc = json.loads(meta.read_text())
        doc.pop("consolidated_metadata", None)
        doc.setdefault("attributes", {})
        rel = meta.parent.relative_to(root).as_posix()
        found["/" if rel == "." else "/" + rel] = doc
    for meta in sorted([*root.rglob(".zarray"), *root.rglob(".zgroup")]):
        doc = json.loads(meta.read_text())
        attrs = meta.parent / ".zattrs"
        doc["attributes"] = json.loads(attrs.read_text()) if attrs.exists() else {}
        rel = meta.parent.relative_to(root).as_posix()
        found["/" if rel == "." else "/" + rel] = doc
    return found


XARRAY_CASES = [(fmt, cons) for fmt in (2, 3) for cons in (True, False)]


@pytest.mark.parametrize(("zarr_format", "consolidated"), XARRAY_CASES)
def test_xarray_to_zarr_stores(tmp_path: Path, zarr_format: int, consolidated: bool) -> None:
    store = tmp_path / "ds.zarr"
    xarray_dataset().to_zarr(store, zarr_format=zarr_format, consolidated=consolidated, mode="w")
    before = snapshot(store)
    schema = convention(f"xarray-v{zarr_format}")
    document = load_document(str(store), schema)
    assert set(document["members"]) == {"temperature", "mask", "time", "y", "x"}
    assert _nodes(document) == _files_view(store)
    for use_consolidated in (True, False):
        assert read_document(store, use_consolidated=use_consolidated) == (document, [])
        assert validate_store(store, schema, use_consolidated=use_consolidated) == []
    # the wrong version's convention rejects it, naming the nodes
    other = convention(f"xarray-v{5 - zarr_format}")
    problems = validate_store(str(store), other)
    assert problems and {p.node_path for p in problems} >= {"/"}
    assert snapshot(store) == before


def _zarr_hierarchy(root: object, zarr_format: int) -> None:
    group = zarr.open_group(root, mode="w", zarr_format=zarr_format)  # type: ignore[arg-type]
    group.attrs["title"] = "zarr-python"
    labels = group.create_group("labels")
    labels.attrs["kind"] = "labels"
    cells = labels.create_group("cells")
    cells.create_array("0", shape=(4, 5), dtype="uint16", attributes={"scale": 1})
    group.create_array("raw", shape=(10,), chunks=(5,), dtype="float32", fill_value=float("nan"))
    group.create_array("text", shape=(2,), dtype=str)


def _walk_zarr(group: zarr.Group) -> set[str]:
    return {"/" + name for name, _node in group.members(max_depth=None)} | {"/"}


@pytest.mark.parametrize("zarr_format", [2, 3])
def test_zarr_python_hierarchy_on_disk(tmp_path: Path, zarr_format: int) -> None:
    store = tmp_path / "h.zarr"
    _zarr_hierarchy(str(store), zarr_format)
    before = snapshot(store)
    document, problems = read_document(str(store))
    assert problems == [] and document is not None
    assert set(_nodes(document)) == _walk_zarr(zarr.open_group(str(store), mode="r"))
    assert _nodes(document) == _files_view(store)
    assert document["members"]["raw"]["fill_value"] == "NaN"  # JSON has no NaN literal
    assert validate_store(store, base(zarr_format)) == []
    assert snapshot(store) == before


@pytest.mark.parametrize("zarr_format", [2, 3])
def test_every_kind_of_store_argument_reads_the_same(tmp_path: Path, zarr_format: int) -> None:
    folder = tmp_path / "h.zarr"
    _zarr_hierarchy(str(folder), zarr_format)
    expected, problems = read_document(folder)
    assert not problems and expected is not None

    zip_path = tmp_path / "h.zip"
    with zarr.storage.ZipStore(zip_path, mode="w") as zip_store:
        _zarr_hierarchy(zip_store, zarr_format)
    memory = zarr.storage.MemoryStore()
    _zarr_hierarchy(memory, zarr_format)
    url = f"memory://zomgen-test-{zarr_format}"
    _zarr_hierarchy(zarr.storage.FsspecStore.from_url(url), zarr_format)

    def arguments() -> Iterator[tuple[str, object]]:
        yield "str path", str(folder)
        yield "Path", folder
        yield "file URL", folder.as_uri()
        yield "LocalStore", zarr.storage.LocalStore(folder, read_only=True)
        yield "zarr Group", zarr.open_group(str(folder), mode="r")
        yield "zip path", str(zip_path)
        yield "ZipStore", zarr.storage.ZipStore(zip_path, mode="r")
        yield "MemoryStore", memory
        yield "memory:// URL", url
        yield "FsspecStore", zarr.storage.FsspecStore.from_url(url, read_only=True)

    for label, argument in arguments():
        assert read_document(argument) == (expected, []), label
    # a group object or a path reads the hierarchy below that node
    sub, problems = read_document(zarr.open_group(str(folder), mode="r")["labels"])
    assert (sub, problems) == (expected["members"]["labels"], [])
    assert read_document(folder, "labels/cells") == (
        expected["members"]["labels"]["members"]["cells"],
        [],
    )
    assert read_document(memory, "/labels/") == (expected["members"]["labels"], [])


def test_a_dict_of_bytes_is_a_store() -> None:
    mapping = {
        "zarr.json": json.dumps({"zarr_format": 3, "node_type": "group"}).encode(),
        "a/zarr.json": json.dumps({"zarr_format": 3, "node_type": "group"}).encode(),
    }
    document, problems = read_document(mapping)
    assert problems == []
    assert document == {
        "zarr_format": 3,
        "node_type": "group",
        "attributes": {},
        "members": {"a": {"zarr_format": 3, "node_type": "group", "attributes": {}, "members": {}}},
    }


@pytest.mark.parametrize("zarr_format", [2, 3])
def test_a_zip_of_the_store_folder_reads_its_store(tmp_path: Path, zarr_format: int) -> None:
    """`zip -r x.zip x.zarr` holds the store one folder down: read as that store, with the
    same document and node paths as the folder; a folder beside it (a Mac's `__MACOSX`) is no
    second store. A zip of two stores is no store: its root is reported."""
    import zipfile

    xarray_dataset().to_zarr(tmp_path / "x.zarr", zarr_format=zarr_format, consolidated=False)
    folder_document, _ = read_document(tmp_path / "x.zarr")
    zipped = tmp_path / "x.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        for path in sorted((tmp_path / "x.zarr").rglob("*")):
            archive.write(path, path.relative_to(tmp_path).as_posix())
        archive.writestr("__MACOSX/x.zarr/._zarr.json", b"\x00\x05\x16\x07")
    document, problems = read_document(zipped)
    assert (document, problems) == (folder_document, [])
    schema = convention(f"xarray-v{zarr_format}")
    assert validate_store(zipped, schema) == []
    assert read_document(zipped, "temperature")[0] == folder_document["members"]["temperature"]
    with zipfile.ZipFile(tmp_path / "two.zip", "w") as archive:
        for name in ("a.zarr", "b.zarr"):
            for path in sorted((tmp_path / "x.zarr").rglob("*")):
                archive.write(path, f"{name}/{path.relative_to(tmp_path / 'x.zarr').as_posix()}")
    document, problems = read_document(tmp_path / "two.zip")
    assert document is None and "no Zarr group or array at the root" in problems[0].message
