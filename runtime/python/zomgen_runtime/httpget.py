"""GET over HTTP(S) with many requests in flight, for HttpSource.

Why not urllib: a walk reads thousands of small files. Through `urlopen` on a pool of 64 threads
each request cost 0.8 ms of the reader's CPU (a new connection every time, and the threads
fighting over the GIL), so 10,000 reads took 8 s of CPU against a 3.2 s ideal on a server with
20 ms of latency (zomgen's measurements). One event loop, in a thread of its own, over
kept-alive HTTP/1.1 connections costs about a tenth of that.

What it speaks is the small part of HTTP/1.1 a static file server needs: GET, bodies by length,
chunked or up to the close, redirects, `Connection: close`, HTTP/1.0 servers. Where a proxy is
configured for the host (`http_proxy`, `https_proxy`, `no_proxy`, as urllib reads them), the
requests go through urllib instead, which knows proxies.

Longer than 400 lines because it is one small client: the kept-alive connections, the
responses they read, and the urllib fallback for proxies, which must answer the same `Client`
protocol and the same redirect rule.
"""

from __future__ import annotations

import asyncio
import ssl
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Coroutine, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from .origins import Origin, RedirectPolicy, origin_of

USER_AGENT = "zomgen-runtime"
MAX_REDIRECTS = 5
_REDIRECTS = frozenset((301, 302, 303, 307, 308))
_NO_BODY = frozenset((204, 304))
# Characters urlsplit drops or splits on after the host: a URL with one is split whole.
_SPLIT_WHOLE = "?#\t\r\n"
_T = TypeVar("_T")


@dataclass(frozen=True)
class Response:
    status: int
    reason: str
    headers: dict[str, str] = field(default_factory=dict[str, str])  # names in lower case
    body: bytes = b""
    # The body is over the limit asked for: `body` holds the first `limit + 1` bytes at most.
    over_limit: bool = False
    size: int | None = None  # the Content-Length the server announced, if any

    def media_type(self) -> tuple[str, str | None]:
        """The content type's `type/subtype` in lower case, and its charset if named."""
        kind, *parameters = self.headers.get("content-type", "").split(";")
        charset = None
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "charset":
                charset = value.strip().strip('"') or None
        return kind.strip().lower(), charset


# What a request gave: the response, or why there was none (refused, timed out, not HTTP).
Outcome = Response | str


class Client(Protocol):
    def get(self, urls: Sequence[str], limit: int) -> list[Outcome]:
        """Every URL, in order; `limit`: the most body bytes wanted from each."""
        ...

    def close(self) -> None: ...


