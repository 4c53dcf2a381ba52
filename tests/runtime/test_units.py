"""Problem objects, error types, pointers and the member tree, as plain units."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from zomgen_runtime import (
    Problem,
    StoreError,
    ZomError,
    format_problems_text,
    named_member_tree,
    problems_to_json,
)
from zomgen_runtime.pointers import match, parse_pointer, split_node_pointer, to_pointer

from tests.support.runtime import ROOT, convention


def test_problem_is_plain_printable_json_data() -> None:
    problem = Problem(
        "/labels/cells/0", "/attributes/units", "'x' is not of type 'number'", "type", "/$defs/A"
    )
    assert str(problem) == "/labels/cells/0: /attributes/units: 'x' is not of type 'number'"
    assert str(Problem("/", "", "no node", "read")) == "/: no node"
    assert problem.to_json() == {
        "node_path": "/labels/cells/0",
        "pointer": "/attributes/units",
        "message": "'x' is not of type 'number'",
        "keyword": "type",
        "schema_path": "/$defs/A",
    }
    assert json.loads(problems_to_json([problem])) == [problem.to_json()]
    assert problem == Problem(**problem.to_json())  # a value: equal when its fields are
    with pytest.raises(AttributeError):
        problem.message = "changed"  # type: ignore[misc]


def test_error_lists_every_problem_and_truncates_past_fifty() -> None:
    problems = [Problem(f"/a{i}", "", f"bad {i}", "read") for i in range(120)]
    error = ZomError(problems)
    assert isinstance(error, ValueError)
    assert error.problems == problems
    text = str(error)
    assert text.startswith("120 problems:")
    assert "/a49: bad 49" in text and "/a50: bad 50" not in text
    assert "... and 70 more problems" in text
    assert issubclass(StoreError, ZomError)
    assert format_problems_text(problems[:2]) == "/a0: bad 0\n/a1: bad 1"


@pytest.mark.parametrize(
    ("segments", "expected"),
    [
        ([], ("/", "")),
        (["attributes", "units"], ("/", "/attributes/units")),
        (["members"], ("/", "/members")),
        (["members", "labels"], ("/labels", "")),
        (
            ["members", "labels", "members", "cells", "members", "0", "attributes", "x"],
            ("/labels/cells/0", "/attributes/x"),
        ),
        (["members", "a/b", "shape", 0], ("/a/b", "/shape/0")),
        (["attributes", "members", "x"], ("/", "/attributes/members/x")),
    ],
)
def test_split_node_pointer(segments: list[str | int], expected: tuple[str, str]) -> None:
    assert split_node_pointer(segments) == expected


def test_pointer_escaping_round_trips() -> None:
    assert to_pointer(["a/b", "c~d", 0]) == "/a~1b/c~0d/0"
    assert parse_pointer("/a~1b/c~0d/0") == ["a/b", "c~d", "0"]
    assert parse_pointer("") == []


def test_match_wildcards_in_document_order() -> None:
    doc = {"m": [{"d": [{"p": "0"}, {"p": "1"}]}, {"d": [{"p": "2"}]}, {"x": 1}]}
    assert list(match(doc, parse_pointer("/m/*/d/*/p"))) == [
        (("m", 0, "d", 0, "p"), "0"),
        (("m", 0, "d", 1, "p"), "1"),
        (("m", 1, "d", 0, "p"), "2"),
    ]
    assert list(match(doc, parse_pointer("/m/1/d/0/p"))) == [(("m", 1, "d", 0, "p"), "2")]
    assert list(match(doc, parse_pointer("/m/01/d"))) == []  # not an RFC 6901 index
    assert list(match(doc, parse_pointer("/nothing/*"))) == []


def test_member_tree_follows_refs_allof_and_names_from_the_document() -> None:
    tree = named_member_tree(convention("named-members"))
    names = tree.names({"attributes": {}})
    assert set(names) == {"raw", "labels"}
    labels = tree.child("labels", names["labels"])
    assert set(labels.names({})) == {"cells"}
    ome = named_member_tree(convention("ome-0.4-image"))
    document = {"attributes": {"multiscales": [{"datasets": [{"path": "0"}, {"path": "s/1"}]}]}}
    assert ome.names(document) == {"0": {}, "s": {"1": {}}}


def test_importing_the_runtime_imports_no_heavy_module() -> None:
    script = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import zomgen_runtime\n"
        "heavy = sorted(m for m in set(sys.modules) - before if m.split('.')[0] in "
        "('zarr', 'numpy', 'fsspec', 'jsonschema', 'jsonschema_rs', 'referencing'))\n"
        "assert not heavy, heavy\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


def test_reading_a_local_folder_does_not_import_zarr(tmp_path: object) -> None:
    script = (
        "import sys, json, pathlib, tempfile\n"
        "from zomgen_runtime import read_document\n"
        "d = pathlib.Path(tempfile.mkdtemp())\n"
        "(d / 'zarr.json').write_text(json.dumps("
        "{'zarr_format': 3, 'node_type': 'group', 'attributes': {}}))\n"
        "doc, problems = read_document(str(d))\n"
        "assert doc is not None and not problems, problems\n"
        "assert 'zarr' not in sys.modules\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
