"""The validator page (`zomgen site`) next to the same loader under Node, and its bundle's size.

A store of N nodes (a root group and N - 1 arrays, as zarr-python writes them; v3, not
consolidated, then consolidated) is served on localhost without delay, and checked by:

- page:  the xarray-v3 validator page in Debian's Chromium (Playwright), URL entered, Check
         pressed; the seconds its summary gives (reading and checking, before the tree is
         drawn), and of the check alone;
- Node:  the xarray-v3 npm package's loader on the same URL (validateStore's two parts: the
         read, then the check), the same code without a browser.

The server keeps connections alive (HTTP/1.1, as static hosts do); a browser opens at most 6
per host, where Node keeps 64 requests in flight. The store read file by file is also served
over HTTPS by an HTTP/2 server (static_server.mjs --tls, a certificate made for the run), where one
connection carries every request. Chromium is driven through the DevTools protocol alone
(bench_site_page.mjs says why not Playwright).

Medians of --repeat, side by side in one run (shared machines: read the ratios). Then the size
of each page's app.js, raw and gzipped, for every bundled convention given with --sizes
(`catalog`: the catalog page).

Run: .venv/bin/python benchmarks/bench_site.py [-n 10000] [--repeat 3] [--out docs/benchmarks-site.md]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from suite import write_store

from zomgen.pipeline import Options, generate_package
from zomgen.site.generate import generate_catalog_site, generate_site
from zomgen.targets.typescript.npm import NpmPackage
from zomgen.write import write_package

# "catalog": the catalog page (`zomgen site` without a schema), every bundled convention
SIZES = ("xarray-v3", "ome-ngff-05-image", "ome-ngff-06-image", "geozarr-dataset", "catalog")


class _Server(ThreadingHTTPServer):
    # Python's default backlog is 5: a client with 64 requests in flight over new connections
    # (HTTP/1.0 closes each) overflows it, and each dropped connection waits a second for
    # TCP to retry, which would be measured as the client's slowness.
    request_queue_size = 256


class _Quiet(SimpleHTTPRequestHandler):
    # HTTP/1.1: connections kept alive, as a real static host keeps them (a browser opens at
    # most 6 per host, so closing each would be measured as the page's slowness).
    protocol_version = "HTTP/1.1"
    # http.server writes headers and body apart: without this, each response on a kept-alive
    # connection waits for the client's delayed acknowledgement (Nagle's algorithm), 40 ms.
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def served(folder: Path) -> Iterator[str]:
    """`folder` on localhost, folders listed as HTML indexes, no delay."""
    server = _Server(("127.0.0.1", 0), partial(_Quiet, directory=str(folder)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def served_h2(folder: Path, work: Path) -> Iterator[tuple[str, Path]]:
    """`folder` served over HTTP/2 with TLS (static_server.mjs --tls, Node's http2) on localhost, with
    a certificate made for the run: yields the base URL and the certificate, which Node is
    told to trust (NODE_EXTRA_CA_CERTS) and Chromium to accept."""
    key, cert = work / "h2-key.pem", work / "h2-cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True,
    )  # fmt: skip
    server = subprocess.Popen(
        [
            "node",
            str(ROOT / "benchmarks" / "static_server.mjs"),
            str(folder),
            "--tls",
            str(key),
            str(cert),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        if not url.startswith("https://"):
            raise SystemExit("bench_site: the HTTP/2 server did not start")
        yield url, cert
    finally:
        if server.stdin is not None:
            server.stdin.close()
        server.wait(timeout=30)


def _websocket_flag() -> list[str]:
    """Node 22 has a WebSocket of its own; Node 20 asks for it by a flag."""
    version = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True)
    major = int(version.stdout.strip().lstrip("v").split(".")[0])
    return ["--experimental-websocket"] if major < 22 else []


def chromium() -> str:
    found = shutil.which("chromium")
    if found is None:
        raise SystemExit("bench_site: Chromium is not installed (bash scripts/setup.sh)")
    return found


def build(work: Path) -> tuple[Path, Path]:
    """The xarray-v3 page and npm package, under `work` (node_modules beside them)."""
    schema = ROOT / "schemas" / "xarray-v3" / "schema.json"
    page = work / "served" / "page"
    write_package(generate_site(Options(schema)).files, page)
    package = work / "package"
    npm = Options(schema, npm=NpmPackage("xarray-v3"), python=False)
    write_package(generate_package(npm).files, package)
    (work / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    return page, package


def time_both(
    work: Path,
    url: str,
    page_url: str,
    package: Path,
    repeat: int,
    cert: Path | None = None,
    *,
    trust: bool = False,
) -> dict[str, float]:
    """Seconds of the page and of Node on one URL; `cert`: the HTTPS server's own certificate;
    `trust`: consolidated metadata read alone (the page's box, Node's `checkConsolidated:
    false`), the one request it buys, rather than compared with each node's files."""
    script = work / "bench_site_page.mjs"
    shutil.copy(ROOT / "benchmarks" / "bench_site_page.mjs", script)
    job = {
        "chromium": chromium(),
        "page": page_url,
        "package": str(package),
        "url": url,
        "repeat": repeat,
        "trust": trust,
        "ignoreCertificateErrors": cert is not None,
    }
    env = {**os.environ, **({"NODE_EXTRA_CA_CERTS": str(cert)} if cert is not None else {})}
    result = subprocess.run(
        ["node", *_websocket_flag(), str(script)],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    if result.returncode != 0:
        raise SystemExit(f"bench_site: {result.stderr}")
    times = json.loads(result.stdout)
    return {tool: statistics.median(seconds) for tool, seconds in times.items()}


def sizes(names: tuple[str, ...]) -> list[tuple[str, int, int]]:
    found = []
    for name in names:
        if name == "catalog":
            app = generate_catalog_site([], []).files["app.js"]
        else:
            app = generate_site(Options(ROOT / "schemas" / name / "schema.json")).files["app.js"]
        data = app.encode("utf-8")
        found.append((name, len(data), len(gzip.compress(data, mtime=0))))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("-n", type=int, default=10_000, help="nodes in the store")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", nargs="*", default=list(SIZES), help="conventions to size")
    parser.add_argument("--out", type=Path, help="write the table here (else print it)")
    args = parser.parse_args()
    rows: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-site-") as scratch:
        work = Path(scratch)
        _page, package = build(work)
        for consolidated, http2 in ((False, False), (True, False), (False, True)):
            name = f"store-{'consolidated' if consolidated else 'listed'}.zarr"
            if not (work / "served" / name).exists():
                write_store(work / "served" / name, 3, args.n, consolidated)
            if http2:
                with served_h2(work / "served", work) as (url, cert):
                    times = time_both(
                        work,
                        f"{url}/{name}",
                        f"{url}/page/index.html",
                        package,
                        args.repeat,
                        cert,
                        trust=consolidated,
                    )
            else:
                with served(work / "served") as url:
                    times = time_both(
                        work,
                        f"{url}/{name}",
                        f"{url}/page/index.html",
                        package,
                        args.repeat,
                        trust=consolidated,
                    )
            how = "consolidated (trusted)" if consolidated else "listed (HTML index)"
            how += ", HTTPS: page HTTP/2, Node HTTP/1.1" if http2 else ", HTTP/1.1"
            whole = (
                f"{times['node']:.2f} | {times['page']:.2f} | {times['page'] / times['node']:.2f}x"
            )
            check = f"{times['nodeCheck']:.3f} | {times['pageCheck']:.3f}"
            ratio = times["pageCheck"] / max(times["nodeCheck"], 1e-6)
            rows.append(f"| {args.n:,} | {how} | {whole} | {check} | {ratio:.2f}x |")
            print(rows[-1], flush=True)
    table = [
        "# The validator page (benchmarks/bench_site.py)\n",
        (
            f"xarray-v3 page and npm package, one store of {args.n:,} nodes (v3) on localhost without "
            f"delay, medians of {args.repeat}, in one run.\n"
        ),
        (
            "| nodes | store | Node: read and check (s) | page (s) | page / Node | Node: check (s) "
            "| page: check (s) | page / Node |"
        ),
        "|---:|---|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
        "| page | app.js | gzipped |",
        "|---|---:|---:|",
        *(
            f"| {name} | {raw / 1024:.0f} KB | {packed / 1024:.0f} KB |"
            for name, raw, packed in sizes(tuple(args.sizes))
        ),
        "",
    ]
    text = "\n".join(table)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
