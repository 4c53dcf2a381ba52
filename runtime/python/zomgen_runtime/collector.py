"""The cyclic garbage collector paused for a whole call of a package's `load`, `validate`,
`parse` or `dump` (and restored after).

Reading, checking and converting a hierarchy allocate a few objects per node and never a
cycle, and the collector's passes over a large hierarchy took about half the time. It is
paused for the whole call, not step by step: a document read while it was paused is all young,
so re-enabling it between steps meant one pass over the whole document before the next step.
"""

from __future__ import annotations

import gc


class CollectorPaused:
    """`with CollectorPaused(): ...` runs the block with the collector off, then turns it back
    on if it was on before."""

    def __enter__(self) -> None:
        self.enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc_info: object) -> None:
        if self.enabled:
            gc.enable()
