"""`zomgen site -o DIR` without a schema: the catalog page, which checks each node of a store
against the conventions it declares or evidently uses, as `zomgen validate STORE` does. In
Chromium, on stores served by a local server: GeoZarr's conformance stores, an OME-Zarr image
written by ome-zarr-py, an xarray dataset with CF attributes, ngff-spec's strict cases and a
convention from a user's `--catalog`; each page's nodes, conventions, problems and warnings
are those `zomgen validate` reports for the same URL. (declared.ts's twin tests,
tests/typescript/test_declared_twins.py, compare the two on every case of the catalog's tests.)
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.pages import drive, shot, uncaught
from tests.support.cli import run_zomgen
from tests.support.http_stores import Served, serve
from tests.support.node import require_toolchain
from tests.support.paths import CORPUS, ROOT
from tests.support.runtime import ome_image_with_labels, xarray_dataset
from zomgen.catalog.dispatch import Report, validate_declared

pytestmark = [pytest.mark.node, pytest.mark.slow]

GEOZARR = CORPUS / "stores" / "geozarr-conformance"
STRICT_CASE = CORPUS / "ome-ngff/0.6rc0/tests/zarr/strict/invalid/label/no_colors.ome.zarr"
STORES = {
    "sentinel2.zarr": GEOZARR / "valid" / "multiscales" / "multiscales-sentinel2.zarr",
    "bad-crs.zarr": GEOZARR / "invalid" / "invalid-bad-crs.zarr",
    "no-colors.zarr": STRICT_CASE,
}
LAB_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "LabSample",
    "type": "object",
    "properties": {
        "attributes": {
            "type": "object",
            "properties": {"lab:sample": {"type": "string", "pattern": "^S[0-9]+$"}},
            "required": ["lab:sample"],
        }
    },
}
LAB_CATALOG = {
    "conventions": [
        {
            "name": "lab-sample",
            "uuid": "0f0e0d0c-0b0a-4908-8706-050403020100",
            "namespace": {"style": "prefixed", "key": "lab:"},
            "schema": "lab.schema.json",
        }
    ]
}


def _lab_store(store: Path, sample: str) -> None:
    store.mkdir()
    declared = [{"uuid": LAB_CATALOG["conventions"][0]["uuid"], "name": "lab-sample"}]
    attributes = {"zarr_conventions": declared, "lab:sample": sample}
    node = {"zarr_format": 3, "node_type": "group", "attributes": attributes}
    (store / "zarr.json").write_text(json.dumps(node), "utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Served]]:
    """The catalog page (and one with the lab's catalog), and the stores, on one server."""
    require_toolchain()
    root = tmp_path_factory.mktemp("catalog-site")
    result = run_zomgen("site", "-o", root / "catalog")
    assert result.returncode == 0, result.stderr
    lab = root / "lab"
    lab.mkdir()
    (lab / "catalog.json").write_text(json.dumps(LAB_CATALOG), "utf-8")
    (lab / "lab.schema.json").write_text(json.dumps(LAB_SCHEMA), "utf-8")
    result = run_zomgen("site", "--catalog", lab / "catalog.json", "-o", root / "lab-page")
    assert result.returncode == 0, result.stderr
    for name, source in STORES.items():
        shutil.copytree(source, root / name)
    ome_image_with_labels(root / "image.zarr", "0.5")
    dataset = xarray_dataset()
    dataset.attrs["Conventions"] = "CF-1.11"
    dataset.to_zarr(root / "cf.zarr", zarr_format=3, consolidated=False)
    _lab_store(root / "lab-good.zarr", "S42")
    _lab_store(root / "lab-bad.zarr", "sample 42")
    with serve(root, listing=True) as served:
        yield root, served


def _expected(report: Report) -> dict[str, Any]:
    """What the page must show for `report`: the summary's start, each node's conventions,
    the problems' places and the warnings' words."""
    count = sum(len(applied) for applied in report.nodes.values())
    nodes = len(report.nodes)
    checks = f"{count} convention check{'s' if count != 1 else ''} on {nodes} node"
    checks += "s" if nodes != 1 else ""
    verdicts = {"valid": "Valid", "invalid": "Not valid", "not fully checked": "Not fully checked:"}
    return {
        "status": report.status,
        "verdict": verdicts[report.status],
        "problems": len(report.problems),
        "checks": checks + (", strict" if report.strict else ""),
        "types": {
            path: ", ".join(f"{a.entry.name} ({a.how})" for a in applied)
            for path, applied in report.nodes.items()
        },
        "places": sorted((p.node_path, p.pointer) for p in report.problems),
        "warnings": [[w.node_path, w.pointer, w.message] for w in report.warnings],
        "unchecked": [[u.node_path, u.pointer, u.message] for u in report.unchecked],
    }


def _assert_shows(seen: dict[str, Any], report: Report) -> None:
    want = _expected(report)
    summary = seen["summary"]
    assert summary is not None, seen
    problems = want["problems"]
    assert seen["status"] == want["status"], seen
    assert summary.startswith(f"{want['verdict']} by the conventions it declares: "), summary
    places = len(want["unchecked"])
    not_checked = f", {places} place{'s' if places != 1 else ''} not checked" if places else ""
    problems_text = f" {problems} problem{'s' if problems != 1 else ''}"
    assert f"{problems_text}{not_checked}, {want['checks']} (" in summary
    for path, conventions in want["types"].items():
        assert seen["types"].get(path) == conventions, (path, seen["types"])
    assert sorted((row[0], row[1]) for row in seen["problems"]) == want["places"]
    assert seen["warnings"] == want["warnings"]
    assert seen["unchecked"] == want["unchecked"]
    assert uncaught(seen) == [], seen["errors"]


def test_each_node_is_checked_against_what_it_declares(site: tuple[Path, Served]) -> None:
    root, served = site
    names = ["sentinel2.zarr", "bad-crs.zarr", "image.zarr", "cf.zarr", "no-colors.zarr"]
    cases = [{"name": name, "url": f"{served.url}/{name}"} for name in names]
    cases[0]["shot"] = shot(root, "catalog")
    seen = drive(cases, f"{served.url}/catalog/index.html")
    reports = {name: validate_declared(f"{served.url}/{name}") for name in names}
    for name in names:
        _assert_shows(seen[name], reports[name])
    # what each store is, as zomgen validate says it: composed conventions with a warning,
    # a problem at its node, one family checked once, evident use, an OME-Zarr 0.6 label
    assert seen["sentinel2.zarr"]["types"]["/"] == (
        "multiscales (declared), proj: (declared), spatial: (declared)"
    )
    assert len(seen["sentinel2.zarr"]["warnings"]) == 1
    assert seen["bad-crs.zarr"]["problems"][0][:2] == ["/ar", "/attributes/proj:code"]
    assert seen["image.zarr"]["types"]["/"] == "ome-ngff-05-image (declared)"
    assert seen["image.zarr"]["types"]["/labels"] == ""  # checked as part of the image
    assert seen["cf.zarr"]["types"]["/"] == "xarray-v3 (used), cf-grid-v3 (used)"
    assert seen["no-colors.zarr"]["summary"].startswith("Not valid")


def test_the_strict_box_applies_the_strict_schemas(site: tuple[Path, Served]) -> None:
    _root, served = site
    url = f"{served.url}/no-colors.zarr"
    cases = [{"name": "spec", "url": url}, {"name": "strict", "url": url, "strict": True}]
    seen = drive(cases, f"{served.url}/catalog/index.html")
    _assert_shows(seen["spec"], validate_declared(url))
    _assert_shows(seen["strict"], validate_declared(url, strict=True))
    assert len(seen["strict"]["problems"]) == len(seen["spec"]["problems"]) + 1


def test_a_users_catalog_is_checked_in_the_page(site: tuple[Path, Served]) -> None:
    root, served = site
    catalogs = [root / "lab" / "catalog.json"]
    cases = [{"name": n, "url": f"{served.url}/{n}"} for n in ("lab-good.zarr", "lab-bad.zarr")]
    seen = drive(cases, f"{served.url}/lab-page/index.html")
    for name, one in seen.items():
        _assert_shows(one, validate_declared(f"{served.url}/{name}", catalogs=catalogs))
    assert seen["lab-good.zarr"]["types"]["/"] == "lab-sample (declared)"
    assert seen["lab-bad.zarr"]["problems"][0][:2] == ["/", "/attributes/lab:sample"]
    # zomgen's own page does not know the lab's convention: not checked, which is no "valid"
    plain = drive(cases[1:], f"{served.url}/catalog/index.html")["lab-bad.zarr"]
    assert plain["summary"].startswith("Not fully checked: by the conventions it declares")
    assert "which the catalog does not know" in str(plain["unchecked"]), plain


def test_the_catalog_page_is_the_same_bytes_anywhere_and_refuses_bad_input(
    tmp_path: Path,
) -> None:
    require_toolchain()
    first, second = tmp_path / "a" / "page", tmp_path / "b" / "c" / "other"
    for out in (first, second):
        assert run_zomgen("site", "-o", out).returncode == 0
    for name in ("index.html", "app.js"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    assert run_zomgen("site", "-o", first, "--check").returncode == 0
    # a schema and --catalog together; -I without a schema; a broken catalog: exit 2, nothing
    # written, the file and pointer named
    schema = ROOT / "schemas" / "xarray-v3" / "schema.json"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"conventions": [{"name": 7, "uuid": "x"}]}), "utf-8")
    for args, said in [
        ((schema, "--catalog", broken), "--catalog is for the catalog page"),
        (("-I", tmp_path), "-I names folders for a schema's $refs"),
        (("--catalog", broken), f"{broken}:/conventions/0/name: must be a string"),
    ]:
        out = tmp_path / "refused"
        result = run_zomgen("site", *args, "-o", out)
        assert result.returncode == 2 and said in result.stderr, result.stderr
        assert "Traceback" not in result.stderr and not out.exists()
