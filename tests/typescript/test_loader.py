"""load.ts reads real stores as the Python loader does: the same document, the same problems.

Stores written by xarray, zarr-python and ome-zarr-py (v2 and v3, consolidated or not), valid
and broken the ways stores break (a file that is not JSON or not an object, v2 and v3 files in
one node, a stray `.zattrs`, a malformed consolidated envelope, a dataset path that names
nothing), each read four ways by both loaders: over HTTP from a server that lists folders, from
one that does not (the members the convention names are probed), through zarrita's FetchStore
(TypeScript; Python reads the same URL), and from the local folder (Node). Compared: the
document, the reading's problems (node path, pointer, keyword, message), and validateStore's
problems (node path, pointer, keyword, schema path: messages are each engine's own words).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import NotFullyChecked, StoreError, read_document, validate_store
from zomgen_runtime.members import named_member_tree

from tests.support.http_stores import Served, serve
from tests.support.node import (
    HARNESS,
    problem_where,
    reading_problem,
    require_toolchain,
    run_node,
)
from tests.support.paths import CORPUS, ROOT
from tests.support.routed_server import RoutedServer
from tests.support.runtime import ome_image_with_labels, xarray_dataset
from zomgen.pipeline import Options, generate_package
from zomgen.targets.typescript.npm import NpmPackage
from zomgen.write import write_package

pytestmark = pytest.mark.node

warnings.filterwarnings("ignore", category=UserWarning)  # zarr: v3 consolidation is not in the spec
warnings.filterwarnings("ignore", category=DeprecationWarning)  # ome-zarr-py's Scaler

PACKAGES = (
    "xarray-v2",
    "xarray-v3",
    "ome-ngff-04-image",
    "ome-ngff-05-image",
    "ome-ngff-04-bf2raw",
)


# ---------------------------------------------------------------- the stores


def _plain(store: Path, zarr_format: Any) -> None:
    import zarr

    root = zarr.open_group(store, mode="w", zarr_format=zarr_format)
    root.create_array("a", shape=(4,), dtype="int32")
    sub = root.create_group("sub", attributes={"note": "nested"})
    sub.create_array("b", shape=(2, 2), dtype="float64")


def _edit_json(path: Path, change: Callable[[Any], Any]) -> None:
    path.write_text(json.dumps(change(json.loads(path.read_text("utf-8")))), "utf-8")


def _rename_dataset(store: Path) -> None:
    def change(document: dict[str, Any]) -> dict[str, Any]:
        document["attributes"]["ome"]["multiscales"][0]["datasets"][1]["path"] = "missing"
        return document

    _edit_json(store / "zarr.json", change)


def _bad_envelope(store: Path) -> None:
    def change(document: dict[str, Any]) -> dict[str, Any]:
        document["consolidated_metadata"]["kind"] = "other"
        return document

    _edit_json(store / "zarr.json", change)


def _stale_consolidated(store: Path) -> None:
    """Nodes changed behind the consolidated metadata's back: an attribute, a node removed and
    one added (every kind of disagreement, each reported by both loaders in the same words)."""
    v3 = (store / "zarr.json").exists()
    attributes = store / "temperature" / ("zarr.json" if v3 else ".zattrs")

    def change(document: dict[str, Any]) -> dict[str, Any]:
        (document["attributes"] if v3 else document)["units"] = "degC"
        return document

    _edit_json(attributes, change)
    shutil.rmtree(store / "mask")
    shutil.copytree(store / "temperature", store / "copy")


def _stray_zattrs(store: Path) -> None:
    (store / "stray").mkdir()
    (store / "stray" / ".zattrs").write_text("{}")


# name -> (package, how the store is made from the clean ones in `base`)
BROKEN: dict[str, tuple[str, str, Callable[[Path], object]]] = {
    "xr3-not-json": (
        "xarray-v3",
        "xr3",
        lambda s: (s / "temperature" / "zarr.json").write_text("{no"),
    ),
    "xr3-a-list": ("xarray-v3", "xr3", lambda s: (s / "mask" / "zarr.json").write_text("[1, 2]")),
    "xr3-mixed": ("xarray-v3", "xr3", lambda s: (s / "mask" / ".zarray").write_text("{}")),
    "xr3-stray-zattrs": ("xarray-v3", "xr3", _stray_zattrs),
    "xr3c-bad-envelope": ("xarray-v3", "xr3c", _bad_envelope),
    "xr2-nan": ("xarray-v2", "xr2", lambda s: (s / "mask" / ".zattrs").write_text('{"a": NaN}')),
    "xr2c-not-json": ("xarray-v2", "xr2c", lambda s: (s / ".zmetadata").write_text("{no")),
    "xr3c-stale": ("xarray-v3", "xr3c", _stale_consolidated),
    "xr2c-stale": ("xarray-v2", "xr2c", _stale_consolidated),
    "ome05-missing-dataset": ("ome-ngff-05-image", "ome05", _rename_dataset),
}


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A folder of stores, and store name -> the package that checks it."""
    root = tmp_path_factory.mktemp("served")
    checked: dict[str, str] = {}
    for version in (2, 3):
        for consolidated in (False, True):
            name = f"xr{version}{'c' if consolidated else ''}"
            xarray_dataset().to_zarr(root / name, zarr_format=version, consolidated=consolidated)
            checked[name] = f"xarray-v{version}"
        _plain(root / f"plain{version}", version)
        checked[f"plain{version}"] = f"xarray-v{version}"
    ome_image_with_labels(root / "ome04", "0.4")
    ome_image_with_labels(root / "ome05", "0.5")
    checked |= {"ome04": "ome-ngff-04-image", "ome05": "ome-ngff-05-image"}
    # a bioformats2raw collection: without a listing, its series are named by OME/.zattrs,
    # a member's metadata, so the root is probed again once OME is read
    shutil.copytree(CORPUS / "stores" / "ome2024-ngff-challenge" / "bf2raw.zarr", root / "bf2raw")
    for path in (root / "bf2raw").rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)  # the corpus is read-only
    checked["bf2raw"] = "ome-ngff-04-bf2raw"
    for name, (package, base, breaking) in BROKEN.items():
        shutil.copytree(root / base, root / name)
        breaking(root / name)
        checked[name] = package
    checked["missing"] = "xarray-v3"
    return root, checked


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The four npm packages, built, beside a node_modules with Ajv and zarrita."""
    require_toolchain()
    work = tmp_path_factory.mktemp("loader")
    for name in PACKAGES:
        schema = ROOT / "schemas" / name / "schema.json"
        generated = generate_package(Options(schema, (), npm=NpmPackage(name), python=False))
        write_package(generated.files, work / "packages" / name)
    (work / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    shutil.copy(HARNESS / "loader_twins.mjs", work / "loader_twins.mjs")
    return work


@pytest.fixture(scope="module")
def servers(stores: tuple[Path, dict[str, str]]) -> Iterator[tuple[Served, Served]]:
    with serve(stores[0], listing=True) as listed, serve(stores[0], listing=False) as unlisted:
        yield listed, unlisted


# ---------------------------------------------------------------- both loaders


def _python(store: Any, schema: dict[str, Any]) -> dict[str, Any]:
    document, read = read_document(store, expected=named_member_tree(schema))
    result: dict[str, Any] = {"document": document, "read": [reading_problem(p) for p in read]}
    try:
        result["problems"] = sorted(problem_where(p) for p in validate_store(store, schema))
    except StoreError as error:
        result["store_error"] = [reading_problem(p) for p in error.problems]
    except NotFullyChecked as error:
        result["problems"] = []
        result["not_fully_checked"] = [_place(u) for u in error.unchecked]
    return result


def _verdict(python: dict[str, Any]) -> str:
    if "store_error" in python:
        return "unusable"
    if "not_fully_checked" in python:
        return "not fully checked"
    return "invalid" if python["problems"] else "valid"


def _place(unchecked: Any) -> tuple[str, str, str, str]:
    """An unchecked place, from either loader, as comparable values."""
    if isinstance(unchecked, dict):
        return (
            unchecked["node_path"],
            unchecked["pointer"],
            unchecked["reason"],
            unchecked["message"],
        )
    return (unchecked.node_path, unchecked.pointer, unchecked.reason, unchecked.message)


MODES = ("listing", "no listing", "fetchstore", "local")


def test_both_loaders_read_every_store_alike(
    stores: tuple[Path, dict[str, str]], packages: Path, servers: tuple[Served, Served]
) -> None:
    root, checked = stores
    listed, unlisted = servers
    jobs: list[dict[str, Any]] = []
    expected: list[tuple[str, dict[str, Any]]] = []
    for mode in MODES:
        for name, package in checked.items():
            schema = json.loads((packages / "packages" / package / "schema.json").read_text())
            if mode == "local":
                python_store: Any = root / name
                ts_store, kind = str(root / name), "path"
            else:
                base = listed.url if mode == "listing" else unlisted.url
                python_store = ts_store = f"{base}/{name}"
                kind = "fetchstore" if mode == "fetchstore" else "url"
            jobs.append(
                {
                    "package": str(packages / "packages" / package),
                    "store": ts_store,
                    "kind": kind,
                    "options": {},
                }
            )
            expected.append((f"{name} ({mode})", _python(python_store, schema)))
    results = run_node(packages / "loader_twins.mjs", jobs)
    mismatches: list[tuple[Any, ...]] = []
    for (label, python), ts in zip(expected, results, strict=True):
        ts_read = [reading_problem(p) for p in ts["read"]]
        if ts["document"] != python["document"]:
            mismatches.append((label, "document"))
        if ts_read != python["read"]:
            mismatches.append((label, "read", python["read"], ts_read))
        if "store_error" in python:
            if ts.get("storeError", {}).get("name") != "StoreError":
                mismatches.append((label, "store error", ts))
        elif "not_fully_checked" in python:
            error = ts.get("storeError") or {}
            places = [_place(u) for u in error.get("unchecked") or []]
            if (error.get("name"), places) != ("NotFullyChecked", python["not_fully_checked"]):
                mismatches.append((label, "not fully checked", python["not_fully_checked"], ts))
        elif sorted(problem_where(p) for p in ts.get("problems", [])) != python["problems"]:
            mismatches.append((label, "problems", python["problems"], ts.get("problems")))
        valid = "store_error" not in python and not python["problems"]
        valid = valid and "not_fully_checked" not in python
        if valid and ts.get("loaded") != {"frozen": True, "equal": True}:
            mismatches.append((label, "load", ts.get("loaded"), ts.get("loadError")))
    assert mismatches == [], "\n".join(map(str, mismatches))
    verdicts = [_verdict(p) for _l, p in expected]
    counted = {v: verdicts.count(v) for v in ("valid", "invalid", "not fully checked", "unusable")}
    # Every store valid from the folder and from the listing server is "not fully checked"
    # from the server that cannot list and through zarrita's FetchStore (which lists nothing):
    # 43 valid before the verdicts told these apart, 12 of each of those two modes.
    # (the two stale consolidated stores are invalid all four ways: the copy's disagreements)
    assert counted == {"valid": 19, "invalid": 33, "not fully checked": 24, "unusable": 4}
    # Where the root has no index, neither loader asks for another folder's.
    folders = {path for _command, path in unlisted.requests if path.endswith("/")}
    assert folders and all(path.count("/") == 2 for path in folders), sorted(folders)


def _zipped(folder: Path, zipped: Path) -> None:
    """The store of `folder` as a zip file, entries named as zarr's ZipStore names them."""
    import zipfile

    with zipfile.ZipFile(zipped, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())


