"""A convention's pattern cannot hold a check, on any surface.

Before (issue 53): a convention with `pattern: ^(a+)+$` on an attribute and a store holding a
31-character value hung python-jsonschema (the Python reference engine) and validate.ts (Ajv's
RegExp), and `zomgen build` said nothing. Now both run times match every pattern with RE2 in
linear time (tests/runtime/test_patterns.py holds the two spellings alike), so the CLI and the
Node loader report the value at once; a pattern RE2 cannot match is refused by `zomgen build`.
The store is written by zarr-python; the value is 5,001 characters.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import zarr

from tests.support.cli import run_zomgen
from tests.support.node import HARNESS, require_toolchain
from tests.support.paths import ROOT
from zomgen.pipeline import Options, generate_package
from zomgen.targets.typescript.npm import NpmPackage
from zomgen.write import write_package

VALUE = "a" * 5000 + "!"


def convention(tag_pattern: str) -> dict[str, object]:
    return {
        "title": "Tagged",
        "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
        "properties": {
            "attributes": {
                "type": "object",
                "properties": {"tag": {"type": "string", "pattern": tag_pattern}},
                "patternProperties": {"^(a|aa)+$": {"type": "integer"}},
            }
        },
    }


# generous: a backtracking engine needs longer than the age of the universe on this value
BOUND = 60


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    work = tmp_path_factory.mktemp("patterns")
    schema = work / "tagged.json"
    schema.write_text(json.dumps(convention("^(a+)+$")), "utf-8")
    store = work / "s.zarr"
    group = zarr.open_group(store, mode="w", zarr_format=3)
    group.attrs.update({"tag": VALUE, VALUE: "x"})
    return schema, store


def test_validate_reports_the_value_at_once(setup: tuple[Path, Path]) -> None:
    schema, store = setup
    result = run_zomgen("validate", store, "--schema", schema, "--format", "json", timeout=BOUND)
    assert result.returncode == 1, result.stderr
    problems = json.loads(result.stdout)["problems"]
    # the key VALUE matches no `patternProperties` pattern either: found so in linear time too
    assert [(p["pointer"], p["keyword"]) for p in problems] == [("/attributes/tag", "pattern")]


@pytest.mark.node
def test_the_node_loader_reports_the_value_at_once(
    setup: tuple[Path, Path], tmp_path: Path
) -> None:
    require_toolchain()
    schema, store = setup
    generated = generate_package(Options(schema, (), npm=NpmPackage("tagged"), python=False))
    write_package(generated.files, tmp_path / "tagged")
    (tmp_path / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    shutil.copy(HARNESS / "loader_twins.mjs", tmp_path / "loader_twins.mjs")
    job = {"package": str(tmp_path / "tagged"), "store": str(store), "kind": "path", "options": {}}
    done = subprocess.run(
        ["node", str(tmp_path / "loader_twins.mjs")],
        input=json.dumps([job]),
        capture_output=True,
        text=True,
        timeout=BOUND,
        check=False,
    )
    [result] = json.loads(done.stdout)
    problems = result["problems"]
    assert [(p["pointer"], p["keyword"]) for p in problems] == [("/attributes/tag", "pattern")]


def test_build_refuses_a_pattern_only_a_backtracking_engine_matches(tmp_path: Path) -> None:
    schema = tmp_path / "s.json"
    schema.write_text(json.dumps(convention("^(a+)\\1$")), "utf-8")
    result = run_zomgen("build", schema, "-o", tmp_path / "pkg", timeout=BOUND)
    assert result.returncode == 2
    expected = (
        f"zomgen: {schema}:/properties/attributes/properties/tag/pattern: not valid JSON Schema "
        "(2020-12): the pattern '^(a+)\\\\1$' is refused: a back reference, which only a "
        "backtracking engine matches"
    )
    assert result.stderr.splitlines() == [expected]
    assert not (tmp_path / "pkg").exists()