def describe(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "timed out"
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def client_for(url: str, timeout: float, concurrency: int, redirects: RedirectPolicy) -> Client:
    parts = urllib.parse.urlsplit(url)
    host, scheme = parts.hostname or "", parts.scheme.lower()
    proxies = urllib.request.getproxies()
    if scheme in proxies and not urllib.request.proxy_bypass(host):
        return UrllibClient(timeout, concurrency, redirects)
    return KeepAliveClient(timeout, concurrency, redirects)


def next_hop(url: str, response: Response) -> str | None | tuple[str]:
    """Where a redirect `response` to a request for `url` leads: the URL; None when it is not a
    redirect (the response is the answer); (why,) when the Location cannot be followed."""
    location = response.headers.get("location")
    if response.status not in _REDIRECTS or location is None:
        return None
    try:
        return urllib.parse.urljoin(url, location)
    except ValueError as exc:
        return (f"cannot follow a redirect to {location!r}: {exc}",)


class _ProtocolError(Exception):
    """The server's answer is not the HTTP/1.1 this client reads."""


_Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


class KeepAliveClient:
    """Requests on an event loop of the client's own (in its own thread, so a caller inside a
    running loop, as in Jupyter, is not disturbed), over connections kept open between requests
    and between calls."""

    def __init__(self, timeout: float, concurrency: int, redirects: RedirectPolicy) -> None:
        self._timeout = timeout
        self._concurrency = concurrency
        self._redirects = redirects
        self._idle: dict[Origin, list[_Connection]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ssl: ssl.SSLContext | None = None
        self._addresses: dict[Origin, str] = {}
        self._heads: dict[str, tuple[Origin, str]] = {}  # "scheme://host:port" -> its parts

    def loop(self) -> asyncio.AbstractEventLoop:
        """The client's event loop, running in its own thread (started the first time)."""
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
            self._thread = threading.Thread(
                target=self._loop.run_forever, name="zomgen-http", daemon=True
            )
            self._thread.start()
        return self._loop

    def _run(self, coroutine: Coroutine[Any, Any, _T]) -> _T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop()).result()

    def get(self, urls: Sequence[str], limit: int) -> list[Outcome]:
        if not urls:
            return []

        async def every() -> list[Outcome]:
            # A few workers taking the next URL, not a task per URL: 10,000 tasks waiting on
            # a semaphore cost more than the requests themselves.
            outcomes: list[Outcome] = [""] * len(urls)
            todo = iter(range(len(urls)))

            async def worker() -> None:
                for i in todo:
                    outcomes[i] = await self.follow(urls[i], limit)

            await asyncio.gather(*(worker() for _ in range(min(self._concurrency, len(urls)))))
            return outcomes

        return self._run(every())

    async def follow(self, url: str, limit: int) -> Outcome:
        """One URL on the client's loop, its redirects followed where the policy allows."""
        for hop in range(MAX_REDIRECTS + 1):
            try:
                origin, netloc, target = self._split(url)
            except ValueError as exc:  # a port out of range or not a number, a broken [IPv6]
                return f"cannot follow a redirect to {url!r}: {exc}"
            refused = self._redirects.refuses(origin) if hop else None
            if refused is not None:
                return refused
            try:
                async with asyncio.timeout(self._timeout):
                    response = await self._request(origin, netloc, target, limit)
            except (OSError, EOFError, ValueError, _ProtocolError) as exc:
                # OSError covers TimeoutError; ValueError: a host name that is not ASCII
                return describe(exc)
            except asyncio.LimitOverrunError:
                return "a response header over 64 KiB"
            hop_to = next_hop(url, response)
            if hop_to is None:
                return response
            if isinstance(hop_to, tuple):
                return hop_to[0]
            url = hop_to
        return f"more than {MAX_REDIRECTS} redirects"

    def _split(self, url: str) -> tuple[Origin, str, str]:
        """The origin, host part and request target (path and query) of `url`; ValueError as
        `origin_of`. The part before the path is split once per store: splitting each of a
        walk's thousands of URLs whole cost more than the rest of sending the request."""
        start = url.find("://") + 3
        end = url.find("/", start) if start >= 3 else -1
        if end < 0 or not url[:1].isalpha() or any(c in url for c in _SPLIT_WHOLE):
            origin, parts = origin_of(url)
            return (
                origin,
                parts.netloc,
                (parts.path or "/") + (f"?{parts.query}" if parts.query else ""),
            )
        head = url[:end]
        known = self._heads.get(head)
        if known is None:
            origin, parts = origin_of(head)
            known = self._heads[head] = (origin, parts.netloc)
        return known[0], known[1], url[end:]

    async def _request(self, origin: Origin, netloc: str, target: str, limit: int) -> Response:
        host = netloc.rpartition("@")[2]
        request = (
            f"GET {target} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: {USER_AGENT}\r\n"
            "Accept-Encoding: identity\r\n\r\n"
        ).encode("ascii")
        idle = self._idle.get(origin)
        if idle:
            # A kept-alive connection the server has closed meanwhile fails at once: once more
            # on a new one.
            connection = idle.pop()
            try:
                return await self._exchange(origin, connection, request, limit)
            except (ConnectionError, asyncio.IncompleteReadError):
                pass
        return await self._exchange(origin, await self._connect(origin), request, limit)

    async def _connect(self, origin: Origin) -> _Connection:
        scheme, host, port = origin
        context: ssl.SSLContext | None = None
        if scheme == "https":
            if self._ssl is None:
                self._ssl = ssl.create_default_context()
            context = self._ssl
        # The address that answered first, reused: a server that closes every connection
        # would otherwise cost a name lookup per request ("localhost" also tries ::1 first,
        # in vain where the server listens on 127.0.0.1 alone).
        address = self._addresses.get(origin)
        if address is None:
            connection = await asyncio.open_connection(host, port, ssl=context)
            self._addresses[origin] = connection[1].get_extra_info("peername")[0]
            return connection
        try:
            return await asyncio.open_connection(
                address, port, ssl=context, server_hostname=host if context else None
            )
        except OSError:
            del self._addresses[origin]  # moved: look the name up again next time
            raise

    async def _exchange(
        self, origin: Origin, connection: _Connection, request: bytes, limit: int
    ) -> Response:
        reader, writer = connection
        keep = False
        try:
            writer.write(request)
            response, keep = await _read_response(reader, limit)
            return response
        finally:
            if keep:
                self._idle.setdefault(origin, []).append(connection)
            else:
                writer.close()

    def close(self) -> None:
        loop = self._loop
        if loop is None:
            return

        async def shut() -> None:
            for connections in self._idle.values():
                for _reader, writer in connections:
                    writer.close()
            self._idle.clear()

        self._run(shut())
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=10)
        loop.close()
        self._loop = self._thread = None


