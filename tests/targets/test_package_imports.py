"""What importing a generated package loads, in a fresh process (never how long it takes):

- `import <package>` loads the models and, of the run time (zomgen_runtime), only its top
  module (the version check, `require`): none of the converters, readers, checks or writer, zarr, numpy, fsspec, asyncio, urllib.request, http.client, threads or a JSON
  Schema validator; the documents (types alone) load when first named;
- `import <package>.models` or `.documents` alone (what a type-only user imports) loads no run
  time at all;
- `load` of a local folder loads the reader and the checks but nothing for remote stores
  (asyncio, urllib.request, http.client, zarr, fsspec) and not the reference validator
  (python-jsonschema, only for the details of an invalid document).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT

GENERATED = ROOT / "generated"
PACKAGE = "xarray_v3"

NEVER_ON_IMPORT = (
    "zarr",
    "numpy",
    "fsspec",
    "asyncio",
    "urllib.request",
    "http.client",
    "concurrent.futures",
    "jsonschema",
    "jsonschema_rs",
)
REMOTE_ONLY = (
    "zarr",
    "numpy",
    "fsspec",
    "asyncio",
    "urllib.request",
    "http.client",
    "jsonschema",
    "zomgen_runtime.remote",
    "zomgen_runtime.writing",
    "zomgen_runtime.write_targets",
    "zomgen_runtime.document_files",
)


def _loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running `code` (generated/ on its path)."""
    script = f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))\n"
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=GENERATED,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.splitlines()[-1]))


def _runtime(modules: set[str]) -> list[str]:
    """The run time's modules among `modules`, but its top one (`require`, at import)."""
    return sorted(m for m in modules if m.startswith("zomgen_runtime."))


def test_import_package_loads_no_run_time() -> None:
    loaded = _loaded_after(f"import {PACKAGE}")
    assert f"{PACKAGE}.models" in loaded
    assert f"{PACKAGE}.documents" not in loaded and f"{PACKAGE}._convert" not in loaded
    assert _runtime(loaded) == []
    assert sorted(m for m in NEVER_ON_IMPORT if m in loaded) == []


def test_documents_are_there_on_first_use() -> None:
    loaded = _loaded_after(
        f"import {PACKAGE}\nassert {PACKAGE}.documents.XarrayDataset.__required_keys__\n"
        f"from {PACKAGE} import documents\nassert documents is {PACKAGE}.documents"
    )
    assert f"{PACKAGE}.documents" in loaded
    assert _runtime(loaded) == []


@pytest.mark.parametrize("module", ["models", "documents"])
def test_type_only_imports_load_no_run_time(module: str) -> None:
    loaded = _loaded_after(f"import {PACKAGE}.{module}")
    assert _runtime(loaded) == []
    assert sorted(m for m in NEVER_ON_IMPORT if m in loaded) == []


def test_run_time_names_are_there_on_first_use() -> None:
    loaded = _loaded_after(
        f"import {PACKAGE}\nassert issubclass({PACKAGE}.ZomError, ValueError), {PACKAGE}.Problem"
    )
    assert _runtime(loaded) == ["zomgen_runtime.problems"]


def _v3_store(root: Path) -> None:
    array = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": [2],
        "data_type": "float32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2]}},
        "chunk_key_encoding": {"name": "default"},
        "fill_value": 0.0,
        "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}],
        "dimension_names": ["x"],
        "attributes": {},
    }
    group = {"zarr_format": 3, "node_type": "group", "attributes": {"title": "t"}}
    (root / "x").mkdir(parents=True)
    (root / "zarr.json").write_text(json.dumps(group), encoding="utf-8")
    (root / "x" / "zarr.json").write_text(json.dumps(array), encoding="utf-8")


def test_loading_a_local_folder_loads_nothing_for_remote_stores(tmp_path: Path) -> None:
    store = tmp_path / "ds.zarr"
    _v3_store(store)
    loaded = _loaded_after(
        f"import {PACKAGE}\nmodel = {PACKAGE}.load({str(store)!r})\nassert 'x' in model.members"
    )
    assert "zomgen_runtime.reading" in loaded
    assert sorted(m for m in REMOTE_ONLY if m in loaded) == []