# store -> the root's members only the Python loader reads: the dataset a renamed path no
# longer names; every variable of an xarray dataset whose consolidated envelope is refused.
ZIP_DEPARTURES = {
    "ome05-missing-dataset": {"s1"},
    "xr3c-bad-envelope": {"mask", "temperature", "time", "x", "y"},
}


def test_zip_stores_through_zarritas_zip_file_store(
    stores: tuple[Path, dict[str, str]], packages: Path, tmp_path: Path
) -> None:
    """Every store zipped, given as zarrita's ZipFileStore with its keys (listed as the Python
    loader lists the zip file): the same as Python's reading of the zip. Given alone, a
    ZipFileStore cannot list: a consolidated zip still reads whole, and an OME-Zarr image by
    the members its convention names."""
    root, checked = stores
    jobs: list[dict[str, Any]] = []
    expected: list[tuple[str, dict[str, Any]]] = []
    unlisted = ("xr3c", "xr2c", "ome04", "ome05", *ZIP_DEPARTURES)
    for kind in ("zip", "listed zip"):
        for name in checked:
            if name == "missing" or (kind == "zip" and name not in unlisted):
                continue
            zipped = tmp_path / f"{name}.zip"
            if not zipped.exists():
                _zipped(root / name, zipped)
            package = checked[name]
            schema = json.loads((packages / "packages" / package / "schema.json").read_text())
            jobs.append(
                {
                    "package": str(packages / "packages" / package),
                    "store": str(zipped),
                    "kind": kind,
                    "options": {},
                }
            )
            expected.append((f"{name} ({kind})", _python(zipped, schema)))
    results = run_node(packages / "loader_twins.mjs", jobs)
    for (label, python), ts in zip(expected, results, strict=True):
        if label.endswith("(zip)") and label.split()[0] in ZIP_DEPARTURES:
            name = label.split()[0]
            # Members no convention names, found by the Python loader's listing of the zip
            # and not by zarrita's ZipFileStore, which cannot list (docs/typescript.md).
            missing = set(python["document"]["members"]) - set(ts["document"]["members"])
            assert missing == ZIP_DEPARTURES[name], label
            continue
        assert ts["document"] == python["document"], label
        assert [reading_problem(p) for p in ts["read"]] == python["read"], label
        if label in ("ome04 (zip)", "ome05 (zip)"):
            # Read by the members the convention names, as Python reads the zip it lists: no
            # problem found, but the groups it could not list are no "valid" (a consolidated
            # zip reads whole and is valid).
            error = ts["storeError"]
            assert (error["name"], python["problems"]) == ("NotFullyChecked", []), label
            assert {u["reason"] for u in error["unchecked"]} == {"unlisted"}, label
            continue
        assert sorted(problem_where(p) for p in ts["problems"]) == python["problems"], label


