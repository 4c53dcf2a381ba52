"""The shared corpus's schemas and the verdicts their original validators give, which
compiler/test_bundle.py holds the bundled schemas to and the corpus/ tests read.

`CORPUS_SCHEMAS` lists every schema of the corpus (by its manifest), `schema_by_uri` finds the
one a `$ref` names, and `corpus_cases()` holds every instance the corpus checks against one of
them: the OME-NGFF test suites, examples and attribute / zarr.json test cases, and the
zarr-conventions examples, each with the validity upstream declares and the one
python-jsonschema gave when the corpus was built (its MANIFEST). `original_verdict(case)`
validates a case against its original schema, through a `referencing` Registry of every corpus
schema by `$id` and by file, with the validator its `$schema` names (Draft 7, 2019-09, 2020-12).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin

import yaml
from jsonschema import Draft202012Validator
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.support.corpus_cases import MANIFEST, convention_checks, read_json
from tests.support.paths import CORPUS

CORPUS_SCHEMAS = sorted(CORPUS / rel for rel, e in MANIFEST.items() if e["role"] == "schema")
OME_VERSIONS = ("0.4", "0.5", "0.6.dev4", "0.6rc0")
EXTERNAL = CORPUS / "external-schemas"
EXTENSIONS_RAW = (
    "https://raw.githubusercontent.com/zarr-developers/zarr-extensions/refs/heads/main/"
)

Json = Any


def _load_schema(path: Path) -> Json:
    if path.suffix in (".yml", ".yaml"):
        return yaml.safe_load(path.read_text("utf-8"))
    return json.loads(path.read_text("utf-8"))


@functools.cache
def _schemas_by_uri() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in CORPUS_SCHEMAS:
        contents = _load_schema(path)
        found[path.as_uri()] = path
        if isinstance(contents, dict) and isinstance(contents.get("$id"), str):
            found.setdefault(urldefrag(contents["$id"]).url, path)
    return found


def schema_by_uri(ref: str, base: Path) -> Path | None:
    """The corpus schema a `$ref` written in file `base` names: by `$id`, by relative path, or
    (zarr-extensions, which has no `$id`s) by its raw.githubusercontent.com URL."""
    uri = urldefrag(urljoin(base.resolve().as_uri(), ref)).url
    if uri.startswith(EXTENSIONS_RAW):
        path = CORPUS / "zarr-extensions" / uri.removeprefix(EXTENSIONS_RAW)
        return path if path in CORPUS_SCHEMAS else None
    found = _schemas_by_uri().get(uri)
    if found is None and uri.startswith("file:"):
        path = Path(uri.removeprefix("file://")).resolve()
        return path if path in CORPUS_SCHEMAS else None
    return found


@functools.cache
def registry() -> Registry[Any]:
    """Every corpus schema under its `$id` and its file URI (no network, no fallback)."""
    resources = []
    for path in CORPUS_SCHEMAS:
        contents = _load_schema(path)
        resource = Resource.from_contents(contents, default_specification=DRAFT202012)
        resources.append((path.as_uri(), resource))
        if isinstance(contents, dict) and isinstance(contents.get("$id"), str):
            resources.append((urldefrag(contents["$id"]).url, resource))
    return Registry().with_resources(resources)


@dataclass(frozen=True)
class Case:
    label: str
    instance: Json
    schema: Path
    includes: tuple[Path, ...]
    expected: bool | None  # what upstream declares
    manifest_verdict: bool | None  # what python-jsonschema said when the corpus was built


def _ome_cases() -> Iterator[Case]:
    for version in OME_VERSIONS:
        base = CORPUS / "ome-ngff" / version
        include = (base / "schemas",)
        for suite in sorted((base / "tests").glob("*_suite.json")):
            data = read_json(suite)
            meta = {c["index"]: c for c in MANIFEST[suite.relative_to(CORPUS).as_posix()]["cases"]}
            for i, test in enumerate(data["tests"]):
                yield Case(
                    f"{suite.relative_to(CORPUS)}#{i}",
                    test["data"],
                    base / data["schema"]["id"],
                    include,
                    test["valid"],
                    meta[i]["jsonschema_valid"],
                )
    for rel, entry in MANIFEST.items():
        against = entry.get("validated_against")
        if not rel.startswith("ome-ngff/") or "expected_valid" not in entry or not against:
            continue
        version = rel.split("/")[1]
        base = CORPUS / "ome-ngff" / version
        schema = base / against if against.startswith("schemas/") else base / "schemas" / against
        if not schema.is_file():
            continue  # 0.6 transformation snippets name a schema that does not exist
        doc = read_json(CORPUS / rel)
        notes = entry.get("notes") or ""
        if "validate .attributes" in notes or rel.startswith(f"ome-ngff/{version}/tests/zarr/"):
            doc = doc["attributes"]
        yield Case(
            rel,
            doc,
            schema,
            (base / "schemas",),
            entry["expected_valid"],
            entry.get("jsonschema_valid"),
        )


def _convention_cases() -> Iterator[Case]:
    for rel, check, doc, schema in convention_checks():
        yield Case(
            f"{rel} [{check['convention'] or 'own schema'}]",
            doc,
            schema,
            (EXTERNAL,),
            check["expected_valid"],
            check.get("jsonschema_valid"),
        )


@functools.cache
def corpus_cases() -> tuple[Case, ...]:
    return tuple(_ome_cases()) + tuple(_convention_cases())


@functools.cache
def original_validator(schema: Path) -> Validator:
    contents = _load_schema(schema)
    cls = validator_for(contents, default=Draft202012Validator)
    return cls(contents, registry=registry())


def verdict(validator: Validator, instance: Json) -> bool | str:
    try:
        return bool(validator.is_valid(instance))
    except Exception as exc:  # noqa: BLE001 - an unresolvable reference, a bad pattern...
        return f"error: {type(exc).__name__}: {exc}"[:300]


def original_verdict(case: Case) -> bool | str:
    return verdict(original_validator(case.schema), case.instance)
