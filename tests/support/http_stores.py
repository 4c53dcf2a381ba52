"""Stores served over HTTP for tests: a folder behind Python's http.server, with folder
indexes as `python -m http.server` writes them (`listing=True`) or none (every folder a 404,
as object stores answer), every request recorded."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


class _Server(ThreadingHTTPServer):
    # Python's default backlog is 5: a client with 64 requests in flight over new connections
    # (HTTP/1.0 closes each) overflows it, and each dropped connection waits a second for
    # TCP to retry, which would be measured as the client's slowness.
    request_queue_size = 256


class _Quiet(SimpleHTTPRequestHandler):
    requests: list[tuple[str, str]]
    listing: bool

    def list_directory(self, path: str | Any) -> Any:
        if self.listing:
            return super().list_directory(path)
        self.send_error(404, "no listing here")
        return None

    def parse_request(self) -> bool:
        parsed = super().parse_request()
        if parsed:
            type(self).requests.append((self.command, self.path))
        return parsed

    def log_message(self, format: str, *args: Any) -> None:
        pass


@dataclass
class Served:
    url: str  # http://127.0.0.1:PORT, no trailing slash
    requests: list[tuple[str, str]] = field(default_factory=list)


@contextmanager
def serve(root: Path, *, listing: bool) -> Iterator[Served]:
    """Serve `root` on localhost until the block ends (at most 10 minutes)."""
    requests: list[tuple[str, str]] = []
    attributes = {"requests": requests, "listing": listing, "timeout": 10}
    handler = type("Handler", (_Quiet,), attributes)
    server = _Server(("127.0.0.1", 0), partial(handler, directory=str(root)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    watchdog = threading.Timer(600, server.shutdown)
    watchdog.daemon = True
    watchdog.start()
    try:
        yield Served(f"http://127.0.0.1:{server.server_address[1]}", requests)
    finally:
        watchdog.cancel()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
