"""generated/ is always exactly what the compiler produces from schemas/."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import run_zomgen
from tests.support.convert_branches import unreachable_branches
from tests.support.paths import ROOT
from tests.support.scripts import load_script
from zomgen.write import stale, with_manifest

pytestmark = pytest.mark.slow

regenerate = load_script("regenerate")
conventions, package_files = regenerate.conventions, regenerate.package_files

PAIRS = conventions()


def test_every_bundled_convention_has_a_package() -> None:
    names = {out.name for _schema, out in PAIRS}
    assert names >= {"xarray_v2", "xarray_v3"}
    on_disk = {p.name for p in (ROOT / "generated").iterdir() if p.is_dir()}
    assert on_disk == names, "generated/ holds a package no schema produces (or misses one)"


@pytest.mark.parametrize("schema,out", PAIRS, ids=[o.name for _s, o in PAIRS])
def test_generated_package_is_current(schema: Path, out: Path) -> None:
    # With the manifest of what zomgen wrote, which the write adds (zomgen/write.py).
    files = with_manifest(package_files(schema, out.name))
    diffs = stale(files, out)
    assert not diffs, "generated/ drifted; run `python scripts/regenerate.py`:\n" + "".join(diffs)
    on_disk = {
        p.relative_to(out).as_posix()
        for p in out.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert on_disk == set(files), f"files zomgen does not generate: {sorted(on_disk - set(files))}"


@pytest.mark.parametrize("schema,out", PAIRS, ids=[o.name for _s, o in PAIRS])
def test_build_check_agrees(schema: Path, out: Path) -> None:
    # The package and its checked-in derived cases, as `zomgen build --cases` compares them.
    cases = ROOT / "typecheck_cases" / "derived"
    command = ["build", str(schema), "-o", str(out), "--cases", str(cases), "--check"]
    result = run_zomgen(*command)
    assert result.returncode == 0, result.stdout + result.stderr


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
