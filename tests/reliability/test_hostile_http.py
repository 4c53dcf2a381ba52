"""A hostile or broken HTTP server on 127.0.0.1: whatever it answers, `validate` and `load` give
problems and `zomgen validate` a report, never an exception or a traceback."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import StoreError, validate_store

from tests.support.cli import run_zomgen
from tests.support.paths import ROOT

V3_SCHEMA = ROOT / "schemas" / "zom" / "v3.schema.json"
ROOT_GROUP = b'{"zarr_format": 3, "node_type": "group", "attributes": {}}'
BAD_LOCATIONS = {
    "/port-out-of-range/": "http://127.0.0.1:99999/x/zarr.json",
    "/port-not-a-number/": "http://127.0.0.1:abc/x/zarr.json",
    "/broken-ipv6/": "http://[::1/x/zarr.json",
    "/not-http/": "ftp://127.0.0.1/x/zarr.json",
}


class _Redirecting(BaseHTTPRequestHandler):
    """`/<kind>/zarr.json` is the root group; `/<kind>/a/zarr.json` redirects to a bad place."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        kind = "/" + self.path.strip("/").split("/")[0] + "/"
        if self.path == kind + "zarr.json":
            self.send_response(200)
            self.send_header("Content-Length", str(len(ROOT_GROUP)))
            self.end_headers()
            self.wfile.write(ROOT_GROUP)
        elif self.path == kind + "a/zarr.json" and kind in BAD_LOCATIONS:
            self.send_response(302)
            self.send_header("Location", BAD_LOCATIONS[kind])
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self.send_error(404)


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Redirecting)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def schema_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The base v3 group with a required member `a`: HTTP cannot list, so the walk asks for
    `a/zarr.json` because the convention names it."""
    path = tmp_path_factory.mktemp("schema") / "schema.json"
    schema = {
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "properties": {
            "members": {
                "required": ["a"],
                "properties": {"a": {"$ref": "urn:zom:v3#/$defs/GroupSpec"}},
            }
        },
    }
    path.write_text(json.dumps(schema))
    return path


@pytest.fixture(scope="module")
def schema(schema_file: Path) -> dict[str, Any]:
    from zomgen.schema.bundle import bundle
    from zomgen.schema.registry import load_schema_set

    return bundle(load_schema_set(schema_file, []))


@pytest.mark.parametrize("kind", list(BAD_LOCATIONS))
def test_a_redirect_to_a_bad_url_is_a_problem_at_the_node(
    base_url: str, kind: str, schema: dict[str, Any]
) -> None:
    problems = validate_store(base_url + kind, schema)
    messages = {p.node_path: p.message for p in problems}
    assert "/a" in messages, messages
    assert "cannot follow a redirect" in messages["/a"]


@pytest.mark.parametrize("url", ["http://127.0.0.1:99999/s", "http://[::1/s", "http://:80/s"])
def test_a_store_url_that_is_not_a_url_is_a_store_error(url: str, schema: dict[str, Any]) -> None:
    with pytest.raises(StoreError, match="not a URL"):
        validate_store(url, schema)
    run = run_zomgen("validate", url, "--schema", V3_SCHEMA)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr


def test_the_cli_reports_a_bad_redirect_as_json(base_url: str, schema_file: Path) -> None:
    run = run_zomgen(
        "validate", base_url + "/port-out-of-range/", "--schema", schema_file, "--format", "json"
    )
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    problems = json.loads(run.stdout)["problems"]
    assert any(p["node_path"] == "/a" for p in problems)