def _linked_stores(root: Path, outside: Path) -> dict[str, str]:
    """Stores holding symbolic links (store name -> the package that checks it), made from
    the clean ones in `root`; `outside` is a folder beside them that no store holds."""
    shutil.copytree(root / "xr3" / "mask", outside / "mask")
    (outside / "attrs.json").write_text('{"secret": "of the home folder"}', "utf-8")
    made = {}

    def copy(base: str, name: str, package: str) -> Path:
        shutil.copytree(root / base, root / name, symlinks=True)
        made[name] = package
        return root / name

    # a member folder, and a node's metadata file, that lead out of the store
    os.symlink(outside / "mask", copy("xr3", "link-out-folder", "xarray-v3") / "elsewhere")
    linked_file = copy("xr2", "link-out-file", "xarray-v2") / "mask" / ".zattrs"
    linked_file.unlink()
    os.symlink(outside / "attrs.json", linked_file)
    # a link below a folder that leads out: nothing below it is read either
    os.symlink(outside, copy("xr3", "link-out-deep", "xarray-v3") / "home")
    # links that stay inside: a relative link to a file, followed
    inside = copy("xr3", "link-inside-file", "xarray-v3")
    (inside / "mask" / "zarr.json").rename(inside / "mask.json")
    os.symlink("../mask.json", inside / "mask" / "zarr.json")
    # a loop to the store's root, a link to itself, a link whose target is gone
    looped = copy("xr3", "link-to-root", "xarray-v3")
    (looped / "g").mkdir()
    (looped / "g" / "zarr.json").write_text('{"zarr_format": 3, "node_type": "group"}', "utf-8")
    os.symlink("..", looped / "g" / "up")
    os.symlink(".", looped / "here")
    os.symlink("self", copy("xr3", "link-to-itself", "xarray-v3") / "self")
    os.symlink(outside / "gone", copy("xr3", "link-dangling", "xarray-v3") / "ghost")
    return made


