"""Conformance, measured, for the GeoZarr, zarr-conventions and CF conventions and the base ZOM:

- the zarr-conventions examples of multiscales, geo-proj (`proj:`), spatial (`spatial:`) and CF,
  and geozarr-toolkit's test data, under the vendored schemas as zomgen bundles them: every
  verdict equals upstream's;
- d-v-b's Zarr metadata conformance cases, each written as a real store (`.zarray`, `.zgroup`,
  `.zmetadata`, `zarr.json`) and loaded, under the bundled base ZOM: same verdict, and each
  expected problem location found (departures listed with the reason);
- the GeoZarr conformance stores under the geozarr-dataset package: every verdict equals the
  manifest's;
- GDAL's stores under the GeoZarr and CF grid packages.

Where upstream is wrong, the test records zomgen's decision and the reason (schemas/README.md
says the same)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import Problem, check_document, read_document, validate_store

from tests.support.corpus_cases import CONFORMANCE, CONVENTION_CASES
from tests.support.packages import import_package
from tests.support.runtime import CORPUS, ROOT, STORES, base, bundled

CONVENTIONS = CORPUS / "zarr-conventions"
GEOZARR = STORES / "geozarr-conformance"
VENDORED = {
    "zarr-conventions__multiscales": "zarr-conventions-multiscales/multiscales.schema.json",
    "zarr-conventions__geo-proj": "zarr-conventions-geo-proj/geo-proj.schema.json",
    "zarr-conventions__spatial": "zarr-conventions-spatial/spatial.schema.json",
    "zarr-conventions__CF": "zarr-conventions-cf/zarr-conventions-cf.schema.json",
}


def _package(name: str) -> Any:
    return import_package(ROOT / "generated", name)


def _rows(problems: list[Problem]) -> list[tuple[str, str, str]]:
    return sorted((p.node_path, p.pointer, p.keyword) for p in problems)


# ------------------------------------------------------------ zarr-conventions examples

EXAMPLES = [
    (f"{folder}/{path.name}", path, ROOT / "schemas" / schema)
    for folder, schema in VENDORED.items()
    for path in sorted((CONVENTIONS / folder / "examples").glob("*.json"))
]


def test_every_upstream_example_is_valid_as_upstream_says() -> None:
    """Upstream publishes its examples as valid documents of its convention (its README and
    validate.js run them so): all 20 are valid under the vendored schema zomgen bundles."""
    verdicts = {
        label: check_document(json.loads(path.read_text("utf-8")), bundled(schema))
        for label, path, schema in EXAMPLES
    }
    assert {label: problems for label, problems in verdicts.items() if problems} == {}
    counts = {
        folder: sum(1 for label in verdicts if label.startswith(folder)) for folder in VENDORED
    }
    assert counts == {
        "zarr-conventions__multiscales": 6,
        "zarr-conventions__geo-proj": 4,
        "zarr-conventions__spatial": 2,
        "zarr-conventions__CF": 8,
    }


TOOLKIT = [
    case
    for case in CONVENTION_CASES
    if "geozarr-toolkit" in case[0]
    and any(f"[{c}]" in case[0] for c in ("multiscales", "proj:", "spatial:"))
]


def test_geozarr_toolkit_data_agrees_with_the_manifest() -> None:
    """geozarr-toolkit's attribute documents (wrapped into a group document by the corpus
    cases), each under the convention the manifest checks it with."""
    agree = 0
    for label, document, schema in TOOLKIT:
        rel, _, convention = label.partition(" [")
        entry = json.loads((CORPUS / "manifest.json").read_text())["files"][rel]
        (check,) = [c for c in entry["convention_checks"] if f"{c['convention']}]" == convention]
        vendored = ROOT / "schemas" / VENDORED[schema.parent.name]
        assert (check_document(document, bundled(vendored)) == []) is check["expected_valid"], label
        agree += 1
    assert agree == len(TOOLKIT) == 10


# ------------------------------------------------------------ d-v-b conformance cases

FILES = {
    "v2_array": ".zarray",
    "v2_group": ".zgroup",
    "v2_consolidated": ".zmetadata",
    "v3_array": "zarr.json",
    "v3_group": "zarr.json",
}
# Cases where zomgen's problem stands elsewhere than d-v-b's location, with the reason.
DEPARTURES = {
    # v2 `.zgroup` holds no attributes (they live in `.zattrs`): the loader reads the group's
    # attributes from `.zattrs` and ignores the key, so there is nothing to report
    "v2_group#5": "a v2 group's attributes come from .zattrs, not .zgroup",
    # an unknown key of `.zmetadata` is not read (the loader takes `metadata` only)
    "v2_consolidated#3": "unknown keys of .zmetadata are not read",
}


def _cases() -> list[tuple[str, Any, str]]:
    found: list[tuple[str, Any, str]] = []
    for name, file in FILES.items():
        for index, case in enumerate(json.loads((CONFORMANCE / f"{name}.json").read_text())):
            found.append((f"{name}#{index}", case, file))
    return found


CASES = _cases()


def _found(loc: list[str | int], kind: str, problem: Problem) -> bool:
    """Whether a zomgen problem stands where d-v-b expects one: at the location or inside it;
    a missing key at its parent (`required`); an unexpected key at its parent
    (`additionalProperties`); a key of consolidated metadata at the member it describes."""
    parts = [str(p) for p in loc]
    if parts[:2] == ["consolidated_metadata", "metadata"] and len(parts) > 2:
        node, parts = "/" + parts[2], parts[3:]
    else:
        node = "/"
    if problem.node_path != node:
        return False
    pointer = "".join(f"/{p}" for p in parts)
    parent = "".join(f"/{p}" for p in parts[:-1])
    at_parent = kind == "missing_key" or problem.keyword in ("additionalProperties", "required")
    if (at_parent or problem.keyword == "read") and problem.pointer == parent:
        return True
    return problem.pointer == pointer or problem.pointer.startswith(pointer + "/")


def _check(tmp: Path, label: str, case: dict[str, Any], file: str) -> tuple[bool, bool]:
    """(same verdict, every expected location found) for one case written as a store."""
    root = tmp / label.replace("#", "-")
    root.mkdir()
    (root / file).write_text(json.dumps(case["document"]), "utf-8")
    if file == ".zmetadata":
        (root / ".zgroup").write_text('{"zarr_format": 2}', "utf-8")
    # A case is one metadata document: a consolidated one lists nodes that have no files here,
    # so it is read as a reader that trusts it would (the cases are about the document).
    document, problems = read_document(root, check_consolidated=False)
    if document is not None:
        version = 2 if file.startswith(".") else 3
        problems = problems + validate_store(root, base(version), check_consolidated=False)
    expected = case["problems"]
    same_verdict = (problems == []) is (expected == [])
    located = all(any(_found(e["loc"], e["kind"], p) for p in problems) for e in expected)
    return same_verdict, located


def test_d_v_b_conformance_cases_as_real_stores(tmp_path: Path) -> None:
    verdicts = locations = 0
    departed: dict[str, tuple[bool, bool]] = {}
    for label, case, file in CASES:
        same_verdict, located = _check(tmp_path, label, case, file)
        verdicts += same_verdict
        locations += same_verdict and located
        if not (same_verdict and located):
            departed[label] = (same_verdict, located)
    assert set(departed) == set(DEPARTURES), departed
    assert departed == {
        "v2_group#5": (False, False),
        "v2_consolidated#3": (False, False),
    }
    assert (len(CASES), verdicts, locations) == (51, 49, 49)


def test_the_two_cases_json_schema_cannot_express_are_found(tmp_path: Path) -> None:
    """d-v-b notes that `len(chunks) == len(shape)` (v2) and `len(dimension_names) ==
    len(shape)` (v3) are beyond JSON Schema: the base ZOM's x-zomgen-ndim-length finds both."""
    for label in ("v2_array#3", "v3_array#13"):
        (case, file) = next((c, f) for lb, c, f in CASES if lb == label)
        assert _check(tmp_path, label, case, file) == (True, True)


