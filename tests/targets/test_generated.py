"""generated/ is always exactly what the compiler produces from schemas/, and
typecheck_cases/derived/ holds exactly the cases it derives for them: one derivation per
bundled convention gives both (`zomgen build --cases`'s package README carries the agreement
report of those cases). The compiler cases' derived cases are compared in
tests/typecheck/test_derived_cases.py, which derives them."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from tests.support.convert_branches import unreachable_branches
from tests.support.paths import ROOT
from tests.support.scripts import load_script
from zomgen.cases.derive import derive
from zomgen.write import stale, with_manifest

pytestmark = pytest.mark.slow

conventions = load_script("regenerate").conventions
derive_cases = load_script("derive_cases")
# typecheck_cases/derived/'s files, read once for all the conventions compared below.
checked_in_cases = functools.cache(lambda: derive_cases.case_files(derive_cases.DERIVED))

PAIRS = conventions()


def test_every_bundled_convention_has_a_package() -> None:
    names = {out.name for _schema, out in PAIRS}
    assert names >= {"xarray_v2", "xarray_v3"}
    on_disk = {p.name for p in (ROOT / "generated").iterdir() if p.is_dir()}
    assert on_disk == names, "generated/ holds a package no schema produces (or misses one)"


@pytest.mark.parametrize("schema,out", PAIRS, ids=[o.name for _s, o in PAIRS])
def test_generated_package_and_its_derived_cases_are_current(
    schema: Path, out: Path, tmp_path: Path
) -> None:
    derived = derive(schema, tmp_path, (), out.name)  # what `zomgen build --cases` writes
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