def test_a_local_folder_reads_nothing_outside_the_store(
    stores: tuple[Path, dict[str, str]], packages: Path, tmp_path: Path
) -> None:
    """Symbolic links in a local folder, under Node as in Python (confinement.py): a link that
    leads out of the store is a problem at its node and nothing outside is read; a link inside
    is followed; a loop is reported, not walked."""
    root, _checked = stores
    made = _linked_stores(root, tmp_path / "outside")
    jobs = [
        {
            "package": str(packages / "packages" / p),
            "store": str(root / n),
            "kind": "path",
            "options": {},
        }
        for n, p in made.items()
    ]
    results = run_node(packages / "loader_twins.mjs", jobs)
    read: dict[str, list[tuple[str, str, str, str]]] = {}
    for (name, package), ts in zip(made.items(), results, strict=True):
        schema = json.loads((packages / "packages" / package / "schema.json").read_text())
        python = _python(root / name, schema)
        assert ts["document"] == python["document"], name
        assert [reading_problem(p) for p in ts["read"]] == python["read"], name
        assert sorted(problem_where(p) for p in ts["problems"]) == python["problems"], name
        assert "of the home folder" not in json.dumps(ts), name
        read[name] = python["read"]
    leaves = "a symlink that leads out of the store: zomgen reads nothing outside it"
    assert read["link-out-folder"] == [("/elsewhere", "", "read", f"zarr.json: {leaves}")]
    assert read["link-out-file"] == [("/mask", "", "read", f".zattrs: {leaves}")]
    assert read["link-out-deep"] == [("/home", "", "read", f"zarr.json: {leaves}")]
    assert read["link-inside-file"] == []
    loop = "symlink loop: this folder is the folder of / again"
    assert read["link-to-root"] == [("/here", "", "read", loop), ("/g/up", "", "read", loop)]
    assert read["link-to-itself"] == [("/self", "", "read", "zarr.json: symlink loop")]
    assert read["link-dangling"] == []


