"""Sources with latency: zarr store objects (memory, fsspec, obstore, zip, ...) and plain HTTP.

Every batch the walk asks for is sent at once, with up to `concurrency` requests in flight: a
store that answers in 20 ms per request must not be walked one request at a time (zarr itself
walks group after group).
"""

from __future__ import annotations

import asyncio
import html
import re
import urllib.parse
from collections.abc import Awaitable, Collection, Iterator, Sequence
from typing import Any, TypeVar

from .httpget import KeepAliveClient, Outcome, UrllibClient, client_for, describe
from .inflight import LoopRequests, PoolRequests
from .jsontext import too_large
from .origins import RedirectPolicy
from .sources import Failure, Fetched, Job, Listing, Requests

DEFAULT_CONCURRENCY = 64
_A = TypeVar("_A")


async def ensure_open(store: Any) -> None:
    """Open a store zarr has not opened yet (a ZipStore made by hand is closed until then);
    zarr's own API does the same before each use."""
    opener = getattr(store, "_ensure_open", None)
    if opener is not None:
        await opener()


class ZarrStoreSource:
    """Any `zarr.abc.store.Store`, read through its own async API (`get`, `list_dir`) on zarr's
    event loop, so stores bound to that loop (fsspec, obstore) work as they do inside zarr."""

    cheap_probes = False

    def __init__(self, store: Any, concurrency: int = DEFAULT_CONCURRENCY) -> None:
        self._store = store
        self._concurrency = concurrency
        self.listable = bool(getattr(store, "supports_listing", False))

    def _run(self, coroutine: Any) -> Any:
        from zarr.core.sync import sync

        return sync(coroutine)

    def read(self, keys: Sequence[str], limit: int) -> list[Fetched]:
        async def every() -> list[Fetched]:
            await ensure_open(self._store)
            gate = asyncio.Semaphore(self._concurrency)
            return list(
                await asyncio.gather(*(self._gated(gate, self._get(k, limit)) for k in keys))
            )

        result: list[Fetched] = self._run(every()) if keys else []
        return result

    async def _get(self, key: str, limit: int) -> Fetched:
        from zarr.core.buffer import default_buffer_prototype

        try:
            buffer = await self._store.get(key, prototype=default_buffer_prototype())
        except (FileNotFoundError, NotADirectoryError):
            return None
        except Exception as exc:  # noqa: BLE001  # any store's own error is a problem of this key
            return Failure(describe(exc))
        if buffer is None:
            return None
        data: bytes = buffer.to_bytes()
        if len(data) > limit:
            return Failure(too_large(key.rsplit("/", 1)[-1], len(data), limit))
        return data

    def exists(self, keys: Sequence[str]) -> list[bool]:
        return [r is not None for r in self.read(keys, 1 << 62)]

    def listdir(self, prefixes: Sequence[str]) -> list[Listing]:
        if not self.listable:
            return [None for _ in prefixes]

        async def every() -> list[Listing]:
            await ensure_open(self._store)
            gate = asyncio.Semaphore(self._concurrency)
            return list(await asyncio.gather(*(self._gated(gate, self._list(p)) for p in prefixes)))

        result: list[Listing] = self._run(every()) if prefixes else []
        return result

    async def _list(self, prefix: str) -> Listing:
        if not self.listable:
            return None
        try:
            names = [name async for name in self._store.list_dir(prefix.rstrip("/"))]
        except Exception as exc:  # noqa: BLE001  # listing refused: use the named members
            return Failure(describe(exc))
        return list(dict.fromkeys(n.rstrip("/") for n in names))

    @staticmethod
    async def _gated(gate: asyncio.Semaphore, request: Awaitable[_A]) -> _A:
        async with gate:
            return await request

    def requests(self) -> Requests:
        async def opened() -> asyncio.AbstractEventLoop:
            await ensure_open(self._store)
            return asyncio.get_running_loop()  # zarr's, in its own thread

        async def one(job: Job) -> Fetched | Listing:
            return await (self._list(job.key) if job.listing else self._get(job.key, job.limit))

        loop: asyncio.AbstractEventLoop = self._run(opened())
        return LoopRequests(loop, one, self._concurrency)

    def close(self) -> None:
        pass


