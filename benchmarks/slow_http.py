"""Serve a folder over HTTP/1.1 on localhost, every request answered after a delay (20 ms
unless told), folders listed as HTML indexes (as `python -m http.server` does). Prints the port,
then serves until killed. benchmarks/suite.py runs it in its own process, so that the server's
work does not share the measured process's interpreter.

Run: .venv/bin/python benchmarks/slow_http.py FOLDER [--latency 0.02]
"""

from __future__ import annotations

import argparse
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class SlowHandler(SimpleHTTPRequestHandler):
    latency = 0.02
    # Connections kept alive, as static servers and object stores keep them (Python's default
    # HTTP/1.0 closes each one, which costs this server a thread and an accept per request).
    protocol_version = "HTTP/1.1"
    # Headers and body in one write: written apart, Nagle's algorithm holds the body until the
    # client acknowledges the headers, which Linux delays 40 ms on a kept-alive connection.
    wbufsize = 1 << 16

    def parse_request(self) -> bool:
        time.sleep(self.latency)
        return super().parse_request()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("--latency", type=float, default=0.02)
    args = parser.parse_args()
    handler = type("Handler", (SlowHandler,), {"latency": args.latency})
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=args.folder))
    server.daemon_threads = True
    # ThreadingHTTPServer's default backlog (5) refuses connections when 64 arrive at once
    server.socket.listen(256)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
