"""Every option of every union built (zomgen/cases/coverage.py), on conventions the project does
not pin: the sample of corpus wrapper conventions that `tests/corpus/test_derived.py` derives
cases from. As for the bundled conventions (tests/targets/test_generated.py), each option built
must parse as its own class at its place and dump back unchanged; the counts are pinned so that
a change that builds more or fewer says so here.

The whole corpus is run on demand: `ZOMGEN_DERIVED_CORPUS=all pytest
tests/corpus/test_union_options.py` (counts are then printed, not pinned)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support.corpus_wrappers import (
    DERIVED_CHOSEN,
    DERIVED_SAMPLE,
    WRAPPERS_TO_BUILD,
    includes_for,
)
from tests.support.packages import imported
from zomgen.cases.coverage import coverage, option_cases
from zomgen.cases.derive import refusals
from zomgen.pipeline import Options, generate_package
from zomgen.write import write_package

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.slow,
]

# convention -> (options built, options in its unions); where not all are built, the reasons
# are printed on a mismatch. PROJJSON (cm_proj_r3) and OME-NGFF 0.6's transformations: as in
# the bundled geo-proj and 0.6 conventions (tests/targets/test_generated.py says why).
BUILT: dict[str, tuple[int, int]] = {
    "conventions__cf": (5, 5),
    "conventions__nzug": (0, 0),
    "conventions__template": (2, 2),
    "extensions__codec_bytes": (2, 2),
    # 38 since an optional key the run time refuses is repaired (cases/enrich.py): 0.6's
    # multiscale transformations name coordinate systems that exist (was 33); 39 since a
    # sequence holds a transformation that ends (cases/synth.py); 41 since an optional key
    # that makes the option built read as another is left out (cases/enrich.py `keeps`)
    "ome_0_6rc0__image": (41, 41),
    # 38 since a bound CRS holds CRSs that end (cases/synth.py; was 37); 74 since a union
    # option is built with its optional keys of literal type (a CRS's `type`); 75 since,
    # inside the option chosen, a union being built may be entered again (a bound CRS's
    # source CRS: cases/synth.py `_inside_chosen`); 77 since the route to a union goes through
    # the option that holds it below a required key (`proj:projjson`), nearest first, and no
    # optional key makes that option read as an earlier one of its `anyOf` (`proj:wkt2`:
    # cases/coverage.py `_routes` and `kept`); 101 since the second option of PROJJSON's
    # `object_usage` `anyOf`, which the smallest value holds with the first, is built with a
    # `scope` of another type (cases/spoil.py)
    "zarr_cm__cm_proj_r3": (101, 101),
    "zarr_cm__cm_spatial_r3": (0, 0),
    # a transpose codec's `order` (both options) is reached since the route to it goes through
    # the codec option nearest to it (cases/coverage.py `_routes`; was 16); 19 since a raw
    # data type (`pattern: ^r[0-9]+$`) is repaired as that option, not into the first one's
    # enum (cases/repair.py `within`). Not built: the sharding codec, which no document can
    # be: every sharding codec is also an `extension_codec` (whose `not: {enum}` of core
    # names leaves out "sharding"), and the codec `oneOf` refuses a value both hold (the
    # reason says so: cases/coverage.py `_exclusive`).
    "zarr_metadata__pr347_array": (19, 20),
    "zarr_metadata__pydantic_v2_group": (1, 2),
}

# Options built whose class the model does not hold, with the reason (none at present).
KNOWN_FAILURES: dict[str, list[tuple[str, int]]] = {}


@pytest.mark.parametrize("name", DERIVED_CHOSEN)
def test_every_option_built_parses_as_its_class(name: str, tmp_path: Path) -> None:
    schema = WRAPPERS_TO_BUILD[name]
    package = re.sub(r"\W", "_", name)
    options = Options(schema, tuple(includes_for(schema)), package=package)
    generated = generate_package(options)
    assert generated.hierarchy is not None
    write_package(generated.files, tmp_path / package)
    with imported(tmp_path, package) as (module,):
        bundled = json.loads(generated.files["schema.json"])
        cases = option_cases(generated.hierarchy, module, bundled, lambda d: refusals(module, d))
    summary = coverage(cases)
    failed = sorted((f["union"], f["option"]) for f in summary["failures"])
    not_built = "\n".join(
        f"  {n['union']} option {n['option']} ({n['type']}) at {n['pointer'] or '(an enum or type list)'}: {n['reason']}"
        for n in summary["not_built"]
    )
    found = (summary["built"], summary["options"])
    print(f"{name}: built {found}, failed {failed}\n{not_built}")
    assert all(n["reason"] for n in summary["not_built"])
    assert failed == sorted(KNOWN_FAILURES.get(name, ())), summary
    if name in DERIVED_SAMPLE:
        assert found == BUILT[name], f"built {found}; not built:\n{not_built}"
