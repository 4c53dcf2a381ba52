"""`zomgen validate URL` without `--schema`, from a server that does not list folders (an object
store's static website, a plain file server): each node is read, what it declares says which
conventions start there, and their schemas name the members to read next. The same report as
from the folder itself, for OME-Zarr images (0.4, 0.5) with labels written by ome-zarr-py, the
2024 challenge's image, plate and bioformats2raw collection, and GeoZarr's Sentinel-2 store.

The bioformats2raw collection is the case a single pass cannot read: its series are named by
`OME/.zattrs`, a member's metadata, so the root is asked again once `OME` is read.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import read_document, validate_store

from tests.support.http_stores import Served, serve
from tests.support.paths import CORPUS, ROOT
from tests.support.runtime import ome_image_with_labels
from zomgen.catalog.declarations import Matcher
from zomgen.catalog.dispatch import Report, validate_declared
from zomgen.catalog.entries import load_catalogs
from zomgen.catalog.probing import declared_member_tree

CHALLENGE = CORPUS / "stores" / "ome2024-ngff-challenge"
SENTINEL2 = CORPUS / "stores/geozarr-conformance/valid/multiscales/multiscales-sentinel2.zarr"
STORES = (
    "2d.zarr",
    "bf2raw.zarr",
    "hcs.zarr",
    "sentinel2.zarr",
    "image-0.4.zarr",
    "image-0.5.zarr",
)


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Served]]:
    root = tmp_path_factory.mktemp("unlisted")
    for name in ("2d.zarr", "bf2raw.zarr", "hcs.zarr"):
        shutil.copytree(CHALLENGE / name, root / name)
    shutil.copytree(SENTINEL2, root / "sentinel2.zarr")
    for version in ("0.4", "0.5"):
        ome_image_with_labels(root / f"image-{version}.zarr", version)
    with serve(root, listing=False) as served:
        yield root, served


def _seen(report: Report) -> dict[str, Any]:
    return {
        "nodes": {path: [a.entry.name for a in applied] for path, applied in report.nodes.items()},
        "problems": [str(p) for p in report.problems],
        "warnings": [str(w) for w in report.warnings],
        # what the folder's read lists and the server's could not: every group read
        "unchecked": [str(u) for u in report.unchecked if u.reason != "unlisted"],
    }


# Members no convention names, found only where a store lists (or consolidates): the
# bioformats2raw `OME` group beside the challenge plate (the plate convention takes precedence
# and names its wells alone).
UNNAMED = {"hcs.zarr": {"OME"}}


@pytest.mark.parametrize("name", STORES)
def test_an_unlisted_store_reads_as_its_folder(stores: tuple[Path, Served], name: str) -> None:
    root, served = stores
    remote = validate_declared(f"{served.url}/{name}")
    local_report = validate_declared(root / name)
    assert _seen(remote) == _seen(local_report)
    # A server that cannot list is never "valid": each group read by its named members only is
    # a place not checked, unless the user accepts it (--named-members-only).
    assert local_report.valid, local_report.to_json()
    if name == "sentinel2.zarr":  # consolidated: its one file lists the whole hierarchy
        assert remote.valid, remote.to_json()
        return
    assert remote.status == "not fully checked"
    assert {u.reason for u in remote.unchecked} == {"unlisted"}
    assert "/" in {u.node_path for u in remote.unchecked}
    accepted = validate_declared(f"{served.url}/{name}", named_members_only=True)
    assert accepted.valid and accepted.outcome().accepted == tuple(remote.unchecked)
    # the hierarchy read is the folder's, but what nothing names
    tree = declared_member_tree(Matcher(load_catalogs([])))
    document, _problems = read_document(f"{served.url}/{name}", expected=tree)
    local, _problems = read_document(root / name)
    assert document is not None and local is not None
    missing = set(local["members"]) - set(document["members"])
    assert missing == UNNAMED.get(name, set())
    for member in set(local["members"]) - missing:
        assert document["members"][member] == local["members"][member], member


def test_a_bf2raw_collection_needs_a_second_round(stores: tuple[Path, Served]) -> None:
    """Its series (`0`, `1`) are named by OME/.zattrs: read once OME is, with `--schema` too."""
    _root, served = stores
    url = f"{served.url}/bf2raw.zarr"
    report = validate_declared(url, named_members_only=True)
    assert report.valid and _seen(report)["nodes"] == {"/": ["ome-ngff-04-bf2raw"]}
    schema = ROOT / "generated" / "ome_ngff_04_bf2raw" / "schema.json"
    assert validate_store(url, json.loads(schema.read_text("utf-8")), named_members_only=True) == []
    asked = {path for _method, path in served.requests}
    assert {"/bf2raw.zarr/0/.zattrs", "/bf2raw.zarr/1/.zattrs"} <= asked
