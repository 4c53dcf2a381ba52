"""Every option of every union in the bundled conventions, built (zomgen/cases/coverage.py): a
valid hierarchy in which the union takes that option, which `parse` must turn into an instance
of that option's class at that place, and `dump` back into the same document. Then, in those
hierarchies and the enriched smallest one, every other `const`/`enum` value and every optional
key left out (zomgen/cases/values.py): what the run time accepts must parse and dump back.

How many options are built is pinned per convention, with the reasons of the others printed
on a mismatch: a change that builds more (or fewer) must say so here."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.support.packages import import_package
from tests.support.scripts import load_script
from zomgen import ir
from zomgen.cases.coverage import coverage, option_cases
from zomgen.cases.derive import refusals, valid_document
from zomgen.cases.values import value_cases
from zomgen.cases.verdict import accepts
from zomgen.errors import CompileError
from zomgen.pipeline import Options, generate_package

conventions = load_script("regenerate").conventions

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
    # 0.6rc0: cases/repair.py gives a refused `x-zomgen-equal` or `x-zomgen-in` the value its
    # problem names, which builds most transformation types. Not built, in image, well and
    # scene: three transformation options whose synthesised value the run time refuses where
    # the key holding it is optional, one whose smallest value the option before it already
    # holds, one that no valid hierarchy holds; plate and bf2raw as for 0.5 (each option not
    # built says why in its report).
    "ome_ngff_06_bf2raw": (2, 43),
    "ome_ngff_06_image": (36, 43),
    "ome_ngff_06_plate": (2, 43),
    "ome_ngff_06_scene": (54, 58),
    "ome_ngff_06_well": (36, 43),
    "xarray_v2": (0, 0),
    "xarray_v3": (0, 0),
    "zarr_conventions_cf": (7, 7),
    "zarr_conventions_geo_proj": (36, 103),
    "zarr_conventions_multiscales": (2, 2),
    "zarr_conventions_spatial": (2, 2),
}


# convention -> (other literal values, optional keys left out) built and round-tripped. OME's
# one enum of several values (an axis `type`) never changes: the hierarchies built hold the
# smallest valid axes, two space axes, and the run time refuses any other type there. The
# xarray conventions' literals have one value each and their hierarchies no optional key.
VALUES: dict[str, tuple[int, int]] = {
    "cf_grid_v2": (26, 93),
    "cf_grid_v3": (26, 93),
    "geozarr_dataset": (252, 428),
    "ome_ngff_04_bf2raw": (0, 1),
    "ome_ngff_04_image": (0, 19),
    "ome_ngff_04_plate": (0, 5),
    "ome_ngff_04_well": (0, 3),
    "ome_ngff_05_bf2raw": (0, 0),
    "ome_ngff_05_image": (0, 20),
    "ome_ngff_05_plate": (0, 0),
    "ome_ngff_05_well": (0, 0),
    "ome_ngff_06_bf2raw": (0, 0),
    "ome_ngff_06_image": (12, 76),
    "ome_ngff_06_plate": (0, 0),
    "ome_ngff_06_scene": (4, 64),
    "ome_ngff_06_well": (12, 75),
    "xarray_v2": (0, 0),
    "xarray_v3": (0, 0),
    "zarr_conventions_cf": (26, 95),
    "zarr_conventions_geo_proj": (50, 17),
    "zarr_conventions_multiscales": (0, 5),
    "zarr_conventions_spatial": (1, 9),
}


def _package(schema: Path, out: Path) -> tuple[ir.Hierarchy, ModuleType, Any]:
    """The IR of a bundled convention, its package in generated/ and its bundled schema."""
    generated = generate_package(Options(schema, package=out.name))
    assert generated.hierarchy is not None
    module = import_package(out.parent, out.name)
    return generated.hierarchy, module, json.loads(generated.files["schema.json"])


def _params() -> list[Any]:
    """Each bundled convention; OME-Zarr 0.6's are slow (the synthesiser works for minutes on
    their relations), so the fast subset leaves them to the full suite."""
    return [
        pytest.param(s, o, id=o.name, marks=[pytest.mark.slow] if "_06_" in o.name else [])
        for s, o in conventions()
    ]


@pytest.mark.parametrize("schema,out", _params())
def test_every_option_built_parses_as_its_class(schema: Path, out: Path) -> None:
    hierarchy, module, bundled = _package(schema, out)
    cases = option_cases(hierarchy, module, bundled, lambda d: refusals(module, d))
    summary = coverage(cases)
    assert summary["failures"] == []
    assert all(n["reason"] for n in summary["not_built"])
    not_built = "\n".join(
        f"  {n['union']} option {n['option']} ({n['type']}): {n['reason']}"
        for n in summary["not_built"]
    )
    found = (summary["built"], summary["options"])
    assert found == BUILT[out.name], f"built {found}; not built:\n{not_built}"

    documents = [c.document for c in cases if c.document is not None]
    try:
        documents.insert(0, valid_document(module, hierarchy, bundled, schema)[0])
    except CompileError:
        pass  # no valid hierarchy synthesised: the options built are all there is
    values = value_cases(documents, hierarchy, module, lambda d: accepts(module, d))
    assert [(v.pointer, v.what, v.failure) for v in values if v.failure] == []
    counts = (
        sum(v.what.startswith("value ") for v in values),
        sum(v.what.startswith("without ") for v in values),
    )
    assert counts == VALUES[out.name]


def test_a_value_the_package_loses_is_a_failure() -> None:
    """value_cases fails each change that does not come back: here a `dump` that always gives
    the unchanged hierarchy, and a `parse` that raises."""
    schema, out = next((s, o) for s, o in conventions() if o.name == "zarr_conventions_spatial")
    hierarchy, module, bundled = _package(schema, out)
    valid = valid_document(module, hierarchy, bundled, schema)[0]

    def accepts(document: object) -> bool:
        return not refusals(module, document)

    class Forgetful:
        ZomError = module.ZomError
        parse = staticmethod(module.parse)

        @staticmethod
        def dump(model: object) -> object:
            return valid

    class Raising(Forgetful):
        @staticmethod
        def parse(document: object) -> object:
            raise KeyError("ordered")

    forgot = value_cases([valid], hierarchy, Forgetful, accepts)  # type: ignore[arg-type]
    assert forgot and all(
        c.failure == "dump(parse(document)) differs from the document" for c in forgot
    )
    raised = value_cases([valid], hierarchy, Raising, accepts)  # type: ignore[arg-type]
    assert raised and all(c.failure == "parse raised KeyError: 'ordered'" for c in raised)
