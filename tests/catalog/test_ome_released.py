"""OME-Zarr 0.6 as released and 0.9.dev1 (a development version) in the catalog, on stores
ngff-zarr writes (image, plate, the same plate zipped as `.ozx`, scene), valid and broken, in
`zomgen validate`, its Python API and the generated packages; and the 0.6rc0 conformance cases
moved to each version (docs/catalog.md, "OME-Zarr versions").

The ome-ngff-06-* conventions vendor 0.6 as released. A node declaring 0.6rc0 is checked by
them too: 0.6's own `_version.schema` lists `0.6rc0`, and the files differ from 0.6rc0's only
in their `$id`s, descriptions and the spelling of one `$ref` (proved below), so the rules are
the same.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import StoreError

from tests.support.ome_released import RELEASED, edit, with_version, write_stores
from tests.support.packages import import_package
from tests.support.paths import CORPUS, ROOT
from zomgen.catalog.dispatch import validate_attributes, validate_declared
from zomgen.catalog.entries import load_catalogs
from zomgen.catalog.ome_versions import PUBLISHED

SCHEMAS = ROOT / "schemas"
NGFF = CORPUS / "ome-ngff"
KINDS = ("image", "plate", "well", "bf2raw", "scene")
ZOMGEN = [sys.executable, "-m", "zomgen", "validate"]


def _vendored(version: str) -> list[Path]:
    infix = RELEASED[version]
    folders = [*SCHEMAS.glob(f"ome-ngff-{infix}-*"), SCHEMAS / "catalog" / f"ome-ngff-{infix}"]
    return sorted(f for folder in folders for f in folder.glob("*.schema") if not f.is_symlink())


@pytest.mark.parametrize("version", RELEASED)
def test_the_vendored_schemas_are_the_versions_own(version: str) -> None:
    """Byte for byte the files ngff-zarr 0.50.0 bundles (the corpus MANIFEST)."""
    vendored = _vendored(version)
    assert len(vendored) >= 13
    for file in vendored:
        assert file.read_bytes() == (NGFF / version / "schemas" / file.name).read_bytes(), file


def _rules(value: Any, version: str) -> Any:
    """A schema with what does not change a verdict taken out: descriptions, and the version in
    `$id`s and `$ref`s (0.6 writes its `$ref`s absolute, 0.6rc0 one of them relative)."""
    if isinstance(value, list):
        return [_rules(item, version) for item in value]
    if not isinstance(value, dict):
        return value
    prefix = f"https://ngff.openmicroscopy.org/{version}/schemas/"
    found: dict[str, Any] = {}
    for key, item in value.items():
        if key == "description":
            continue
        if key in ("$id", "$ref") and isinstance(item, str):
            item = item.removeprefix(prefix)
        found[key] = _rules(item, version)
    return found


def test_0_6_checks_0_6rc0_by_the_same_rules() -> None:
    """Why the 0.6rc0 catalog entries use 0.6's files: the same rules, and a version schema that
    admits both."""
    released = NGFF / "0.6" / "schemas"
    for file in sorted(released.glob("*.schema")):
        candidate = json.loads((NGFF / "0.6rc0" / "schemas" / file.name).read_text("utf-8"))
        final = json.loads(file.read_text("utf-8"))
        if file.name == "_version.schema":
            assert final["enum"] == ["0.6", "0.6rc0"] and candidate["enum"] == ["0.6rc0"]
            continue
        assert _rules(final, "0.6") == _rules(candidate, "0.6rc0"), file.name


def test_the_catalog_checks_every_version_and_marks_the_development_one() -> None:
    entries = [e for e in load_catalogs([]) if (e.family or "").startswith("ome-zarr")]
    by_version: dict[str | None, set[str]] = {}
    for entry in entries:
        by_version.setdefault(entry.version, set()).add(entry.name)
    assert by_version["0.6"] == by_version["0.6rc0"] == {f"ome-ngff-06-{k}" for k in KINDS}
    assert by_version["0.9.dev1"] == {f"ome-ngff-09dev1-{k}" for k in KINDS}
    maturity = {e.version: e.maturity for e in entries}
    assert maturity["0.9.dev1"] == "development" and maturity["0.6"] is None
    assert {"0.6", "0.9.dev1"} <= set(PUBLISHED)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Path]]:
    """version -> kind -> a store ngff-zarr wrote."""
    return {v: write_stores(tmp_path_factory.mktemp(v), v) for v in RELEASED}


def _applied(report: Any) -> dict[str, list[str]]:
    return {path: sorted(a.entry.label for a in found) for path, found in report.nodes.items()}


@pytest.mark.parametrize("version", RELEASED)
@pytest.mark.parametrize("kind", ["image", "plate", "plate-zipped", "scene"])
def test_a_store_ngff_zarr_writes_is_valid(
    written: dict[str, dict[str, Path]], version: str, kind: str
) -> None:
    infix = RELEASED[version]
    report = validate_declared(written[version][kind])
    assert report.problems == [] and report.warnings == [] and report.valid
    convention = f"ome-ngff-{infix}-{kind.removesuffix('-zipped')}"
    assert _applied(report)["/"] == [f"{convention} {version}"]
    # the wells, fields and levels below are checked as the root's (one family of conventions);
    # only the levels' own arrays are xarray's too
    assert {p for p, found in _applied(report).items() if "xarray-v3" not in found} == {"/"}


@pytest.mark.parametrize("version", RELEASED)
@pytest.mark.parametrize("kind", ["image", "plate", "plate-zipped", "scene"])
def test_the_strict_schemas_of_the_version_apply(
    written: dict[str, dict[str, Path]], version: str, kind: str
) -> None:
    """ngff-zarr writes an image's strict keys (`name`, `type`, `metadata`); the plate it was
    given here has an acquisition without `maximumfieldcount`, which only the strict rules
    require."""
    report = validate_declared(written[version][kind], strict=True)
    rows = [(p.node_path, p.pointer, p.message) for p in report.problems]
    if kind.startswith("plate"):
        pointer = "/attributes/ome/plate/acquisitions/0"
        assert rows == [("/", pointer, "'maximumfieldcount' is a required property")]
        label = f"ome-ngff-{RELEASED[version]}-plate {version} (strict)"
        assert [p.convention for p in report.problems] == [label]
    else:
        assert rows == [] and report.valid


@pytest.mark.parametrize("version", RELEASED)
@pytest.mark.parametrize("kind", ["image", "plate", "scene"])
def test_the_generated_package_loads_it(
    written: dict[str, dict[str, Path]], version: str, kind: str
) -> None:
    package = import_package(ROOT / "generated", f"ome_ngff_{RELEASED[version]}_{kind}")
    loaded = package.load(written[version][kind])
    title = {"06": "OmeZarr06", "09dev1": "OmeZarr09Dev1"}[RELEASED[version]]
    assert type(loaded).__name__ == f"{title}{kind.capitalize()}"
    assert loaded.attributes.ome.version == version


def test_the_command_names_what_it_checked(written: dict[str, dict[str, Path]]) -> None:
    for version, stores in written.items():
        result = subprocess.run(
            [*ZOMGEN, str(stores["image"])], capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stdout + result.stderr
        assert f"/: ome-ngff-{RELEASED[version]}-image (declared)" in result.stdout
        assert result.stdout.splitlines()[-1].endswith(
            "valid (5 nodes read, 3 convention checks on 3 nodes)"
        )


def _no_level(ome: dict[str, Any]) -> None:
    ome["multiscales"][0]["datasets"][1]["path"] = "scale9/image"


def _missing_well(ome: dict[str, Any]) -> None:
    plate = ome["plate"]
    plate["columns"].append({"name": "3"})
    plate["wells"].append({"path": "A/3", "rowIndex": 0, "columnIndex": 2})


def _unknown_image(ome: dict[str, Any]) -> None:
    ome["scene"]["coordinateTransformations"][1]["input"]["path"] = "middle"


def _orientation(ome: dict[str, Any]) -> None:
    axis = ome["multiscales"][0]["coordinateSystems"][0]["axes"][0]
    axis["orientation"] = {"type": "anatomical", "value": "up-to-down"}


# (kind, node edited, the edit, the problem's pointer, a part of its message)
BREAKAGES: list[tuple[str, str, Callable[[dict[str, Any]], None], str, str]] = [
    ("image", "", _no_level, "/attributes/ome/multiscales/0/datasets/1/path", "no member"),
    ("plate", "", _missing_well, "/attributes/ome/plate/wells/2/path", "no member"),
    ("scene", "", _unknown_image, "/attributes/ome/scene/coordinateTransformations/1", ""),
]


@pytest.mark.parametrize("version", RELEASED)
@pytest.mark.parametrize(
    ("kind", "node", "change", "pointer", "said"), BREAKAGES, ids=[b[0] for b in BREAKAGES]
)
def test_a_broken_store_is_told_where(
    tmp_path: Path,
    written: dict[str, dict[str, Path]],
    version: str,
    kind: str,
    node: str,
    change: Callable[[dict[str, Any]], None],
    pointer: str,
    said: str,
) -> None:
    store = shutil.copytree(written[version][kind], tmp_path / "store")
    edit(store, node, change)
    report = validate_declared(store)
    assert not report.valid
    found = [p for p in report.problems if p.node_path == f"/{node}" and p.pointer == pointer]
    assert found or [p for p in report.problems if p.pointer.startswith(pointer)], report.problems
    assert said in " ".join(p.message for p in report.problems)
    command = subprocess.run([*ZOMGEN, str(store)], capture_output=True, text=True, check=False)
    assert command.returncode == 1 and pointer in command.stdout


def test_an_anatomical_orientation_is_checked_in_0_9_dev1(
    tmp_path: Path, written: dict[str, dict[str, Path]]
) -> None:
    """RFC-4's orientation, which 0.9.dev1 adds to an axis: its values are an enum."""
    store = shutil.copytree(written["0.9.dev1"]["image"], tmp_path / "store")
    edit(store, "", _orientation)
    pointers = {p.pointer for p in validate_declared(store).problems}
    axis = "/attributes/ome/multiscales/0/coordinateSystems/0/axes/0"
    assert f"{axis}/orientation/value" in pointers


