"""The `store` argument -> a `Source` to read from, and the key prefix of the requested node.

Accepted: a local folder or zip file (path or `file://` URL), an `http(s)://` URL (listed
through HTML indexes where the server gives them), any other URL fsspec understands
(`memory://`, `s3://`, ...), a zarr store object, a zarr group or array (its store and path), or
a mapping of keys to bytes. zarr is imported only when the argument needs it, so reading a local
folder does not pay for `import zarr`.
"""

from __future__ import annotations

import importlib
import os
import sys
import urllib.parse
from collections.abc import Collection, Mapping
from typing import Any, cast

from .problems import Problem, StoreError
from .sources import BufferMapping, DirSource, MappingSource, Source


def _unusable(message: str) -> StoreError:
    return StoreError([Problem("/", "", message, "read")])


def nul_in_path(path: str) -> str | None:
    """The message for a store path that holds a NUL (no file system holds one), or None."""
    return f"{path!r}: a path cannot hold a NUL character" if "\x00" in path else None


def split_path(path: str) -> list[str]:
    """A node path inside the store (`labels/cells`, `/labels/cells/`) -> member names."""
    if "\x00" in path:
        raise _unusable(f"path {path!r} is not a node path: it holds a NUL character")
    names = [n for n in path.strip("/").split("/")] if path.strip("/") else []
    for name in names:
        if name in ("", ".", ".."):
            raise _unusable(
                f"path {path!r} is not a node path: it holds an empty, '.' or '..' part"
            )
    return names


def as_text(store: object) -> str | None:
    """A path or URL given as str, bytes or os.PathLike -> str; anything else -> None."""
    if isinstance(store, str):
        return store
    if isinstance(store, (bytes, os.PathLike)):
        return os.fsdecode(cast(Any, store))
    return None


def _prefix(names: list[str]) -> str:
    return "".join(n + "/" for n in names)


def open_source(
    store: object, path: str = "", allow_redirects_to: Collection[str] = ()
) -> tuple[Source, str]:
    """(source, prefix of the node at `path`); StoreError when there is nothing to read.
    `allow_redirects_to`: origins besides an HTTP store's own its redirects may lead to."""
    names = split_path(path)
    text = as_text(store)
    if text is not None:
        source, inside = _from_string(text, allow_redirects_to)
        return source, inside + _prefix(names)
    store_path = getattr(store, "store_path", None)
    if store_path is not None and hasattr(store_path, "store"):
        # a zarr Group / Array / AsyncGroup: read its store below its own path
        inner = split_path(str(getattr(store_path, "path", "")))
        return _from_store_object(store_path.store), _prefix(inner + names)
    if _is_zarr_store(store):
        return _from_store_object(store), _prefix(names)
    if isinstance(store, Mapping):
        mapping: Mapping[str, object] = cast("Mapping[str, object]", store)
        return MappingSource(mapping), _prefix(names)
    raise _unusable(
        f"not a store: a {type(store).__name__} (expected a path, a URL, a zarr store or group)"
    )


def url_scheme(text: str) -> str:
    """The scheme of a URL ("" for a path); StoreError for a URL that does not parse (a broken
    `[IPv6]` host, a port that is not a number from 0 to 65535)."""
    if "://" not in text:
        return ""
    try:
        parts = urllib.parse.urlsplit(text)
        _port = parts.port  # parsed on access
    except ValueError as exc:
        raise _unusable(f"{text}: not a URL: {exc}") from None
    scheme = parts.scheme.lower()
    if scheme in ("http", "https") and not parts.hostname:
        raise _unusable(f"{text}: not a URL: it names no host")
    return scheme


def _from_string(text: str, allow_redirects_to: Collection[str]) -> tuple[Source, str]:
    """(source, the prefix of the store's root in it: "" but in a zip of the store's folder)."""
    scheme = url_scheme(text)
    if scheme == "file":
        # imported here: urllib.request imports http.client, email and ssl
        from urllib.request import url2pathname

        return _local(url2pathname(urllib.parse.urlsplit(text).path))
    if scheme in ("http", "https"):
        # imported here: remote stores only need asyncio, urllib.request, threads
        from .remote import HttpSource

        try:
            return HttpSource(text, allow_redirects_to=allow_redirects_to), ""
        except ValueError as exc:  # an allowed origin that is not one
            raise _unusable(f"allow_redirects_to: {exc}") from None
    if scheme or "::" in text:
        return _fsspec(text), ""
    return _local(text)


