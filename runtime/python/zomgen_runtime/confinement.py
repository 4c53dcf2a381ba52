"""Keeping a local store folder's reads and writes inside it, and names within what its file
system holds.

A colleague's store may hold a member folder that is a symlink to their home: reading through it
would echo their files in problems, writing through it would put `zarr.json` there. A name
longer than the file system allows would fail half way with a raw OSError. Both are problems at
their node instead, found before anything is read or written.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

# NAME_MAX of most local file systems (ext4, XFS, APFS, NTFS count 255 bytes or characters).
_DEFAULT_NAME_MAX = 255


def name_max(root: str) -> int:
    """The longest file name (in bytes) the file system of `root` holds."""
    folder = root
    while folder and not os.path.isdir(folder):
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    try:
        return os.pathconf(folder or ".", "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # no pathconf (Windows), or no answer
        return _DEFAULT_NAME_MAX


class LocalRoot:
    """A store folder on local disk, asked about the keys a read or a write would touch."""

    def __init__(self, root: str) -> None:
        self.root = os.path.abspath(root)
        real = os.path.realpath(self.root)
        self._real_base = real if real.endswith(os.sep) else real + os.sep
        self._leaves: dict[str, bool] = {}
        self._name_max: int | None = None

    @property
    def name_max(self) -> int:
        if self._name_max is None:  # only writes ask
            self._name_max = name_max(self.root)
        return self._name_max

    def leads_out(self, key: str) -> bool:
        """Whether `key` (`a/b/zarr.json`, or a folder `a/b`) is, or lies below, a symlink that
        leads out of the store. One `lstat` per folder, remembered."""
        known = self._leaves.get(key)
        if known is None:
            parent = key.rpartition("/")[0]
            known = (bool(parent) and self.leads_out(parent)) or self._link_out(key)
            self._leaves[key] = known
        return known

    def saw_folder(self, key: str) -> None:
        """`key` was listed as a plain folder (not a symlink) inside a folder that stays in the
        store: it stays in too, and reading below it needs no `lstat` of its own."""
        self._leaves.setdefault(key, False)

    def _link_out(self, relative: str) -> bool:
        path = os.path.join(self.root, *relative.split("/"))
        if not os.path.islink(path):
            return False
        return not (os.path.realpath(path) + os.sep).startswith(self._real_base)

    def too_long(self, names: Iterable[str]) -> str | None:
        """The first name longer than the file system holds, or None."""
        for name in names:
            if len(os.fsencode(name)) > self.name_max:
                return name
        return None
