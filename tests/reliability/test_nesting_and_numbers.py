"""How deep a metadata document may nest and how large its numbers may be: the same in both
run times, a problem that names the file, never a raw exception.

Before (issue 53): a 10,000-level attribute made the TypeScript `load` throw a raw `RangeError`;
Python stopped near 1,000 levels (as deep as its stack happened to allow) and its `dump` and
`create` raised `RecursionError` at 600; a 5,000-digit integer or 3,000 levels were unreadable
in Python but valid in TypeScript, which reads such an integer (and `1e400`) as an infinity.
Now both read at most 512 levels (jsontext.py, node_files.ts) and refuse a number no 64-bit
float holds; `dump` has no recursion left, and `create` refuses to write what would not be read
back, at its pointer, before anything is written.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from zomgen_runtime import read_document
from zomgen_runtime.jsontext import parse_object

from tests.support.node import HARNESS, compiled_runtime, require_toolchain
from tests.support.paths import ROOT
from zomgen.pipeline import Options, generate
from zomgen.write import write_package


def nested(levels: int) -> str:
    """A group whose attribute nests so that the whole file has `levels` levels."""
    inner = "[" * (levels - 2) + "]" * (levels - 2)
    return '{"zarr_format": 3, "node_type": "group", "attributes": {"a": ' + inner + "}}"


TEXTS = [
    nested(512),
    nested(513),
    nested(100_000),
    '{"a": 1e400}',
    '{"a": -1e400}',
    '{"a": 1e-400}',
    '{"a": 1.7976931348623157e308}',
    '{"a": ' + "9" * 5000 + "}",
    '{"a": ' + "9" * 400 + "}",
    '{"a": -' + "9" * 400 + "}",
    '{"a": ' + "9" * 308 + "}",
    '{"a": "' + "9" * 400 + '"}',
    '{"a": [' + ", ".join(["1"] * 100_000) + "]}",
    '{"a": NaN}',
]


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_toolchain()
    return compiled_runtime(tmp_path_factory.mktemp("runtime_ts"))


@pytest.mark.node
def test_both_run_times_read_the_same_texts_alike(runtime: Path) -> None:
    python = []
    for text in TEXTS:
        parsed = parse_object(text.encode(), "zarr.json")
        python.append(parsed if isinstance(parsed, str) else "ok")
    done = subprocess.run(
        ["node", str(runtime / "harness" / "parse_object.mjs")],
        input=json.dumps(TEXTS),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout) == python
    beyond = (
        "zarr.json holds a number beyond what a 64-bit float holds (it would read as an infinity)"
    )
    assert python == [
        "ok",
        "zarr.json nests deeper than 512 levels",
        "zarr.json nests deeper than 512 levels",
        beyond,
        beyond,
        "ok",
        "ok",
        beyond,
        beyond,
        beyond,
        "ok",
        "ok",
        "ok",
        'zarr.json: NaN is not JSON (Zarr writes it as the string "NaN")',
    ]


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The xarray-v3 package (Python), importable from the folder returned."""
    work = tmp_path_factory.mktemp("deep")
    schema = ROOT / "schemas" / "xarray-v3" / "schema.json"
    write_package(generate(Options(schema, (), "xv3")), work / "xv3")
    return work


_ROUND_TRIP = """
import json, sys, tempfile
sys.path.insert(0, sys.argv[1])
import xv3
from zomgen_runtime import ZomError
value = json.loads(sys.argv[2])
levels = int(sys.argv[3])
sys.setrecursionlimit(20_000)  # for `==` on deep lists, below
for _ in range(levels - 2):  # the node and `attributes` are two levels, each list one more
    value = [value]
document = {"zarr_format": 3, "node_type": "group", "attributes": {"a": value}, "members": {}}
store = tempfile.mkdtemp() + "/s.zarr"
model = xv3.parse(document)
same = xv3.dump(model) == document
try:
    xv3.create(model, store)
except ZomError as error:
    print(json.dumps({"same": same, "refused": [str(p) for p in error.problems]}))
else:
    print(json.dumps({"same": same, "loaded": xv3.dump(xv3.load(store)) == document}))
"""


def _round_trip(package: Path, value: object, levels: int) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _ROUND_TRIP, str(package), json.dumps(value), str(levels)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def test_a_document_as_deep_as_is_read_is_written_and_read_back(package: Path) -> None:
    assert _round_trip(package, "x", 512) == {"same": True, "loaded": True}


@pytest.mark.parametrize("levels", [513, 5_000])
def test_a_deeper_one_is_refused_at_its_pointer_before_any_write(
    package: Path, levels: int
) -> None:
    answer = _round_trip(package, "x", levels)
    [problem] = answer["refused"]  # type: ignore[misc]
    pointer = "/attributes/a" + "/0" * 510  # the 513th level
    assert problem == f"/: {pointer}: nests deeper than 512 levels: zomgen reads no file that deep"


def test_an_integer_no_float_holds_is_refused_before_any_write(package: Path) -> None:
    answer = _round_trip(package, 10**400, 2)
    assert answer["refused"] == [
        "/: /attributes/a: an integer of 1329 bits is beyond what a 64-bit float holds"
    ]


@pytest.mark.node
def test_a_10000_level_attribute_is_a_problem_in_both_loaders(tmp_path: Path) -> None:
    require_toolchain()
    store = tmp_path / "s.zarr"
    store.mkdir()
    (store / "zarr.json").write_text(nested(10_000), "utf-8")
    document, problems = read_document(str(store))
    assert document is None
    assert [str(p) for p in problems] == ["/: zarr.json nests deeper than 512 levels"]
    from zomgen.pipeline import generate_package
    from zomgen.targets.typescript.npm import NpmPackage

    schema = ROOT / "schemas" / "xarray-v3" / "schema.json"
    generated = generate_package(Options(schema, (), npm=NpmPackage("xarray-v3"), python=False))
    write_package(generated.files, tmp_path / "xarray-v3")
    (tmp_path / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    shutil.copy(HARNESS / "loader_twins.mjs", tmp_path / "loader_twins.mjs")
    job = {"package": str(tmp_path / "xarray-v3"), "store": str(store), "kind": "path"}
    done = subprocess.run(
        ["node", str(tmp_path / "loader_twins.mjs")],
        input=json.dumps([{**job, "options": {}}]),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    [result] = json.loads(done.stdout)
    assert [(p["node_path"], p["message"]) for p in result["read"]] == [
        ("/", "zarr.json nests deeper than 512 levels")
    ]
    assert result["storeError"]["name"] == "StoreError"
