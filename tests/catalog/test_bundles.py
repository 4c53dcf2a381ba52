"""The bundled catalog's schemas are bundled ahead of time (zomgen/catalog/bundles.py), and
`zomgen validate` reads them as data: it never imports the compiler (issue 54, item 5: the
compiler's import was 0.23 s of a one-node validate's 0.4 s).

`schemas/bundled/` is what the compiler makes of the catalog now (scripts/regenerate.py writes
it), and a store declaring a catalog convention, with and without `--strict`, is checked with
no module of the compiler loaded; a user's catalog is still bundled when it is read.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import zarr

from tests.support.ome06 import VALID_IMAGE, VERSION
from tests.support.paths import ROOT
from zomgen.catalog.bundles import all_bundles, bundled_ahead, bundles_dir
from zomgen.catalog.entries import load_catalogs

# the modules of the compiler: none is loaded by a validate that uses only the bundled catalog
COMPILER = ("zomgen.pipeline", "zomgen.schema", "zomgen.ir", "zomgen.targets", "jinja2")


def test_the_bundles_are_what_the_compiler_makes_of_the_catalog_now() -> None:
    expected = all_bundles()
    on_disk = {p.name: p.read_text("utf-8") for p in sorted(bundles_dir().iterdir())}
    stale = sorted(set(on_disk) ^ set(expected))
    changed = sorted(name for name in expected if on_disk.get(name) != expected[name])
    assert stale == [] and changed == [], f"run `python scripts/regenerate.py`: {stale + changed}"


def _image_store(tmp_path: Path) -> Path:
    """An OME-Zarr 0.6rc0 image written by zarr-python: it declares a catalog convention whose
    checks need the bundled image schema (and, with `--strict`, the strict one)."""
    path = tmp_path / "image.zarr"
    root = zarr.open_group(path, mode="w", zarr_format=3)
    root.attrs["ome"] = {**VALID_IMAGE["ome"], "version": VERSION}
    root.create_array("0", shape=(4, 4), dtype="uint8", dimension_names=["y", "x"])
    return path


_LOADED = """
import json, sys
from zomgen.cli import main
code = main(sys.argv[1:])
loaded = sorted(m for m in sys.modules if m.startswith({prefixes!r}))
print(json.dumps({{"exit": code, "loaded": loaded}}), file=sys.stderr)
"""


def _modules_after(*argv: str, prefixes: tuple[str, ...] = COMPILER) -> dict[str, object]:
    script = _LOADED.format(prefixes=prefixes)
    done = subprocess.run(
        [sys.executable, "-c", script, *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    answer: dict[str, object] = json.loads(done.stderr.strip().splitlines()[-1])
    return answer


def test_validate_by_the_catalog_loads_no_module_of_the_compiler(tmp_path: Path) -> None:
    store = _image_store(tmp_path)
    assert _modules_after("validate", str(store)) == {"exit": 0, "loaded": []}
    strict = _modules_after("validate", str(store), "--strict")
    assert strict["loaded"] == []


def test_a_store_no_convention_applies_to_loads_no_schema_engine(tmp_path: Path) -> None:
    """What `zomgen validate` of a small store starts in 100 ms by (issue 54): the schema
    engine is imported only for a node some catalog test could pass (catalog/predicates.py),
    msgspec only past 256 KB of metadata (runtime/jsontext.py)."""
    store = tmp_path / "plain.zarr"
    root = zarr.open_group(store, mode="w", zarr_format=3)
    root.attrs["title"] = "nothing declared"
    root.create_array("x", shape=(2,), dtype="uint8", dimension_names=None)
    heavy = ("jsonschema", "msgspec")
    assert _modules_after("validate", str(store), prefixes=heavy) == {"exit": 3, "loaded": []}
    # ...and an image, which the catalog checks, needs the engine and still not msgspec
    answer = _modules_after("validate", str(_image_store(tmp_path)), prefixes=heavy)
    assert answer["exit"] == 0
    loaded = answer["loaded"]
    assert isinstance(loaded, list) and "jsonschema_rs" in loaded
    assert not [m for m in loaded if m.startswith("msgspec")]


def test_a_users_catalog_is_still_bundled_when_it_is_read(tmp_path: Path) -> None:
    schema = tmp_path / "mine.json"
    schema.write_text(json.dumps({"type": "object"}), "utf-8")
    catalog = tmp_path / "catalog.json"
    entry = {
        "name": "mine",
        "namespace": {"style": "prefixed", "key": "mine:"},
        "used_when": {"properties": {"attributes": {"required": ["mine:x"]}}},
        "schema": "mine.json",
    }
    catalog.write_text(json.dumps({"conventions": [entry]}), "utf-8")
    store = tmp_path / "s.zarr"
    root = zarr.open_group(store, mode="w", zarr_format=3)
    root.attrs["mine:x"] = 1
    answer = _modules_after("validate", str(store), "--catalog", str(catalog))
    assert answer["exit"] == 0
    assert "zomgen.pipeline" in answer["loaded"]  # (bundled now, as before)


def test_a_bundled_convention_named_by_schema_is_its_bundle_and_needs_no_compiler(
    tmp_path: Path,
) -> None:
    """`zomgen validate --schema ome-ngff-06-image` reads the catalog's bundle of that schema
    (validate_cli.py): each is what compiling the schema alone, as `--schema` did, gives."""
    from zomgen.pipeline import Options, load
    from zomgen.schema.bundle import bundle

    named = [e for e in load_catalogs([]) if e.schema is not None]
    for entry in named:
        assert entry.include in ((), (entry.schema.parent,)), entry.name
        assert bundled_ahead(entry.schema) == bundle(load(Options(entry.schema, ()))), entry.name
    assert len({e.schema for e in named}) >= 35
    store = _image_store(tmp_path)
    answer = _modules_after("validate", str(store), "--schema", "ome-ngff-06-image")
    assert answer == {"exit": 0, "loaded": []}
    # a schema of the user's is compiled, as before
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps({"type": "object"}), "utf-8")
    answer = _modules_after("validate", str(store), "--schema", str(mine))
    assert answer["exit"] == 0
    assert "zomgen.pipeline" in answer["loaded"]


def test_the_run_times_v2_node_keys_are_the_compilers() -> None:
    """catalog/other_keys.py warns about a v2 key outside the spec's without importing the
    compiler: the run time's list of them must be the compiler's base fields."""
    from zomgen_runtime.metadata_files import V2_NODE_KEYS

    from zomgen.ir.zarr import node_keys

    assert {kind: node_keys(kind, 2) for kind in ("group", "array")} == V2_NODE_KEYS
