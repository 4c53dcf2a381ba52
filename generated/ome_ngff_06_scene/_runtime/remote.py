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
from collections.abc import Collection, Sequence
from typing import Any

from .httpget import Outcome, client_for, describe
from .jsontext import too_large
from .origins import RedirectPolicy
from .sources import Failure, Fetched, Listing

DEFAULT_CONCURRENCY = 64


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
        from zarr.core.buffer import default_buffer_prototype

        prototype = default_buffer_prototype()
        store = self._store

        async def one(key: str, gate: asyncio.Semaphore) -> Fetched:
            async with gate:
                try:
                    buffer = await store.get(key, prototype=prototype)
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

        async def every() -> list[Fetched]:
            await ensure_open(store)
            gate = asyncio.Semaphore(self._concurrency)
            return list(await asyncio.gather(*(one(k, gate) for k in keys)))

        result: list[Fetched] = self._run(every()) if keys else []
        return result

    def exists(self, keys: Sequence[str]) -> list[bool]:
        return [r is not None for r in self.read(keys, 1 << 62)]

    def listdir(self, prefixes: Sequence[str]) -> list[Listing]:
        if not self.listable:
            return [None for _ in prefixes]
        store = self._store

        async def one(prefix: str, gate: asyncio.Semaphore) -> Listing:
            async with gate:
                try:
                    names = [name async for name in store.list_dir(prefix.rstrip("/"))]
                except Exception as exc:  # noqa: BLE001  # listing refused: use the named members
                    return Failure(describe(exc))
            return list(dict.fromkeys(n.rstrip("/") for n in names))

        async def every() -> list[Listing]:
            await ensure_open(store)
            gate = asyncio.Semaphore(self._concurrency)
            return list(await asyncio.gather(*(one(p, gate) for p in prefixes)))

        result: list[Listing] = self._run(every()) if prefixes else []
        return result

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


# The links of an HTML page: <a ... href="x/">, the value quoted either way or bare.
_HREF = re.compile(r"""<a\s[^>]*?\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))""", re.IGNORECASE)


def _subfolders(page: str) -> list[str]:
    """The names of the subfolders an HTML index links to: relative links ending in `/`, one
    level down (not `./` or `../`, not absolute, no query)."""
    found: dict[str, None] = {}
    for match in _HREF.finditer(page):
        href = html.unescape(next(g for g in match.groups() if g is not None))
        if "://" in href or href.startswith(("/", "?", "#", "./", "../")):
            continue
        if not href.endswith("/"):
            continue
        name = urllib.parse.unquote(href[:-1])
        if name and "/" not in name:
            found[name] = None
    return list(found)