@pytest.mark.parametrize("version", ["0.6.dev9", "0.9.dev2", "1.0"])
def test_a_version_the_catalog_has_no_schema_for_is_not_checked(
    tmp_path: Path, written: dict[str, dict[str, Path]], version: str
) -> None:
    store = shutil.copytree(written["0.9.dev1"]["image"], tmp_path / "store")
    edit(store, "", lambda ome: ome.update(version=version))
    report = validate_declared(store)
    assert not report.valid
    if version == "0.6.dev9":  # never published: a problem
        assert [p.pointer for p in report.problems] == ["/attributes/ome/version"]
    else:  # newer than the catalog: not checked, never valid
        assert report.problems == [] and report.status == "not fully checked"


# ----------------------------------------------------- the 0.6rc0 conformance cases, moved


# 0.9.dev1 differs from 0.6 in its schemas (the corpus MANIFEST): RFC-3 leaves a coordinate
# system's axes free (at least one, of any type and number: no 2-3 space axes, no 5-axis
# limit) and lifts the 0-4 bound on `projectAxis` indices; RFC-4 adds `orientation`; a channel
# window's `min`/`max` become optional. The moved cases whose verdict changes, each for that.
RFC_3_AXES = "RFC-3: axes.schema asks only `minItems: 1` and unique axes"
RFC_3_INDICES = "RFC-3: projectAxis indices have no maximum, so no 5-axis bound"
CHANGED_IN_0_9 = {
    "spec/invalid/image/invalid_axes_count": RFC_3_AXES,
    "spec/invalid/image/invalid_axis_type": RFC_3_AXES,
    "spec/invalid/image/missing_space_axes": RFC_3_AXES,
    "spec/invalid/image/one_space_axes": RFC_3_AXES,
    "spec/invalid/image/too_many_axes": RFC_3_AXES,
    "spec/invalid/transforms/bad_projectAxis_insert_too_high_dim": RFC_3_INDICES,
    "spec/invalid/transforms/bad_projectAxis_insert_too_many": RFC_3_INDICES,
    "spec/invalid/transforms/bad_projectAxis_remove_too_high_dim": RFC_3_INDICES,
    "spec/invalid/transforms/bad_projectAxis_remove_too_many": RFC_3_INDICES,
}


