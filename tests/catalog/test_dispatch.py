"""`zomgen validate STORE` without `--schema`: each node is checked against the conventions it
declares or evidently uses, composed on one node, on real stores (GeoZarr's conformance stores,
OME-Zarr written by ome-zarr-py, xarray datasets) and on the conventions' own examples; every
declaration the catalog cannot match, every undeclared use and every malformed declaration is
reported at its node and pointer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_zomgen
from tests.support.paths import CORPUS, ROOT
from tests.support.runtime import ome_image_with_labels
from zomgen.catalog.declarations import MAX_DECLARATIONS, Matcher
from zomgen.catalog.dispatch import Report, check_declared, validate_declared
from zomgen.catalog.entries import load_catalogs

GEOZARR = CORPUS / "stores" / "geozarr-conformance"
CONVENTIONS = CORPUS / "zarr-conventions"
MULTISCALES = "d35379db-88df-4056-af3a-620245f8e347"
PROJ = "f17cb550-5864-4468-aeb7-f3180cfb622f"
SPATIAL = "689b58e2-cf7b-45e0-9fff-9cfc0883d6b4"

# The one problem each invalid GeoZarr store must show (node, pointer), from its manifest.
GEOZARR_INVALID = {
    "invalid/invalid-bad-crs.zarr": ("/ar", "/attributes/proj:code"),
    "invalid/invalid-bad-transform-length.zarr": ("/ar", "/attributes/spatial:transform"),
    "invalid/invalid-missing-required.zarr": ("/ar", "/attributes"),
    "invalid/invalid-multiscales-no-transform.zarr": ("/", "/attributes/multiscales/layout/1"),
    "invalid/invalid-multiple-crs.zarr": ("/ar", "/attributes"),
}


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    return Matcher(load_catalogs([]))


def _names(report: Report) -> dict[str, list[str]]:
    return {path: [a.entry.name for a in applied] for path, applied in report.nodes.items()}


def _geozarr_datasets() -> list[dict[str, Any]]:
    manifest = json.loads((GEOZARR / "manifest.json").read_text("utf-8"))
    datasets: list[dict[str, Any]] = manifest["datasets"]
    return datasets


@pytest.mark.parametrize("dataset", _geozarr_datasets(), ids=lambda d: str(d["path"]))
def test_geozarr_conformance_stores(dataset: dict[str, Any]) -> None:
    """GeoZarr's 18 conformance stores (written by zarr-python): each store's verdict is its
    manifest's, every convention the manifest lists is applied where declared, and an invalid
    store's problem is the one its manifest describes."""
    report = validate_declared(GEOZARR / dataset["path"])
    applied = {name for names in _names(report).values() for name in names}
    assert set(dataset["conventions"]) <= applied, _names(report)
    assert report.valid is dataset["valid"], report.problems
    if not dataset["valid"]:
        assert [(p.node_path, p.pointer) for p in report.problems] == [
            GEOZARR_INVALID[dataset["path"]]
        ]
    # The stores declare spatial: by its uuid with the v1 URL, while the registry's entry (and
    # the vendored schema) is v0.1: said once per declaring node, and checked as v0.1.
    for warning in report.warnings:
        assert warning.keyword == "version", warning
        assert warning.message.startswith(
            "declares spatial: by its uuid with schema_url "
            "https://raw.githubusercontent.com/zarr-conventions/spatial/refs/tags/v1/schema.json"
        )


def test_composition_on_one_node_checks_every_convention() -> None:
    """Sentinel-2 (multiscales, proj:, spatial: on one group): all three applied at the root,
    and a value one of them refuses is reported though the others hold."""
    store = GEOZARR / "valid/multiscales/multiscales-sentinel2.zarr"
    report = validate_declared(store)
    assert _names(report)["/"][:3] == ["multiscales", "proj:", "spatial:"]
    assert report.valid


# --- the conventions' own examples ---------------------------------------------------------------

