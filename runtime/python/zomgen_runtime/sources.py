"""Where metadata bytes come from: the small interface the walk reads through, and its local
implementations (a folder, a mapping; a zip file is zip_source.py's).

The walk asks for many keys at once (`read`, `listdir`), so a remote source can keep many requests
in flight while a local one simply loops: on local disk a plain loop is the fastest thing there
is (the files are in the page cache, and threads would only fight over the GIL).

Keys are store keys relative to the store's root: `a/b/zarr.json`; prefixes end with `/` except
the root's, which is "".
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .confinement import LocalRoot
from .jsontext import too_large


@dataclass(frozen=True)
class Failure:
    """A key that exists but could not be read (or a folder that could not be listed)."""

    message: str


# bytes: the key's content; None: no such key; Failure: it is there but unreadable.
Fetched = bytes | Failure | None
# names of the entries below a prefix; None: this source cannot list.
Listing = list[str] | Failure | None


@dataclass(frozen=True, slots=True)
class Job:
    """One request of a walk that keeps many in flight: read the file `key` (up to `limit`
    bytes), or list the folder `key` when `listing`. `tag` is the caller's, given back with
    the answer."""

    tag: int
    key: str
    limit: int
    listing: bool = False


# A job's answer -> the jobs it leads to.
Answered = Callable[[int, Fetched | Listing], Sequence[Job]]


class Requests(Protocol):
    """Jobs in flight, answered in the order they complete (a remote source's `requests()`)."""

    def run(self, jobs: Sequence[Job], answered: Answered) -> None:
        """Every job, and every job an answer leads to, until none is left, a fixed number in
        flight at a time. `answered` gets each job's tag and answer (a Failure where the
        request failed) as it comes, one at a time, in a thread of the requests' own, and
        returns the jobs that answer leads to. When `answered` raises, or the wait is
        interrupted (Ctrl-C), every request is stopped before the exception goes on."""
        ...


class Source(Protocol):
    """What the walk needs from a store. Implementations never write."""

    @property
    def listable(self) -> bool:
        """False for stores that cannot list (plain HTTP): the walk then probes the members
        the convention names."""
        ...

    @property
    def cheap_probes(self) -> bool:
        """True when asking for a missing key costs next to nothing (local disk, zip): the
        walk then probes every metadata name of every node, which finds v2 and v3 metadata
        mixed in one node. Remote stores probe only the hierarchy's own version."""
        ...

    def read(self, keys: Sequence[str], limit: int) -> list[Fetched]: ...

    def exists(self, keys: Sequence[str]) -> list[bool]:
        """Whether each key is there (asked only of sources with cheap probes)."""
        ...

    def listdir(self, prefixes: Sequence[str]) -> list[Listing]: ...

    def requests(self) -> Requests | None:
        """Remote sources: jobs kept in flight, answers taken as they come, so the walk reads a
        group's members as soon as its own metadata arrives. None where a plain loop is
        fastest (local disk, zip, a mapping)."""
        ...

    def close(self) -> None: ...


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
# Not followed when the file itself is a symlink (where the OS can say so): the link is then
# judged by where it leads (DirSource._read_link).
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)

LEAVES_STORE = "a symlink that leads out of the store: zomgen reads nothing outside it"


# Not on Windows: there, `os.path.lexists`.
_ACCESS_WITHOUT_FOLLOWING = os.access in os.supports_follow_symlinks


def _lexists(path: str) -> bool:
    """`os.path.lexists` as one system call: every node of a v3 hierarchy is probed for the
    three v2 files, and `lexists` (an `lstat` and its result object) took twice as long."""
    if _ACCESS_WITHOUT_FOLLOWING:
        return os.access(path, os.F_OK, follow_symlinks=False)
    return os.path.lexists(path)


