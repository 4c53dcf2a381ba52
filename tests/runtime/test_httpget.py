"""The HTTP client of HttpSource (runtime/python/zomgen_runtime/httpget.py) against real servers on 127.0.0.1:
kept-alive connections, every way a body can end, redirects, limits, servers that misbehave,
and proxies (through urllib)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import xarray as xr
from zomgen_runtime import read_document, validate_store
from zomgen_runtime.httpget import KeepAliveClient, Response, UrllibClient, client_for
from zomgen_runtime.origins import RedirectPolicy

from tests.support.runtime import convention


class _Handler(BaseHTTPRequestHandler):
    """Answers GET /<kind>/<anything> as <kind> says; counts the connections it was given."""

    protocol_version = "HTTP/1.1"
    connections = 0

    def setup(self) -> None:
        type(self).connections += 1
        super().setup()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _send(self, status: int, body: bytes, **headers: str) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        kind = self.path.strip("/").split("/")[0]
        body = self.path.encode()
        if kind == "length":
            self._send(200, body, Content_Length=str(len(body)))
        elif kind == "chunked":
            self._send(200, b"", Transfer_Encoding="chunked")
            for part in (body[:3], body[3:]):
                self.wfile.write(b"%x;ext=1\r\n%s\r\n" % (len(part), part))
            self.wfile.write(b"0\r\nTrailer: x\r\n\r\n")
        elif kind == "until-close":
            self.close_connection = True
            self._send(200, body, Connection="close")
        elif kind == "quietly-closed":
            # a connection closed after the answer without saying so
            self.close_connection = True
            self._send(200, body, Content_Length=str(len(body)))
        elif kind == "redirect":
            self._send(302, b"", Location="../../length/after-redirect", Content_Length="0")
        elif kind == "loop":
            self._send(301, b"", Location=self.path, Content_Length="0")
        elif kind == "big":
            self._send(200, b"x" * 1000, Content_Length="1000")
        elif kind == "missing":
            self._send(404, b"no", Content_Length="2")
        elif kind == "slow":
            time.sleep(1.0)
            self._send(200, body, Content_Length=str(len(body)))
        else:
            self._send(500, b"", Content_Length="0")


@pytest.fixture
def server() -> Iterator[tuple[str, type[_Handler]]]:
    handler = type("Handler", (_Handler,), {"connections": 0, "timeout": 10})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", handler
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def _get(url: str, limit: int = 1 << 20, timeout: float = 10.0) -> Response | str:
    client = KeepAliveClient(timeout, 4, RedirectPolicy(url))
    try:
        return client.get([url], limit)[0]
    finally:
        client.close()


def test_connections_are_kept_alive_between_requests_and_calls(
    server: tuple[str, type[_Handler]],
) -> None:
    url, handler = server
    client = KeepAliveClient(10.0, 2, RedirectPolicy(url))
    try:
        first = client.get([f"{url}/length/{i}" for i in range(20)], 1 << 20)
        again = client.get([f"{url}/length/x"], 1 << 20)
    finally:
        client.close()
    assert [r.body if isinstance(r, Response) else r for r in first] == [
        f"/length/{i}".encode() for i in range(20)
    ]
    assert isinstance(again[0], Response) and again[0].body == b"/length/x"
    assert handler.connections <= 2  # two in flight at most, reused for all 21 requests


def test_each_request_asks_for_the_path_and_query_of_its_url(
    server: tuple[str, type[_Handler]],
) -> None:
    # The part before the path is split once per host (KeepAliveClient._split): the rest of
    # every URL must still reach the server as urlsplit would send it.
    url, _handler = server
    host = url.removeprefix("http://")
    targets = ["/length/a%20b/zarr.json", "/length/q?x=1&y=%2F", "/length/empty?", "/length/f#frag"]
    urls = [f"{url}{t}" for t in targets] + [f"HTTP://{host}/length/upper", f"http://{host}"]
    client = KeepAliveClient(10.0, 2, RedirectPolicy(url))
    try:
        outcomes = client.get(urls, 1 << 20)
    finally:
        client.close()
    bodies = [r.body.decode() if isinstance(r, Response) else r for r in outcomes]
    # urlsplit drops an empty query and the fragment; a URL without a path asks for "/"
    expected = ["/length/a%20b/zarr.json", "/length/q?x=1&y=%2F", "/length/empty"]
    assert bodies[:3] == expected
    assert bodies[3:5] == ["/length/f", "/length/upper"]
    assert isinstance(outcomes[5], Response) and outcomes[5].status == 500  # "/" is no kind


@pytest.mark.parametrize("kind", ["length", "chunked", "until-close", "quietly-closed"])
def test_every_way_a_body_ends_is_read_whole(server: tuple[str, type[_Handler]], kind: str) -> None:
    url, _handler = server
    client = KeepAliveClient(10.0, 1, RedirectPolicy(url))
    try:
        # one connection for three requests in a row: each must find where the last ended,
        # or open a new connection where the server closed it (said so or not)
        outcomes = client.get([f"{url}/{kind}/{i}" for i in range(3)], 1 << 20)
    finally:
        client.close()
    assert [r.body if isinstance(r, Response) else r for r in outcomes] == [
        f"/{kind}/{i}".encode() for i in range(3)
    ]


def test_redirects_are_followed_and_a_loop_is_an_error(
    server: tuple[str, type[_Handler]],
) -> None:
    url, _handler = server
    followed = _get(f"{url}/redirect/a/b")
    assert isinstance(followed, Response) and followed.body == b"/length/after-redirect"
    assert _get(f"{url}/loop/x") == "more than 5 redirects"


def test_a_body_over_the_limit_is_not_read(server: tuple[str, type[_Handler]]) -> None:
    url, _handler = server
    big = _get(f"{url}/big/x", limit=10)
    assert isinstance(big, Response) and big.over_limit and big.size == 1000 and big.body == b""
    chunked = _get(f"{url}/chunked/0123456789", limit=5)
    assert isinstance(chunked, Response) and chunked.over_limit


def test_status_and_failures_are_outcomes_not_exceptions(
    server: tuple[str, type[_Handler]],
) -> None:
    url, _handler = server
    missing = _get(f"{url}/missing/x")
    assert isinstance(missing, Response) and missing.status == 404
    assert _get(f"{url}/slow/x", timeout=0.2) == "timed out"
    refused = _get("http://127.0.0.1:9/x")  # nothing listens on the discard port
    assert isinstance(refused, str) and "refused" in refused.lower()


def test_an_answer_that_is_not_http_is_an_error() -> None:
    listener = socket.create_server(("127.0.0.1", 0))

    def answer() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(1024)
            connection.sendall(b"SSH-2.0-OpenSSH_9.6\r\n\r\n")

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    try:
        outcome = _get(f"http://127.0.0.1:{listener.getsockname()[1]}/x")
    finally:
        listener.close()
        thread.join(timeout=5)
    assert isinstance(outcome, str) and "not an HTTP/1.x response" in outcome


class _Proxy(SimpleHTTPRequestHandler):
    """A forward proxy for one origin: serves the folder for any absolute-form request (the
    form a client sends to a proxy), and refuses the origin form a direct request uses."""

    requests: list[str]

    def send_head(self) -> Any:
        type(self).requests.append(self.path)
        if not self.path.startswith("http://"):
            self.send_error(400, "not through a proxy")
            return None
        self.path = "/" + self.path.split("/", 3)[3]
        return super().send_head()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_a_configured_proxy_is_used_through_urllib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from functools import partial

    xr.Dataset({"t": (("x",), [1.0, 2.0])}).to_zarr(tmp_path / "ds.zarr", zarr_format=3)
    requests: list[str] = []
    handler = type("Handler", (_Proxy,), {"requests": requests, "timeout": 10})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(tmp_path)))
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        monkeypatch.setenv("http_proxy", f"http://127.0.0.1:{httpd.server_address[1]}")
        monkeypatch.delenv("no_proxy", raising=False)
        monkeypatch.delenv("NO_PROXY", raising=False)
        # a name that resolves nowhere: only the proxy can answer for it
        url = "http://zarr.invalid/ds.zarr"
        assert isinstance(client_for(url, 10.0, 4, RedirectPolicy(url)), UrllibClient)
        remote, problems = read_document(url)
        assert problems == [] and remote == read_document(tmp_path / "ds.zarr")[0]
        assert validate_store(url, convention("xarray-v3")) == []
        assert requests and all(r.startswith("http://zarr.invalid/") for r in requests)
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)