# Examples whose verdict departs from "valid", each with its reason.
EXAMPLE_PROBLEMS = {
    # The CF repository's examples add `version` to the convention metadata object, which the
    # zarr-conventions spec forbids ("MUST NOT contain additional fields").
    **{
        f"zarr-conventions__CF/examples/{name}.json": [
            ("/", "/attributes/zarr_conventions/0/version")
        ]
        for name in (
            "composed_with_proj",
            "composed_with_spatial",
            "coordinate_variable",
            "flag_variable",
            "grid_mapping",
            "minimal",
            "temperature",
            "time_coordinate",
        )
    },
    # Stale examples: they declare multiscales and proj by uuid with the v0.1 / zarr-conventions
    # URLs, while the current (v1) schemas require the v1 URLs in `zarr_conventions`.
    "zarr-conventions__spatial/examples/multiscales.json": [("/", "/attributes/zarr_conventions")],
    "zarr-conventions__zarr-conventions-spec/examples/composability.json": [
        ("/", "/attributes/zarr_conventions")
    ],
}
# The conventions each example is checked against (the examples declare them).
EXAMPLE_FOLDERS = {
    "clbarnes__zarr-convention-license": ["license"],
    "clbarnes__zarr-convention-uom": ["uom"],
    "zarr-conventions__CF": ["CF"],
    "zarr-conventions__dggs": ["dggs"],
    "zarr-conventions__geo-proj": ["proj:"],
    "zarr-conventions__multiscales": ["multiscales"],
    "zarr-conventions__nzug": ["NZ-1.0"],
    "zarr-conventions__spatial": ["spatial:"],
    "zarr-conventions__stac": ["stac:"],
    "zarr-conventions__template": ["template"],
    "R-CF__zarr_convention_ref": ["ref"],
}


def _examples() -> list[str]:
    return sorted(
        str(path.relative_to(CONVENTIONS))
        for folder in EXAMPLE_FOLDERS
        for path in (CONVENTIONS / folder / "examples").glob("*.json")
    )


@pytest.mark.parametrize("example", _examples())
def test_each_conventions_examples(example: str, matcher: Matcher) -> None:
    document = json.loads((CONVENTIONS / example).read_text("utf-8"))
    report = check_declared(document, matcher)
    applied = {name for names in _names(report).values() for name in names}
    assert set(EXAMPLE_FOLDERS[example.split("/")[0]]) <= applied, _names(report)
    found = [(p.node_path, p.pointer) for p in report.problems]
    assert found == EXAMPLE_PROBLEMS.get(example, []), report.problems


def test_stacs_schemas_are_not_local(matcher: Matcher) -> None:
    """STAC's convention refers to the STAC schemas online: known, reported, not checked, so
    the store is not fully checked."""
    example = CONVENTIONS / "zarr-conventions__stac/examples/minimal_item_example.json"
    report = check_declared(json.loads(example.read_text("utf-8")), matcher)
    assert [(u.message, u.reason) for u in report.unchecked] == [
        ("stac: is known but its schema is not available offline; not checked", "no schema")
    ]
    assert report.status == "not fully checked"


# --- declarations the catalog cannot match, and malformed ones -------------------------------


def _node(attributes: dict[str, Any]) -> dict[str, Any]:
    return {"zarr_format": 3, "node_type": "group", "attributes": attributes, "members": {}}


def _cmo(uuid: str, **more: str) -> dict[str, str]:
    return {"uuid": uuid, **more}


