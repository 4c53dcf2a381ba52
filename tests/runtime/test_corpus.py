"""The metadata-only stores of the shared corpus, written by real tools (GDAL, OME writers,
the GeoZarr conformance suite, zarr-python), with what each one must give."""

from __future__ import annotations

from pathlib import Path

import pytest
from zomgen_runtime import read_document, validate_store

from tests.support.corpus_cases import STORE_ROOTS, with_length_checks
from tests.support.runtime import STORES, base, convention


def _count(document: dict[str, object]) -> int:
    stack, count = [document], 0
    while stack:
        node = stack.pop()
        count += 1
        members = node.get("members", {})
        assert isinstance(members, dict)
        stack.extend(members.values())
    return count


@pytest.mark.parametrize("root", STORE_ROOTS, ids=[str(r.relative_to(STORES)) for r in STORE_ROOTS])
def test_every_corpus_store_reads_without_problems(root: Path) -> None:
    document, problems = read_document(root)
    expected = NOT_IN_FILES.get(str(root.relative_to(STORES)), [])
    assert [(p.node_path, p.keyword) for p in problems] == expected
    assert document is not None


# GDAL's v3 autotest fixtures keep only the root's zarr.json: these nodes exist in its
# consolidated metadata alone, so a reader that does not use it (zarrita, zarr-python with
# use_consolidated=False) finds no such node: the two hierarchies disagree, and zomgen says so
NOT_IN_FILES = {
    "gdal-autotest/v3/simple_multiscales": [
        ("/level0", "consolidated"),
        ("/level1", "consolidated"),
        ("/level2", "consolidated"),
    ],
    "gdal-autotest/v3/spatial_proj_at_parent_level.zarr": [("/ar", "consolidated")],
}


BROKEN = {
    # d-v-b's deliberately broken examples, each fault at its place
    "d-v-b__zarr-metadata-ts-examples/broken_array": [
        ("/", "/data_type/must_understand", "const"),
        ("/", "/chunk_grid", "additionalProperties"),
        ("/", "/codecs", "minItems"),
        ("/", "", "required"),
        # the base ZOM's check keywords: 2 dimension names and a 2-d chunk shape for 3 dims
        ("/", "/dimension_names", "x-zomgen-ndim-length"),
        ("/", "/chunk_grid/configuration/chunk_shape", "x-zomgen-ndim-length"),
    ],
    "d-v-b__zarr-metadata-ts-examples/v2_array": [
        ("/", "/order", "enum"),
        ("/", "/chunks", "x-zomgen-ndim-length"),  # 3 chunk lengths for 2 dimensions
    ],
    # GDAL writes v3 arrays without `codecs` (a known upstream defect of the corpus)
    "gdal-autotest/byte_cf1.zr3": [
        ("/Band1", "", "required"),
        ("/transverse_mercator", "", "required"),
        ("/x", "", "required"),
        ("/y", "", "required"),
    ],
}


@pytest.mark.parametrize("root", STORE_ROOTS, ids=[str(r.relative_to(STORES)) for r in STORE_ROOTS])
def test_corpus_stores_under_the_base_zom(root: Path) -> None:
    document, _ = read_document(root)
    assert document is not None
    # the base ZOM over what a reader of the consolidated metadata sees (NOT_IN_FILES pins the rest)
    problems = validate_store(root, base(document["zarr_format"]), check_consolidated=False)
    expected = BROKEN.get(str(root.relative_to(STORES)), [])
    assert sorted((p.node_path, p.pointer, p.keyword) for p in problems) == sorted(expected)


def test_length_checks_on_the_broken_example() -> None:
    root = STORES / "d-v-b__zarr-metadata-ts-examples" / "broken_array"
    problems = validate_store(root, with_length_checks(3))
    assert ("/", "/dimension_names", "x-zomgen-ndim-length") in [
        (p.node_path, p.pointer, p.keyword) for p in problems
    ]


def test_gdal_v2_stores_hold_only_consolidated_metadata() -> None:
    array_dimensions = STORES / "gdal-autotest" / "array_dimensions.zarr"
    assert validate_store(array_dimensions, convention("xarray-v2")) == []
    byte = STORES / "gdal-autotest" / "byte_cf1.zarr"
    problems = validate_store(byte, convention("xarray-v2"))
    # GDAL's CF grid-mapping variable carries no _ARRAY_DIMENSIONS: xarray could not open it
    assert [(p.node_path, p.pointer, p.keyword) for p in problems] == [
        ("/transverse_mercator", "/attributes", "required")
    ]
    document, problems = read_document(byte, use_consolidated=False)
    assert document is None  # nothing but .zmetadata: unreadable without it


def test_gdal_consolidated_v3_store_needs_its_consolidated_metadata() -> None:
    root = STORES / "gdal-autotest" / "v3" / "simple_multiscales"
    with_cm, _ = read_document(root)
    without, _ = read_document(root, use_consolidated=False)
    assert with_cm is not None and without is not None
    assert set(with_cm["members"]) == {"level0", "level1", "level2"} and _count(with_cm) == 10
    assert without["members"] == {}  # only the root's zarr.json was copied into the corpus


def test_ome_stores_under_the_ome_convention() -> None:
    image = convention("ome-0.4-image")
    assert validate_store(STORES / "ome2024-ngff-challenge" / "2d.zarr", image) == []
    # the HCS plate's images are one level down: each field of view follows the convention
    plate = STORES / "ome-zarr-models-py" / "examples" / "v04" / "hcs_example.ome.zarr"
    assert validate_store(plate, image, "B/03/0") == []
    sample = STORES / "ome-ngff-validator-test_samples" / "invalid" / "missing_min.zarr"
    assert validate_store(sample, image) != []
