"""Writing metadata files into a local store folder with plain system calls, in the caller's
thread.

zarr's LocalStore writes each file in a worker thread (`asyncio.to_thread`): cancelling the task
that waits for it does not stop the thread, so after a failed or interrupted `create` had undone
its writes, a write still running landed (1 in 4 runs of the full-disk test left a member's
`zarr.json` behind). Written here, a write has either happened or not when the undo starts.
Each file goes to a temporary name beside it and is renamed into place, so a reader (or a
killed process) never sees half a file; folders made for a write are removed again when an
undo leaves them empty.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from typing import Any

# Written by folder handles where the system has them (`openat` and friends: Linux, macOS):
# each name opened without following a link (`_open_folder`). Elsewhere (Windows), by path, as
# checked before the write (confinement.py).
_BY_HANDLE = (
    os.open in os.supports_dir_fd
    and os.mkdir in os.supports_dir_fd
    and os.unlink in os.supports_dir_fd
    and os.rename in os.supports_dir_fd  # renameat: on POSIX, rename replaces as replace does
    and hasattr(os, "O_NOFOLLOW")
    and hasattr(os, "O_DIRECTORY")
)
_FOLDER = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


def _in(folder: int | None) -> dict[str, Any]:
    return {} if folder is None else {"dir_fd": folder}


def _between(folder: int | None) -> dict[str, Any]:
    return {} if folder is None else {"src_dir_fd": folder, "dst_dir_fd": folder}


class FolderFiles:
    """The files below `root`, read, set and removed by key (`a/b/zarr.json`) as in a dict."""

    def __init__(self, root: str) -> None:
        self.root = root
        self._made: set[str] = set()  # folders this writer created

    def _path(self, key: str) -> str:
        return os.path.join(self.root, *key.split("/"))

    def __contains__(self, key: str) -> bool:
        return os.path.lexists(self._path(key))  # a folder or a link there counts as taken

    def get(self, key: str) -> bytes | None:
        try:
            with open(self._path(key), "rb") as file:
                return file.read()
        except (FileNotFoundError, NotADirectoryError):
            return None

    def keys_below(self, prefix: str) -> list[str]:
        """Every file's key under the folder of `prefix` (`a/b/`), links to folders not
        followed: what a node written over held."""
        top = self._path(prefix.rstrip("/")) if prefix else self.root
        found: list[str] = []
        for folder, _folders, files in os.walk(top, followlinks=False):
            relative = os.path.relpath(folder, self.root).replace(os.sep, "/")
            head = "" if relative == "." else relative + "/"
            found += [head + name for name in files]
        return found

    def __setitem__(self, key: str, value: bytes) -> None:
        *folders, name = key.split("/")
        if not _BY_HANDLE:
            self._make_folders(os.path.dirname(self._path(key)))
        at = self._open_folder(folders, make=True) if _BY_HANDLE else None
        place = "" if at is not None else os.path.dirname(self._path(key))
        temporary = os.path.join(place, f"{name}.{secrets.token_hex(6)}.zomgen-partial")
        try:
            # From before the file exists: a Ctrl-C between making it and the next line would
            # leave it behind.
            try:
                fd = os.open(temporary, _NEW_FILE, 0o666, **_in(at))
                with os.fdopen(fd, "wb") as file:
                    file.write(value)
                move = os.replace if at is None else os.rename  # rename takes the handles
                move(temporary, os.path.join(place, name), **_between(at))
            except BaseException:
                with contextlib.suppress(FileNotFoundError):  # not made yet, or renamed already
                    os.unlink(temporary, **_in(at))
                raise
        finally:
            if at is not None:
                os.close(at)

    def remove(self, key: str) -> None:
        """Remove the file at `key`, if there is one."""
        *folders, name = key.split("/")
        path = self._path(key)
        try:
            if _BY_HANDLE:
                at = self._open_folder(folders, make=False)
                try:
                    os.unlink(name, dir_fd=at)
                finally:
                    os.close(at)
            else:
                os.unlink(path)
        except (FileNotFoundError, NotADirectoryError):
            pass  # a write that failed: its folders may be there all the same
        self._prune(os.path.dirname(path))

    def _open_folder(self, names: list[str], *, make: bool) -> int:
        """A handle on the folder `names` below the root, opened one name at a time without
        following a link: a folder swapped for a symlink while the write runs (another process
        racing it) cannot lead the write out of the store. A link the store itself holds, to
        another place inside it, is followed: by its real path, checked to be inside, and
        opened again name by name. With `make`, missing folders are made (and noted)."""
        try:
            return self._walk(self.root, names, make=make)
        except OSError as exc:
            if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                raise
        real_root = os.path.realpath(self.root)
        real = os.path.realpath(os.path.join(self.root, *names))
        if os.path.commonpath([real_root, real]) != real_root:
            raise OSError(
                errno.ELOOP,
                "a symlink leading out of the store appeared during the write; "
                "zomgen writes nothing outside the store",
                "/".join(names),
            )
        inside = os.path.relpath(real, real_root)
        return self._walk(real_root, [] if inside == "." else inside.split(os.sep), make=make)

    def _walk(self, root: str, names: list[str], *, make: bool) -> int:
        at = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
        path = root
        try:
            for name in names:
                path = os.path.join(path, name)
                if make and not os.path.lexists(path):
                    self._made.add(path)  # noted first (see _make_folders)
                    try:
                        os.mkdir(name, dir_fd=at)
                    except FileExistsError:
                        self._made.discard(path)
                inner = os.open(name, _FOLDER, dir_fd=at)
                # `at` names the open handle before the other is closed: a Ctrl-C between the
                # two leaves one handle open, never one closed twice (the second close failed
                # with EBADF instead of the KeyboardInterrupt, or closed another thread's file).
                at, outer = inner, at
                os.close(outer)
            return at
        except BaseException:
            os.close(at)
            raise

    def _make_folders(self, folder: str) -> None:
        missing: list[str] = []
        while not os.path.isdir(folder):
            missing.append(folder)
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
        for made in reversed(missing):
            # Noted before it is made: a Ctrl-C between the two would leave it unnoted, and
            # so never removed. Unnoted again if it was there all along (a racing writer's).
            self._made.add(made)
            try:
                os.mkdir(made)
            except FileExistsError:
                self._made.discard(made)

    def _prune(self, folder: str) -> None:
        """Remove the folders this writer made, from `folder` up, while they are empty."""
        while folder in self._made:
            try:
                os.rmdir(folder)  # only when empty: never a user's file
            except FileNotFoundError:
                pass  # noted, then interrupted before it was made
            except OSError:
                return
            self._made.discard(folder)
            folder = os.path.dirname(folder)
