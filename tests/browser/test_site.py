"""`zomgen site`: the validator page, in a real browser (Debian's Chromium, driven by
Playwright from npm), reading real stores from a local HTTP server, as a user would: the page
is opened, a URL entered (or a zipped store chosen) and Check pressed; what the page then
shows is asserted. Screenshots go to the test's folder (and to docs/images with
ZOMGEN_SCREENSHOTS=1, which is how the docs' pictures are made).
"""

from __future__ import annotations

import json
import shutil
import warnings
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from zomgen_runtime import validate_store

from tests.browser.pages import drive, serve_to_any_origin, shot, uncaught
from tests.support.cli import run_zomgen
from tests.support.http_stores import Served, serve
from tests.support.node import require_toolchain
from tests.support.paths import ROOT
from tests.support.runtime import ome_image_with_labels, xarray_dataset

pytestmark = [pytest.mark.node, pytest.mark.slow]

warnings.filterwarnings("ignore", category=UserWarning)
warnings.filterwarnings("ignore", category=DeprecationWarning)


def _rename_dataset(store: Path) -> None:
    path = store / "zarr.json"
    document = json.loads(path.read_text("utf-8"))
    document["attributes"]["ome"]["multiscales"][0]["datasets"][1]["path"] = "missing"
    path.write_text(json.dumps(document), "utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Served]]:
    """Pages for xarray-v3 and OME-Zarr 0.5 images, and stores, on one local server."""
    require_toolchain()
    root = tmp_path_factory.mktemp("site")
    for page, schema in (("xarray", "xarray-v3"), ("ome", "ome-ngff-05-image")):
        result = run_zomgen("site", ROOT / "schemas" / schema / "schema.json", "-o", root / page)
        assert result.returncode == 0, result.stderr
    xarray_dataset().to_zarr(root / "dataset.zarr", zarr_format=3, consolidated=False)
    # consolidated by xarray, then a variable's units changed behind its back
    xarray_dataset().to_zarr(root / "stale.zarr", zarr_format=3, consolidated=True)
    temperature = root / "stale.zarr" / "temperature" / "zarr.json"
    array = json.loads(temperature.read_text("utf-8"))
    array["attributes"]["units"] = "degC"
    temperature.write_text(json.dumps(array), "utf-8")
    ome_image_with_labels(root / "image.zarr", "0.5")
    shutil.copytree(root / "image.zarr", root / "broken.zarr")
    _rename_dataset(root / "broken.zarr")
    (root / "notjson.zarr").mkdir()
    (root / "notjson.zarr" / "zarr.json").write_text("{this is not json", "utf-8")
    with zipfile.ZipFile(root / "image.zip", "w") as archive:
        for path in sorted((root / "image.zarr").rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(root / "image.zarr").as_posix())
    # as `zip -r folder.zip image.zarr` (and a Mac's "compress") make it: the store one folder
    # down, beside the resource-fork folder macOS adds
    with zipfile.ZipFile(root / "folder.zip", "w") as archive:
        for path in sorted((root / "image.zarr").rglob("*")):
            archive.write(path, path.relative_to(root).as_posix())
        archive.writestr("__MACOSX/image.zarr/._zarr.json", b"\x00\x05\x16\x07")
    with serve(root, listing=True) as served:
        yield root, served


def test_a_valid_store_shows_no_problem_and_its_tree(site: tuple[Path, Served]) -> None:
    root, served = site
    cases = [
        {"name": "dataset", "url": f"{served.url}/dataset.zarr", "shot": shot(root, "valid")},
    ]
    seen = drive(cases, f"{served.url}/xarray/index.html")["dataset"]
    assert seen["error"] is None and uncaught(seen) == []
    assert seen["summary"].startswith("Valid XarrayDataset: 6 nodes, 0 problems"), seen
    assert seen["rootType"] == "XarrayDataset"
    names = sorted(entry.split()[0] for entry in seen["tree"])
    assert names == ["mask", "temperature", "time", "x", "y"]
    assert seen["problems"] == [] and seen["markedNodes"] == []


def test_stale_consolidated_metadata_is_shown_unless_the_box_trusts_it(
    site: tuple[Path, Served],
) -> None:
    _root, served = site
    url = f"{served.url}/stale.zarr"
    cases = [{"name": "checked", "url": url}, {"name": "trusted", "url": url, "trust": True}]
    seen = drive(cases, f"{served.url}/xarray/index.html")
    checked, trusted = seen["checked"], seen["trusted"]
    python = validate_store(url, _xarray_schema())
    assert [(p.node_path, p.pointer, p.keyword) for p in python] == [
        ("/temperature", "/attributes/units", "consolidated")
    ]
    assert checked["summary"].startswith("Not valid XarrayDataset: 6 nodes, 1 problem"), checked
    # the same words as the Python run time's
    assert checked["problems"] == [[p.node_path, p.pointer, p.message] for p in python]
    assert validate_store(url, _xarray_schema(), check_consolidated=False) == []
    assert trusted["summary"].startswith(
        "Valid as far as read XarrayDataset: 6 nodes, 0 problems, 1 place accepted unread"
    ), trusted
    assert trusted["problems"] == []
    assert [row[:2] for row in trusted["unchecked"]] == [["/", ""]]
    assert "consolidated metadata was trusted" in trusted["unchecked"][0][2]
    for one in (checked, trusted):
        assert one["error"] is None and uncaught(one) == [], one["errors"]


def _xarray_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(
        (ROOT / "generated" / "xarray_v3" / "schema.json").read_text("utf-8")
    )
    return schema


def test_ome_pages_show_problems_at_their_node_as_the_python_loader_finds_them(
    site: tuple[Path, Served],
) -> None:
    root, served = site
    cases = [
        {"name": "image", "url": f"{served.url}/image.zarr"},
        {"name": "broken", "url": f"{served.url}/broken.zarr", "shot": shot(root, "broken")},
        {"name": "zip", "zip": str(root / "image.zip")},
        {"name": "folder zip", "zip": str(root / "folder.zip")},
    ]
    seen = drive(cases, f"{served.url}/ome/index.html")
    schema = json.loads((ROOT / "generated" / "ome_ngff_05_image" / "schema.json").read_text())
    assert seen["image"]["summary"].startswith("Valid OmeZarr05Image:"), seen["image"]
    # the same store dropped as a zip: the same verdict and counts (the seconds differ)
    assert seen["zip"]["summary"].startswith(seen["image"]["summary"].split(" (")[0])
    assert seen["folder zip"]["summary"].startswith(seen["image"]["summary"].split(" (")[0])
    broken = seen["broken"]
    python = validate_store(f"{served.url}/broken.zarr", schema)
    assert python, "the broken store is valid to Python"
    assert sorted((row[0], row[1]) for row in broken["problems"]) == sorted(
        (p.node_path, p.pointer) for p in python
    )
    assert broken["summary"].startswith(f"Not valid OmeZarr05Image: 7 nodes, {len(python)} problem")
    assert "/" in broken["markedNodes"]
    for one in seen.values():
        assert uncaught(one) == [], one["errors"]


def test_bad_urls_show_a_message_not_a_blank_page(site: tuple[Path, Served]) -> None:
    root, served = site
    cases = [
        {
            "name": "no answer",
            "url": "http://127.0.0.1:9/store.zarr",
            "shot": shot(root, "no-answer"),
        },
        {"name": "not a store", "url": f"{served.url}/xarray/"},
        {"name": "not json", "url": f"{served.url}/notjson.zarr"},
    ]
    seen = drive(cases, f"{served.url}/xarray/index.html")
    assert "did not answer this page" in seen["no answer"]["error"]
    assert "not a Zarr store" in seen["not a store"]["error"]
    assert "zarr.json is not JSON" in seen["not json"]["error"]
    for one in seen.values():
        assert one["summary"] is None and uncaught(one) == [], one


def test_the_page_is_the_same_bytes_in_any_folder_and_checks_as_stale(tmp_path: Path) -> None:
    require_toolchain()
    schema = ROOT / "schemas" / "ome-ngff-05-image" / "schema.json"
    first, second = tmp_path / "a" / "page", tmp_path / "b" / "c" / "other"
    for out in (first, second):
        assert run_zomgen("site", schema, "-o", out).returncode == 0
    for name in ("index.html", "app.js"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    assert str(tmp_path) not in (first / "app.js").read_text("utf-8")
    assert run_zomgen("site", schema, "-o", first, "--check").returncode == 0
    (first / "app.js").write_text("changed", "utf-8")
    assert run_zomgen("site", schema, "-o", first, "--check").returncode == 1


def test_without_esbuild_the_site_says_what_to_install(tmp_path: Path) -> None:
    empty = tmp_path / "node_modules"
    (empty / "ajv").mkdir(parents=True)
    (empty / "ajv" / "package.json").write_text('{"version": "8.20.0"}', encoding="utf-8")
    out = tmp_path / "page"
    schema = ROOT / "schemas" / "xarray-v3" / "schema.json"
    result = run_zomgen("site", schema, "-o", out, env={"ZOMGEN_NODE_MODULES": str(empty)})
    assert result.returncode == 2, result.stderr
    assert (
        "esbuild missing, @marcbachmann/cel-js missing, ajv 8.20.0, re2js missing, "
        "zarrita missing" in result.stderr
    )
    assert "npm install --save-dev esbuild@" in result.stderr
    assert "Traceback" not in result.stderr and not out.exists()


def test_a_group_of_thousands_draws_its_problems_first_and_the_rest_a_page_at_a_time(
    site: tuple[Path, Served],
) -> None:
    """2,500 variables under the root: 1,000 drawn, the rest behind "more"; the one broken
    variable (no dimension names) is drawn first, whatever its place."""
    root, served = site
    store = root / "wide.zarr"
    if not store.exists():
        xarray_dataset().to_zarr(store, zarr_format=3, consolidated=False)
        for i in range(2500):
            shutil.copytree(store / "mask", store / f"v{i:04d}")
        broken = store / "v2222" / "zarr.json"
        metadata = json.loads(broken.read_text("utf-8"))
        del metadata["dimension_names"]
        broken.write_text(json.dumps(metadata), "utf-8")
    cases = [{"name": "wide", "url": f"{served.url}/wide.zarr", "more": True}]
    seen = drive(cases, f"{served.url}/xarray/index.html")["wide"]
    assert seen["summary"].startswith("Not valid XarrayDataset: 2506 nodes, 1 problem"), seen
    assert [row[0] for row in seen["problems"]] == ["/v2222"]
    assert seen["markedNodes"] == ["/v2222"]
    assert seen["tree"][0].split()[0] == "v2222"  # drawn first
    # the broken one, then a page of the 2,504 others; a click draws the next page
    assert seen["paged"]["before"] == 1 + 1000
    assert seen["paged"]["more"] == "1504 more members"
    assert seen["paged"]["after"] == 1 + 2000
    assert uncaught(seen) == []


HOSTILE = {
    "script": "<script>alert(1)",
    "onerror": '<img src=x onerror="alert(2)">',
    "override": "\u202egnp.exe",
}


def test_what_the_page_shows_of_each_node_and_of_hostile_names(site: tuple[Path, Served]) -> None:
    """Member names an attacker chose are shown as text, each isolated from its neighbours
    (`<bdi>`: a right-to-left override cannot reverse what follows it), never run as markup,
    and a member named `__proto__` (a reserved name) is a problem of its own, not a property
    of the page's objects; each array shows its shape, data type and chunks, each node its
    metadata as JSON, each problem the value it is about; the store's URL is kept in the
    address bar; the filter hides the problems it does not match; no base description
    repeats on every array."""
    import zarr

    root, served = site
    store = root / "hostile.zarr"
    group = zarr.open_group(store, mode="w", zarr_format=3)
    for index, name in enumerate(HOSTILE.values()):
        array = group.create_array(name, shape=(2, 3), chunks=(1, 3), dtype="float32")
        array.attrs["units"] = "K"
        metadata = store / name / "zarr.json"
        document = json.loads(metadata.read_text("utf-8"))
        # the first with dimension names that fit, the others one name short
        document["dimension_names"] = ["y", "x"] if index == 0 else ["y"]
        metadata.write_text(json.dumps(document), "utf-8")
    shutil.copytree(store / HOSTILE["script"], store / "__proto__")
    url = f"{served.url}/hostile.zarr"
    override = "/[U+202E]gnp.exe"
    cases = [{"name": "hostile", "url": url, "filter": "gnp.exe"}]
    cases[0]["shot"] = shot(root, "hostile")
    seen = drive(cases, f"{served.url}/xarray/index.html")["hostile"]
    assert uncaught(seen) == [] and seen["dialogs"] == [] and seen["scripts"] == 0, seen
    names = {one["text"]: one["tag"] for one in seen["names"]}
    shown = {**HOSTILE, "override": "[U+202E]gnp.exe"}  # the override shown, not obeyed
    assert {name: names.get(name) for name in shown.values()} == dict.fromkeys(
        shown.values(), "BDI"
    )
    assert "__proto__" not in names
    assert ["/__proto__", ""] in [row[:2] for row in seen["problems"]], seen["problems"]
    assert seen["cellTags"] == ["BDI"]
    path = "/" + HOSTILE["override"]  # the tree's own record of the node is the name itself
    assert seen["meta"][path] == "shape [2,3] · float32 · chunks [1,3]"
    assert json.loads(seen["metadata"][path])["attributes"] == {"units": "K"}
    assert '["y"]' in seen["values"], seen["values"]
    assert seen["search"] == "?url=" + quote(url, safe=""), seen["search"]
    assert seen["filtered"], seen["problems"]
    assert all(row[0] == override for row in seen["filtered"]), seen["filtered"]
    assert len(seen["filtered"]) < len(seen["problems"])
    assert not any("A ZOM v3" in text for text in seen["descriptions"]), seen["descriptions"]


def _seen_alike(one: dict[str, Any], other: dict[str, Any]) -> None:
    """The same verdict, counts, problems and tree (the seconds aside)."""
    assert one["summary"] and one["summary"].split(" (")[0] == other["summary"].split(" (")[0]
    for key in ("status", "problems", "unchecked", "warnings", "tree", "markedNodes", "values"):
        assert one[key] == other[key], (key, one[key], other[key])


def test_the_page_checks_in_its_worker_from_a_file_as_over_http(site: tuple[Path, Served]) -> None:
    """Opened from a file (file://: no origin of its own, and Chromium refuses a worker loaded
    from a file) as over HTTP, the page reads and checks in its worker, made from its own
    script through a blob: URL: the same verdicts, counts, problems and tree, by URL (a server
    that lets any page read, as a public store's does) and by zip; the checked URL is kept in
    the address bar."""
    root, served = site
    with serve_to_any_origin(root) as stores:
        cases = [
            {"name": "image", "url": f"{stores}/image.zarr"},
            {"name": "broken", "url": f"{stores}/broken.zarr"},
            {"name": "zip", "zip": str(root / "image.zip")},
        ]
        from_file = drive(cases, (root / "ome" / "index.html").as_uri())
        over_http = drive(cases, f"{served.url}/ome/index.html")
    for name, seen in from_file.items():
        _seen_alike(seen, over_http[name])
        assert seen["checkedIn"] == over_http[name]["checkedIn"] == "worker", name
        assert uncaught(seen) == [] and uncaught(over_http[name]) == [], seen["errors"]
    assert from_file["image"]["status"] == "valid" and from_file["broken"]["status"] == "invalid"
    assert from_file["broken"]["problems"], from_file["broken"]
    url = f"{stores}/broken.zarr"
    assert from_file["broken"]["search"] == "?url=" + quote(url, safe=""), from_file["broken"]


def test_where_no_worker_may_start_the_page_checks_on_its_own_thread(
    site: tuple[Path, Served],
) -> None:
    """A host whose Content-Security-Policy allows the page no worker: the page checks on its
    own thread (as before it had one), with the same result."""
    root, served = site
    page = (root / "ome" / "index.html").read_text("utf-8")
    policy = """<meta http-equiv="Content-Security-Policy" content="worker-src 'none'">"""
    (root / "ome-no-worker").mkdir(exist_ok=True)
    shutil.copy(root / "ome" / "app.js", root / "ome-no-worker" / "app.js")
    (root / "ome-no-worker" / "index.html").write_text(
        page.replace('<meta charset="utf-8">', f'<meta charset="utf-8">\n{policy}'), "utf-8"
    )
    cases = [
        {"name": "broken", "url": f"{served.url}/broken.zarr"},
        {"name": "zip", "zip": str(root / "image.zip")},
    ]
    refused = drive(cases, f"{served.url}/ome-no-worker/index.html")
    allowed = drive(cases, f"{served.url}/ome/index.html")
    for name, seen in refused.items():
        _seen_alike(seen, allowed[name])
        assert (seen["checkedIn"], allowed[name]["checkedIn"]) == ("page", "worker"), name
        # the browser's own line for the worker it refused, nothing else
        errors = [e for e in uncaught(seen) if "Content Security Policy" not in e]
        assert errors == [], seen["errors"]
