"""What zomgen prints is safe to show in a terminal.

Member names, attribute values and schema text reach the reports as they were written, and a
store can hold anything: ESC [2J clears the screen, ESC [8m hides what follows (the verdict
line), U+009B is a one-character CSI for some terminals, U+202E turns the text beside it around.
Every control character (C0 but the line feed and the tab, DEL, C1) and every bidi control is
printed as its `\\uXXXX` escape instead: readable text, and, inside `--format json`, the same
escape JSON would have used, so the output stays valid JSON that parses to the same value.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

_SHOWN_AS_IS = {"\n", "\t"}
_CONTROLS = [chr(c) for c in (*range(0x20), 0x7F, *range(0x80, 0xA0))]
_BIDI = [chr(c) for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))]
_ESCAPED = str.maketrans(
    {c: f"\\u{ord(c):04x}" for c in _CONTROLS + _BIDI if c not in _SHOWN_AS_IS}
)


def printable(text: str) -> str:
    return text.translate(_ESCAPED)


class _Printable:
    """A text stream whose writes are escaped; everything else is the stream's own."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(printable(text))

    @property
    def unescaped(self) -> TextIO:
        """The stream itself, for zomgen's own controls (progress.py's erase)."""
        return self._stream

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def escaped_output() -> Iterator[None]:
    """Inside the block, what is printed to stdout and stderr is escaped."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Printable(saved[0]), _Printable(saved[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
