"""`zomgen validate --only PATTERN` checks part of a hierarchy; a long run on a terminal shows
how far it is, and nothing of it reaches a pipe."""

from __future__ import annotations

import json
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import run_zomgen
from tests.support.paths import CORPUS, ROOT
from zomgen.catalog.dispatch import validate_declared
from zomgen.catalog.patterns import node_pattern

HCS = CORPUS / "stores" / "ome2024-ngff-challenge" / "hcs.zarr"


@pytest.fixture
def broken_plate(tmp_path: Path) -> Path:
    """The OME 2024 challenge's plate (written by bioformats2raw), with one field of well B/2
    broken: its multiscale lists no datasets."""
    store = tmp_path / "hcs.zarr"
    shutil.copytree(HCS, store)
    attributes = store / "B" / "2" / "0" / ".zattrs"
    document = json.loads(attributes.read_text("utf-8"))
    document["multiscales"][0]["datasets"] = []
    attributes.write_text(json.dumps(document), "utf-8")
    return store


@pytest.mark.parametrize(
    ("pattern", "matched", "unmatched"),
    [
        ("/A/*", ["/A/1", "/A/2"], ["/", "/A", "/A/1/0", "/B/1"]),
        ("/**", ["/", "/A", "/A/1/0/0"], []),
        ("/**/0", ["/A/1/0", "/B/2/0/0"], ["/A/1", "/0/x"]),
        ("/?/1", ["/A/1", "/B/1"], ["/AB/1", "/A/2"]),
        ("/", ["/"], ["/A"]),
    ],
)
def test_patterns(pattern: str, matched: list[str], unmatched: list[str]) -> None:
    compiled = node_pattern(pattern)
    assert [p for p in matched if not compiled.matches(p)] == []
    assert [p for p in unmatched if compiled.matches(p)] == []


@pytest.mark.parametrize("pattern", ["A/1", "/A//1", ""])
def test_a_pattern_that_names_no_node_path_is_refused(pattern: str) -> None:
    result = run_zomgen("validate", HCS, "--only", pattern)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("zomgen: --only:") and "Traceback" not in result.stderr


def test_only_checks_the_nodes_it_names(broken_plate: Path) -> None:
    whole = validate_declared(broken_plate)
    assert {p.node_path for p in whole.problems} == {"/B/2/0"}, whole.problems

    wells_of_a = validate_declared(broken_plate, only=node_pattern("/A/*"))
    assert list(wells_of_a.nodes) == ["/A/1", "/A/2"]
    assert [a.entry.name for a in wells_of_a.nodes["/A/1"]] == ["ome-ngff-04-well"]
    assert wells_of_a.valid

    broken_well = validate_declared(broken_plate, only=node_pattern("/B/2"))
    assert list(broken_well.nodes) == ["/B/2"]
    assert {p.node_path for p in broken_well.problems} == {"/B/2/0"}

    fields = validate_declared(broken_plate, only=node_pattern("/*/*/*"))
    assert len(fields.nodes) == 8  # every field, each checked as an image
    assert {p.node_path for p in fields.problems} == {"/B/2/0"}


def test_only_with_a_schema_reports_the_nodes_it_names(broken_plate: Path) -> None:
    schema = ROOT / "schemas" / "ome-ngff-04-plate" / "schema.json"
    whole = run_zomgen("validate", broken_plate, "--schema", schema, "--format", "json")
    assert whole.returncode == 1
    assert {p["node_path"] for p in json.loads(whole.stdout)["problems"]} == {"/B/2/0"}
    elsewhere = run_zomgen("validate", broken_plate, "--schema", schema, "--only", "/A/**")
    assert elsewhere.returncode == 0, elsewhere.stdout


def _validate_on_a_terminal(store: Path) -> tuple[int, str, str]:
    """`zomgen validate STORE` with a pseudo-terminal as stderr: (exit code, stdout, what the
    terminal showed)."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "zomgen", "validate", str(store)],
        stdout=subprocess.PIPE,
        stderr=terminal,
        text=True,
    )
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # the terminal closed: the process is done with it
            break
        if not chunk:
            break
        shown += chunk
    stdout, _ = process.communicate(timeout=120)
    os.close(controller)
    return process.returncode, stdout, shown.decode()


def test_progress_on_a_terminal_and_not_in_a_pipe(broken_plate: Path) -> None:
    code, stdout, shown = _validate_on_a_terminal(broken_plate)
    assert code == 1
    assert "zomgen: read " in shown and " nodes" in shown
    assert shown.endswith("\r\x1b[K")  # the line erased before the report
    assert "/B/2/0" in stdout and "zomgen: read" not in stdout

    piped = run_zomgen("validate", broken_plate)
    assert piped.returncode == 1
    assert piped.stderr == ""
