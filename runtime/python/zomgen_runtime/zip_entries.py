"""One zip entry, inflated only up to a byte limit, whatever sizes its headers state.

zipfile bounds what a deflated entry inflates to per read, but hands a bzip2 or LZMA entry's
compressed bytes to a decompressor without a bound: 921 bytes of bzip2 inflate to 1 GiB in one
call, even when the entry says it holds 2 bytes. Those two methods are inflated here instead, from
the entry's raw bytes, with the decompressors' own `max_length`.
"""

from __future__ import annotations

import bz2
import lzma
import struct
import zipfile

_LOCAL_HEADER = struct.Struct("<4s5H3L2H")  # the fixed part of a zip local file header
_PIECE = 1 << 16  # compressed bytes fed at a time


def read_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes | None:
    """The entry's bytes, or None when they exceed `limit`. Raises what zipfile, bz2 and lzma
    raise for a damaged entry."""
    if info.compress_type in (zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA):
        return _inflate_bounded(archive, info, limit)
    with archive.open(info) as entry:
        data = entry.read(limit + 1)
    return None if len(data) > limit else data


def _inflate_bounded(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes | None:
    source = archive.fp
    if source is None:
        raise ValueError("the zip file is closed")
    source.seek(info.header_offset)
    header = _LOCAL_HEADER.unpack(source.read(_LOCAL_HEADER.size))
    if header[0] != b"PK\x03\x04":
        raise zipfile.BadZipFile("bad local file header")
    source.seek(header[9] + header[10], 1)  # past the name and the extra field
    left = info.compress_size
    decompressor: bz2.BZ2Decompressor | lzma.LZMADecompressor
    if info.compress_type == zipfile.ZIP_BZIP2:
        decompressor = bz2.BZ2Decompressor()
    else:
        # zip's LZMA: version (2 bytes), properties size (2), properties, raw LZMA1. The
        # `.lzma` (alone) format is the properties, the size (unknown: all ones), the data.
        _version, size = struct.unpack("<2sH", source.read(4))
        left -= 4 + size
        decompressor = lzma.LZMADecompressor(lzma.FORMAT_ALONE)
        decompressor.decompress(source.read(size) + b"\xff" * 8, 0)
    out = bytearray()
    while not decompressor.eof:
        if decompressor.needs_input:
            if left <= 0:
                raise EOFError("compressed data ends before the end-of-stream marker")
            piece = source.read(min(_PIECE, left))
            if not piece:
                raise EOFError("the zip file ends inside the entry")
            left -= len(piece)
        else:
            piece = b""
        out += decompressor.decompress(piece, limit + 1 - len(out))
        if len(out) > limit:
            return None
    return bytes(out)