async def _read_response(reader: asyncio.StreamReader, limit: int) -> tuple[Response, bool]:
    """One response; and whether the connection can carry the next request."""
    while True:
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        status_line, *lines = head[:-4].split("\r\n")
        version, _, rest = status_line.partition(" ")
        code, _, reason = rest.partition(" ")
        if not version.startswith("HTTP/1.") or not (code.isdigit() and len(code) == 3):
            raise _ProtocolError(f"not an HTTP/1.x response: {status_line[:80]!r}")
        status = int(code)
        if not 100 <= status < 200:
            break  # 1xx: an interim answer, the real one follows
    headers: dict[str, str] = {}
    for line in lines:
        name, colon, value = line.partition(":")
        if not colon:
            raise _ProtocolError(f"malformed header line {line[:80]!r}")
        headers[name.strip().lower()] = value.strip()
    connection = headers.get("connection", "").lower()
    keep = "close" not in connection if version == "HTTP/1.1" else "keep-alive" in connection
    size = _declared_size(headers)
    if status in _NO_BODY:
        body, over = b"", False
    elif "chunked" in headers.get("transfer-encoding", "").lower():
        body, over = await _read_chunked(reader, limit)
        keep = keep and not over
    elif size is not None:
        if size > limit:
            return Response(status, reason, headers, b"", True, size), False
        body, over = await reader.readexactly(size), False
    else:
        body = b""
        while len(body) <= limit and (more := await reader.read(limit + 1 - len(body))):
            body += more
        over, keep = len(body) > limit, False  # a body that ends with the connection
    return Response(status, reason, headers, body, over, size), keep


def _declared_size(headers: dict[str, str]) -> int | None:
    declared = headers.get("content-length")
    return int(declared) if declared is not None and declared.isdigit() else None


async def _read_chunked(reader: asyncio.StreamReader, limit: int) -> tuple[bytes, bool]:
    parts: list[bytes] = []
    total = 0
    while True:
        line = (await reader.readuntil(b"\r\n")).split(b";", 1)[0].strip()
        try:
            length = int(line, 16)
        except ValueError:
            raise _ProtocolError(f"bad chunk size {line[:20]!r}") from None
        if length == 0:
            while (await reader.readuntil(b"\r\n")) != b"\r\n":
                pass  # trailers
            return b"".join(parts), False
        total += length
        if total > limit:
            return b"".join(parts), True
        parts.append(await reader.readexactly(length))
        await reader.readexactly(2)


class UrllibClient:
    """Requests through urllib (which applies the proxy settings), on a pool of threads."""

    def __init__(self, timeout: float, concurrency: int, redirects: RedirectPolicy) -> None:
        self._timeout = timeout
        self._concurrency = concurrency
        self._pool: ThreadPoolExecutor | None = None
        self._redirects = redirects
        self._opener = _opener_without_redirects()

    def get(self, urls: Sequence[str], limit: int) -> list[Outcome]:
        if len(urls) <= 1:
            return [self.one(u, limit) for u in urls]

        def one(url: str) -> Outcome:
            return self.one(url, limit)

        return list(self.pool().map(one, urls))

    def pool(self) -> ThreadPoolExecutor:
        """The client's threads (started the first time)."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self._concurrency, thread_name_prefix="zomgen-http")
        return self._pool

    def one(self, url: str, limit: int) -> Outcome:
        """One URL, its redirects followed here, where the policy allows, before any request
        goes to where they lead (urllib's own handler would send it first)."""
        for hop in range(MAX_REDIRECTS + 1):
            if hop:
                try:
                    refused = self._redirects.refuses(origin_of(url)[0])
                except ValueError as exc:
                    return f"cannot follow a redirect to {url!r}: {exc}"
                if refused is not None:
                    return refused
            outcome = self._request(url, limit)
            hop_to = next_hop(url, outcome) if isinstance(outcome, Response) else None
            if hop_to is None:
                return outcome
            if isinstance(hop_to, tuple):
                return hop_to[0]
            url = hop_to
        return f"more than {MAX_REDIRECTS} redirects"

    def _request(self, url: str, limit: int) -> Outcome:
        request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
        try:
            with self._opener.open(request, timeout=self._timeout) as answer:
                headers = {k.lower(): v for k, v in answer.headers.items()}
                size = _declared_size(headers)
                if size is not None and size > limit:
                    return Response(answer.status, answer.reason, headers, b"", True, size)
                body: bytes = answer.read(limit + 1)
                return Response(
                    answer.status, answer.reason, headers, body, len(body) > limit, size
                )
        except urllib.error.HTTPError as exc:
            return Response(exc.code, exc.reason, {k.lower(): v for k, v in exc.headers.items()})
        except (urllib.error.URLError, OSError, ValueError) as exc:
            return describe(exc)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None


def _opener_without_redirects() -> urllib.request.OpenerDirector:
    """urllib's default opener (proxies, http, https, errors) less its redirect handler: a
    redirect comes back as a response (an HTTPError of status 3xx), for `one` to follow."""
    opener = urllib.request.OpenerDirector()
    for handler in (
        urllib.request.ProxyHandler(),
        urllib.request.UnknownHandler(),
        urllib.request.HTTPHandler(),
        urllib.request.HTTPSHandler(),
        urllib.request.HTTPDefaultErrorHandler(),
        urllib.request.HTTPErrorProcessor(),
    ):
        opener.add_handler(handler)
    return opener
