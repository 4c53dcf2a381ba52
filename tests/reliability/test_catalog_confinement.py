"""A catalog reads only what its own folder holds and never opens the network.

Before: an entry's `schema` could name any file (`../../home/.docker/config.json`), which
`zomgen site --catalog` then bundled into the page's app.js; `declared_when: {"$ref":
"http://127.0.0.1:PORT/w.json"}` was fetched on every `zomgen validate` (`file://` read any
local file and echoed it in a traceback); `include: ["/proc"]` ended in a traceback. Now each is
refused before any store is read: exit 2, the catalog file and the pointer named, no traceback,
nothing fetched, nothing written.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_zomgen
from tests.support.routed_server import RoutedServer

UUID = "5b1d7a1e-6d0e-4f51-9d0b-8c9f3b1f7c22"
SECRET = '{"auths": {"registry.example": {"auth": "c2VjcmV0"}}}'


@pytest.fixture(scope="module")
def server() -> Iterator[RoutedServer]:
    """Answers any schema it is asked for: it must never be asked."""
    body = json.dumps({"required": ["attributes"]}).encode()
    found = RoutedServer({path: (200, {}, body) for path in ("/w.json", "/x")})
    yield found
    found.close()


def _store(folder: Path) -> Path:
    folder.mkdir()
    attributes = {"zarr_conventions": [{"uuid": UUID, "name": "lab:"}], "lab:site": "north"}
    group = {"zarr_format": 3, "node_type": "group", "attributes": attributes}
    (folder / "zarr.json").write_text(json.dumps(group), "utf-8")
    return folder


def _catalog(folder: Path, entry: dict[str, Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "lab.schema.json").write_text(json.dumps({"type": "object"}), "utf-8")
    catalog = folder / "catalog.json"
    base = {"name": "lab:", "uuid": UUID, "namespace": {"style": "prefixed", "key": "lab:"}}
    catalog.write_text(json.dumps({"conventions": [base | entry]}), "utf-8")
    return catalog


def _refused(result: Any, catalog: Path, pointer: str, words: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert f"{catalog}:{pointer}: " in result.stderr, result.stderr
    assert words in result.stderr, result.stderr


def test_a_schema_outside_the_catalogs_folder_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "home" / ".docker" / "config.json"
    secret.parent.mkdir(parents=True)
    secret.write_text(SECRET, "utf-8")
    store = _store(tmp_path / "s.zarr")
    for given in ("../home/.docker/config.json", str(secret)):
        catalog = _catalog(tmp_path / "catalog", {"schema": given})
        result = run_zomgen("validate", store, "--catalog", catalog)
        _refused(result, catalog, "/conventions/0/schema", "is outside the catalog's folder")
        site = tmp_path / "site"
        made = run_zomgen("site", "--catalog", catalog, "-o", site)
        _refused(made, catalog, "/conventions/0/schema", "is outside the catalog's folder")
        assert not site.exists()
        assert "c2VjcmV0" not in result.stdout + result.stderr + made.stdout + made.stderr


def test_a_link_that_leads_out_of_the_catalogs_folder_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text(SECRET, "utf-8")
    folder = tmp_path / "catalog"
    folder.mkdir()
    (folder / "linked.json").symlink_to(secret)
    catalog = _catalog(folder, {"schema": "linked.json"})
    result = run_zomgen("validate", _store(tmp_path / "s.zarr"), "--catalog", catalog)
    _refused(result, catalog, "/conventions/0/schema", "is outside the catalog's folder")


@pytest.mark.parametrize("folder", ["/proc", "..", "../.."])
def test_an_include_folder_outside_the_catalogs_folder_is_refused(
    tmp_path: Path, folder: str
) -> None:
    catalog = _catalog(
        tmp_path / "a" / "catalog", {"schema": "lab.schema.json", "include": [folder]}
    )
    result = run_zomgen("validate", _store(tmp_path / "s.zarr"), "--catalog", catalog)
    _refused(result, catalog, "/conventions/0/include/0", "is outside the catalog's folder")


def test_an_include_folder_inside_is_read(tmp_path: Path) -> None:
    folder = tmp_path / "catalog"
    (folder / "defs").mkdir(parents=True)
    catalog = _catalog(folder, {"schema": "lab.schema.json", "include": ["defs"]})
    result = run_zomgen("validate", _store(tmp_path / "s.zarr"), "--catalog", catalog)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("key", ["declared_when", "used_when"])
def test_a_reference_to_a_url_or_a_file_is_refused_and_never_fetched(
    tmp_path: Path, server: RoutedServer, key: str
) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text(SECRET, "utf-8")
    store = _store(tmp_path / "s.zarr")
    for n, ref in enumerate(
        (f"{server.origin}/w.json", secret.as_uri(), "other.json", f"{server.origin}/x#/a")
    ):
        catalog = _catalog(tmp_path / f"c{n}", {key: {"$ref": ref}, "schema": "lab.schema.json"})
        result = run_zomgen("validate", store, "--catalog", catalog)
        _refused(result, catalog, f"/conventions/0/{key}/$ref", "points outside the catalog")
        assert "c2VjcmV0" not in result.stdout + result.stderr
    assert server.asked == []


def test_a_reference_inside_the_schema_must_find_something(tmp_path: Path) -> None:
    inside = {
        "$defs": {"site": {"required": ["attributes"]}},
        "allOf": [{"$ref": "#/$defs/site"}, {"$ref": "#/$defs/nowhere"}],
    }
    catalog = _catalog(tmp_path / "c", {"declared_when": inside, "schema": "lab.schema.json"})
    result = run_zomgen("validate", _store(tmp_path / "s.zarr"), "--catalog", catalog)
    _refused(result, catalog, "/conventions/0/declared_when/allOf/1/$ref", "finds nothing")
    # before, such a catalog's page was written (exit 0) and did nothing when Check was pressed
    made = run_zomgen("site", "--catalog", catalog, "-o", tmp_path / "site")
    _refused(made, catalog, "/conventions/0/declared_when/allOf/1/$ref", "finds nothing")
    assert not (tmp_path / "site").exists()


def test_an_inline_schema_that_is_not_a_json_schema_is_refused(tmp_path: Path) -> None:
    wrong = {"properties": {"attributes": {"type": "objet"}}}
    catalog = _catalog(tmp_path / "c", {"used_when": wrong, "schema": "lab.schema.json"})
    result = run_zomgen("validate", _store(tmp_path / "s.zarr"), "--catalog", catalog)
    _refused(
        result,
        catalog,
        "/conventions/0/used_when/properties/attributes/type",
        "not a JSON Schema",
    )