# ------------------------------------------------------------ GeoZarr conformance stores

MANIFEST = json.loads((GEOZARR / "manifest.json").read_text("utf-8"))["datasets"]
INVALID = {
    "invalid/invalid-bad-crs.zarr": [("/ar", "/attributes/proj:code", "pattern")],
    "invalid/invalid-bad-transform-length.zarr": [
        ("/ar", "/attributes/spatial:transform", "minItems")
    ],
    "invalid/invalid-missing-required.zarr": [("/ar", "/attributes", "required")],
    "invalid/invalid-multiple-crs.zarr": [("/ar", "/attributes", "oneOf")],
    "invalid/invalid-multiscales-no-transform.zarr": [
        ("/", "/attributes/multiscales/layout/1", "required")
    ],
}


@pytest.mark.parametrize("dataset", MANIFEST, ids=[d["path"] for d in MANIFEST])
def test_geozarr_conformance_store(dataset: dict[str, Any]) -> None:
    problems = _package("geozarr_dataset").validate(GEOZARR / dataset["path"])
    assert (problems == []) is dataset["valid"]
    assert _rows(problems) == INVALID.get(dataset["path"], [])


def test_geozarr_conformance_counts() -> None:
    valid = [d for d in MANIFEST if d["valid"]]
    assert (len(MANIFEST), len(valid)) == (18, 13)
    # every store declares `spatial:` by the v1 URLs and the name "spatial:", while the
    # vendored schema's identity constants say v0.1 and "spatial"; the constants sit beside a
    # `$ref` in a draft-07 schema, where they are ignored (python-jsonschema agrees): valid.
    declared = [
        c.get("name")
        for d in valid
        for c in json.loads((GEOZARR / d["path"] / "zarr.json").read_text())["attributes"].get(
            "zarr_conventions", []
        )
        if c.get("uuid") == "689b58e2-cf7b-45e0-9fff-9cfc0883d6b4"
    ]
    assert declared and set(declared) == {"spatial:"}