@pytest.mark.parametrize(
    ("declared", "pointer", "message"),
    [
        (
            [_cmo("00000000-aaaa-4aaa-8aaa-000000000000", name="mine")],
            "/attributes/zarr_conventions/0",
            (
                "declares uuid 00000000-aaaa-4aaa-8aaa-000000000000 (mine), which the catalog "
                "does not know; not checked"
            ),
        ),
        (
            [{"schema_url": "https://example.org/x/schema.json"}],
            "/attributes/zarr_conventions/0",
            (
                "declares schema_url https://example.org/x/schema.json, which the catalog does "
                "not know; not checked"
            ),
        ),
        (
            [
                {
                    "schema_url": "https://raw.githubusercontent.com/zarr-conventions/"
                    "multiscales/refs/tags/v2/schema.json"
                }
            ],
            "/attributes/zarr_conventions/0",
            "another version of multiscales than the catalog knows",
        ),
        (
            [
                _cmo(
                    SPATIAL,
                    schema_url="https://raw.githubusercontent.com/zarr-conventions/spatial/"
                    "refs/tags/v0.2/schema.json",
                )
            ],
            "/attributes/zarr_conventions/0/schema_url",
            "declares spatial: by its uuid with schema_url",
        ),
    ],
)
def test_declarations_the_catalog_cannot_match_are_not_checked(
    declared: list[dict[str, str]], pointer: str, message: str, matcher: Matcher
) -> None:
    """A declaration the catalog does not know is a place not checked; one it knows by its
    uuid under another schema_url is checked against the catalog's, with a warning."""
    report = check_declared(_node({"zarr_conventions": declared}), matcher)
    if pointer.endswith("/schema_url"):
        assert [(w.node_path, w.pointer) for w in report.warnings] == [("/", pointer)]
        assert message in report.warnings[0].message and report.unchecked == []
    else:
        assert [(u.node_path, u.pointer) for u in report.unchecked] == [("/", pointer)]
        assert message in report.unchecked[0].message and report.warnings == []
        assert report.status == "not fully checked"


def test_an_undeclared_use_is_not_checked(matcher: Matcher) -> None:
    report = check_declared(_node({"proj:code": "not a code"}), matcher)
    assert report.status == "not fully checked" and "/" not in report.nodes
    (note,) = report.unchecked
    assert (note.reason, note.message) == (
        "undeclared",
        "uses proj: (keys proj:code) without declaring it; not checked as proj:",
    )


@pytest.mark.parametrize(
    ("declared", "problems"),
    [
        ({"uuid": PROJ}, [("/attributes/zarr_conventions", "must be a list")]),
        (["proj:"], [("/attributes/zarr_conventions/0", "must be a convention metadata object")]),
        (
            [{"name": "proj:"}],
            [("/attributes/zarr_conventions/0", "needs at least one of uuid")],
        ),
        ([{"uuid": 7}], [("/attributes/zarr_conventions/0/uuid", "uuid must be a string")]),
        (
            [{"uuid": PROJ, "version": "1"}],
            [("/attributes/zarr_conventions/0/version", "'version' is not a field")],
        ),
    ],
)
def test_malformed_declarations_are_problems_at_their_pointer(
    declared: object, problems: list[tuple[str, str]], matcher: Matcher
) -> None:
    report = check_declared(
        _node({"zarr_conventions": declared, "proj:code": "EPSG:4326"}), matcher
    )
    found = [(p.pointer, p.message) for p in report.problems if p.keyword == "zarr_conventions"]
    assert len(found) == len(problems), report.problems
    for (pointer, message), (want_pointer, want) in zip(found, problems, strict=True):
        assert pointer == want_pointer and want in message


def test_a_thousand_declarations(matcher: Matcher) -> None:
    """Read up to a bound, reported past it, never slow or a crash."""
    declared = [_cmo(f"00000000-0000-4000-8000-{i:012d}") for i in range(1000)]
    report = check_declared(_node({"zarr_conventions": declared}), matcher)
    (problem,) = report.problems
    assert problem.pointer == "/attributes/zarr_conventions"
    assert f"only the first {MAX_DECLARATIONS} are read" in problem.message
    unknown = [u for u in report.unchecked if u.reason == "unknown convention"]
    assert len(unknown) == MAX_DECLARATIONS


# --- OME-Zarr and xarray, written by their own tools ------------------------------------------


@pytest.mark.parametrize("version", ["0.4", "0.5"])
def test_an_ome_zarr_image_with_labels(tmp_path: Path, version: str) -> None:
    """The image is checked once as an OME-Zarr image, its labels as part of it (the family's
    schema describes them): not again as images of their own."""
    store = tmp_path / "image.zarr"
    ome_image_with_labels(store, version)
    report = validate_declared(store)
    assert _names(report) == {"/": [f"ome-ngff-0{version[-1]}-image"]}
    assert report.valid, report.problems
    assert not report.warnings


