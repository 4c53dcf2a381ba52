"""A progress line on a terminal: `zomgen: read 1,234 nodes`, rewritten in place at most ten
times a second, and erased when the run ends. Nothing is written where the stream is not a
terminal (a pipe, a file, CI's log)."""

from __future__ import annotations

import time
from types import TracebackType
from typing import Self, TextIO

_EVERY = 0.1  # seconds between two updates
_ERASE = "\r\033[K"


class ProgressLine:
    def __init__(self, stream: TextIO) -> None:
        # The line's own erase is a control zomgen means (terminal.py escapes the rest); what
        # it prints beside it is a count, never a store's text.
        self.stream: TextIO = getattr(stream, "unescaped", stream)
        self.shown = stream.isatty()
        self._last = 0.0
        self._written = False

    def __enter__(self) -> Self:
        return self

    def show(self, stage: str, count: int, noun: str = "nodes") -> None:
        now = time.monotonic()
        if now - self._last < _EVERY:
            return
        self._last = now
        self.stream.write(f"{_ERASE}zomgen: {stage} {count:,} {noun}")
        self.stream.flush()
        self._written = True

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._written:
            self.stream.write(_ERASE)
            self.stream.flush()
