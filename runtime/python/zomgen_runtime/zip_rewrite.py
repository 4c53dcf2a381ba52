"""Writing into a zip store by writing a whole new zip beside it and swapping it in.

A zip cannot be changed in place safely: appending to it and rewriting its central directory at
the end is exactly what a full disk or a killed process interrupts, and then none of its entries
can be read. So `create` collects the changes, writes every kept entry and every new file into a
temporary file in the same folder, flushes it to disk and renames it over the old zip in one
step: a reader sees the old zip or the new one, never half of either.
"""

from __future__ import annotations

import datetime
import os
import secrets
import shutil
import stat
import zipfile

from .jsontext import DEFAULT_MAX_BYTES
from .zip_entries import read_entry

_COPY_BLOCK = 1 << 20


class ZipRewrite:
    """The entries of the zip at `path` (which may not exist yet), changed in memory until
    `commit()` writes them out. Keys are read, set and removed as in a dict."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._old: zipfile.ZipFile | None = None
        self._entries: dict[str, zipfile.ZipInfo] = {}
        if os.path.exists(path):
            self._old = zipfile.ZipFile(path)
            # A name written twice (zarr's ZipStore appends): the last one is what readers see.
            self._entries = {info.filename: info for info in self._old.infolist()}
        self._changes: dict[str, bytes | None] = {}

    def __contains__(self, key: str) -> bool:
        if key in self._changes:
            return self._changes[key] is not None
        return key in self._entries

    def get(self, key: str) -> bytes | None:
        """The bytes of `key`, or None when it is absent (or past the per-document limit: not
        metadata zomgen would have written)."""
        if key in self._changes:
            return self._changes[key]
        if self._old is None or key not in self._entries:
            return None
        return read_entry(self._old, self._entries[key], DEFAULT_MAX_BYTES)

    def keys_below(self, prefix: str) -> list[str]:
        """Every entry's key that starts with `prefix`, as the zip will hold them."""
        names = {*self._entries, *(k for k, v in self._changes.items() if v is not None)}
        return sorted(k for k in names if k.startswith(prefix) and k in self)

    def __setitem__(self, key: str, value: bytes) -> None:
        self._changes[key] = value

    def remove(self, key: str) -> None:
        """Remove `key`, if there is one (when the zip is written out)."""
        self._changes[key] = None

    def commit(self) -> None:
        """Write the new zip and swap it in. On any failure the temporary file is removed and
        the old zip is as it was; the exception goes on."""
        if not self._changes:
            return
        folder = os.path.dirname(os.path.abspath(self.path))
        name = os.path.basename(self.path)
        temporary = os.path.join(folder, f".{name}.{secrets.token_hex(6)}.zomgen-partial")
        # 0o666 less the umask, as a new file of the user's; the old zip's mode is kept below.
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            with os.fdopen(fd, "wb") as raw:
                with zipfile.ZipFile(raw, "w", allowZip64=True) as new:
                    self._copy_kept(new)
                    self._add_changed(new)
                raw.flush()
                os.fsync(raw.fileno())
            if self._old is not None:
                os.chmod(temporary, stat.S_IMODE(os.stat(self.path).st_mode))
                self.close()  # Windows cannot replace a file that is open
            os.replace(temporary, self.path)
        except BaseException:
            self._changes.clear()  # nothing of them was written
            os.unlink(temporary)
            raise
        _sync_folder(folder)
        self._changes.clear()

    def _copy_kept(self, new: zipfile.ZipFile) -> None:
        if self._old is None:
            return
        for key, info in self._entries.items():
            if key in self._changes:
                continue
            copy = zipfile.ZipInfo(info.filename, info.date_time)
            copy.compress_type = info.compress_type
            copy.external_attr = info.external_attr
            with (
                self._old.open(info) as source,
                new.open(copy, "w", force_zip64=info.file_size > zipfile.ZIP64_LIMIT) as target,
            ):
                shutil.copyfileobj(source, target, _COPY_BLOCK)

    def _add_changed(self, new: zipfile.ZipFile) -> None:
        now = datetime.datetime.now().timetuple()[:6]
        for key, data in self._changes.items():
            if data is not None:
                info = zipfile.ZipInfo(key, now)
                info.external_attr = 0o644 << 16
                new.writestr(info, data)  # stored, as zarr writes zip stores

    def close(self) -> None:
        if self._old is not None:
            self._old.close()
            self._old = None


def _sync_folder(folder: str) -> None:
    """Make the rename itself durable (POSIX; a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
