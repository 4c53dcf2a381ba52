"""The fast engine (jsonschema-rs plus the zomgen checks as custom keywords) gives the same
verdict as the reference (python-jsonschema with the same checks) on every document of the
corpus: every metadata-only store (as a ZOM document, under the base ZOM, under the base ZOM
with the zomgen length checks, and under the xarray conventions), the Zarr metadata conformance
cases, the OME-NGFF test suites and examples, and the zarr-conventions examples."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import check_document, read_document
from zomgen_runtime.engines import engines_for

from tests.support.corpus_cases import (
    CONFORMANCE_CASES,
    CONVENTION_CASES,
    OME_CASES,
    STORE_ROOTS,
    as_node,
    with_length_checks,
)
from tests.support.runtime import CORPUS, STORES, base, bundled, convention
from zomgen.errors import CompileError


def _verdicts(document: Any, schema: dict[str, Any]) -> tuple[bool, bool]:
    engines = engines_for(schema)
    assert engines.fast is not None, "jsonschema-rs could not compile the schema"
    fast = bool(engines.fast.is_valid(document))
    reference = check_document(document, schema, fast=False) == []
    return fast, reference


def test_the_corpus_stores_are_found() -> None:
    assert len(STORE_ROOTS) >= 30


@pytest.mark.parametrize("root", STORE_ROOTS, ids=[str(r.relative_to(STORES)) for r in STORE_ROOTS])
def test_store_documents(root: Path) -> None:
    for use_consolidated in (True, False):
        document, problems = read_document(root, use_consolidated=use_consolidated)
        if document is None and not use_consolidated and (root / ".zmetadata").exists():
            continue  # GDAL's stores hold .zmetadata and nothing else
        assert document is not None, problems
        version = document["zarr_format"]
        for schema in (
            base(version),
            with_length_checks(version),
            convention(f"xarray-v{version}"),
        ):
            fast, reference = _verdicts(document, schema)
            assert fast == reference, (root, schema.get("title"))


@pytest.mark.parametrize(
    ("label", "case", "version"), CONFORMANCE_CASES, ids=[c[0] for c in CONFORMANCE_CASES]
)
def test_zarr_metadata_conformance_cases(label: str, case: dict[str, Any], version: int) -> None:
    node = as_node(case["document"], version)
    for schema in (base(version), with_length_checks(version)):
        fast, reference = _verdicts(node, schema)
        assert fast == reference, label


def test_length_checks_find_what_json_schema_cannot() -> None:
    # d-v-b's conformance says these two faults are beyond JSON Schema: the checks find them
    v3 = next(c for label, c, _v in CONFORMANCE_CASES if label == "v3_array#13")
    problems = check_document(as_node(v3["document"], 3), with_length_checks(3))
    assert [(p.pointer, p.keyword) for p in problems] == [
        ("/dimension_names", "x-zomgen-ndim-length")
    ]
    # the bundled base ZOM declares the same check itself
    assert [
        (p.pointer, p.keyword) for p in check_document(as_node(v3["document"], 3), base(3))
    ] == [("/dimension_names", "x-zomgen-ndim-length")]


def test_the_ome_cases_are_found() -> None:
    assert len(OME_CASES) > 400


@pytest.mark.parametrize(
    ("label", "document", "schema", "include"), OME_CASES, ids=[c[0] for c in OME_CASES]
)
def test_ome_ngff_documents(label: str, document: Any, schema: Path, include: Path) -> None:
    fast, reference = _verdicts(document, bundled(schema, include))
    assert fast == reference, label


@pytest.mark.parametrize(
    ("label", "document", "schema"), CONVENTION_CASES, ids=[c[0] for c in CONVENTION_CASES]
)
def test_zarr_conventions_documents(label: str, document: Any, schema: Path) -> None:
    if "stac" in schema.parts[-2]:
        # STAC v1.1.0, which the stac convention references, is not in the corpus: zomgen
        # must refuse it (it never fetches) rather than validate against something else.
        with pytest.raises(CompileError, match="v1.1.0"):
            bundled(schema, CORPUS / "external-schemas")
        return
    bundle = bundled(schema, CORPUS / "external-schemas")
    fast, reference = _verdicts(document, bundle)
    assert fast == reference, label