class DirSource:
    """A folder on local disk, read with plain system calls."""

    listable = True
    cheap_probes = True

    def __init__(self, root: str) -> None:
        self.root = root
        self._base = root if root.endswith(os.sep) else root + os.sep
        # (st_dev, st_ino) of every folder listed so far -> its prefix: a folder reached a
        # second time is a symlink loop (or a link to another node), which would otherwise be
        # walked until the depth limit.
        self._seen: dict[tuple[int, int], str] = {}
        self._inside = LocalRoot(root)  # reads stay inside the store

    def read(self, keys: Sequence[str], limit: int) -> list[Fetched]:
        return [self._read_one(key, limit) for key in keys]

    def _read_one(self, key: str, limit: int) -> Fetched:
        folder = key.rpartition("/")[0]
        if folder and self._inside.leads_out(folder):
            return Failure(LEAVES_STORE)
        path = self._base + key
        try:
            # O_NONBLOCK: a FIFO named zarr.json must not block the loader forever.
            fd = os.open(path, _OPEN_FLAGS | _NOFOLLOW)
        except (FileNotFoundError, NotADirectoryError):
            return None
        except OSError as exc:
            if exc.errno != errno.ELOOP or not os.path.islink(path):
                return _os_failure(exc)
            if self._inside.leads_out(key):
                return Failure(LEAVES_STORE)
            try:  # a link to another file of the store
                fd = os.open(path, _OPEN_FLAGS)
            except (FileNotFoundError, NotADirectoryError):
                return None
            except OSError as again:
                return _os_failure(again)
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                return Failure("is a folder or a special file, not a regular file")
            if info.st_size > limit:
                return Failure(too_large(key.rsplit("/", 1)[-1], info.st_size, limit))
            # One read of the size fstat gave (+1 to see a file that grew since).
            data = os.read(fd, info.st_size + 1)
            while len(data) > info.st_size and len(data) <= limit:
                more = os.read(fd, min(limit + 1 - len(data), 1 << 20))
                if not more:
                    break
                data += more
            if len(data) > limit:
                return Failure(too_large(key.rsplit("/", 1)[-1], len(data), limit))
            return data
        except OSError as exc:
            return _os_failure(exc)
        finally:
            os.close(fd)

    def exists(self, keys: Sequence[str]) -> list[bool]:
        return [_lexists(self._base + key) for key in keys]

    def listdir(self, prefixes: Sequence[str]) -> list[Listing]:
        return [self._list_one(prefix) for prefix in prefixes]

    def _list_one(self, prefix: str) -> Listing:
        folder = os.path.join(self.root, prefix) if prefix else self.root
        parent = prefix.rstrip("/")
        if parent and self._inside.leads_out(parent):
            return Failure(LEAVES_STORE)
        try:
            info = os.stat(folder)
            identity = (info.st_dev, info.st_ino)
            first = self._seen.setdefault(identity, prefix)
            if first != prefix:
                where = "/" + first.rstrip("/")
                return Failure(f"symlink loop: this folder is the folder of {where} again")
            names: list[str] = []
            with os.scandir(folder) as entries:
                for entry in entries:
                    if _is_folder(entry):
                        names.append(entry.name)
                        if not entry.is_symlink():  # known from the listing: no lstat later
                            self._inside.saw_folder(
                                f"{parent}/{entry.name}" if parent else entry.name
                            )
            return names
        except OSError as exc:
            return _os_failure(exc)

    def requests(self) -> None:
        return None

    def close(self) -> None:
        pass


def _is_folder(entry: os.DirEntry[str]) -> bool:
    """A folder, or a symlink that loops: the latter is kept so that reading it reports the
    loop as a problem of that member instead of skipping it in silence."""
    try:
        if entry.is_dir():  # follows symlinks
            return True
    except OSError:  # a link that loops raises ELOOP here instead of answering False
        pass
    if not entry.is_symlink():
        return False
    try:
        os.stat(entry.path)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def _os_failure(exc: OSError) -> Failure:
    if exc.errno == errno.ELOOP:
        return Failure("symlink loop")
    return Failure(exc.strerror or str(exc))


class BufferMapping(Mapping[str, object]):
    """A read-only view of a zarr MemoryStore's dict: each value (a zarr Buffer) as bytes."""

    def __init__(self, buffers: Mapping[str, Any]) -> None:
        self._buffers = buffers

    def __getitem__(self, key: str) -> object:
        value = self._buffers[key]
        to_bytes = getattr(value, "to_bytes", None)
        return to_bytes() if callable(to_bytes) else value

    def __iter__(self) -> Iterator[str]:
        return iter(self._buffers)

    def __len__(self) -> int:
        return len(self._buffers)


class MappingSource:
    """A mapping of store keys to bytes (a dict, or a zarr-v2-style MutableMapping such as
    fsspec's FSMap). Listing scans every key once, so it suits small or in-memory stores."""

    listable = True
    cheap_probes = True

    def __init__(self, mapping: Mapping[str, object]) -> None:
        self._mapping = mapping
        self._folders: dict[str, set[str]] | None = None

    def read(self, keys: Sequence[str], limit: int) -> list[Fetched]:
        return [self._read_one(key, limit) for key in keys]

    def _read_one(self, key: str, limit: int) -> Fetched:
        try:
            value = self._mapping.get(key)
        except Exception as exc:  # noqa: BLE001  # a mapping over a remote store fails in any way
            return Failure(f"{type(exc).__name__}: {exc}")
        if value is None:
            return None
        if isinstance(value, str):
            data = value.encode("utf-8")
        elif isinstance(value, bytes | bytearray):
            data = bytes(value)
        elif isinstance(value, memoryview):
            data = value.tobytes()
        else:
            return Failure(f"holds a {type(value).__name__}, not bytes")
        if len(data) > limit:
            return Failure(too_large(key.rsplit("/", 1)[-1], len(data), limit))
        return data

    def exists(self, keys: Sequence[str]) -> list[bool]:
        return [key in self._mapping for key in keys]

    def listdir(self, prefixes: Sequence[str]) -> list[Listing]:
        if self._folders is None:
            self._folders = {}
            keys: Iterable[object] = self._mapping  # a mapping's keys need not be strings
            for key in keys:
                parts = str(key).split("/")
                for depth in range(len(parts) - 1):
                    prefix = "".join(p + "/" for p in parts[:depth])
                    self._folders.setdefault(prefix, set()).add(parts[depth])
        folders = self._folders
        return [sorted(folders.get(prefix, ())) for prefix in prefixes]

    def requests(self) -> None:
        return None

    def close(self) -> None:
        pass
