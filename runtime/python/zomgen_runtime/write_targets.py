"""The store a `create` writes into: a zarr Store, a plain mapping, a local folder or a zip,
opened for writing (`open_target`) and driven through one interface (`Target`): which keys
exist, what they hold, set and delete them, one `create` at a time.
"""

from __future__ import annotations

import asyncio
import os
import threading
import urllib.parse
import urllib.request
from collections.abc import Coroutine, MutableMapping
from typing import Any, TypeGuard

from .confinement import LocalRoot
from .document_files import write_problem
from .folder_writes import FolderFiles
from .opening import as_text, nul_in_path, split_path, url_scheme
from .problems import StoreError
from .remote import DEFAULT_CONCURRENCY, ensure_open
from .store_lock import LOCK_NAME, CreateLock, StoreBusy
from .zip_rewrite import ZipRewrite

_CANCEL_WAIT = 30.0  # seconds an interrupted batch may take to stop (one request's time-out)


class Target:
    """A writable store: a zarr Store (driven on zarr's event loop), or keys set and removed in
    the caller's thread: a plain mapping, a local folder (`FolderFiles`), or a zip
    (`ZipRewrite`, written out whole on `write`)."""

    def __init__(
        self,
        store: Any,
        mapping: MutableMapping[str, Any] | ZipRewrite | FolderFiles | None = None,
        local: LocalRoot | None = None,
        lock: CreateLock | None = None,
    ) -> None:
        self.store = store
        self.mapping = mapping
        self.local = local  # a folder on local disk: checked for symlinks and name lengths
        self.lock = lock  # a local folder or zip: taken by one create at a time
        self.made_folder: str | None = None  # the store folder, if taking the lock made it
        self.consistent = True  # False when a failed write could not be undone

    @property
    def atomic(self) -> bool:
        """Whether a write lands whole or not at all (no undo needed)."""
        return isinstance(self.mapping, ZipRewrite)

    def take(self, *, overwrite: bool) -> None:
        """Take the store's lock, making its folder if needed. Raises StoreError."""
        if self.lock is None:
            return
        folder = os.path.dirname(self.lock.path)
        try:
            if not os.path.isdir(folder):
                self.made_folder = folder  # noted first: a Ctrl-C just after would leave it
                try:
                    os.makedirs(folder)
                except FileExistsError:
                    self.made_folder = None  # made by a create racing this one: the lock decides
            self.lock.take(overwrite=overwrite)
        except StoreBusy as busy:
            raise unusable(str(busy)) from None
        except OSError as exc:
            message = f"{self.lock.path}: cannot take the store's lock: {exc.strerror or exc}"
            raise unusable(message) from None

    def release(self) -> None:
        """Let go of the lock; remove the store folder taking it made if nothing went in."""
        if self.lock is not None:
            self.lock.release(keep=not self.consistent)
        if self.made_folder is not None:
            try:
                os.rmdir(self.made_folder)  # only when empty: never a user's file
            except OSError:
                pass

    def _run(self, make: list[Coroutine[Any, Any, Any]]) -> list[Any]:
        """Run the jobs on zarr's event loop (another thread). If the wait is interrupted
        (Ctrl-C, KeyboardInterrupt in Jupyter), the jobs are cancelled and waited for before
        the exception goes on: no write may land after the caller has undone the batch."""
        from zarr.core.sync import sync

        if not make:
            return []
        running: list[tuple[asyncio.AbstractEventLoop, asyncio.Task[Any]]] = []
        stopped, interrupted = threading.Event(), threading.Event()

        async def every() -> list[Any]:
            task = asyncio.current_task()
            if task is not None:
                running.append((asyncio.get_running_loop(), task))
            try:
                if interrupted.is_set():  # interrupted before this started on the loop
                    raise asyncio.CancelledError
                await ensure_open(self.store)
                gate = asyncio.Semaphore(DEFAULT_CONCURRENCY)

                async def one(job: Coroutine[Any, Any, Any]) -> Any:
                    async with gate:
                        return await job

                # A TaskGroup, not gather: when one write fails, the others are cancelled
                # and waited for before the failure is reported.
                try:
                    async with asyncio.TaskGroup() as group:
                        tasks = [group.create_task(one(j)) for j in make]
                except BaseExceptionGroup as failed:
                    raise failed.exceptions[0] from None
                return [t.result() for t in tasks]
            finally:
                stopped.set()

        try:
            result: list[Any] = sync(every())
        except BaseException:
            interrupted.set()
            for loop, task in running:
                loop.call_soon_threadsafe(task.cancel)
            # Nothing in `running`: the batch had not started, and now never writes.
            if not running or stopped.wait(_CANCEL_WAIT):
                for job in make:
                    job.close()  # jobs never started: no "never awaited" warning
            raise
        return result

    def exists(self, keys: list[str]) -> list[bool]:
        if self.mapping is not None:
            return [k in self.mapping for k in keys]
        return [bool(x) for x in self._run([self.store.exists(k) for k in keys])]

    def keys_below(self, prefix: str) -> list[str]:
        """The keys the store holds under `prefix` (a node's folder, `a/b/`)."""
        if isinstance(self.mapping, (FolderFiles, ZipRewrite)):
            return self.mapping.keys_below(prefix)
        if self.mapping is not None:
            keys: list[object] = list(self.mapping)  # a user's mapping may hold any keys
            return [key for key in keys if isinstance(key, str) and key.startswith(prefix)]

        async def listed() -> list[str]:
            return [key async for key in self.store.list_prefix(prefix)]

        (found,) = self._run([listed()])
        return [str(key) for key in found]

    def read(self, keys: list[str]) -> dict[str, Any]:
        """What `keys` hold now (None where absent): what a rollback puts back."""
        if self.mapping is not None:
            return {k: self.mapping.get(k) for k in keys}
        from zarr.core.buffer import default_buffer_prototype

        prototype = default_buffer_prototype()
        found = self._run([self.store.get(k, prototype=prototype) for k in keys])
        return {k: None if b is None else b.to_bytes() for k, b in zip(keys, found, strict=True)}

    def write(self, files: dict[str, Any]) -> None:
        """Set (bytes) or delete (None) each key: deletions first, then the deepest nodes'
        files first, so the node at the top appears last and an interrupted write leaves no
        hierarchy whose root is there without its members."""
        deletes = [k for k, v in files.items() if v is None]
        depths = sorted({k.count("/") for k, v in files.items() if v is not None}, reverse=True)
        layers = [
            {k: v for k, v in files.items() if v is not None and k.count("/") == depth}
            for depth in depths
        ]
        if self.mapping is not None:
            for key in deletes:
                if isinstance(self.mapping, MutableMapping):
                    self.mapping.pop(key, None)
                else:
                    self.mapping.remove(key)
            for layer in layers:
                for key, data in layer.items():
                    self.mapping[key] = data
            if isinstance(self.mapping, ZipRewrite):
                self.mapping.commit()
            return
        from zarr.core.buffer import default_buffer_prototype

        buffer = default_buffer_prototype().buffer
        self._run([self.store.delete(k) for k in deletes])
        for layer in layers:
            self._run([self.store.set(k, buffer.from_bytes(v)) for k, v in layer.items()])

    def close(self) -> None:
        if isinstance(self.mapping, ZipRewrite):
            self.mapping.close()