# ---------------------------------------------------------------- paths and redirects (issue 53)


def test_a_path_out_of_the_store_is_refused_as_in_python(
    stores: tuple[Path, dict[str, str]], packages: Path, servers: tuple[Served, Served]
) -> None:
    """`{path: "../outside"}` read outside a folder store, and outside the URL's prefix over
    HTTP, under Node; Python refused it. Both refuse it now, in the same words."""
    root, _checked = stores
    secret = root.parent / "outside"
    secret.mkdir(exist_ok=True)
    group = {"zarr_format": 3, "node_type": "group", "attributes": {"password": 5}}
    (secret / "zarr.json").write_text(json.dumps(group), "utf-8")
    listed, _unlisted = servers
    package = str(packages / "packages" / "xarray-v3")
    jobs = [
        {"package": package, "store": store, "kind": kind, "options": {"path": path}}
        for store, kind in ((str(root / "xr3"), "path"), (f"{listed.url}/xr3", "url"))
        for path in ("../outside", "a/../../outside", "a//b", "./a")
    ]
    results = run_node(packages / "loader_twins.mjs", jobs)
    for job, ts in zip(jobs, results, strict=True):
        path = job["options"]["path"]
        document, python = read_document(job["store"], path)
        assert ts["document"] is None and document is None, job
        assert [reading_problem(p) for p in ts["read"]] == [reading_problem(p) for p in python], job
        assert "not a node path" in ts["read"][0]["message"]
        assert "password" not in json.dumps(ts)


