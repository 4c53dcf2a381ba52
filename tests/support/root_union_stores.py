"""Stores of the root-union convention (tests/cases/root-union/schema.json: a recording in one
of three layouts), written by zarr-python, for tests/runtime/test_root_union.py and the page's
tests/browser/test_site_root_union.py."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import zarr

from tests.support.paths import ROOT

SCHEMA = ROOT / "tests" / "cases" / "root-union" / "schema.json"


def flat(path: Path) -> None:
    root = zarr.open_group(path, mode="w", zarr_format=3)
    root.attrs.update({"layout": "flat", "rate_hz": 1000})
    root.create_array("ch0", shape=(10,), dtype="float32").attrs["units"] = "uV"


def sessions(path: Path) -> None:
    root = zarr.open_group(path, mode="w", zarr_format=3)
    root.attrs["layout"] = "sessions"
    session = root.create_group("s1")
    session.attrs["rate_hz"] = 500.5
    session.create_array("ch0", shape=(10,), dtype="float32").attrs["units"] = "uV"


def single(path: Path) -> None:
    array = zarr.create_array(path, shape=(2, 10), dtype="float32", zarr_format=3)
    array.attrs.update({"layout": "single", "channels": ["a", "b"]})


def no_layout(path: Path) -> None:
    """A flat recording whose `layout` says sessions: it fits no option, and the one it names
    wants a session where it has a channel."""
    flat(path)
    zarr.open_group(path, mode="r+").attrs["layout"] = "sessions"


# the layout the store names (sessions) is the option its problems are told by
MEANT = ("/ch0", "/node_type", "'group' was expected (given: 'array')")
WRITERS: dict[str, Callable[[Path], None]] = {
    "Flat": flat,
    "Sessions": sessions,
    "Single": single,
    "none": no_layout,
}
