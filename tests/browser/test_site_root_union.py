"""The validator page of a convention whose root is a union of node kinds
(tests/cases/root-union/schema.json), in Chromium: a store of each layout is valid, as the
option it is; a store that names one layout and has another's members shows the problem the
Python loader finds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from zomgen_runtime import validate_store

from tests.browser.pages import drive, uncaught
from tests.support.cli import run_zomgen
from tests.support.http_stores import Served, serve
from tests.support.node import require_toolchain
from tests.support.root_union_stores import SCHEMA, WRITERS
from zomgen.pipeline import Options, generate_package

pytestmark = [pytest.mark.node, pytest.mark.slow]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Served]]:
    require_toolchain()
    root = tmp_path_factory.mktemp("site_root_union")
    result = run_zomgen("site", SCHEMA, "-o", root / "page")
    assert result.returncode == 0, result.stderr
    for name, write in WRITERS.items():
        write(root / f"{name}.zarr")
    with serve(root, listing=True) as served:
        yield root, served


def test_each_layout_is_valid_and_a_mixed_one_is_not(site: tuple[Path, Served]) -> None:
    _root, served = site
    cases = [{"name": name, "url": f"{served.url}/{name}.zarr"} for name in WRITERS]
    seen = drive(cases, f"{served.url}/page/index.html")
    for name in ("Flat", "Sessions", "Single"):
        assert seen[name]["summary"].startswith("Valid Recording:"), seen[name]
    schema = json.loads(generate_package(Options(SCHEMA, (), python=False)).files["schema.json"])
    python = validate_store(f"{served.url}/none.zarr", schema)
    shown = sorted(tuple(row[:2]) for row in seen["none"]["problems"])
    assert shown == sorted((p.node_path, p.pointer) for p in python), seen["none"]
    assert seen["none"]["summary"].startswith("Not valid Recording:"), seen["none"]
    for one in seen.values():
        assert one["error"] is None and uncaught(one) == [], one
