"""The validator page of a convention whose rules are in CEL (NCZarr,
tests/runtime/conventions/nczarr.json), in Chromium: the page's own CEL engine (cel-js, bundled
into it) evaluates the rules on stores netCDF4-python wrote, and on such stores changed by
zarr-python, and shows the problems the Python loader finds, messages included. A rule past the
budget of its evaluation leaves its place not checked on the page, as in Python."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import zarr
from zomgen_runtime import validate_store

from tests.browser.pages import drive, uncaught
from tests.support.cli import run_zomgen
from tests.support.http_stores import Served, serve
from tests.support.nczarr_stores import axis_resized, text_attribute_made_a_number, write_netcdf
from tests.support.node import require_toolchain
from tests.support.paths import ROOT
from zomgen.pipeline import Options, generate_package

pytestmark = [pytest.mark.node, pytest.mark.slow]

SCHEMA = ROOT / "tests" / "runtime" / "conventions" / "nczarr.json"
CHANGES: dict[str, Callable[[zarr.Group], None] | None] = {
    "valid": None,
    "resized": axis_resized,  # a rule on the root, over `nodes`
    "retyped": text_attribute_made_a_number,  # a rule on every node's attributes
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Served]]:
    require_toolchain()
    root = tmp_path_factory.mktemp("site_rules")
    result = run_zomgen("site", SCHEMA, "-o", root / "page")
    assert result.returncode == 0, result.stderr
    for name, change in CHANGES.items():
        write_netcdf(root / f"{name}.zarr")
        if change is not None:
            change(zarr.open_group(root / f"{name}.zarr", mode="r+", zarr_format=2))
    result = run_zomgen("site", _case_safe(root), "-o", root / "case-safe")
    assert result.returncode == 0, result.stderr
    group = zarr.open_group(root / "many.zarr", mode="w", zarr_format=3)
    for index in range(101):  # 10,201 steps of the quadratic rule
        group.create_group(f"g{index}")
    with serve(root, listing=True) as served:
        yield root, served


def _case_safe(folder: Path) -> Path:
    """A convention whose one rule is quadratic in the members."""
    rule = "self.members.all(a, self.members.all(b, a == b || a.lowerAscii() != b.lowerAscii()))"
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "CaseSafeGroup",
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "x-zomgen-rules": [{"rule": rule}],
    }
    path = folder / "case-safe.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    return path


def test_a_rule_past_its_budget_leaves_the_page_not_fully_checked(
    site: tuple[Path, Served],
) -> None:
    _root, served = site
    cases = [{"name": "many", "url": f"{served.url}/many.zarr"}]
    seen = drive(cases, f"{served.url}/case-safe/index.html")["many"]
    assert seen["summary"].startswith(
        "Not fully checked: CaseSafeGroup: 102 nodes, 0 problems, 1 place not checked"
    ), seen
    assert seen["problems"] == [] and seen["error"] is None and uncaught(seen) == []


def test_the_page_evaluates_the_rules_as_python_does(site: tuple[Path, Served]) -> None:
    _root, served = site
    cases = [{"name": name, "url": f"{served.url}/{name}.zarr"} for name in CHANGES]
    seen = drive(cases, f"{served.url}/page/index.html")
    schema = json.loads(generate_package(Options(SCHEMA, (), python=False)).files["schema.json"])
    assert seen["valid"]["summary"].startswith("Valid NCZarrDataset:"), seen["valid"]
    for name in ("resized", "retyped"):
        python = validate_store(f"{served.url}/{name}.zarr", schema)
        assert [p.keyword for p in python] == ["x-zomgen-rules"], python
        shown = sorted(tuple(row[:3]) for row in seen[name]["problems"])
        assert shown == sorted((p.node_path, p.pointer, p.message) for p in python), seen[name]
        assert seen[name]["summary"].startswith("Not valid NCZarrDataset:"), seen[name]
    for one in seen.values():
        assert one["error"] is None and uncaught(one) == [], one
