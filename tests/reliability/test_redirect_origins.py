"""An HTTP store's redirects are followed to its own origin only, unless the user names others:
a server cannot send the reader to another service (here a second server on 127.0.0.1, standing
for the user's database or intranet) and have its answer echoed in problems.

Before, every redirect was followed, loopback included, and the answer of the other server was
read as the member's metadata."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import StoreError, remote, validate_store
from zomgen_runtime.httpget import KeepAliveClient, UrllibClient

from tests.support.cli import run_zomgen
from tests.support.routed_server import RoutedServer

GROUP = {"zarr_format": 3, "node_type": "group", "attributes": {}}
SECRET = {"zarr_format": 3, "node_type": "group", "attributes": {"password": 5}}


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[RoutedServer, RoutedServer]]:
    elsewhere = RoutedServer({"/private/zarr.json": (200, {}, json.dumps(SECRET).encode())})
    store = RoutedServer({})
    store.routes.update(
        {
            "/s/zarr.json": (200, {}, json.dumps(GROUP).encode()),
            # to another origin: not followed unless allowed
            "/s/a/zarr.json": (302, {"Location": elsewhere.origin + "/private/zarr.json"}, b""),
            # to the store's own origin: always followed
            "/s/b/zarr.json": (301, {"Location": "/moved/b/zarr.json"}, b""),
            "/moved/b/zarr.json": (200, {}, json.dumps(GROUP).encode()),
        }
    )
    yield store, elsewhere
    store.httpd.shutdown()
    elsewhere.httpd.shutdown()


@pytest.fixture(scope="module")
def schema_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Members `a` and `b` are required, so the walk asks for them (HTTP cannot list)."""
    group = {"$ref": "urn:zom:v3#/$defs/GroupSpec"}
    schema = {
        "allOf": [group],
        "properties": {"members": {"required": ["a", "b"], "properties": {"a": group, "b": group}}},
    }
    path = tmp_path_factory.mktemp("schema") / "schema.json"
    path.write_text(json.dumps(schema))
    return path


@pytest.fixture(scope="module")
def schema(schema_file: Path) -> dict[str, Any]:
    from zomgen.schema.bundle import bundle
    from zomgen.schema.registry import load_schema_set

    return bundle(load_schema_set(schema_file, []))


@pytest.fixture(params=["kept-alive connections", "urllib (the proxy path)"])
def client(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both HTTP clients: the proxy path is taken where a proxy is configured for the host."""
    kind = UrllibClient if request.param.startswith("urllib") else KeepAliveClient
    monkeypatch.setattr(remote, "client_for", lambda _url, *args: kind(*args))
    return str(request.param)


def test_a_redirect_to_another_origin_is_a_problem_and_nothing_of_it_is_read(
    servers: tuple[RoutedServer, RoutedServer], schema: dict[str, Any], client: str
) -> None:
    store, elsewhere = servers
    elsewhere.asked.clear()
    problems = validate_store(store.origin + "/s", schema)
    assert [p.node_path for p in problems] == ["/a"], problems
    assert f"a redirect to another origin ({elsewhere.origin})" in problems[0].message
    assert "password" not in str(problems)
    assert elsewhere.asked == []


@pytest.mark.parametrize("allowed", ["named", "any"])
def test_an_origin_the_user_allows_is_followed(
    servers: tuple[RoutedServer, RoutedServer], schema: dict[str, Any], client: str, allowed: str
) -> None:
    store, elsewhere = servers
    origins = [elsewhere.origin] if allowed == "named" else ["*"]
    # the servers list no folder: the members the schema names are all there is to read
    problems = validate_store(
        store.origin + "/s", schema, allow_redirects_to=origins, named_members_only=True
    )
    assert problems == []  # /a is the other server's group, /b the store's own moved file


def test_allowing_another_port_of_the_same_host_does_not_allow_this_one(
    servers: tuple[RoutedServer, RoutedServer], schema: dict[str, Any]
) -> None:
    store, _elsewhere = servers
    problems = validate_store(
        store.origin + "/s", schema, allow_redirects_to=["http://127.0.0.1:1"]
    )
    assert [p.node_path for p in problems] == ["/a"]


@pytest.mark.parametrize("origin", ["ftp://127.0.0.1", "127.0.0.1:80", "http://x/some/path"])
def test_an_allowed_origin_that_is_not_one_is_a_store_error(
    servers: tuple[RoutedServer, RoutedServer], schema: dict[str, Any], origin: str
) -> None:
    with pytest.raises(StoreError, match="is not an origin"):
        validate_store(servers[0].origin + "/s", schema, allow_redirects_to=[origin])


def test_the_cli_refuses_then_follows_when_told(
    servers: tuple[RoutedServer, RoutedServer], schema_file: Path
) -> None:
    store, elsewhere = servers
    command = ["validate", store.origin + "/s", "--schema", str(schema_file)]
    refused = run_zomgen(*command)
    assert refused.returncode == 1 and "another origin" in refused.stdout, refused
    allowed = command + ["--allow-redirects-to", elsewhere.origin]
    followed = run_zomgen(*allowed)
    # the servers list no folder: followed, nothing wrong, but not fully checked (exit 3)
    # until the user accepts the named members
    assert followed.returncode == 3 and "not fully checked" in followed.stdout, followed
    accepted = run_zomgen(*allowed, "--named-members-only")
    assert accepted.returncode == 0, accepted
