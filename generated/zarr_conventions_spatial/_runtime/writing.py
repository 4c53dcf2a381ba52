"""Writing a ZOM document's metadata into a store through zarr's store API (`exists`, `set`,
`delete`): groups and empty arrays, no chunk data.

Each node's files are exactly its document (v3: zarr.json minus `members`; v2: `.zgroup` /
`.zarray` plus `.zattrs`), so reading the store back gives the same document. Existing nodes are
never clobbered by accident: unless `overwrite=True`, any node already present is reported and
NOTHING is written, so a failed `create` leaves the store as it was.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import urllib.parse
import urllib.request
from collections.abc import Coroutine, MutableMapping
from typing import Any, TypeGuard

from .confinement import LocalRoot
from .folder_writes import FolderFiles
from .opening import as_text, nul_in_path, split_path, url_scheme
from .pointers import node_path
from .problems import Problem, StoreError
from .reading import (
    METADATA_NAMES,
    V3,
    ZARRAY,
    ZATTRS,
    ZGROUP,
    ZMETADATA,
    forbidden_name,
)
from .remote import DEFAULT_CONCURRENCY, ensure_open
from .store_lock import LOCK_NAME, CreateLock, StoreBusy
from .values import is_object
from .zip_rewrite import ZipRewrite

_NODE_FILES = (V3, ZARRAY, ZGROUP)
_CANCEL_WAIT = 30.0  # seconds an interrupted batch may take to stop (one request's time-out)


def _problem(path: str, message: str) -> Problem:
    return Problem(path, "", message, "write")


def _files(names: tuple[str, ...], node: Any, problems: list[Problem]) -> dict[str, bytes]:
    """One node's metadata files, encoded; {} (problems noted) when it cannot be written."""
    path = node_path(names)
    if not is_object(node):
        problems.append(_problem(path, f"a node must be an object, not a {type(node).__name__}"))
        return {}
    meta = {k: v for k, v in node.items() if k != "members"}
    if node.get("zarr_format") == 3:
        files: dict[str, Any] = {V3: meta}
    elif node.get("zarr_format") == 2:
        attributes = meta.pop("attributes", {})
        files = {ZARRAY if "shape" in meta else ZGROUP: meta, ZATTRS: attributes}
    else:
        problems.append(_problem(path, "zarr_format must be 2 or 3 to know what to write"))
        return {}
    encoded: dict[str, bytes] = {}
    for name, content in files.items():
        try:
            text = json.dumps(content, indent=2, ensure_ascii=False, allow_nan=False)
        except ValueError:
            problems.append(_problem(path, f"{name}: NaN or Infinity cannot be written as JSON"))
            return {}
        except (TypeError, RecursionError) as exc:
            problems.append(_problem(path, f"{name}: not JSON-serialisable: {exc}"))
            return {}
        encoded[name] = text.encode("utf-8")
    return encoded


def _flatten(document: Any) -> tuple[list[tuple[tuple[str, ...], dict[str, bytes]]], list[Problem]]:
    nodes: list[tuple[tuple[str, ...], dict[str, bytes]]] = []
    problems: list[Problem] = []
    stack: list[tuple[tuple[str, ...], Any]] = [((), document)]
    while stack:
        names, node = stack.pop()
        files = _files(names, node, problems)
        if files:
            nodes.append((names, files))
        members = node.get("members") if is_object(node) else None
        if is_object(members):
            # A document built in Python may have keys that are not strings.
            items: list[tuple[object, Any]] = list(members.items())
            for key, member in reversed(items):
                name = str(key)
                reason = forbidden_name(name) or _unwritable(name)
                if reason is not None or name in METADATA_NAMES:
                    why = reason or "it is a metadata file name"
                    problems.append(_problem(node_path((*names, name)), why))
                    continue
                stack.append(((*names, name), member))
    return nodes, problems


def _unwritable(name: str) -> str | None:
    if "\x00" in name:
        return "a name cannot hold a NUL character (no file system holds it)"
    return None