def _local(path: str) -> tuple[Source, str]:
    if nul := nul_in_path(path):
        raise _unusable(nul)
    if os.path.isdir(path):
        return DirSource(os.path.abspath(path)), ""
    if os.path.isfile(path):
        import zipfile  # here: a folder store does not need it

        from .zip_source import ZipSource

        if zipfile.is_zipfile(path):
            try:
                source = ZipSource(path)
            except (zipfile.BadZipFile, OSError, NotImplementedError, ValueError, EOFError) as exc:
                # NotImplementedError: a zip version zipfile does not read; ValueError: a name
                # that is not UTF-8 although flagged so
                raise _unusable(f"{path}: unreadable zip file: {exc}") from None
            # a zip of the store's folder holds the store one folder down
            return source, source.store_prefix()
        raise _unusable(f"{path}: not a Zarr store (a file that is not a zip file)")
    if os.path.lexists(path):
        raise _unusable(f"{path}: not a folder or a file (a dangling or looping symlink?)")
    raise _unusable(f"{path}: no such file or folder")


def _fsspec(url: str) -> Source:
    try:
        if "::" in url:
            # A chained URL (`simplecache::http://...`): zarr's FsspecStore runs the inner file
            # system on its own event loop, where aiohttp refuses to work ("Timeout context
            # manager should be used inside a task"). fsspec's own mapping over the chain, run
            # synchronously by fsspec, reads it.
            fsspec: Any = importlib.import_module("fsspec")  # zarr's dependency, untyped
            return MappingSource(fsspec.get_mapper(url))
        from zarr.storage import FsspecStore

        from .remote import ZarrStoreSource

        return ZarrStoreSource(FsspecStore.from_url(url, read_only=True))
    except ImportError as exc:
        raise _unusable(f"{url}: cannot open this URL: {exc}") from None
    except Exception as exc:  # noqa: BLE001  # fsspec raises many kinds for a bad URL
        raise _unusable(f"{url}: cannot open: {type(exc).__name__}: {exc}") from None


def _is_zarr_store(obj: object) -> bool:
    abc = sys.modules.get("zarr.abc.store")  # loaded whenever a zarr store object exists
    store_class: Any = getattr(abc, "Store", None) if abc is not None else None
    return store_class is not None and isinstance(obj, store_class)


def _from_store_object(store: Any) -> Source:
    storage = sys.modules.get("zarr.storage")
    local_class: Any = getattr(storage, "LocalStore", None) if storage is not None else None
    if local_class is not None and isinstance(store, local_class):
        # The same files, read with plain system calls: zarr's LocalStore sends each read to a
        # thread, which costs more than the read itself.
        root = os.fsdecode(store.root)
        if not os.path.isdir(root):
            raise _unusable(f"{root}: no such folder")
        return DirSource(os.path.abspath(root))
    memory_class: Any = getattr(storage, "MemoryStore", None) if storage is not None else None
    contents = getattr(store, "_store_dict", None)
    if memory_class is not None and type(store) is memory_class and isinstance(contents, Mapping):
        # zarr's MemoryStore keeps a dict of buffers: read in place, as its own `get` does,
        # because through the async API every read is a coroutine on zarr's event loop, which
        # cost seven times the read (benchmarks/suite.py, `memory`). Only MemoryStore itself:
        # a subclass or a wrapper may answer otherwise than its dict says.
        return MappingSource(BufferMapping(cast("Mapping[str, Any]", contents)))
    if _is_zarr_store(store):
        from .remote import ZarrStoreSource

        return ZarrStoreSource(store)
    if isinstance(store, Mapping):
        return MappingSource(cast("Mapping[str, object]", store))
    raise _unusable(f"not a store: a {type(store).__name__}")
