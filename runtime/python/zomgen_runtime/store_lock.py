"""Taking a local store (a folder, or a zip file) exclusively for one `create`.

Two jobs writing one store at once would mix their nodes: one root replaces the other, v2 and v3
files end up side by side. So `create` first takes a lock file: `.zomgen-lock` in a folder store's
root, `<name>.zip.zomgen-lock` beside a zip. The file is held with `flock`, which the system
releases when the process ends however it ends, and it says who took it. A finished `create`
removes it. One that was killed leaves it behind: the next `create` finds it unheld, and reports
that the store may hold part of a hierarchy instead of silently adopting what is there.
"""

from __future__ import annotations

import datetime
import errno
import json
import os
import socket
import sys
from typing import Any

from .values import is_object

# Windows has no flock: there, only the exclusive create of the file guards the store, and a
# lock file left by a killed create is reported as held until it is removed.
if sys.platform != "win32":
    import fcntl

LOCK_NAME = ".zomgen-lock"
_MAX_LOCK_BYTES = 4096


class StoreBusy(Exception):  # a condition the caller reports, not a bug
    """The store cannot be taken: the message says by whom, or what was left."""


class CreateLock:
    """The lock file at `path`, held from `take()` to `release()`."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None
        self.took_over: dict[str, Any] | None = None  # what a killed create left, if taken over

    def take(self, *, overwrite: bool) -> None:
        """Hold the lock, or raise StoreBusy. A lock left by a create that did not finish is
        taken over only with `overwrite` (what it left is then written over)."""
        try:
            self._take(overwrite=overwrite)
        except BaseException:
            # A Ctrl-C may land anywhere here, even just after the lock file was made and
            # before its handle came back: a lock file nobody holds and nothing is written in
            # is this create's, so it goes, and the store is as it was.
            if self._fd is None:
                _remove_if_empty(self.path)
            raise

    def _take(self, *, overwrite: bool) -> None:
        for _attempt in range(10):
            fd = _open_lock(self.path)
            try:
                if not _hold(fd):
                    raise StoreBusy(_busy_message(self.path, _holder(fd)))
                if not _same_file(fd, self.path):
                    continue  # removed by the create that held it while we waited: again
                left = _holder(fd)
                if left is not None and not overwrite:
                    raise StoreBusy(_left_message(self.path, left))
                self.took_over = left
                _stamp(fd)
                self._fd, fd = fd, -1
                return
            finally:
                if fd >= 0:
                    os.close(fd)
        raise StoreBusy(f"{self.path}: the lock file keeps changing; another create is running")

    def release(self, *, keep: bool = False) -> None:
        """Let go of the lock. `keep`: the store was left part-written (a failed undo), so the
        file stays and the next create reports it."""
        if self._fd is None:
            return
        try:
            if not keep:
                os.unlink(self.path)  # while still held: no one can take a removed file
        except FileNotFoundError:
            pass
        finally:
            os.close(self._fd)  # releases the flock
            self._fd = None


def _open_lock(path: str) -> int:
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    if sys.platform == "win32":
        flags |= os.O_EXCL
    try:
        return os.open(path, flags, 0o644)
    except FileExistsError:  # only on Windows: the file is the lock
        raise StoreBusy(_busy_message(path, _read_holder(path))) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise StoreBusy(f"{path}: a symlink where zomgen keeps its lock file") from None
        if exc.errno == errno.EISDIR:
            raise StoreBusy(f"{path}: a folder where zomgen keeps its lock file") from None
        raise


def _hold(fd: int) -> bool:
    if sys.platform == "win32":
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _remove_if_empty(path: str) -> None:
    """Remove the lock file at `path` if it can be held and holds no other create's stamp."""
    try:
        fd = os.open(path, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return
    try:
        holder = _holder(fd) if _hold(fd) else {}
        ours = holder is None or holder.get("pid") == os.getpid()  # empty, or stamped by us
        if ours and _same_file(fd, path):
            os.unlink(path)  # while held: no one can take a removed file
    except OSError:
        pass
    finally:
        os.close(fd)


def _same_file(fd: int, path: str) -> bool:
    """Whether `fd` is still the file at `path` (the holder removes it before letting go)."""
    try:
        here = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (here.st_dev, here.st_ino) == (held.st_dev, held.st_ino)


def _stamp(fd: int) -> None:
    who = {
        "by": "zomgen create",
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "started": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    os.ftruncate(fd, 0)
    os.pwrite(fd, json.dumps(who).encode() + b"\n", 0)


def _holder(fd: int) -> dict[str, Any] | None:
    """Who wrote the lock file, or None when it is empty (a lock just created)."""
    data = os.pread(fd, _MAX_LOCK_BYTES, 0)
    return _parse_holder(data)


def _read_holder(path: str) -> dict[str, Any] | None:
    try:
        with open(path, "rb") as file:
            return _parse_holder(file.read(_MAX_LOCK_BYTES))
    except OSError:
        return None


def _parse_holder(data: bytes) -> dict[str, Any] | None:
    if not data.strip():
        return None
    try:
        holder: object = json.loads(data)
    except ValueError:
        holder = None
    if not is_object(holder):
        return {"by": "an unknown writer"}
    return holder


def _who(holder: dict[str, Any] | None) -> str:
    if holder is None:
        return "another process"
    parts = [str(holder.get("by", "a create"))]
    if "pid" in holder:
        parts.append(f"pid {holder['pid']}")
    if "host" in holder:
        parts.append(f"on {holder['host']}")
    if "started" in holder:
        parts.append(f"since {holder['started']}")
    return " ".join(parts)


def _busy_message(path: str, holder: dict[str, Any] | None) -> str:
    return (
        f"another create is writing this store ({_who(holder)}; lock file {path}); "
        "nothing was written: try again when it has finished"
    )


def _left_message(path: str, holder: dict[str, Any]) -> str:
    return (
        f"a create that did not finish ({_who(holder)}: the process was killed or its "
        f"machine stopped) left its lock file {path}; the store may hold part of a hierarchy "
        "(and zarr's *.partial temporary files). Check it, then pass overwrite=True to write "
        "over what is there, or remove the lock file"
    )