@pytest.mark.slow
@pytest.mark.parametrize("version", RELEASED)
def test_the_conformance_cases_keep_their_verdicts_at_each_version(
    tmp_path: Path, version: str
) -> None:
    """The protocol of tests/catalog/test_ngff_conformance.py (the runner's verdict per case),
    in process, on every `tests/attributes` case of 0.6rc0 with its version moved."""
    verdicts = _moved_verdicts_in(tmp_path, version)
    changed = {name for name, (before, after) in verdicts.items() if before != after}
    assert changed == (set(CHANGED_IN_0_9) if version == "0.9.dev1" else set())
    assert len(verdicts) == 143


def _moved_verdicts_in(tmp_path: Path, version: str) -> dict[str, tuple[bool, bool]]:
    """_moved_verdicts, on a copy of the cases (the corpus is never written)."""
    source = NGFF / "0.6rc0" / "tests" / "attributes"
    folder = shutil.copytree(source, tmp_path / "attributes")
    found: dict[str, tuple[bool, bool]] = {}
    for case in sorted(folder.rglob("*.json")):
        name = case.relative_to(folder).with_suffix("").as_posix()
        strict = name.startswith("strict/")
        before = bool(validate_attributes(case, strict=strict).verdict()["valid"])
        document = with_version(json.loads(case.read_text("utf-8")), version)
        case.write_text(json.dumps(document), "utf-8")
        found[name] = (before, bool(validate_attributes(case, strict=strict).verdict()["valid"]))
    return found