def test_the_geozarr_dataset_loads_typed() -> None:
    dataset = _package("geozarr_dataset").load(
        GEOZARR / "valid/multiscales/multiscales-sentinel2.zarr"
    )
    assert dataset.attributes.proj_code == "EPSG:32632"
    assert [level.asset for level in dataset.attributes.multiscales.layout] == [
        "r10m",
        "r20m",
        "r60m",
    ]
    assert sorted(dataset.members) == ["r10m", "r20m", "r60m"]


def test_draft07_ref_siblings_are_ignored_as_the_draft_says() -> None:
    """Upstream's runner (Ajv) applies keywords beside a draft-07 `$ref`; the draft and
    python-jsonschema ignore them, and so does zomgen: the store is valid with either engine of
    zomgen and with python-jsonschema's Draft7Validator."""
    jsonschema: Any = pytest.importorskip("jsonschema")
    vendored = json.loads((ROOT / "schemas" / VENDORED["zarr-conventions__spatial"]).read_text())
    store = GEOZARR / "valid/spatial/spatial-north-up.zarr"
    document = json.loads((store / "zarr.json").read_text())
    assert jsonschema.Draft7Validator(vendored).is_valid(document)
    assert (
        check_document(document, bundled(ROOT / "schemas" / VENDORED["zarr-conventions__spatial"]))
        == []
    )


# ------------------------------------------------------------ GDAL's stores


def test_gdal_geozarr_stores_are_valid() -> None:
    package = _package("geozarr_dataset")
    for store in ("v3/simple_multiscales", "v3/spatial_proj_at_parent_level.zarr"):
        # GDAL's fixtures keep only the root's zarr.json: their nodes exist in its consolidated
        # metadata alone (test_corpus.py pins that disagreement); the convention is under test
        found = package.validate(STORES / "gdal-autotest" / store, check_consolidated=False)
        assert found == [], store


def test_gdal_cf_stores_under_the_cf_grid_conventions() -> None:
    gdal = STORES / "gdal-autotest"
    assert _package("cf_grid_v2").validate(gdal / "array_dimensions.zarr") == []
    # GDAL writes its 0-d grid-mapping variable without `_ARRAY_DIMENSIONS`, which xarray needs
    # (and writes as []): refused, as xarray could not open it
    assert _rows(_package("cf_grid_v2").validate(gdal / "byte_cf1.zarr")) == [
        ("/transverse_mercator", "/attributes", "required")
    ]
    # GDAL's v3 store predates the final v3 spec: its arrays have no `codecs`, which the spec
    # requires; refused at each array rather than guessed
    assert _rows(_package("cf_grid_v3").validate(gdal / "byte_cf1.zr3")) == [
        ("/Band1", "", "required"),
        ("/transverse_mercator", "", "required"),
        ("/x", "", "required"),
        ("/y", "", "required"),
    ]


# ------------------------------------------------------------ zarr-specs PR #347


def test_the_inverted_must_understand_rule_of_pr_347() -> None:
    """PR #347's `extension_property` is `oneOf [{must_understand: false, required}, true]`:
    `true` overlaps the first branch, so an extension with `must_understand: false` is
    rejected and one with `must_understand: true` accepted. zomgen's base ZOM follows the core
    spec and ZEP 9 (the reverse), and keeps its rule."""
    jsonschema: Any = pytest.importorskip("jsonschema")
    pr = CORPUS / "zarr-metadata" / "zarr-specs-pr347" / "json-schema" / "group.json"
    group = {"zarr_format": 3, "node_type": "group", "attributes": {}}
    may_ignore = {**group, "ext": {"must_understand": False}}
    must_understand = {**group, "ext": {"must_understand": True}}
    upstream = jsonschema.Draft202012Validator(json.loads(pr.read_text()))
    assert not upstream.is_valid(may_ignore) and upstream.is_valid(must_understand)
    zom = base(3)
    assert check_document({**may_ignore, "members": {}}, zom) == []
    assert check_document({**must_understand, "members": {}}, zom) != []