def _prefix(names: tuple[str, ...] | list[str]) -> str:
    return "".join(n + "/" for n in names)


class _Target:
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
                os.makedirs(folder)
                self.made_folder = folder
            self.lock.take(overwrite=overwrite)
        except StoreBusy as busy:
            raise _unusable(str(busy)) from None
        except OSError as exc:
            message = f"{self.lock.path}: cannot take the store's lock: {exc.strerror or exc}"
            raise _unusable(message) from None

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


def _unusable(message: str) -> StoreError:
    return StoreError([_problem("/", message)])


def _is_mapping(value: object) -> TypeGuard[MutableMapping[str, Any]]:
    return isinstance(value, MutableMapping)


def _open_target(store: object) -> tuple[_Target, list[str]]:
    """(writable target, names of its own path inside the store)."""
    text = as_text(store)
    if text is None and _is_mapping(store) and not hasattr(store, "store_path"):
        return _Target(store, store), []
    import zarr.storage
    from zarr.abc.store import Store

    if text is not None:
        store = text
        scheme = url_scheme(store)
        if nul := nul_in_path(store):
            raise _unusable(nul)
        try:
            if scheme == "file":
                local = urllib.request.url2pathname(urllib.parse.urlsplit(store).path)
                return _local_target(zarr.storage.LocalStore(local)), []
            if scheme:
                return _Target(zarr.storage.FsspecStore.from_url(store)), []
            if store.endswith(".zip"):
                return _zip_target(store), []
            return _local_target(zarr.storage.LocalStore(store)), []
        except StoreError:
            raise
        except Exception as exc:  # noqa: BLE001  # fsspec and the OS raise many kinds
            raise _unusable(f"{store}: cannot open for writing: {exc}") from None
    store_path = getattr(store, "store_path", None)
    if store_path is not None and isinstance(getattr(store_path, "store", None), Store):
        return _local_target(store_path.store), split_path(str(store_path.path))
    if isinstance(store, Store):
        return _local_target(store), []
    raise _unusable(f"not a store: a {type(store).__name__}")


def _local_target(store: Any) -> _Target:
    """A target for `store`, with its LocalRoot and lock when it is a folder on local disk."""
    import zarr.storage

    if isinstance(store, zarr.storage.LocalStore):
        # Written with plain system calls, not through zarr (folder_writes.py says why).
        root = os.path.abspath(os.fsdecode(store.root))
        lock = CreateLock(os.path.join(root, LOCK_NAME))
        return _Target(store, FolderFiles(root), local=LocalRoot(root), lock=lock)
    return _Target(store)


def _zip_target(path: str) -> _Target:
    """A zip file (new or not), rewritten whole and swapped in; refused when it exists and is
    not a zip (zarr's ZipStore appended a zip to such a file)."""
    import zipfile

    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise _unusable(f"{path}: cannot open for writing: no such folder {folder}")
    if os.path.lexists(path) and not (os.path.isfile(path) and zipfile.is_zipfile(path)):
        raise _unusable(f"{path}: exists and is not a zip file; zomgen will not write into it")
    try:
        rewrite = ZipRewrite(path)
    except (zipfile.BadZipFile, OSError, NotImplementedError, ValueError, EOFError) as exc:
        raise _unusable(f"{path}: unreadable zip file: {exc}") from None
    return _Target(rewrite, rewrite, lock=CreateLock(path + LOCK_NAME))


def _local_problems(local: LocalRoot, keys: dict[tuple[str, ...], list[str]]) -> list[Problem]:
    """Nodes whose files a local folder cannot take: a name past the file system's limit, a
    path through a symlink that leads out of the store."""
    problems: list[Problem] = []
    for names, node_keys in keys.items():
        long = local.too_long(names[-1:])
        if long is not None:
            message = (
                f"the name is {len(os.fsencode(long))} bytes long; this file system holds at "
                f"most {local.name_max}"
            )
            problems.append(_problem(node_path(names), message))
        elif any(local.leads_out(key) for key in node_keys):
            message = "a symlink here leads out of the store: zomgen writes nothing outside it"
            problems.append(_problem(node_path(names), message))
    return problems


