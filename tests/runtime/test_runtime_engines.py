"""The fast engine (jsonschema-rs plus the zomgen checks as custom keywords) gives the same
verdict as the reference (python-jsonschema with the same checks) on every document of the
corpus: every metadata-only store (as a ZOM document, under the base ZOM, under the base ZOM
with the zomgen length checks, and under the xarray conventions), the Zarr metadata conformance
cases, the OME-NGFF test suites and examples, and the zarr-conventions examples."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from runtime_support import CORPUS, STORES, base, bundled, convention

from zomgen.errors import CompileError
from zomgen.runtime import check_document, read_document
from zomgen.runtime.validation import _engines

MANIFEST: dict[str, dict[str, Any]] = json.loads((CORPUS / "manifest.json").read_text())["files"]
CONFORMANCE = CORPUS / "zarr-metadata" / "d-v-b__zarr-metadata-ts" / "conformance"


def _read_json(path: Path) -> Any:
    """JSON, with the `//` comment lines some OME examples carry removed."""
    lines = path.read_text("utf-8").splitlines()
    return json.loads("\n".join(ln for ln in lines if not ln.lstrip().startswith("//")))


@functools.cache
def with_length_checks(version: int) -> dict[str, Any]:
    """The base ZOM plus what docs/base-schemas.md leaves to the loader, as zomgen checks:
    v2 `len(chunks) == len(shape)`, v3 `len(dimension_names)` and the regular grid's
    `len(chunk_shape) == len(shape)`."""
    schema = copy.deepcopy(base(version))
    array = schema["$defs"]["ArraySpec"]
    array["x-zomgen-ndim-length"] = (
        ["/chunks"]
        if version == 2
        else ["/dimension_names", "/chunk_grid/configuration/chunk_shape"]
    )
    return schema


def _verdicts(document: Any, schema: dict[str, Any]) -> tuple[bool, bool]:
    engines = _engines(schema)
    assert engines.fast is not None, "jsonschema-rs could not compile the schema"
    fast = bool(engines.fast.is_valid(document))
    reference = check_document(document, schema, fast=False) == []
    return fast, reference


def _store_roots() -> Iterator[Path]:
    metadata = ("zarr.json", ".zgroup", ".zarray", ".zmetadata")
    for meta in sorted(p for name in metadata for p in STORES.rglob(name)):
        folder = meta.parent
        parent_has_node = any((folder.parent / n).exists() for n in ("zarr.json", ".zgroup"))
        if not parent_has_node or folder.parent == STORES:
            yield folder


STORE_ROOTS = sorted(set(_store_roots()))


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


def _conformance_cases() -> Iterator[tuple[str, Any, int]]:
    for name, version in (("v2_array", 2), ("v2_group", 2), ("v3_array", 3), ("v3_group", 3)):
        for index, case in enumerate(json.loads((CONFORMANCE / f"{name}.json").read_text())):
            yield f"{name}#{index}", case, version


CONFORMANCE_CASES = list(_conformance_cases())


def _as_node(document: Any, version: int) -> Any:
    """A raw metadata document -> its ZOM node, the way the loader builds one."""
    if not isinstance(document, dict):
        return document
    node = {k: v for k, v in document.items() if k != "consolidated_metadata"}
    node.setdefault("attributes", {})
    if node.get("node_type") == "group" or (version == 2 and "shape" not in node):
        node["members"] = {}
    return node


@pytest.mark.parametrize(
    ("label", "case", "version"), CONFORMANCE_CASES, ids=[c[0] for c in CONFORMANCE_CASES]
)
def test_zarr_metadata_conformance_cases(label: str, case: dict[str, Any], version: int) -> None:
    node = _as_node(case["document"], version)
    for schema in (base(version), with_length_checks(version)):
        fast, reference = _verdicts(node, schema)
        assert fast == reference, label


def test_length_checks_find_what_json_schema_cannot() -> None:
    # d-v-b's conformance says these two faults are beyond JSON Schema: the checks find them
    v3 = next(c for label, c, _v in CONFORMANCE_CASES if label == "v3_array#13")
    problems = check_document(_as_node(v3["document"], 3), with_length_checks(3))
    assert [(p.pointer, p.keyword) for p in problems] == [
        ("/dimension_names", "x-zomgen-ndim-length")
    ]
    # the bundled base ZOM declares the same check itself
    assert [
        (p.pointer, p.keyword) for p in check_document(_as_node(v3["document"], 3), base(3))
    ] == [("/dimension_names", "x-zomgen-ndim-length")]


def _ome_cases() -> Iterator[tuple[str, Any, Path, Path]]:
    for version in ("0.4", "0.5", "0.6.dev4", "0.6rc0"):
        folder = CORPUS / "ome-ngff" / version
        for suite in sorted((folder / "tests").glob("*_suite.json")):
            data = _read_json(suite)
            for index, test in enumerate(data["tests"]):
                label = f"{suite.relative_to(CORPUS)}#{index}"
                yield label, test["data"], folder / data["schema"]["id"], folder / "schemas"
    for rel, entry in MANIFEST.items():
        against = entry.get("validated_against")
        if not rel.startswith("ome-ngff/") or "expected_valid" not in entry or not against:
            continue
        folder = CORPUS / "ome-ngff" / rel.split("/")[1]
        schema = (
            folder / against if against.startswith("schemas/") else folder / "schemas" / against
        )
        if not schema.is_file():
            continue
        try:
            document = _read_json(CORPUS / rel)
        except json.JSONDecodeError:
            continue  # the two malformed files of the corpus
        notes = entry.get("notes") or ""
        if "validate .attributes" in notes or "/tests/zarr/" in rel:
            document = (
                document.get("attributes", document) if isinstance(document, dict) else document
            )
        yield rel, document, schema, folder / "schemas"


OME_CASES = list(_ome_cases())


def test_the_ome_cases_are_found() -> None:
    assert len(OME_CASES) > 400


@pytest.mark.parametrize(
    ("label", "document", "schema", "include"), OME_CASES, ids=[c[0] for c in OME_CASES]
)
def test_ome_ngff_documents(label: str, document: Any, schema: Path, include: Path) -> None:
    fast, reference = _verdicts(document, bundled(schema, include))
    assert fast == reference, label


def _convention_cases() -> Iterator[tuple[str, Any, Path]]:
    spec = CORPUS / "zarr-conventions" / "zarr-conventions__zarr-conventions-spec"
    for rel, entry in MANIFEST.items():
        for check in entry.get("convention_checks") or []:
            schema = CORPUS / check["schema"]
            if not schema.is_file():
                schema = spec / check["schema"]
            document = _read_json(CORPUS / rel)
            if "zarr-experimental" not in check["schema"] and "attributes" not in document:
                document = {"zarr_format": 3, "node_type": "group", "attributes": document}
            yield f"{rel} [{check['convention']}]", document, schema


CONVENTION_CASES = list(_convention_cases())


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