def _valid(store: Path, strict: bool) -> bool:
    """The verdict; a store whose metadata is not JSON is invalid (two upstream cases)."""
    try:
        return validate_declared(store, strict=strict).valid
    except StoreError:
        return False


def _zipped(store: Path, into: Path) -> Path:
    """The store as RFC-9 writes it: a zip whose root holds the root's zarr.json."""
    import zipfile

    with zipfile.ZipFile(into, "w") as archive:
        for file in sorted(store.rglob("*")):
            if file.is_file():
                archive.write(file, file.relative_to(store).as_posix())
    return into


@pytest.mark.slow
@pytest.mark.parametrize("version", [*RELEASED, "0.6rc0"])
def test_the_zarr_cases_keep_their_verdicts_moved_and_zipped(tmp_path: Path, version: str) -> None:
    """Every `tests/zarr` store of 0.6rc0, its version moved, as a folder and as an `.ozx`:
    the same verdict as the 0.6rc0 folder's."""
    source = NGFF / "0.6rc0" / "tests" / "zarr"
    folder = shutil.copytree(source, tmp_path / "zarr")
    stores = sorted(s for s in folder.rglob("*.ome.zarr") if s.is_dir())
    assert len(stores) == 85
    differ = []
    for store in stores:
        strict = "strict" in store.relative_to(folder).parts[:1]
        before = _valid(source / store.relative_to(folder), strict)
        for metadata in store.rglob("zarr.json"):
            text = metadata.read_text("utf-8")
            metadata.write_text(text.replace('"0.6rc0"', json.dumps(version)), "utf-8")
        zipped = _zipped(store, store.with_suffix(".ozx"))
        after = (_valid(store, strict), _valid(zipped, strict))
        if after != (before, before):
            differ.append((store.relative_to(folder).as_posix(), before, after))
    assert differ == []
