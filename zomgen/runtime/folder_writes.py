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
import os
import secrets


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
        path = self._path(key)
        self._make_folders(os.path.dirname(path))
        temporary = f"{path}.{secrets.token_hex(6)}.zomgen-partial"
        # From before the file exists: a Ctrl-C between making it and the next line would leave
        # it behind.
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            with os.fdopen(fd, "wb") as file:
                file.write(value)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):  # not made yet, or renamed already
                os.unlink(temporary)
            raise

    def remove(self, key: str) -> None:
        """Remove the file at `key`, if there is one."""
        path = self._path(key)
        try:
            os.unlink(path)
        except FileNotFoundError:  # a write that failed: its folders may be there all the same
            pass
        self._prune(os.path.dirname(path))

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
