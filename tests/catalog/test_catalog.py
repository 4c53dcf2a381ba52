"""The catalog itself: zomgen's bundled one loads and names real files; a user's catalog adds
conventions with their own schemas, resolved offline beside it; and a broken catalog is a
clear message naming the file and pointer, exit 2, no traceback, nothing checked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_zomgen
from zomgen.catalog.entries import bundled_catalog, load_catalogs
from zomgen.catalog.inline_schemas import inline_schema_problems
from zomgen.errors import CompileError

UUID = "12345678-1234-4234-8234-123456789abc"


def _group(attributes: dict[str, Any]) -> dict[str, Any]:
    return {"zarr_format": 3, "node_type": "group", "attributes": attributes}


def _store(folder: Path, attributes: dict[str, Any]) -> Path:
    """A one-group v3 store (metadata only, as zarr-python writes a group's zarr.json)."""
    folder.mkdir(parents=True)
    (folder / "zarr.json").write_text(json.dumps(_group(attributes)), "utf-8")
    return folder


def _catalog(folder: Path, conventions: object, schema: object | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    if schema is not None:
        (folder / "lab.schema.json").write_text(json.dumps(schema), "utf-8")
    path = folder / "catalog.json"
    path.write_text(json.dumps({"conventions": conventions}), "utf-8")
    return path


LAB_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "properties": {
        "attributes": {
            "properties": {"lab:sample": {"type": "string", "pattern": "^S[0-9]+$"}},
            "required": ["lab:sample"],
        }
    },
}
LAB_ENTRY = {
    "name": "lab:",
    "uuid": UUID,
    "namespace": {"style": "prefixed", "key": "lab:"},
    "schema": "lab.schema.json",
}


def _declaring(sample: str) -> dict[str, Any]:
    return {"zarr_conventions": [{"uuid": UUID, "name": "lab:"}], "lab:sample": sample}


def test_the_bundled_catalog_names_files_that_exist() -> None:
    entries = load_catalogs([])
    names = {e.name for e in entries}
    assert {"multiscales", "proj:", "spatial:", "CF", "license", "uom", "NZ-1.0"} <= names
    assert {"dggs", "stac:", "template", "ref", "xarray-v3", "cf-grid-v2"} <= names
    assert {f"ome-ngff-0{v}-{r}" for v in (4, 5) for r in ("image", "plate", "well")} <= names
    for entry in entries:
        for schema in (entry.schema, entry.strict_schema):
            assert schema is None or schema.is_file(), entry.name
    # Every entry without a local schema, and why: STAC's are remote; cs publishes none zomgen
    # can use (docs/catalog.md, "The geo conventions"); OME-Zarr is the undeclared use.
    assert [e.name for e in entries if e.schema is None] == [
        "cs",
        "stac:",
        "OME-Zarr",
    ]
    uuids = [e.uuid for e in entries if e.uuid]
    assert len(uuids) == len(set(uuids))


def test_the_bundled_catalog_is_in_the_registrys_shape() -> None:
    """The registry's entry fields keep the registry's types (a user's tool can read them)."""
    data = json.loads(bundled_catalog().read_text("utf-8"))
    for item in data["conventions"]:
        for key in ("uuid", "schema_url", "spec_url", "maturity", "version"):
            assert key not in item or isinstance(item[key], str)
        if "namespace" in item:
            assert item["namespace"]["style"] in ("nested", "prefixed")


def test_a_users_catalog_checks_its_own_convention(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path / "mine", [LAB_ENTRY], LAB_SCHEMA)
    good = _store(tmp_path / "good.zarr", _declaring("S12"))
    bad = _store(tmp_path / "bad.zarr", _declaring("twelve"))

    ok = run_zomgen("validate", good, "--catalog", catalog)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "/: lab: (declared)" in ok.stdout

    wrong = run_zomgen("validate", bad, "--catalog", catalog, "--format", "json")
    assert wrong.returncode == 1, wrong.stderr
    report = json.loads(wrong.stdout)
    assert report["valid"] is False
    assert report["nodes"] == [
        {"node_path": "/", "conventions": [{"name": "lab:", "uuid": UUID, "how": "declared"}]}
    ]
    assert [(p["node_path"], p["pointer"]) for p in report["problems"]] == [
        ("/", "/attributes/lab:sample")
    ]

    # Without the catalog the declaration is unknown: nothing checked, which is no "valid":
    # exit 3, the declaration named where it stands.
    unknown = run_zomgen("validate", bad)
    assert unknown.returncode == 3, unknown.stderr
    expected = f"not checked: /: /attributes/zarr_conventions/0: declares uuid {UUID} (lab:)"
    assert f"{expected}, which the catalog does not know" in unknown.stdout


@pytest.mark.parametrize(
    ("contents", "pointer", "message"),
    [
        ("{not json", "/", "not JSON"),
        ("[]", "/", 'an object with a "conventions" list'),
        (json.dumps({"conventions": ["x"]}), "/conventions/0", "an entry is an object"),
        (json.dumps({"conventions": [{"uuid": UUID}]}), "/conventions/0/name", "needs a name"),
        (json.dumps({"conventions": [{"name": "x"}]}), "/conventions/0", "give at least one"),
        (
            json.dumps({"conventions": [{"name": "x", "uuid": 7}]}),
            "/conventions/0/uuid",
            "must be a string",
        ),
        (
            json.dumps({"conventions": [{"name": "x", "uuid": UUID, "schema": "nowhere.json"}]}),
            "/conventions/0/schema",
            "no such schema file",
        ),
        (
            json.dumps(
                {"conventions": [{"name": "x", "uuid": UUID, "namespace": {"style": "odd"}}]}
            ),
            "/conventions/0/namespace",
            '"nested" or "prefixed"',
        ),
        (
            json.dumps({"conventions": [{"name": "x", "used_when": True}]}),
            "/conventions/0/used_when",
            "must be a JSON Schema",
        ),
        (
            json.dumps({"conventions": [{"name": "x", "uuid": UUID} for _ in range(1001)]}),
            "/conventions",
            "more than 1000 entries",
        ),
    ],
)
def test_a_broken_catalog_is_refused_by_name(
    tmp_path: Path, contents: str, pointer: str, message: str
) -> None:
    catalog = tmp_path / "broken.json"
    catalog.write_text(contents, "utf-8")
    store = _store(tmp_path / "s.zarr", _declaring("S1"))
    before = sorted(p.name for p in store.iterdir())

    result = run_zomgen("validate", store, "--catalog", catalog)

    assert result.returncode == 2, result.stdout
    assert f"{catalog}:{pointer}: " in result.stderr and message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    assert sorted(p.name for p in store.iterdir()) == before  # nothing written


def test_a_composition_cycle_is_refused(tmp_path: Path) -> None:
    other = "22345678-1234-4234-8234-123456789abc"
    catalog = _catalog(
        tmp_path,
        [
            {"name": "a", "uuid": UUID, "composes": [other]},
            {"name": "b", "uuid": other, "composes": [UUID]},
        ],
    )
    with pytest.raises(CompileError) as raised:
        load_catalogs([catalog])
    (problem,) = raised.value.problems
    assert problem.pointer == "/conventions/0/composes"
    assert problem.message == "cycle: a -> b -> a"


def test_catalog_and_schema_are_not_mixed(tmp_path: Path) -> None:
    store = _store(tmp_path / "s.zarr", {})
    catalog = _catalog(tmp_path / "c", [LAB_ENTRY], LAB_SCHEMA)
    schema = tmp_path / "c" / "lab.schema.json"
    result = run_zomgen("validate", store, "--schema", schema, "--catalog", catalog)
    assert result.returncode == 2
    assert "--catalog applies where the store says its conventions" in result.stderr
    result = run_zomgen("validate", store, "-I", tmp_path)
    assert result.returncode == 2
    assert "-I resolves a --schema's references" in result.stderr


def test_the_bundled_catalogs_inline_schemas_hold_what_a_users_must() -> None:
    """A user's `declared_when`/`used_when` are checked against the meta-schema at each start;
    the bundled catalog's here, once (entries.py skips it for them: 30 ms a start)."""
    path = bundled_catalog()
    data = json.loads(path.read_text("utf-8"))
    checked = 0
    for index, item in enumerate(data["conventions"]):
        for key in ("declared_when", "used_when"):
            if key in item:
                pointer = f"/conventions/{index}/{key}"
                assert inline_schema_problems(str(path), pointer, item[key]) == []
                checked += 1
    assert checked >= 19


def test_a_users_convention_with_rules_in_cel(tmp_path: Path) -> None:
    """A catalog convention's rules in CEL run under `zomgen validate`: a rule that fails is a
    problem naming its rule; one past the Python engine's 10,000 iterations leaves the node not
    checked (exit 3), never valid, never invalid."""
    rule = (
        "self.attributes['lab:wells'].all(a, self.attributes['lab:wells'].all(b, a == b || a != b))"
    )
    schema = LAB_SCHEMA | {
        "x-zomgen-rules": [
            {"rule": "self.attributes['lab:sample'].size() <= 4", "message": "a short sample id"},
            {"rule": rule},
        ]
    }
    catalog = _catalog(tmp_path / "mine", [LAB_ENTRY], schema)
    good = _store(tmp_path / "good.zarr", _declaring("S12") | {"lab:wells": ["A1", "A2"]})
    long = _store(tmp_path / "long.zarr", _declaring("S12345") | {"lab:wells": []})
    many = _store(tmp_path / "many.zarr", _declaring("S1") | {"lab:wells": list(range(101))})

    assert run_zomgen("validate", good, "--catalog", catalog).returncode == 0
    wrong = run_zomgen("validate", long, "--catalog", catalog, "--format", "json")
    assert wrong.returncode == 1, wrong.stderr
    (problem,) = json.loads(wrong.stdout)["problems"]
    assert (problem["message"], problem["rule"], problem["convention"]) == (
        "a short sample id",
        "self.attributes['lab:sample'].size() <= 4",
        "lab:",
    )
    unchecked = run_zomgen("validate", many, "--catalog", catalog, "--format", "json")
    assert unchecked.returncode == 3, unchecked.stdout + unchecked.stderr
    report = json.loads(unchecked.stdout)
    assert report["status"] == "not fully checked" and report["problems"] == []
    assert [u["reason"] for u in report["unchecked"]] == ["rule budget"]
    assert f"the rule {rule} was not evaluated" in report["unchecked"][0]["message"]
