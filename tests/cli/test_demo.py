"""The README's first command works: scripts/demo.sh builds the bundled xarray-v3 convention,
writes a store with xarray, loads it with the generated package, and checks the same document
with the package's validate.ts under Node."""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.support.paths import ROOT

pytestmark = pytest.mark.node


def test_the_demo_runs() -> None:
    result = subprocess.run(
        ["bash", "scripts/demo.sh"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "ZOMGEN_DEMO_SKIP_SETUP": "1"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert "temperature: dims=('time', 'y', 'x') shape=(2, 3, 4) dtype=float32" in lines
    assert "0 problems: the store follows the xarray-v3 convention" in lines
    assert any(line.startswith("validate.ts: 0 problems; isXarrayDataset: true") for line in lines)
    assert any(
        line.startswith("validate.ts, broken copy: /temperature:") and "dimension_names" in line
        for line in lines
    )