@pytest.mark.parametrize("version", ["0.4", "0.5"])
def test_a_broken_ome_zarr_image_is_reported_at_its_node(tmp_path: Path, version: str) -> None:
    store = tmp_path / "image.zarr"
    ome_image_with_labels(store, version)
    label = store / "labels" / "cells" / (".zattrs" if version == "0.4" else "zarr.json")
    document = json.loads(label.read_text("utf-8"))
    attributes = document if version == "0.4" else document["attributes"]["ome"]
    attributes["multiscales"][0]["axes"] = attributes["multiscales"][0]["axes"][:1]
    label.write_text(json.dumps(document), "utf-8")
    report = validate_declared(store)
    paths = {p.node_path for p in report.problems}
    # the label image, and its levels, whose dimensions no longer match its axes
    assert "/labels/cells" in paths
    assert all(path.startswith("/labels/cells") for path in paths), paths


def test_an_ome_zarr_version_the_catalog_has_no_schema_for(matcher: Matcher) -> None:
    """More versions in tests/cli/test_verdicts.py (OME-Zarr's version policy)."""
    node = _node({"ome": {"version": "0.6.dev4", "multiscales": []}})
    report = check_declared(node, matcher)
    assert _names(report) == {}
    assert [(u.pointer, u.message) for u in report.unchecked] == [
        (
            "/attributes/ome/version",
            "declares OME-Zarr 0.6.dev4, a version zomgen's catalog has no schema for; not checked",
        )
    ]


@pytest.mark.parametrize("zarr_format", [2, 3])
def test_an_xarray_dataset_with_cf_attributes(tmp_path: Path, zarr_format: int) -> None:
    """Written by xarray: evidently an xarray dataset and a CF grid (neither is declared, and
    neither says how it would be): both checked, no warning."""
    xr = pytest.importorskip("xarray")
    np = pytest.importorskip("numpy")
    dataset = xr.Dataset(
        {"t": (("y", "x"), np.zeros((2, 3)), {"units": "K", "standard_name": "air_temperature"})},
        coords={"y": [0.0, 1.0], "x": [0.0, 1.0, 2.0]},
        attrs={"Conventions": "CF-1.11", "title": "t"},
    )
    store = tmp_path / "ds.zarr"
    dataset.to_zarr(store, zarr_format=zarr_format, consolidated=False)
    report = validate_declared(store)
    assert _names(report) == {"/": [f"xarray-v{zarr_format}", f"cf-grid-v{zarr_format}"]}
    assert report.valid, report.problems
    assert not report.warnings


def test_the_cli_reports_per_node_and_exits_by_verdict(tmp_path: Path) -> None:
    valid = run_zomgen("validate", GEOZARR / "valid/spatial/spatial-north-up.zarr")
    assert valid.returncode == 0, valid.stderr
    assert "/ar: spatial: (declared), proj: (declared)" in valid.stdout.splitlines()
    assert valid.stdout.splitlines()[-1].endswith(
        "valid (2 nodes read, 3 convention checks on 2 nodes)"
    )

    invalid = run_zomgen("validate", GEOZARR / "invalid/invalid-bad-crs.zarr", "--format", "json")
    assert invalid.returncode == 1
    report = json.loads(invalid.stdout)
    assert report["valid"] is False
    assert {
        "node_path": "/ar",
        "conventions": [
            {
                "name": "proj:",
                "uuid": PROJ,
                "schema_url": "https://raw.githubusercontent.com/zarr-experimental/geo-proj/refs/tags/v1/schema.json",
                "how": "declared",
            }
        ],
    } in report["nodes"]

    missing = run_zomgen("validate", tmp_path / "nowhere.zarr")
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert str(tmp_path / "nowhere.zarr") in missing.stderr


@pytest.mark.parametrize(
    ("store", "conventions"),
    [
        ("2d.zarr", {"/": ["ome-ngff-04-image"]}),
        ("bf2raw.zarr", {"/": ["ome-ngff-04-bf2raw"]}),
        # a plate that is also a bioformats2raw collection: the plate "takes precedence"
        ("hcs.zarr", {"/": ["ome-ngff-04-plate"]}),
    ],
)
def test_the_ome2024_challenge_stores(store: str, conventions: dict[str, list[str]]) -> None:
    report = validate_declared(CORPUS / "stores" / "ome2024-ngff-challenge" / store)
    assert _names(report) == conventions
    assert report.valid, report.problems
    assert not report.warnings