def test_a_redirect_is_checked_before_it_is_followed_under_node(
    packages: Path, tmp_path: Path
) -> None:
    """load.ts followed a redirect, then checked its origin: the other host had the GET
    already. Each hop is now checked first (httpget.py alike), in Python's words."""
    group = {"zarr_format": 3, "node_type": "group", "attributes": {}}
    secret = {"zarr_format": 3, "node_type": "group", "attributes": {"password": 5}}
    elsewhere = RoutedServer({"/private/zarr.json": (200, {}, json.dumps(secret).encode())})
    store = RoutedServer()
    moved = {"Location": elsewhere.origin + "/private/zarr.json"}
    store.routes.update(
        {
            "/s/zarr.json": (200, {}, json.dumps(group).encode()),
            "/s/a/zarr.json": (302, moved, b""),
            "/s/b/zarr.json": (307, {"Location": "/s/zarr.json"}, b""),  # its own origin
        }
    )
    package = str(packages / "packages" / "xarray-v3")
    jobs = [
        {"package": package, "store": f"{store.origin}/s", "kind": "url", "options": {"path": p}}
        for p in ("a", "b")
    ]
    refused, followed = run_node(packages / "loader_twins.mjs", jobs)
    assert elsewhere.asked == []
    assert refused["document"] is None
    message = refused["read"][0]["message"]
    assert f"a redirect to another origin ({elsewhere.origin})" in message, message
    _document, python = read_document(f"{store.origin}/s", "a")
    assert [reading_problem(p) for p in refused["read"]] == [reading_problem(p) for p in python]
    assert followed["document"] == group | {"members": {}}
    allowed = dict(jobs[0], options={"path": "a", "allowRedirectsTo": [elsewhere.origin]})
    (through,) = run_node(packages / "loader_twins.mjs", [allowed])
    assert through["document"] == secret | {"members": {}}
    assert set(elsewhere.asked) == {"/private/zarr.json"}  # read, validated, loaded
    for server in (store, elsewhere):
        server.close()


def test_a_hostile_folder_index_is_read_in_linear_time(packages: Path, tmp_path: Path) -> None:
    """A 2 MB index of `<a <a <a ...` (no tag ever closed) after one real link: a single pattern
    over the page took quadratic time (200 KB held a read past 40 s, in Python and Node alike).
    Both loaders now read the link and finish, each well inside the time-out given here."""
    group = {"zarr_format": 3, "node_type": "group", "attributes": {}}
    page = '<a href="m/">m</a>' + "<a " * 700_000
    server = RoutedServer(
        {
            "/s/": (200, {"Content-Type": "text/html"}, page.encode()),
            "/s/zarr.json": (200, {}, json.dumps(group).encode()),
            "/s/m/zarr.json": (200, {}, json.dumps(group).encode()),
        }
    )
    url = f"{server.origin}/s"
    expected = group | {"members": {"m": group | {"members": {}}}}
    python = (
        "import json, sys; from zomgen_runtime import read_document; "
        "print(json.dumps(read_document(sys.argv[1])[0]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", python, url],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        check=False,
    )
    assert json.loads(done.stdout) == expected, done.stderr
    job = {"package": str(packages / "packages" / "xarray-v3"), "store": url, "kind": "url"}
    node = subprocess.run(
        ["node", str(packages / "loader_twins.mjs")],
        input=json.dumps([{**job, "options": {}}]),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert json.loads(node.stdout)[0]["document"] == expected, node.stderr
    server.close()
