"""Real AnnData stores against the bundled conventions schemas/anndata-v3 (Zarr v3) and anndata-v2
(Zarr v2), which the catalog applies to a group tagged `encoding-type: anndata`.

anndata 0.12 writes stores that tag every element with `attributes.encoding-type`. The
conventions give each tag its own `$defs` entry, and `load` must return, for every node of
such a store, the class the schema gives its tag: one class per tag, checked node by node
against the document `read_document` returns, so no tagged node goes unchecked.

- The stores cover every kind the conventions know (dense, CSR and CSC matrices, data frames
  with every column kind, nested dicts, scalars, string and record arrays, null elements, raw):
  consolidated as `write_zarr` leaves them, written element by element without consolidation,
  a zip copy of a folder, and a zip anndata wrote into a zarr `ZipStore` (whose entries it
  rewrites, so the zip holds several versions of most metadata files: the last one counts).
- Each valid store: `validate` finds nothing, reading changes no byte, `dump(load(store))` is
  the document `read_document` gives.
- Broken stores: a sparse matrix without `indptr`, a categorical whose `ordered` is a string:
  one problem each, at that node, from the option its tag selects.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import warnings
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

import anndata as ad
import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
import zarr
from zomgen_runtime import read_document

from tests.support.anndata_classes import CLASS_OF
from tests.support.paths import ROOT
from tests.support.tagged_stores import (
    assert_one_problem,
    model_nodes,
    packages_built,
    store_state,
)
from zomgen.catalog.dispatch import validate_declared

ZarrFormat = Literal[2, 3]
FORMATS: tuple[ZarrFormat, ...] = (2, 3)
SCHEMAS = {
    3: ROOT / "schemas" / "anndata-v3" / "schema.json",
    2: ROOT / "schemas" / "anndata-v2" / "schema.json",
}
PACKAGES = {3: "zom_anndata_v3", 2: "zom_anndata_v2"}


# Tagged nodes per store, the same in v2 and v3 (a sparse matrix's three parts carry no tag).
# rich: root 1, X 1, obs 24 (the frame, its index, 4 plain columns, 6 two-part columns),
# var 4, obsm 5, varm 2, obsp 2, varp 2, layers 3, uns 22, raw 8 (X 1, var 4, varm 2).
# dense: root 1, X 1, obs 7, var 3, obsm 2, varm 1, obsp 1, varp 1, layers 2, uns 4, null raw 1.
# plain: root 1, X 1, obs 6, var 2, obsm 1, varm 2, obsp 2, varp 1, layers 2, uns 5, null raw 1.
EXPECTED_TAGGED = {"rich": 74, "dense": 24, "plain": 24, "rich.zip": 74, "zipstore.zip": 24}
STORES = tuple(EXPECTED_TAGGED)


# ------------------------------------------------------------------------------ the packages


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[int, ModuleType]]:
    with packages_built(tmp_path_factory.mktemp("anndata_packages"), SCHEMAS, PACKAGES) as built:
        yield built


# -------------------------------------------------------------------------------- the stores


def _rich() -> ad.AnnData:
    """Every element kind: CSR X, every column kind, aligned mappings, nested uns, raw."""
    rng = np.random.default_rng(0)
    n_obs, n_var = 8, 5
    cells = [f"cell{i}" for i in range(n_obs)]
    obs = pd.DataFrame(
        {
            "label": [f"l{i}" for i in range(n_obs)],  # string-array (no conversion asked)
            "kind": pd.Categorical(list("abcabcab")),
            "stage": pd.Categorical(list("xyxyxyxy"), categories=["x", "y"], ordered=True),
            "batch": pd.Categorical([1, 2] * 4),  # numeric categories: a dense array
            "count": np.arange(n_obs, dtype="int64"),
            "score": np.linspace(0.0, 1.0, n_obs),
            "flag": [True, False] * 4,
            "maybe_count": pd.array([1, None, 3, 4, None, 6, 7, 8], dtype="Int64"),
            "maybe_flag": pd.array([True, None, False] * 2 + [True, None], dtype="boolean"),
            "maybe_name": pd.array(["a", None, "c", "d", "e", "f", "g", None], dtype="string"),
        },
        index=pd.Index(cells, name="barcode"),
    )
    var = pd.DataFrame(
        {"symbol": [f"S{i}" for i in range(n_var)], "highly_variable": [True] * n_var},
        index=[f"gene{i}" for i in range(n_var)],
    )
    record = np.rec.fromarrays(
        [np.arange(2), np.array(["p", "q"])], dtype=[("n", "i8"), ("s", "U1")]
    )
    adata = ad.AnnData(
        X=sp.random(n_obs, n_var, density=0.5, format="csr", random_state=0),
        obs=obs,
        var=var,
        obsm={
            "pca": rng.random((n_obs, 3)),
            "meta": pd.DataFrame({"depth": np.arange(n_obs)}, index=obs.index),
        },
        varm={"loadings": rng.random((n_var, 3))},
        obsp={"distances": sp.csr_matrix(np.eye(n_obs))},
        varp={"correlation": sp.csc_matrix(np.eye(n_var))},
        layers={"counts": rng.random((n_obs, n_var)), "spliced": sp.random(n_obs, n_var).tocsc()},
        uns={
            "params": {
                "n_neighbors": 15,
                "metric": "euclidean",
                "deeper": {
                    "weight": 0.5,
                    "enabled": True,
                    "names": np.array(["u", "v", "w"]),
                    "ids": np.arange(4),
                    "nothing": None,
                },
            },
            "title": "rich",
            "version": np.int16(3),
            "records": record,
            "table": pd.DataFrame({"v": [1.0, 2.0]}),
            "colours": pd.Categorical(["red", "blue", "red"]),
            "sparse_ints": pd.array([1, None], dtype="Int32"),
        },
    )
    adata.raw = adata
    return adata


def _dense() -> ad.AnnData:
    """Dense X, string columns as anndata converts them by default, no raw (a null element)."""
    obs = pd.DataFrame(
        {"group": list("ababab"), "depth": np.arange(6), "qc_pass": [True, False] * 3},
        index=[f"c{i}" for i in range(6)],
    )
    var = pd.DataFrame({"gene_ids": [f"ENSG{i}" for i in range(4)]}, index=list("ABCD"))
    return ad.AnnData(
        X=np.arange(24, dtype="float32").reshape(6, 4),
        obs=obs,
        var=var,
        obsm={"umap": np.zeros((6, 2))},
        layers={"logged": np.log1p(np.arange(24, dtype="float64").reshape(6, 4))},
        uns={"seed": 0, "note": "dense", "group_colors": ["#ff0000", "#0000ff"]},
    )


def _plain() -> ad.AnnData:
    """CSC X, a CSR in obsp and a categorical column: what the broken stores break."""
    obs = pd.DataFrame(
        {"cluster": pd.Categorical(list("aabbcc")), "n_genes": np.arange(6)},
        index=[f"c{i}" for i in range(6)],
    )
    return ad.AnnData(
        X=sp.random(6, 3, density=0.6, format="csc", random_state=1),
        obs=obs,
        varm={"PCs": np.ones((3, 2))},
        obsp={"connectivities": sp.csr_matrix(np.ones((6, 6)))},
        layers={"counts": sp.csr_matrix(np.ones((6, 3)))},
        uns={"method": "plain", "threshold": 0.25, "neighbors": {"n_neighbors": 10}},
    )


def _zip_copy(folder: Path, target: Path) -> Path:
    """A zip of the folder's files, named by their paths inside it (how zarr's ZipStore keys)."""
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())
    return target


def _write_stores(root: Path, version: ZarrFormat) -> dict[str, Path]:
    root.mkdir(parents=True)
    stores = {label: root / f"{label}.zarr" for label in ("rich", "dense", "plain")}
    with (
        ad.settings.override(zarr_write_format=version, allow_write_nullable_strings=True),
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("ignore")
        # keep string columns as strings so the nullable string column is written as one
        _rich().write_zarr(stores["rich"], convert_strings_to_categoricals=False)
        _dense().write_zarr(stores["dense"])
        # element by element, as write_zarr does, but without consolidating afterwards
        group = zarr.open_group(stores["plain"], mode="w", zarr_format=version)
        ad.io.write_elem(group, "/", _plain())
        zip_store = zarr.storage.ZipStore(root / "zipstore.zip", mode="w")
        try:
            _dense().write_zarr(zip_store)
        finally:
            zip_store.close()
    stores["rich.zip"] = _zip_copy(stores["rich"], root / "rich.zip")
    stores["zipstore.zip"] = root / "zipstore.zip"
    return stores


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[int, dict[str, Path]]:
    root = tmp_path_factory.mktemp("anndata_stores")
    return {version: _write_stores(root / f"v{version}", version) for version in FORMATS}


# ---------------------------------------------------------------------------------- walking


def _encoding_type(attributes: object) -> str | None:
    """The `encoding-type` of a model's attributes: a field of its class, a key it kept among
    its extras, or a key of a plain mapping (a node whose attributes the schema leaves open)."""
    if isinstance(attributes, Mapping):
        value = attributes.get("encoding-type")
    else:
        value = getattr(attributes, "encoding_type", None)
        extras = getattr(attributes, "extras", None)
        if value is None and isinstance(extras, Mapping):
            value = extras.get("encoding-type")
    return value if isinstance(value, str) else None


def _document_tags(document: Mapping[str, Any], path: str = "/") -> Iterator[tuple[str, Any]]:
    """(node path, its encoding-type or None) for every node of a ZOM document."""
    yield path, document["attributes"].get("encoding-type")
    for name, member in document.get("members", {}).items():
        yield from _document_tags(member, f"{path.rstrip('/')}/{name}")


# ---------------------------------------------------------------------------------- the tests


def _tags_in(schema: Mapping[str, Any]) -> dict[str, str]:
    """encoding-type constant -> the `$defs` entry (or the root's title) that fixes it."""
    found: dict[str, str] = {}
    entries = [(str(schema["title"]), schema), *schema["$defs"].items()]
    for name, entry in entries:
        attributes = entry.get("properties", {}).get("attributes", {})
        tag = attributes.get("properties", {}).get("encoding-type", {}).get("const")
        if tag is not None:
            assert tag not in found, f"{tag} fixed by {found[tag]} and {name}"
            found[tag] = name
    return found


@pytest.mark.parametrize("version", FORMATS)
def test_the_table_is_the_schemas(version: int) -> None:
    schema = json.loads(SCHEMAS[version].read_text(encoding="utf-8"))
    assert _tags_in(schema) == CLASS_OF
    assert all("description" in entry for entry in schema["$defs"].values())


@pytest.mark.parametrize("version", FORMATS)
def test_the_stores_hold_every_kind(stores: dict[int, dict[str, Path]], version: int) -> None:
    seen: set[str] = set()
    for store in stores[version].values():
        document, problems = read_document(store)
        assert problems == [] and document is not None
        seen |= {tag for _, tag in _document_tags(document) if tag is not None}
    assert seen == set(CLASS_OF)
    # the stores are what their labels say
    plain, rich = stores[version]["plain"], stores[version]["rich"]
    if version == 3:
        assert "consolidated_metadata" in json.loads((rich / "zarr.json").read_text())
        assert "consolidated_metadata" not in json.loads((plain / "zarr.json").read_text())
    else:
        assert (rich / ".zmetadata").is_file() and not (plain / ".zmetadata").exists()
    with zipfile.ZipFile(stores[version]["zipstore.zip"]) as archive:
        names = archive.namelist()
    assert len(names) > len(set(names))  # zarr's ZipStore appended entries it rewrote


@pytest.mark.parametrize("label", STORES)
@pytest.mark.parametrize("version", FORMATS)
def test_load_returns_the_class_each_encoding_type_names(
    packages: dict[int, ModuleType], stores: dict[int, dict[str, Path]], version: int, label: str
) -> None:
    pkg, store = packages[version], stores[version][label]
    before = store_state(store)

    assert pkg.validate(str(store)) == []
    document, problems = read_document(store)
    assert problems == [] and document is not None
    if label == "rich.zip":  # the copy reads as the folder it was made of
        assert read_document(stores[version]["rich"])[0] == document
    if label in ("rich", "dense"):  # the consolidated metadata says what the walk finds
        assert read_document(store, use_consolidated=False) == (document, [])
    model = pkg.load(str(store))

    expected = {path: tag for path, tag in _document_tags(document) if tag is not None}
    checked: dict[str, str] = {}
    wrong: list[str] = []
    paths: list[str] = []
    for path, node in model_nodes(model):
        paths.append(path)
        tag = _encoding_type(node.attributes)
        if tag is None:
            continue
        checked[path] = tag
        cls = getattr(pkg.models, CLASS_OF[tag])
        if not isinstance(node, cls):
            wrong.append(f"{path}: {tag} is {type(node).__name__}, not {cls.__name__}")
    assert wrong == []
    assert paths == [path for path, _ in _document_tags(document)]  # every node was walked
    assert checked == expected  # every tagged node was checked, with the document's tag
    assert len(checked) == EXPECTED_TAGGED[label] > 20

    assert pkg.dump(model) == document
    assert store_state(store) == before


def _set_attribute(node: Path, key: str, value: Any, version: int) -> None:
    path = node / ("zarr.json" if version == 3 else ".zattrs")
    metadata = json.loads(path.read_text(encoding="utf-8"))
    (metadata["attributes"] if version == 3 else metadata)[key] = value
    path.write_text(json.dumps(metadata), encoding="utf-8")


BROKEN = {
    # (what is done to the plain store) -> (node, pointer, keyword, a word of the message)
    "X without indptr": ("/X", "/members", "required", "indptr"),
    "a dict's CSR matrix without indptr": (
        "/obsp/connectivities",
        "/members",
        "required",
        "indptr",
    ),
    "a categorical whose ordered is a string": (
        "/obs/cluster",
        "/attributes/ordered",
        "type",
        "'no'",
    ),
}


@pytest.mark.parametrize("fault", BROKEN)
@pytest.mark.parametrize("version", FORMATS)
def test_a_broken_store_is_reported_at_the_element(
    packages: dict[int, ModuleType],
    stores: dict[int, dict[str, Path]],
    tmp_path: Path,
    version: int,
    fault: str,
) -> None:
    store = shutil.copytree(stores[version]["plain"], tmp_path / "broken.zarr")
    node_path, pointer, keyword, word = BROKEN[fault]
    node = store / node_path.lstrip("/")
    if keyword == "required":
        shutil.rmtree(node / "indptr")
    else:
        _set_attribute(node, "ordered", "no", version)

    assert_one_problem(packages[version], store, node_path, pointer, keyword, word)


def test_a_v2_convention_may_narrow_a_record_arrays_dtype(packages: dict[int, Any]) -> None:
    """anndata-v2 says a record array's `dtype` is a list of fields: a refinement of the v2
    base's recursive `DType`, which the compiler once unrolled without end ("the schema nests
    too deeply to compile"). Its fields name the base's `DType`, not an endless inlining of it."""
    (field,) = [f for f in dataclasses.fields(packages[2].models.RecArray) if f.name == "dtype"]
    assert "tuple[str, DType]" in str(field.type), field.type


# ------------------------------------------------------------------- zomgen validate's catalog


@pytest.mark.parametrize("version", FORMATS)
def test_zomgen_validate_checks_each_store_by_its_encoding(
    stores: dict[int, dict[str, Path]], version: int
) -> None:
    """The catalog's `anndata-v2`/`anndata-v3` entries: the root's `encoding-type: anndata`
    and `encoding-version: 0.1.0` declare the format, and `zomgen validate` checks the store
    with the bundled convention (its elements are that convention's, not checked again)."""
    for name, store in stores[version].items():
        report = validate_declared(store)
        assert report.problems == [] and report.warnings == [] and report.valid, name
        checked = {path: [a.entry.label for a in found] for path, found in report.nodes.items()}
        assert checked == {"/": [f"anndata-v{version} 0.1.0"]}, name


@pytest.mark.parametrize("fault", BROKEN)
@pytest.mark.parametrize("version", FORMATS)
def test_zomgen_validate_reports_a_broken_store_at_the_element(
    stores: dict[int, dict[str, Path]], tmp_path: Path, version: int, fault: str
) -> None:
    store = shutil.copytree(stores[version]["plain"], tmp_path / "broken.zarr")
    node_path, pointer, keyword, word = BROKEN[fault]
    node = store / node_path.lstrip("/")
    if keyword == "required":
        shutil.rmtree(node / "indptr")
    else:
        _set_attribute(node, "ordered", "no", version)
    problems = validate_declared(store).problems
    assert [(p.node_path, p.pointer, p.keyword) for p in problems] == [
        (node_path, pointer, keyword)
    ]
    assert word in problems[0].message and problems[0].convention == f"anndata-v{version} 0.1.0"


@pytest.mark.parametrize("version", FORMATS)
def test_an_encoding_version_the_catalog_has_no_schema_for_is_not_checked(
    stores: dict[int, dict[str, Path]], tmp_path: Path, version: int
) -> None:
    store = shutil.copytree(stores[version]["plain"], tmp_path / "later.zarr")
    _set_attribute(store, "encoding-version", "0.2.0", version)
    report = validate_declared(store)
    assert report.problems == [] and report.status == "not fully checked"
    assert [u.pointer for u in report.outcome().unchecked] == ["/attributes"]