def unusable(message: str) -> StoreError:
    """The store cannot be written at all: a StoreError of the root."""
    return StoreError([write_problem("/", message)])


def _is_mapping(value: object) -> TypeGuard[MutableMapping[str, Any]]:
    return isinstance(value, MutableMapping)


def open_target(store: object) -> tuple[Target, list[str]]:
    """(writable target, names of its own path inside the store)."""
    text = as_text(store)
    if text is None and _is_mapping(store) and not hasattr(store, "store_path"):
        return Target(store, store), []
    import zarr.storage
    from zarr.abc.store import Store

    if text is not None:
        store = text
        scheme = url_scheme(store)
        if nul := nul_in_path(store):
            raise unusable(nul)
        try:
            if scheme == "file":
                local = urllib.request.url2pathname(urllib.parse.urlsplit(store).path)
                return _local_target(zarr.storage.LocalStore(local)), []
            if scheme:
                return Target(zarr.storage.FsspecStore.from_url(store)), []
            if store.endswith(".zip"):
                return _zip_target(store), []
            return _local_target(zarr.storage.LocalStore(store)), []
        except StoreError:
            raise
        except Exception as exc:  # noqa: BLE001  # fsspec and the OS raise many kinds
            raise unusable(f"{store}: cannot open for writing: {exc}") from None
    store_path = getattr(store, "store_path", None)
    if store_path is not None and isinstance(getattr(store_path, "store", None), Store):
        return _local_target(store_path.store), split_path(str(store_path.path))
    if isinstance(store, Store):
        return _local_target(store), []
    raise unusable(f"not a store: a {type(store).__name__}")


def _local_target(store: Any) -> Target:
    """A target for `store`, with its LocalRoot and lock when it is a folder on local disk."""
    import zarr.storage

    if isinstance(store, zarr.storage.LocalStore):
        # Written with plain system calls, not through zarr (folder_writes.py says why).
        root = os.path.abspath(os.fsdecode(store.root))
        lock = CreateLock(os.path.join(root, LOCK_NAME))
        return Target(store, FolderFiles(root), local=LocalRoot(root), lock=lock)
    return Target(store)


def _zip_target(path: str) -> Target:
    """A zip file (new or not), rewritten whole and swapped in; refused when it exists and is
    not a zip (zarr's ZipStore appended a zip to such a file)."""
    import zipfile

    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise unusable(f"{path}: cannot open for writing: no such folder {folder}")
    if os.path.lexists(path) and not (os.path.isfile(path) and zipfile.is_zipfile(path)):
        raise unusable(f"{path}: exists and is not a zip file; zomgen will not write into it")
    try:
        rewrite = ZipRewrite(path)
    except (zipfile.BadZipFile, OSError, NotImplementedError, ValueError, EOFError) as exc:
        raise unusable(f"{path}: unreadable zip file: {exc}") from None
    return Target(rewrite, rewrite, lock=CreateLock(path + LOCK_NAME))
