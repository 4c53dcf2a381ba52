"""Keys beside the Zarr spec's own on a node are never dropped.

Some writers keep keys of their own in `.zgroup` and `.zarray` (the v2 spec: they SHOULD NOT be
there, and readers ignore them; zarr-python opens such stores), and a v3 node may carry
extension fields (`"must_understand": false`). A convention may declare such a key: it is then a
field of the node's model, TypedDict and TypeScript type (tests/cases/writer-keys pins them).
Undeclared, it is kept in the model's `extensions`. Either way `dump(load(x))` is `x`, `parse`
takes the dump back, and `create` writes what `load` reads back.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import zarr
from zomgen_runtime import read_document

from tests.support.cli import build_package
from tests.support.packages import import_package, imported
from tests.support.paths import CASES, GENERATED, ROOT

DERIVED = ROOT / "typecheck_cases" / "derived"
# Every bundled convention whose derived cases are checked in (the valid hierarchy below is
# theirs); scripts/derive_cases.py's NOT_DERIVED says why AnnData's and SpatialData's are not.
BUNDLED = sorted(
    p.name
    for p in GENERATED.iterdir()
    if (p / "__init__.py").is_file() and (DERIVED / f"{p.name}_cases").is_dir()
)


def _exact(document: Any) -> str:
    """The document as JSON text, key order aside: `true` and `1`, `1.0` and `1` differ."""
    return json.dumps(document, sort_keys=True, ensure_ascii=False)


def _add_key(file: Path, key: str, value: Any) -> None:
    """What another writer does: one more key in a metadata file zarr-python wrote."""
    metadata = json.loads(file.read_text("utf-8"))
    metadata[key] = value
    file.write_text(json.dumps(metadata), "utf-8")


def _round_trips(pkg: ModuleType, store: Path, tmp_path: Path) -> Any:
    """Load the store; its dump is the document the store holds, `parse` takes the dump back,
    and `create` writes a store that loads to the same document. Returns the model."""
    document, problems = read_document(str(store))
    assert problems == [] and document is not None
    model = pkg.load(str(store))
    assert _exact(pkg.dump(model)) == _exact(document)
    assert pkg.parse(pkg.dump(model)) == model
    copy = tmp_path / "created.zarr"
    pkg.create(model, str(copy))
    assert _exact(pkg.dump(pkg.load(str(copy)))) == _exact(document)
    return model


@pytest.fixture(scope="module")
def survey(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("writer_keys")
    build_package(CASES / "writer-keys" / "schema.json", out / "writer_keys")
    with imported(out, "writer_keys") as (pkg,):
        yield pkg


def _survey_store(store: Path) -> None:
    root = zarr.open_group(store, mode="w", zarr_format=2)
    root.attrs["site"] = "north"
    counts = root.create_array("counts", shape=(4,), dtype="<u2", chunks=(2,))
    counts[:] = np.arange(4)
    _add_key(store / ".zgroup", "writer", "lab-scope 3.1")
    _add_key(store / ".zgroup", "revision", 2)
    _add_key(store / "counts" / ".zarray", "calibration", {"gain": 1.5, "offset": 0})
    _add_key(store / "counts" / ".zarray", "extensions", "a writer's key of that name")
    _add_key(store / "counts" / ".zarray", "operator", "ada")  # declared by no one


def test_keys_a_convention_declares_on_v2_nodes_are_fields(
    survey: ModuleType, tmp_path: Path
) -> None:
    store = tmp_path / "survey.zarr"
    _survey_store(store)
    assert zarr.open_group(store, mode="r")["counts"][:].tolist() == [0, 1, 2, 3]
    model = _round_trips(survey, store, tmp_path)
    assert (model.writer, model.revision) == ("lab-scope 3.1", 2)
    counts = model.members["counts"]
    assert counts.calibration == survey.models.CountsCalibration(gain=1.5, extras={"offset": 0})
    assert counts.extensions_2 == "a writer's key of that name"
    assert counts.extensions == {"operator": "ada"}  # kept, though no one declares it


def test_a_declared_key_is_checked_where_it_stands(survey: ModuleType, tmp_path: Path) -> None:
    store = tmp_path / "survey.zarr"
    _survey_store(store)
    _add_key(store / ".zgroup", "revision", 0)
    _add_key(store / "counts" / ".zarray", "calibration", {"offset": 0})
    with pytest.raises(survey.ZomError) as caught:
        survey.load(str(store))
    assert sorted((p.node_path, p.pointer, p.keyword) for p in caught.value.problems) == [
        ("/", "/revision", "minimum"),
        ("/counts", "/calibration", "required"),
    ]


V3_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Scan",
    "allOf": [{"$ref": "urn:zom:v3#/$defs/GroupSpec"}],
    "properties": {
        "members": {"additionalProperties": {"$ref": "#/$defs/Frame"}},
    },
    "$defs": {
        "Frame": {
            "allOf": [{"$ref": "urn:zom:v3#/$defs/ArraySpec"}],
            "properties": {
                "lab_calibration": {
                    "description": "A v3 extension field (core spec, 'Extensions').",
                    "type": "object",
                    "properties": {
                        "must_understand": {"const": False},
                        "gain": {"type": "number"},
                    },
                    "required": ["must_understand", "gain"],
                }
            },
            "required": ["lab_calibration"],
        }
    },
}


def test_an_extension_field_a_convention_declares_on_v3_nodes_is_a_field(
    tmp_path: Path,
) -> None:
    schema = tmp_path / "scan.json"
    schema.write_text(json.dumps(V3_SCHEMA), "utf-8")
    build_package(schema, tmp_path / "scan")
    types_ts = (tmp_path / "scan" / "types.ts").read_text("utf-8")
    assert "readonly lab_calibration: FrameLabCalibration;" in types_ts
    store = tmp_path / "scan.zarr"
    root = zarr.open_group(store, mode="w", zarr_format=3)
    root.create_array("frame", shape=(2, 2), dtype="float32")
    calibration = {"must_understand": False, "gain": 2.0}
    _add_key(store / "frame" / "zarr.json", "lab_calibration", calibration)
    assert zarr.open_array(store / "frame", mode="r").shape == (2, 2)
    # zarr-python 3.1 opens an array with an extension field, not yet a group with one.
    _add_key(store / "zarr.json", "lab_note", {"must_understand": False, "text": "undeclared"})
    with imported(tmp_path, "scan") as (pkg,):
        model = _round_trips(pkg, store, tmp_path)
        assert model.members["frame"].lab_calibration.gain == 2.0
        assert model.extensions == {"lab_note": {"must_understand": False, "text": "undeclared"}}


def _with_other_keys(node: Any) -> None:
    """Every node of the document with a key no convention declares: a writer's own in v2, an
    extension field in v3."""
    if not isinstance(node, dict):
        return
    if node.get("zarr_format") == 2:
        node["x_writer"] = {"tool": "lab", "version": [1, 2], "exact": 1.0}
    else:
        node["x_writer"] = {"must_understand": False, "tool": "lab"}
    for member in (node.get("members") or {}).values():
        _with_other_keys(member)


@pytest.mark.parametrize("name", BUNDLED)
def test_every_bundled_convention_keeps_the_keys_it_does_not_declare(
    name: str, tmp_path: Path
) -> None:
    cases = json.loads((DERIVED / f"{name}_cases" / "cases.json").read_text("utf-8"))
    document = cases["valid"]
    _with_other_keys(document)
    pkg = import_package(GENERATED, name)
    model = pkg.parse(document)
    assert _exact(pkg.dump(model)) == _exact(document)
    assert pkg.parse(pkg.dump(model)) == model
    pkg.create(model, str(tmp_path / "store.zarr"))
    assert _exact(pkg.dump(pkg.load(str(tmp_path / "store.zarr")))) == _exact(document)
