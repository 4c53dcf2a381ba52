"""The wrapper conventions of tests/corpus_conventions/: a small node schema per corpus schema,
referencing it the way a user would (corpus/test_compile.py describes them), and the corpus
folders each family of them may include (`-I`). corpus/test_compile.py builds and checks them
all; other corpus and fuzz tests take samples of them."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from tests.support.paths import CORPUS, ROOT

WRAPPERS = ROOT / "tests" / "corpus_conventions"

ZARR_CONVENTIONS = "zarr-conventions"
ZARR_METADATA = "zarr-metadata"
# The folders each family of wrappers may reference (`-I`), relative to the corpus. Every family
# gets only what it needs: the corpus holds two byte-identical copies of two convention schemas
# under the same `$id` (spatial v0.1, the conventions meta-schema), which zomgen does not
# disambiguate (see test_duplicate_ids_are_not_resolved_at_random in corpus/test_compile.py).
INCLUDES: dict[str, tuple[str, ...]] = {
    "ome_0_4": ("ome-ngff/0.4/schemas",),
    "ome_0_5": ("ome-ngff/0.5/schemas",),
    "ome_0_6_dev4": ("ome-ngff/0.6.dev4/schemas",),
    "ome_0_6rc0": ("ome-ngff/0.6rc0/schemas",),
    "ome_rfc4": ("ome-ngff/rfc-4",),
    "conventions": (
        *(
            f"{ZARR_CONVENTIONS}/{folder}"
            for folder in (
                "R-CF__zarr_convention_ref",
                "clbarnes__zarr-convention-license",
                "clbarnes__zarr-convention-uom",
                "zarr-conventions__CF",
                "zarr-conventions__dggs",
                "zarr-conventions__geo-proj",
                "zarr-conventions__multiscales",
                "zarr-conventions__nzug",
                "zarr-conventions__spatial",
                "zarr-conventions__template",
                "zarr-conventions__zarr-conventions-spec",
                "zarr-experimental__geo-proj",
                "zarr-experimental__missing_value",
                "zarr-developers__geozarr-spec@archives-2025",
            )
        ),
        "external-schemas/proj",
    ),
    "conventions_stac": (f"{ZARR_CONVENTIONS}/zarr-conventions__stac",),
    "zarr_cm": (
        f"{ZARR_CONVENTIONS}/zarr-conventions__zarr-cm/tests/schemas",
        "external-schemas/proj",
    ),
    "extensions": ("zarr-extensions",),
    "zarr_metadata": (
        f"{ZARR_METADATA}/zarr-specs-pr347/json-schema",
        f"{ZARR_METADATA}/pydantic-zarr-0.9.2-generated",
        f"{ZARR_METADATA}/d-v-b__zarr-metadata-ts/schemas",
    ),
}


def _wrapper_name(path: Path) -> str:
    return f"{path.parent.name}__{path.stem}"


def _all_wrappers() -> dict[str, Path]:
    found = {_wrapper_name(p): p for p in sorted(WRAPPERS.glob("*/*.json"))}
    return {name: path for name, path in found.items() if path.parent.name in INCLUDES}


ALL_WRAPPERS = _all_wrappers()
# Wrappers that must be refused rather than compiled (checked by their own tests in
# corpus/test_compile.py).
REFUSED = {"conventions_stac__stac", "extensions__codec_n5_default"}
WRAPPERS_TO_BUILD = {n: p for n, p in ALL_WRAPPERS.items() if n not in REFUSED}


# The wrappers corpus/test_derived.py derives cases from and corpus/test_union_options.py builds
# every union option of: a fixed sample, or every wrapper with ZOMGEN_DERIVED_CORPUS=all.
DERIVED_SAMPLE = (
    "conventions__cf",
    "conventions__nzug",
    "conventions__template",
    "extensions__codec_bytes",
    "ome_0_6rc0__image",
    "zarr_cm__cm_proj_r3",
    "zarr_cm__cm_spatial_r3",
    "zarr_metadata__pr347_array",
    "zarr_metadata__pydantic_v2_group",
)
DERIVED_CHOSEN = (
    WRAPPERS_TO_BUILD if os.environ.get("ZOMGEN_DERIVED_CORPUS") == "all" else DERIVED_SAMPLE
)


def includes_for(wrapper: Path) -> list[Path]:
    return [CORPUS / rel for rel in INCLUDES[wrapper.parent.name]]


def corpus_refs(node: object) -> Iterable[str]:
    """The file part of every `$ref` below `node`, but those to the base schemas (`urn:zom:`)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and not value.startswith("urn:zom:"):
                yield value.partition("#")[0]
            else:
                yield from corpus_refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from corpus_refs(value)
