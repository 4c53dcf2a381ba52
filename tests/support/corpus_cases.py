"""The corpus documents both engines and both languages are held to: every metadata-only store
(as a ZOM document), the Zarr metadata conformance cases, the OME-NGFF test suites and examples,
and the zarr-conventions examples, each with the schema it is checked against."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.support.runtime import CORPUS, STORES, base

MANIFEST: dict[str, dict[str, Any]] = json.loads((CORPUS / "manifest.json").read_text())["files"]
CONFORMANCE = CORPUS / "zarr-metadata" / "d-v-b__zarr-metadata-ts" / "conformance"


def read_json(path: Path) -> Any:
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


def _store_roots() -> Iterator[Path]:
    metadata = ("zarr.json", ".zgroup", ".zarray", ".zmetadata")
    for meta in sorted(p for name in metadata for p in STORES.rglob(name)):
        folder = meta.parent
        parent_has_node = any((folder.parent / n).exists() for n in ("zarr.json", ".zgroup"))
        if not parent_has_node or folder.parent == STORES:
            yield folder


STORE_ROOTS = sorted(set(_store_roots()))


def _conformance_cases() -> Iterator[tuple[str, Any, int]]:
    for name, version in (("v2_array", 2), ("v2_group", 2), ("v3_array", 3), ("v3_group", 3)):
        for index, case in enumerate(json.loads((CONFORMANCE / f"{name}.json").read_text())):
            yield f"{name}#{index}", case, version


CONFORMANCE_CASES = list(_conformance_cases())


def as_node(document: Any, version: int) -> Any:
    """A raw metadata document -> its ZOM node, the way the loader builds one."""
    if not isinstance(document, dict):
        return document
    node = {k: v for k, v in document.items() if k != "consolidated_metadata"}
    node.setdefault("attributes", {})
    if node.get("node_type") == "group" or (version == 2 and "shape" not in node):
        node["members"] = {}
    return node


def _ome_cases() -> Iterator[tuple[str, Any, Path, Path]]:
    for version in ("0.4", "0.5", "0.6.dev4", "0.6rc0"):
        folder = CORPUS / "ome-ngff" / version
        for suite in sorted((folder / "tests").glob("*_suite.json")):
            data = read_json(suite)
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
            document = read_json(CORPUS / rel)
        except json.JSONDecodeError:
            continue  # the two malformed files of the corpus
        notes = entry.get("notes") or ""
        if "validate .attributes" in notes or "/tests/zarr/" in rel:
            document = (
                document.get("attributes", document) if isinstance(document, dict) else document
            )
        yield rel, document, schema, folder / "schemas"


OME_CASES = list(_ome_cases())


def convention_checks() -> Iterator[tuple[str, dict[str, Any], Any, Path]]:
    """(file, its manifest check, the document checked, the schema) of every zarr-conventions
    check the manifest records; geozarr-toolkit's test data, attribute documents, are wrapped
    into a group (corpus_verdicts.py reads the same checks with their verdicts)."""
    spec = CORPUS / "zarr-conventions" / "zarr-conventions__zarr-conventions-spec"
    for rel, entry in MANIFEST.items():
        for check in entry.get("convention_checks") or []:
            schema = CORPUS / check["schema"]
            if not schema.is_file():
                schema = spec / check["schema"]
            document = read_json(CORPUS / rel)
            if "zarr-experimental" not in check["schema"] and "attributes" not in document:
                document = {"zarr_format": 3, "node_type": "group", "attributes": document}
            yield rel, check, document, schema


def _convention_cases() -> Iterator[tuple[str, Any, Path]]:
    for rel, check, document, schema in convention_checks():
        yield f"{rel} [{check['convention']}]", document, schema


CONVENTION_CASES = list(_convention_cases())