def test_the_verdict_format_for_conformance_runners(tmp_path: Path) -> None:
    """`--attributes --format verdict`: what ngff-spec's conformance runner calls (a path
    appended, one JSON line read, exit 0 whatever the verdict, non-zero for an error)."""
    declared = [{"uuid": PROJ}]
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"zarr_conventions": declared, "proj:code": "EPSG:4326"}))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"zarr_conventions": declared, "proj:code": "epsg:4326"}))

    result = run_zomgen("validate", good, "--attributes", "--format", "verdict")
    assert (result.returncode, json.loads(result.stdout)) == (
        0,
        {"valid": True, "message": "checked: proj:"},
    )
    result = run_zomgen("validate", bad, "--attributes", "--format", "verdict")
    assert result.returncode == 0
    verdict = json.loads(result.stdout)
    assert verdict["valid"] is False and "/attributes/proj:code" in verdict["message"]

    for broken, why in (
        ("[1, 2]", "holds a JSON array, not an object"),
        ("{not json", "is not JSON"),
        ('{"a": NaN}', "NaN is not JSON"),
        ('{"a": ' + "9" * 5000 + "}", "a number beyond what a 64-bit float holds"),
        ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", "nests deeper than 512 levels"),
    ):
        (tmp_path / "broken.json").write_text(broken)
        result = run_zomgen("validate", tmp_path / "broken.json", "--attributes")
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert why in result.stderr, result.stderr
        # for a runner: an invalid verdict, as for a store that is not JSON
        result = run_zomgen(
            "validate", tmp_path / "broken.json", "--attributes", "--format", "verdict"
        )
        assert result.returncode == 0 and why in json.loads(result.stdout)["message"]
    # a file that is not there is the command's mistake: exit 2, in either form
    for form in ((), ("--format", "verdict")):
        result = run_zomgen("validate", tmp_path / "missing.json", "--attributes", *form)
        assert result.returncode == 2 and "No such file" in result.stdout + result.stderr
    schema = ROOT / "schemas" / "xarray-v3" / "schema.json"
    result = run_zomgen("validate", good, "--attributes", "--schema", schema)
    assert result.returncode == 2 and "--attributes applies where" in result.stderr


# --- keys a writer put in .zgroup / .zarray ------------------------------------------------------


def _add_key(file: Path, key: str, value: Any) -> None:
    metadata = json.loads(file.read_text("utf-8"))
    metadata[key] = value
    file.write_text(json.dumps(metadata), "utf-8")


def test_a_writers_own_keys_in_v2_metadata_are_warnings_not_problems(tmp_path: Path) -> None:
    """The v2 spec: other keys SHOULD NOT be present and readers ignore them; zarr-python opens
    the store, and so does zomgen, naming each key."""
    zarr = pytest.importorskip("zarr")
    store = tmp_path / "image.zarr"
    ome_image_with_labels(store, "0.4")
    _add_key(store / ".zgroup", "writer", "lab-scope 3.1")
    level = json.loads((store / ".zattrs").read_text("utf-8"))["multiscales"][0]["datasets"][0]
    _add_key(store / level["path"] / ".zarray", "calibration", {"gain": 1.5})
    assert zarr.open_group(store, mode="r")[level["path"]].shape == (2, 32, 32)
    assert level["path"] == "s0"
    report = validate_declared(store)
    assert report.valid, report.problems
    assert [(w.node_path, w.pointer, w.keyword) for w in report.warnings] == [
        ("/", "/writer", "other key"),
        (f"/{level['path']}", "/calibration", "other key"),
    ]
    assert report.warnings[0].message == (
        "'writer' in .zgroup is not a Zarr v2 key (the spec: other keys SHOULD NOT be present, "
        "and readers ignore them); no convention checked here declares it"
    )
    result = run_zomgen("validate", store)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "warning: /: /writer: 'writer' in .zgroup is not a Zarr v2 key" in result.stdout


