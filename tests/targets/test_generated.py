"""generated/ is always exactly what the compiler produces from schemas/, and
typecheck_cases/derived/ holds exactly the cases it derives for them: one derivation per
bundled convention gives both (`zomgen build --cases`'s package README carries the agreement
report of those cases). The compiler cases' derived cases are compared in
tests/typecheck/test_derived_cases.py, which derives them.

The same derivation builds every option of every union (zomgen/cases/coverage.py): a valid
hierarchy in which the union takes that option, which `parse` must turn into an instance of
that option's class at that place, and `dump` back into the same document. Then, in those
hierarchies and the smallest one, every other `const`/`enum` value and every optional key left
out (zomgen/cases/values.py): what the run time accepts must parse and dump back. How many
options are built is pinned per convention, with the reasons of the others printed on a
mismatch: a change that builds more (or fewer) must say so here.

Deriving takes three and a half minutes of the suite (OME-Zarr 0.6's and 0.9.dev1's conventions
and GeoZarr take minutes each: the synthesiser works long on their relations and PROJJSON), so
the whole module is `slow`: the fast subset leaves it to the full suite."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import check_document

from tests.support.convert_branches import unreachable_branches
from tests.support.packages import import_package
from tests.support.paths import ROOT
from tests.support.scripts import load_script
from zomgen.cases.coverage import coverage
from zomgen.cases.derive import Derived, derive
from zomgen.cases.values import value_cases
from zomgen.cases.verdict import accepts
from zomgen.write import stale, with_manifest

pytestmark = pytest.mark.slow

conventions = load_script("regenerate").conventions
derive_cases = load_script("derive_cases")
# typecheck_cases/derived/'s files, read once for all the conventions compared below.
checked_in_cases = functools.cache(lambda: derive_cases.case_files(derive_cases.DERIVED))

PAIRS = conventions()


def _params() -> list[Any]:
    return [pytest.param(s, o, id=o.name) for s, o in PAIRS]


# convention -> (options built, options in its unions), and what it took to build the hard ones:
# - PROJJSON (geo-proj, geozarr): a union option is built with its optional keys of literal
#   type (cases/synth.py `_tagged`), so the CRSs that differ by their `type` alone are told
#   apart by the `oneOf` (geozarr 36 -> 72, geo-proj 37 -> 70); BoundCrs (a CRS holding CRSs):
#   its first option is built since, inside the option chosen, any union being built may be
#   entered again through an option that ends (cases/synth.py `_inside_chosen`: geozarr 72 ->
#   73, geo-proj 70 -> 71); the route to a union chosen for a case goes through the options
#   that hold it below a required key, nearest first (cases/coverage.py `_routes`: a CRS's
#   `id` and a conversion's parameter values, reached through `proj:projjson`, not through
#   `proj:code`'s optional `proj:projjson`, which its one-of-three refuses: geozarr 73 -> 75,
#   geo-proj 71 -> 79); the second option of `object_usage`'s `anyOf` (24 CRSs, datums and
#   operations), which the smallest value holds together with the first, is built with a key
#   the first types given a value of another type, a `scope` of 0, which the CRS's own
#   `scope: {}` allows (cases/spoil.py: geozarr 75 -> 99, geo-proj 79 -> 103);
# - GeoZarr's other members and recursive-group's: the group option, the type being built, is
#   built once more inside itself (cases/synth.py `_again`: geozarr 99 -> 100);
# - OME bf2raw and plate are built since cases/repair.py names an existing member for a
#   refused `x-zomgen-reaches` (bf2raw's series) and renames the row and well built to a
#   well's `path` (plate); before, no valid hierarchy was found (3 of 8; 0.6: 2 of 43).
BUILT: dict[str, tuple[int, int]] = {
    # AnnData and SpatialData (moved from the tests into schemas/ for the catalog): every
    # element kind a tag selects
    "anndata_v2": (29, 29),
    "anndata_v3": (27, 27),
    "cf_grid_v2": (5, 5),
    "cf_grid_v3": (5, 5),
    "geozarr_dataset": (100, 100),
    "ome_ngff_04_bf2raw": (8, 8),
    "ome_ngff_04_image": (8, 8),
    "ome_ngff_04_plate": (8, 8),
    "ome_ngff_04_well": (8, 8),
    "ome_ngff_05_bf2raw": (8, 8),
    "ome_ngff_05_image": (8, 8),
    "ome_ngff_05_plate": (8, 8),
    "ome_ngff_05_well": (8, 8),
    # 0.6rc0: cases/repair.py gives a refused `x-zomgen-equal` or `x-zomgen-in` the value its
    # problem names, which builds most transformation types; a sequence holds a
    # transformation that ends (cases/synth.py); a refused length relation may resize its
    # other list (a scale's factors to the axes); an optional key that would make the option
    # built read as another is left out (cases/enrich.py `keeps`: a projectAxis built with
    # `createdOutputs` alone, since with `droppedInputs` too the `anyOf`'s first option holds;
    # was 40 of 43, scene 57 of 58); the relations' own problems are not repaired by values
    # the refused place itself refuses (cases/repair.py `_kept`: the image's transformations
    # name its intrinsic system and link every system); a rotation of 5 x 5 since a refused
    # `maxContains` takes the items past the first off what it counts (cases/repair.py
    # `_off`: five axes, two of type `space`; was 42 of 43).
    "ome_ngff_06_bf2raw": (43, 43),
    "ome_ngff_06_image": (43, 43),
    "ome_ngff_06_plate": (43, 43),
    "ome_ngff_06_scene": (58, 58),
    "ome_ngff_06_well": (43, 43),
    # 0.9.dev1: the same wrappers on its schemas, built as 0.6's are
    "ome_ngff_09dev1_bf2raw": (43, 43),
    "ome_ngff_09dev1_image": (43, 43),
    "ome_ngff_09dev1_plate": (43, 43),
    "ome_ngff_09dev1_scene": (58, 58),
    "ome_ngff_09dev1_well": (43, 43),
    "spatialdata_v2": (48, 48),
    "spatialdata_v3": (40, 40),
    "xarray_v2": (0, 0),
    "xarray_v3": (0, 0),
    "zarr_conventions_cf": (7, 7),
    "zarr_conventions_geo_proj": (103, 103),
    "zarr_conventions_multiscales": (2, 2),
    "zarr_conventions_spatial": (2, 2),
}


# convention -> (other literal values, optional keys left out) built and round-tripped. OME's
# one enum of several values (an axis `type`) never changes: the hierarchies built hold the
# smallest valid axes, two space axes, and the run time refuses any other type there. The
# xarray conventions' literals have one value each and their hierarchies no optional key.
# More `without` cases since the valid hierarchy keeps the optional keys that a repair makes
# right (cases/derive.py: a label's `source.image`, GeoZarr's `layout`; were 93, 93, 3866, 19,
# 20, 95 and 9 for the CF grids, GeoZarr, the 0.4 and 0.5 images, CF and spatial)
VALUES: dict[str, tuple[int, int]] = {
    "anndata_v2": (0, 0),
    "anndata_v3": (91, 0),
    "cf_grid_v2": (26, 96),
    "cf_grid_v3": (26, 96),
    # more since PROJJSON's second `object_usage` options and GeoZarr's nested group are built
    # (cases/spoil.py, synth.py `_again`; were (8827, 3830) and (1654, 215))
    "geozarr_dataset": (8835, 3882),
    "ome_ngff_04_bf2raw": (0, 1),
    "ome_ngff_04_image": (0, 21),
    "ome_ngff_04_plate": (0, 5),
    "ome_ngff_04_well": (0, 3),
    "ome_ngff_05_bf2raw": (0, 0),
    "ome_ngff_05_image": (0, 22),
    "ome_ngff_05_plate": (0, 0),
    "ome_ngff_05_well": (0, 0),
    # more values since the vendored 0.6 as released admits two versions, "0.6" and "0.6rc0"
    # (were 12, 12, 12, 10 and 12)
    "ome_ngff_06_bf2raw": (18, 112),
    "ome_ngff_06_image": (16, 114),
    "ome_ngff_06_plate": (19, 121),
    "ome_ngff_06_scene": (15, 73),
    "ome_ngff_06_well": (17, 113),
    # 0.9.dev1's RFC-4 orientation: an enum of many anatomical directions in every axis, and
    # the axis' `orientation` one more optional key
    "ome_ngff_09dev1_bf2raw": (242, 128),
    "ome_ngff_09dev1_image": (242, 130),
    "ome_ngff_09dev1_plate": (242, 137),
    "ome_ngff_09dev1_scene": (125, 87),
    "ome_ngff_09dev1_well": (242, 129),
    "spatialdata_v2": (40, 51),
    "spatialdata_v3": (131, 51),
    "xarray_v2": (0, 0),
    "xarray_v3": (0, 0),
    "zarr_conventions_cf": (26, 96),
    "zarr_conventions_geo_proj": (1654, 216),
    "zarr_conventions_multiscales": (0, 5),
    "zarr_conventions_spatial": (1, 11),
}


@pytest.fixture(scope="module")
def derived_of(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path, Path], Derived]:
    """What `zomgen build --cases` derives for a bundled convention, once per convention for
    the tests below."""

    @functools.cache
    def derived(schema: Path, out: Path) -> Derived:
        return derive(schema, tmp_path_factory.mktemp(out.name), (), out.name)

    return derived


def test_every_bundled_convention_has_a_package() -> None:
    names = {out.name for _schema, out in PAIRS}
    assert names >= {"xarray_v2", "xarray_v3"}
    on_disk = {p.name for p in (ROOT / "generated").iterdir() if p.is_dir()}
    assert on_disk == names, "generated/ holds a package no schema produces (or misses one)"


@pytest.mark.parametrize("schema,out", _params())
def test_generated_package_and_its_derived_cases_are_current(
    schema: Path, out: Path, derived_of: Callable[[Path, Path], Derived]
) -> None:
    derived = derived_of(schema, out)
    # With the manifest of what zomgen wrote, which the write adds (zomgen/write.py).
    files = with_manifest(derived.package_files)
    diffs = stale(files, out)
    assert not diffs, "generated/ drifted; run `python scripts/regenerate.py`:\n" + "".join(diffs)
    on_disk = {
        p.relative_to(out).as_posix()
        for p in out.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert on_disk == set(files), f"files zomgen does not generate: {sorted(on_disk - set(files))}"

    if out.name in derive_cases.NOT_DERIVED:  # scripts/derive_cases.py says why
        assert not (derive_cases.DERIVED / f"{out.name}_cases").exists()
        return
    cases = f"{out.name}_cases/"
    checked_in = checked_in_cases()
    case_diffs = derive_cases.differences(
        {k: v for k, v in derived.case_files.items() if k.startswith(cases)},
        {k: v for k, v in checked_in.items() if k.startswith(cases)},
    )
    assert not case_diffs, (
        "typecheck_cases/derived/ drifted; run `python scripts/derive_cases.py`:\n"
        + "".join(case_diffs)
    )


@pytest.mark.parametrize("schema,out", _params())
def test_every_option_built_parses_as_its_class(
    schema: Path, out: Path, derived_of: Callable[[Path, Path], Derived]
) -> None:
    derived = derived_of(schema, out)
    summary = coverage(derived.options)
    assert summary["failures"] == []
    assert all(n["reason"] for n in summary["not_built"])
    not_built = "\n".join(
        f"  {n['union']} option {n['option']} ({n['type']}) at {n['pointer'] or '(an enum or type list)'}: {n['reason']}"
        for n in summary["not_built"]
    )
    found = (summary["built"], summary["options"])
    assert found == BUILT[out.name], f"built {found}; not built:\n{not_built}"

    # generated/ is the derived package (the test above), so its import is the one derived.
    module = import_package(out.parent, out.name)
    assert derived.hierarchy is not None
    documents = [c.document for c in derived.options if c.document is not None]
    documents.insert(0, derived.valid)
    values = value_cases(documents, derived.hierarchy, module, lambda d: accepts(module, d))
    assert [(v.pointer, v.what, v.failure) for v in values if v.failure] == []
    counts = (
        sum(v.what.startswith("value ") for v in values),
        sum(v.what.startswith("without ") for v in values),
    )
    assert counts == VALUES[out.name]


@pytest.mark.parametrize("schema,out", PAIRS, ids=[o.name for _s, o in PAIRS])
def test_no_union_branch_is_unreachable(schema: Path, out: Path) -> None:
    """Each option of a union is built by a branch some valid value reaches (the converters
    once tested one condition twice, so a later option was never built)."""
    assert unreachable_branches((out / "_convert.py").read_text("utf-8")) == []


def test_the_unreachable_branch_check_finds_them() -> None:
    source = (
        "def parse_U(value):\n"
        "    if _is_object(value) and 'a' in value:\n        return A(value)\n"
        "    if 'b' in value and _is_object(value) and 'a' in value:\n        return B(value)\n"
        "    if True:\n        return C(value)\n"
        "    if 'x' in value:\n        return D(value)\n"
        "    return value\n"
    )
    assert unreachable_branches(source) == [
        "parse_U: the branch at line 4 is taken by the one at line 2 first",
        "parse_U: the branch at line 8 is taken by the one at line 6 first",
    ]


def test_a_value_the_package_loses_is_a_failure(
    derived_of: Callable[[Path, Path], Derived],
) -> None:
    """value_cases fails each change that does not come back: here a `dump` that always gives
    the unchanged hierarchy, and a `parse` that raises."""
    schema, out = next((s, o) for s, o in PAIRS if o.name == "zarr_conventions_spatial")
    module = import_package(out.parent, out.name)
    derived = derived_of(schema, out)
    hierarchy, valid = derived.hierarchy, derived.valid
    assert hierarchy is not None

    def accepted(document: object) -> bool:
        return accepts(module, document)

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

    forgot = value_cases([valid], hierarchy, Forgetful, accepted)  # type: ignore[arg-type]
    assert forgot and all(
        c.failure == "dump(parse(document)) differs from the document" for c in forgot
    )
    raised = value_cases([valid], hierarchy, Raising, accepted)  # type: ignore[arg-type]
    assert raised and all(c.failure == "parse raised KeyError: 'ordered'" for c in raised)


@pytest.mark.parametrize(("schema", "package"), [pytest.param(s, o, id=o.name) for s, o in PAIRS])
def test_a_conventions_own_examples_are_valid(schema: Path, package: Path) -> None:
    """The whole hierarchies a bundled schema gives as `examples` are valid under its package:
    a rule added later must not turn them invalid unnoticed (`zomgen cases` takes a valid example
    for its hierarchy, and would quietly fall back to a synthesised one)."""
    examples = json.loads(schema.read_text("utf-8")).get("examples", [])
    bundled = json.loads((package / "schema.json").read_text("utf-8"))
    for index, example in enumerate(examples):
        problems = check_document(example, bundled)
        assert problems == [], f"examples/{index}: {[p.to_json() for p in problems]}"
