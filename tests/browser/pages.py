"""Driving a validator page in Chromium, for the browser tests: where Chromium is, the
driver (drive.mjs, Playwright) run over a list of cases, where screenshots go, which console
lines are the page's own failures, how long the page's thread was held, and a server whose
stores any page may read (a page opened from a file has no origin of its own)."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import ROOT

DRIVER = Path(__file__).with_name("drive.mjs")
DOCS_IMAGES = ROOT / "docs" / "images"


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail(
            "Chromium is not installed: `bash scripts/setup.sh` installs Debian's chromium where "
            "it may (root, apt-get); elsewhere install it (`apt-get install chromium`) and rerun"
        )
    return found


def drive(cases: list[dict[str, Any]], page: str) -> dict[str, dict[str, Any]]:
    """What a user sees on `page` for each case (drive.mjs says what a case and a result hold)."""
    job = {"chromium": chromium(), "page": page, "cases": cases}
    result = subprocess.run(
        ["node", str(DRIVER)],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr
    return {seen["name"]: seen for seen in json.loads(result.stdout)}


def shot(folder: Path, name: str) -> str:
    """Where a screenshot goes: the test's folder, or docs/images with ZOMGEN_SCREENSHOTS=1."""
    if os.environ.get("ZOMGEN_SCREENSHOTS"):
        DOCS_IMAGES.mkdir(exist_ok=True)
        return str(DOCS_IMAGES / f"site-{name}.png")
    return str(folder / f"{name}.png")


def uncaught(seen: dict[str, Any]) -> list[str]:
    """The console's errors but the browser's own line for a request that failed (which a
    URL that does not answer is expected to cause)."""
    return [e for e in seen["errors"] if "Failed to load resource" not in e]


def held(seen: dict[str, Any]) -> dict[str, float]:
    """From a case driven with `heartbeat`: in milliseconds, how long the check took (from
    the "Checking ..." line to the result's drawing, which the summary's seconds date), the
    whole run until then (from the "Reading ..." line), and the longest the page's thread was
    held in that run (the longest time its timer did not run)."""
    beats: list[float] = seen["heartbeat"]["beats"]
    statuses: list[tuple[float, str]] = seen["heartbeat"]["statuses"]
    start = next(t for t, text in statuses if text.startswith("Reading "))
    checking = next(t for t, text in statuses if text.startswith("Checking "))
    # "(3.51 s: read 1.15 s, checked 2.36 s)": read and checked from the press of Check to
    # the moment the page began to draw the result
    found = re.search(r"\((\d+\.\d+) s: read", seen["summary"] or "")
    assert found is not None, seen["summary"]
    drawing = start + float(found.group(1)) * 1000
    times = [start, *(b for b in beats if start < b < drawing), drawing]
    longest = max(later - earlier for earlier, later in itertools.pairwise(times))
    return {"checking": drawing - checking, "run": drawing - start, "longest": longest}


class _AnyOrigin(SimpleHTTPRequestHandler):
    def end_headers(self) -> None:
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve_to_any_origin(root: Path) -> Iterator[str]:
    """`root` over HTTP, readable by a page of any origin (CORS `*`), as a public store is;
    yields its URL (no trailing slash)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_AnyOrigin, directory=str(root)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
