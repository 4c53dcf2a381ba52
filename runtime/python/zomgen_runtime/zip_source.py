"""A zip file holding a store (what zarr's ZipStore writes, OME-Zarr's `.ozx`), as a source
the walk reads through (sources.py). Its own module so that reading a folder does not import
`zipfile` and the compressors (a few ms of a `zomgen validate` that starts in 100 ms)."""

from __future__ import annotations

import lzma
import zipfile
import zlib
from collections.abc import Sequence

from .jsontext import too_large
from .sources import Failure, Fetched, Listing
from .zip_entries import read_entry

# The files that make a store's root, and the folder some zip tools add beside what was zipped
# (macOS's resource forks): what `ZipSource.store_prefix` looks for.
_ROOT_FILES = ("zarr.json", ".zgroup", ".zarray", ".zmetadata")
_ZIP_CLUTTER = frozenset({"__MACOSX"})


class ZipSource:
    """A zip file holding a store (what zarr's ZipStore writes), read with `zipfile`."""

    listable = True
    cheap_probes = True

    def __init__(self, path: str) -> None:
        self._zip = zipfile.ZipFile(path)
        self._infos: dict[str, zipfile.ZipInfo] = {}
        # prefix -> names of the folders directly below it: zip files have no real folders.
        self._folders: dict[str, set[str]] = {}
        for info in self._zip.infolist():
            if info.is_dir():
                continue
            self._infos[info.filename] = info
            parts = info.filename.split("/")
            for depth in range(len(parts) - 1):
                prefix = "".join(p + "/" for p in parts[:depth])
                self._folders.setdefault(prefix, set()).add(parts[depth])

    def store_prefix(self) -> str:
        """Where the store's root is inside the zip: "" where its metadata is at the top (as
        zarr's ZipStore writes it), or the one folder that holds it where the zip holds only
        that folder (`zip -r x.zip x.zarr`, a file manager's "compress")."""
        if any(name in self._infos for name in _ROOT_FILES):
            return ""
        folders = self._folders.get("", set()) - _ZIP_CLUTTER
        at_top = any("/" not in key for key in self._infos)
        if len(folders) != 1 or at_top:
            return ""
        (folder,) = folders
        inside = any(f"{folder}/{name}" in self._infos for name in _ROOT_FILES)
        return f"{folder}/" if inside else ""

    def read(self, keys: Sequence[str], limit: int) -> list[Fetched]:
        return [self._read_one(key, limit) for key in keys]

    def _read_one(self, key: str, limit: int) -> Fetched:
        info = self._infos.get(key)
        if info is None:
            return None
        if info.file_size > limit:
            return Failure(too_large(key.rsplit("/", 1)[-1], info.file_size, limit))
        try:
            # Inflated only up to the limit: the size the entry declares may be a lie.
            data = read_entry(self._zip, info, limit)
            if data is None:
                name = key.rsplit("/", 1)[-1]
                return Failure(
                    f"{name} inflates past the limit of {limit} bytes for one metadata document"
                    f" (its zip entry says {info.file_size} bytes)"
                )
            return data
        except (
            zipfile.BadZipFile,
            zlib.error,
            NotImplementedError,
            OSError,
            RuntimeError,  # an entry flagged encrypted (zipfile asks for a password)
            EOFError,  # compressed data cut short
            ValueError,
            lzma.LZMAError,
        ) as exc:
            return Failure(f"unreadable zip entry: {exc}")

    def exists(self, keys: Sequence[str]) -> list[bool]:
        return [key in self._infos for key in keys]

    def listdir(self, prefixes: Sequence[str]) -> list[Listing]:
        return [sorted(self._folders.get(prefix, ())) for prefix in prefixes]

    def requests(self) -> None:
        return None

    def close(self) -> None:
        self._zip.close()
