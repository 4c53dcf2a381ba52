"""`zomgen cases` on conventions the project does not pin: a fixed sample of the corpus wrapper
conventions (tests/corpus_conventions/, each referencing an official schema), derived and
checked by the runner as a user runs it (`python DIR/check_cases.py`, the default comparison):
every valid hierarchy accepted by all five checkers, every case the expectations call static
rejected by that checker, no finding on a line that is no mistake, and both run times refusing
every mutated document at its pointer.

The sample holds the conventions that taught the expectations something (unions with an open
option, integer fields under tsc, members typed as any JSON value, `if`/`then` requirements,
`contains`, patterns, OME-NGFF 0.6's space-axis `oneOf`). The whole corpus (136 conventions,
3,076 cases) takes about 25 minutes on two cores and is run on demand:
`ZOMGEN_DERIVED_CORPUS=all pytest tests/corpus/test_derived.py`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.corpus_wrappers import (
    DERIVED_CHOSEN,
    DERIVED_SAMPLE,
    WRAPPERS_TO_BUILD,
    includes_for,
)
from tests.support.paths import ROOT
from zomgen.cases.derive import derive

pytestmark = [
    pytest.mark.checkers,
    pytest.mark.node,
    pytest.mark.corpus,
    pytest.mark.slow,
]


def test_derived_cases_of_unpinned_conventions_hold(tmp_path: Path) -> None:
    total = 0
    for name in DERIVED_CHOSEN:
        schema = WRAPPERS_TO_BUILD[name]
        derived = derive(schema, tmp_path, tuple(includes_for(schema)), re.sub(r"\W", "_", name))
        assert derived.source == "synthesised", name
        assert derived.cases > 0, name
        total += derived.cases
    (tmp_path / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    bin_dir = Path(sys.executable).parent
    result = subprocess.run(
        [sys.executable, str(tmp_path / "check_cases.py")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"},
    )
    assert result.returncode == 0, result.stdout[-20000:] + result.stderr[-2000:]
    assert f"check_cases: {len(DERIVED_CHOSEN)} convention(s), {total} cases" in result.stdout
    for checker in ("mypy", "pyright", "pyrefly", "ty", "tsc"):
        assert f"  {checker}: as expected" in result.stdout, result.stdout
    assert "typescript run time: as expected" in result.stdout


@pytest.mark.parametrize("name", DERIVED_SAMPLE)
def test_the_sample_is_in_the_corpus(name: str) -> None:
    assert name in WRAPPERS_TO_BUILD
