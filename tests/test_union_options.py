"""Every option of every union in the bundled conventions, built (zomgen/cases/coverage.py): a
valid hierarchy in which the union takes that option, which `parse` must turn into an instance
of that option's class at that place, and `dump` back into the same document.

How many options are built is pinned per convention, with the reasons of the others printed
on a mismatch: a change that builds more (or fewer) must say so here."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from zomgen.cases.coverage import coverage, option_cases
from zomgen.cases.derive import refusals
from zomgen.compile import Options, generate_package

sys.path.insert(0, str(ROOT / "scripts"))
from regenerate import conventions

# convention -> (options built, options in its unions). The others are not built because:
# - PROJJSON (geo-proj, geozarr): most CRS, datum and operation options nest another CRS, and
#   the repaired hierarchy outgrows the limit (cases/repair.py MAX_SIZE); where an option's
#   smallest value also satisfies the first option of its `anyOf` (`TemporalCrsOption2`), the
#   first holds and is rightly what is parsed;
# - OME bf2raw and 0.5 plate: the synthesiser finds no valid hierarchy (an `x-zomgen-reaches`
#   path it cannot name, field paths of a plate), and the schemas have no `examples`.
BUILT: dict[str, tuple[int, int]] = {
    "cf_grid_v2": (5, 5),
    "cf_grid_v3": (5, 5),
    "geozarr_dataset": (35, 100),
    "ome_ngff_04_bf2raw": (3, 8),
    "ome_ngff_04_image": (8, 8),
    "ome_ngff_04_plate": (8, 8),
    "ome_ngff_04_well": (8, 8),
    "ome_ngff_05_bf2raw": (3, 8),
    "ome_ngff_05_image": (8, 8),
    "ome_ngff_05_plate": (3, 8),
    "ome_ngff_05_well": (8, 8),
    "xarray_v2": (0, 0),
    "xarray_v3": (0, 0),
    "zarr_conventions_cf": (7, 7),
    "zarr_conventions_geo_proj": (36, 103),
    "zarr_conventions_multiscales": (2, 2),
    "zarr_conventions_spatial": (2, 2),
}


@pytest.mark.parametrize("schema,out", conventions(), ids=[o.name for _s, o in conventions()])
def test_every_option_built_parses_as_its_class(schema: Path, out: Path) -> None:
    generated = generate_package(Options(schema, package=out.name))
    assert generated.hierarchy is not None
    sys.path.insert(0, str(out.parent))
    try:
        module = importlib.import_module(out.name)
    finally:
        sys.path.remove(str(out.parent))
    bundled = json.loads(generated.files["schema.json"])
    cases = option_cases(generated.hierarchy, module, bundled, lambda d: refusals(module, d))
    summary = coverage(cases)
    assert summary["failures"] == []
    assert all(n["reason"] for n in summary["not_built"])
    not_built = "\n".join(
        f"  {n['union']} option {n['option']} ({n['type']}): {n['reason']}"
        for n in summary["not_built"]
    )
    found = (summary["built"], summary["options"])
    assert found == BUILT[out.name], f"built {found}; not built:\n{not_built}"