def write_document(
    document: dict[str, Any], store: object, path: str = "", *, overwrite: bool = False
) -> list[Problem]:
    """Write the metadata of every node of `document` at `path` of `store`. Returns the
    problems ([] when written); existing nodes are problems unless `overwrite=True`, and then
    nothing at all is written. Raises StoreError when the store cannot be written."""
    nodes, problems = _flatten(document)
    if problems:
        return problems
    target, inner = _open_target(store)
    try:
        if getattr(target.store, "read_only", False):
            raise _unusable("the store is read-only")
        base = _prefix(inner + split_path(path))
        if target.local is not None:
            problems = _local_problems(
                target.local,
                {names: [base + _prefix(names) + n for n in files] for names, files in nodes},
            )
            if problems:
                return problems
        # Before looking at what exists: the check and the write must be one step for others.
        target.take(overwrite=overwrite)
        probe = [
            base + _prefix(names) + name
            for names, _files in nodes
            for name in (*_NODE_FILES, ZATTRS)
        ]
        root_consolidated = base + ZMETADATA
        found = dict(zip([*probe, root_consolidated], target.exists([*probe, root_consolidated])))
        writes: dict[str, bytes] = {}
        deletes: list[str] = []
        for names, files in nodes:
            prefix = base + _prefix(names)
            # a stray .zattrs counts: without overwrite, no existing file is replaced
            present = [n for n in (*_NODE_FILES, ZATTRS) if found[prefix + n]]
            if present and not overwrite:
                message = (
                    f"a node already exists here ({', '.join(present)}); "
                    "pass overwrite=True to replace its metadata"
                )
                problems.append(_problem(node_path(names), message))
            writes.update({prefix + n: data for n, data in files.items()})
            # Overwriting: metadata of the other kind or version would make a mixed node.
            deletes += [prefix + n for n in (*_NODE_FILES, ZATTRS) if found[prefix + n]]
        if found[root_consolidated] and not overwrite:
            # GDAL writes v2 stores that hold only this file: it is the hierarchy.
            message = (
                "the store has consolidated metadata (.zmetadata) describing a hierarchy; "
                "pass overwrite=True to replace it"
            )
            problems.append(_problem("/", message))
        if problems:
            return problems
        if found[root_consolidated]:
            deletes.append(root_consolidated)  # it would describe the old hierarchy
        changes: dict[str, bytes | None] = {k: None for k in deletes if k not in writes}
        changes.update(writes)
        _write_whole(target, changes, [k for k in changes if found.get(k)])
        return []
    finally:
        target.close()
        target.release()


def _write_whole(target: _Target, changes: dict[str, bytes | None], existing: list[str]) -> None:
    """Apply `changes`, or, if the store fails (or the write is interrupted) part way, put back
    every key as it was before: a `create` is whole or not at all."""
    if target.atomic:
        try:
            target.write(changes)
        except Exception as exc:  # noqa: BLE001  # the OS and zipfile raise many kinds
            raise _unusable(
                f"writing failed ({type(exc).__name__}: {exc}); the zip is as it was"
            ) from None
        return
    before = target.read(existing) if existing else {}
    try:
        target.write(changes)
    except BaseException as exc:
        undo: dict[str, Any] = {k: before.get(k) for k in changes}
        outcome = "what was written was undone"
        try:
            target.write(undo)
        except BaseException:  # noqa: BLE001  # the store itself is failing: report the first error
            target.consistent = False  # the lock file stays: the next create reports it
            outcome = "undoing it failed too: the store may hold part of the hierarchy"
        if isinstance(exc, Exception):
            raise _unusable(
                f"writing failed part way ({type(exc).__name__}: {exc}); {outcome}"
            ) from None
        raise