def test_a_key_a_convention_declares_on_a_v2_node_is_its_field_not_a_warning(
    tmp_path: Path,
) -> None:
    uuid = "0b9f4c8e-1c1e-4a55-9a5e-2f6d3c1b7a10"
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "allOf": [{"$ref": "urn:zom:v2#/$defs/GroupSpec"}],
        "properties": {"writer": {"type": "string"}},
        "required": ["writer"],
    }
    folder = tmp_path / "catalog"
    folder.mkdir()
    (folder / "lab.schema.json").write_text(json.dumps(schema), "utf-8")
    entry = {
        "name": "lab:",
        "uuid": uuid,
        "namespace": {"style": "prefixed", "key": "lab:"},
        "schema": "lab.schema.json",
    }
    catalog = folder / "catalog.json"
    catalog.write_text(json.dumps({"conventions": [entry]}), "utf-8")
    store = tmp_path / "survey.zarr"
    store.mkdir()
    zgroup = {"zarr_format": 2, "writer": "lab-scope", "operator": "ada"}
    (store / ".zgroup").write_text(json.dumps(zgroup), "utf-8")
    declaring = {"zarr_conventions": [{"uuid": uuid, "name": "lab:"}], "lab:site": "north"}
    (store / ".zattrs").write_text(json.dumps(declaring), "utf-8")
    report = validate_declared(store, catalogs=[catalog])
    assert _names(report) == {"/": ["lab:"]}
    assert report.valid, report.problems
    assert [(w.pointer, w.keyword) for w in report.warnings] == [("/operator", "other key")]
    # the convention's own rule on its key holds
    (store / ".zgroup").write_text(json.dumps(zgroup | {"writer": 3}), "utf-8")
    broken = validate_declared(store, catalogs=[catalog])
    assert [(p.pointer, p.keyword) for p in broken.problems] == [("/writer", "type")]


NZ = "d0a980b5-c644-4dcc-85a1-283799a58f40"


@pytest.mark.parametrize(
    ("declared", "expected"),
    [
        (
            [_cmo(PROJ, name="spatial:")],
            [
                (
                    "/attributes/zarr_conventions/0/name",
                    "name",
                    (
                        "names the convention 'spatial:', but its identity is proj:'s; "
                        "checked as proj:"
                    ),
                )
            ],
        ),
        # NZ was first published as NZUG-1.0 (tag v1-proposed), under the same uuid
        (
            [_cmo(NZ, name="NZUG-1.0")],
            [
                (
                    "/attributes/zarr_conventions/0/name",
                    "name",
                    (
                        "names the convention 'NZUG-1.0', but its identity is NZ-1.0's; "
                        "checked as NZ-1.0"
                    ),
                )
            ],
        ),
        (
            [_cmo(PROJ), _cmo(PROJ, name="proj:")],
            [
                (
                    "/attributes/zarr_conventions/1",
                    "repeated",
                    "declares proj: again (as /attributes/zarr_conventions/0 does); read once",
                )
            ],
        ),
        (
            [_cmo("not-known"), _cmo(PROJ), _cmo(PROJ)],
            [  # (the unknown one is a place not checked, not a warning)
                (
                    "/attributes/zarr_conventions/2",
                    "repeated",
                    "declares proj: again (as /attributes/zarr_conventions/1 does); read once",
                ),
            ],
        ),
        ([_cmo(PROJ, name="proj:")], []),
    ],
    ids=["another name", "NZ's first name", "twice", "twice after an unknown", "its own name"],
)
def test_the_identity_decides_and_a_disagreeing_or_repeated_declaration_is_warned(
    matcher: Matcher, declared: list[dict[str, str]], expected: list[tuple[str, str, str]]
) -> None:
    """docs/catalog.md, "Versions and names": the uuid (else schema_url, else spec_url)
    selects the entry; the name never does."""
    report = check_declared(
        _node({"zarr_conventions": declared, "proj:code": "EPSG:4326"}), matcher
    )
    assert [(w.pointer, w.keyword, w.message) for w in report.warnings] == expected
    applied = _names(report)["/"]
    assert applied == (["NZ-1.0"] if declared[0]["uuid"] == NZ else ["proj:"])
