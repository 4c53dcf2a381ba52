"""Ctrl-C (or any failure) during `create`: every write stops before the caller hears of it, and
what was written is undone; nothing lands afterwards in the background (in Jupyter, a
KeyboardInterrupt does not end the process, so a batch left running would go on writing)."""

from __future__ import annotations

import _thread
import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from zarr.abc.store import ByteRequest
from zarr.core.buffer import Buffer, BufferPrototype
from zarr.storage import MemoryStore
from zomgen_runtime import StoreError, write_document

GROUP: dict[str, Any] = {"zarr_format": 3, "node_type": "group", "attributes": {}}
NODES = 1100


class _SlowStore(MemoryStore):
    """A memory store that takes 0.1 s a write (a slow network file system), and can fail one key."""

    fail_key: str | None = None

    async def set(self, key: str, value: Buffer) -> None:
        await asyncio.sleep(0.1)
        if key == self.fail_key:
            raise OSError("the server went away")
        await super().set(key, value)

    async def get(
        self, key: str, prototype: BufferPrototype, byte_range: ByteRequest | None = None
    ) -> Buffer | None:
        return await super().get(key, prototype, byte_range)


def _wide_document() -> dict[str, Any]:
    return {**GROUP, "members": {f"m{i}": dict(GROUP) for i in range(NODES)}}


def _settled(store: _SlowStore) -> int:
    """The number of keys once nothing has been written for 0.3 s."""
    count = len(store._store_dict)
    while True:
        time.sleep(0.3)
        now = len(store._store_dict)
        if now == count:
            return now
        count = now


def test_ctrl_c_stops_every_write_before_it_is_reported() -> None:
    store = _SlowStore()
    timer = threading.Timer(0.5, _thread.interrupt_main)  # Ctrl-C, 0.5 s into the batch
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            write_document(_wide_document(), store)
    finally:
        timer.cancel()
    assert len(store._store_dict) == 0  # undone by the time the caller hears of it
    assert _settled(store) == 0  # and nothing lands afterwards


def test_a_failing_write_stops_the_others_before_the_error_is_reported() -> None:
    store = _SlowStore()
    store.fail_key = "m5/zarr.json"
    with pytest.raises(StoreError, match="the server went away"):
        write_document(_wide_document(), store)
    assert len(store._store_dict) == 0
    assert _settled(store) == 0


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): b"" if p.is_dir() else p.read_bytes()
        for p in sorted(folder.rglob("*"))
    }


def test_ctrl_c_at_any_moment_of_a_folder_create_leaves_it_as_it_was(tmp_path: Path) -> None:
    """Before (issue 53), 5-7 runs in 8 left the folders of the key being written, sometimes
    a `*.zomgen-partial`, and 1 in about 30 came back as StoreError. Interrupted at 24 moments
    spread over a create of 200 nodes, the store is each time as it was before, or (the
    interrupt landing after the write) whole; the caller hears KeyboardInterrupt."""
    document = {
        **GROUP,
        "members": {f"m{i}": {**GROUP, "members": {"a": dict(GROUP)}} for i in range(100)},
    }
    start = time.perf_counter()
    assert write_document(document, str(tmp_path / "whole")) == []
    whole = time.perf_counter() - start
    written = _files(tmp_path / "whole")
    undone = 0
    for run in range(24):
        store = tmp_path / f"s{run}"
        store.mkdir()
        (store / "mine.txt").write_text("the user's")
        before = _files(store)
        timer = threading.Timer(whole * run / 20, _thread.interrupt_main)
        try:
            try:
                timer.start()  # inside: at delay 0 the interrupt may land in start() itself
                write_document(document, str(store))
            finally:
                timer.cancel()
            time.sleep(0.05)  # an interrupt that fired just after the write lands here
        except KeyboardInterrupt:
            pass
        after = _files(store)
        assert after in (before, written | before), (run, sorted(set(after) ^ set(before))[:5])
        undone += after == before
    assert undone >= 5  # the interrupt did land during writes