class HttpSource:
    """A store served over plain HTTP(S): GET only, with the standard library (fsspec's HTTP
    filesystem needs aiohttp, which a loader should not require), through httpget's kept-alive
    connections. A folder is listed where the server answers its URL with an HTML index (as
    `python -m http.server`, nginx's autoindex and Apache do, and as fsspec reads them);
    elsewhere the walk probes the members the convention names."""

    listable = True
    cheap_probes = False

    def __init__(
        self,
        base_url: str,
        timeout: float = 30.0,
        concurrency: int = DEFAULT_CONCURRENCY,
        allow_redirects_to: Collection[str] = (),
    ) -> None:
        """`allow_redirects_to`: origins besides the store's own a redirect may lead to
        (origins.py); ValueError for one that is not an origin."""
        self._base = base_url if base_url.endswith("/") else base_url + "/"
        redirects = RedirectPolicy(self._base, allow_redirects_to)
        self._client = client_for(self._base, timeout, concurrency, redirects)
        self._concurrency = concurrency

    def _url(self, key: str) -> str:
        return self._base + urllib.parse.quote(key, safe="/")

    def read(self, keys: Sequence[str], limit: int) -> list[Fetched]:
        outcomes = self._client.get([self._url(k) for k in keys], limit)
        return [_fetched(k, outcome, limit) for k, outcome in zip(keys, outcomes)]

    def exists(self, keys: Sequence[str]) -> list[bool]:
        return [r is not None for r in self.read(keys, 1 << 62)]

    def listdir(self, prefixes: Sequence[str]) -> list[Listing]:
        outcomes = self._client.get([self._url(p) for p in prefixes], _MAX_INDEX_BYTES)
        return [_index(outcome) for outcome in outcomes]

    def requests(self) -> Requests:
        client = self._client

        def answer(job: Job, outcome: Outcome) -> Fetched | Listing:
            return _index(outcome) if job.listing else _fetched(job.key, outcome, job.limit)

        if isinstance(client, KeepAliveClient):
            keep_alive = client

            async def follow(job: Job) -> Fetched | Listing:
                limit = _MAX_INDEX_BYTES if job.listing else job.limit
                return answer(job, await keep_alive.follow(self._url(job.key), limit))

            return LoopRequests(client.loop(), follow, self._concurrency)
        if isinstance(client, UrllibClient):
            urllib_client = client

            def one(job: Job) -> Fetched | Listing:
                limit = _MAX_INDEX_BYTES if job.listing else job.limit
                return answer(job, urllib_client.one(self._url(job.key), limit))

            return PoolRequests(client.pool(), one)
        raise TypeError(f"no requests in flight through {type(client).__name__}")

    def close(self) -> None:
        self._client.close()


def _fetched(key: str, outcome: Outcome, limit: int) -> Fetched:
    if isinstance(outcome, str):
        return Failure(outcome)
    if outcome.status in (403, 404, 410):
        # 403 too: object stores answer it for a missing key when listing is not allowed.
        return None
    if outcome.status != 200:
        return Failure(f"HTTP {outcome.status} {outcome.reason}".rstrip())
    if outcome.over_limit:
        name = key.rsplit("/", 1)[-1]
        return Failure(too_large(name, outcome.size or len(outcome.body), limit))
    return outcome.body


def _index(outcome: Outcome) -> Listing:
    """The subfolders an HTML index links to; None where the server gives no index (the walk
    then probes the named members)."""
    if isinstance(outcome, str) or outcome.status != 200:
        return None  # no index (403, 404 ...): not an error of the store
    kind, charset = outcome.media_type()
    if kind != "text/html":
        return None
    if outcome.over_limit:
        return Failure(f"its HTML index is over {_MAX_INDEX_BYTES} bytes")
    try:
        page = outcome.body.decode(charset or "utf-8", errors="replace")
    except LookupError:  # a charset Python does not know
        page = outcome.body.decode("utf-8", errors="replace")
    return _subfolders(page)


# An index page of 100,000 members is about 10 MB.
_MAX_INDEX_BYTES = 64 * 1024 * 1024


# The links of an HTML page: <a ... href="x/">, the value quoted either way or bare. Read tag
# by tag in one pass: a single pattern over the page (`<a\s[^>]*?href...`) tries every `<a` to
# the end of the page when no `>` closes it, quadratic time (a 200 KB index of `<a <a <a ...`
# held a read for over 40 s).
_TAG = re.compile(r"<a\s", re.IGNORECASE)
_HREF = re.compile(r"""\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))""", re.IGNORECASE)


def _hrefs(page: str) -> Iterator[str]:
    at = 0
    while (start := _TAG.search(page, at)) is not None:
        end = page.find(">", start.end())
        if end == -1:
            return  # no tag closes after here
        found = _HREF.search(page, start.end(), end)
        if found is not None:
            yield next(g for g in found.groups() if g is not None)
        at = end + 1


def _subfolders(page: str) -> list[str]:
    """The names of the subfolders an HTML index links to: relative links ending in `/`, one
    level down (not `./` or `../`, not absolute, no query)."""
    found: dict[str, None] = {}
    for raw in _hrefs(page):
        href = html.unescape(raw)
        if "://" in href or href.startswith(("/", "?", "#", "./", "../")):
            continue
        if not href.endswith("/"):
            continue
        name = urllib.parse.unquote(href[:-1])
        if name and "/" not in name:
            found[name] = None
    return list(found)
