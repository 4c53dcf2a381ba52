"""What zomgen prints is safe to show in a terminal (zomgen/terminal.py).

Before (issue 53): a member named `ESC[2J ESC[8m` was printed raw, so `zomgen validate` cleared
the screen and hid what followed, the verdict line included; U+009B (a one-character CSI) and
U+202E (right-to-left override, `/agnp.exe` for `/exe.pnga`) went through as well. Now every
control and bidi character is printed as its `\\uXXXX` escape, in text and in `--format json`
(which stays valid JSON and parses to the names themselves).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support.cli import run_zomgen
from tests.support.paths import ROOT

NAMES = ("a\x1b[2J\x1b[8m", "b\x9b31m", "c\u202egnp.exe", "d\x07\r\x08")
# Any character a terminal acts on rather than shows, but the line feed.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# each member uses proj: undeclared, so the catalog's report names it too
GROUP = {
    "zarr_format": 3,
    "node_type": "group",
    "attributes": {"note": "\x1b]0;title\x07", "proj:code": "EPSG:4326"},
}


@pytest.fixture
def store(tmp_path: Path) -> Path:
    root = tmp_path / "s.zarr"
    root.mkdir()
    (root / "zarr.json").write_text(json.dumps(GROUP), "utf-8")
    for name in NAMES:
        (root / name).mkdir()
        (root / name / "zarr.json").write_text(json.dumps(GROUP), "utf-8")
    return root


@pytest.mark.parametrize("how", [(), ("--schema", str(ROOT / "schemas/xarray-v3/schema.json"))])
def test_names_and_values_cannot_drive_the_terminal(store: Path, how: tuple[str, ...]) -> None:
    result = run_zomgen("validate", store, *how)
    assert result.returncode in (1, 3), result.stdout + result.stderr
    assert not RAW.search(result.stdout + result.stderr), repr(result.stdout + result.stderr)
    last = result.stdout.rstrip("\n").splitlines()[-1]
    assert last.startswith(f"{store}: "), last  # the verdict line is there, and last
    assert "\\u001b[2J\\u001b[8m" in result.stdout or "\\x1b[2J" in result.stdout
    assert "\\u202egnp.exe" in result.stdout


def test_json_output_is_escaped_and_still_the_names(store: Path) -> None:
    schema = ROOT / "schemas/xarray-v3/schema.json"
    result = run_zomgen("validate", store, "--schema", schema, "--format", "json")
    assert not RAW.search(result.stdout), repr(result.stdout)
    report = json.loads(result.stdout)
    assert {p["node_path"] for p in report["problems"]} >= {f"/{n}" for n in NAMES[1:3]}
