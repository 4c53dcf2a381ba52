"""The catalog page's dispatch (zomgen/site/declared.ts) against `zomgen validate`'s own
(catalog/dispatch.py), on the same hierarchies: every store and case the catalog's tests use
(GeoZarr's conformance stores, OME-Zarr written by ome-zarr-py and by ngff-zarr (0.6, 0.9.dev1),
SpatialData and its AnnData tables written by spatialdata, an xarray dataset with CF attributes,
the 2024 challenge's stores, ngff-spec's 0.6rc0 conformance cases (also moved to 0.6 and
0.9.dev1), the OME-NGFF 0.4 and 0.5 suites, every zarr-conventions example) and every kind of malformed or unknown
declaration, with and without the strict rules.

Both must apply the same conventions at the same nodes and give the same warnings, word for
word. Problems are compared by node path, pointer, keyword and schema path (Ajv and
python-jsonschema word their messages differently), and word for word where zomgen writes the
message itself (malformed declarations). The page's sources are compiled by tsc under the
project's strict tsconfig on the way, so this also type-checks them.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import StoreError, read_document

from tests.support.node import HARNESS, compile_typescript, run_node
from tests.support.ome_released import RELEASED, edit, with_version, write_stores
from tests.support.paths import CORPUS, ROOT
from tests.support.runtime import ome_image_with_labels, xarray_dataset
from tests.support.spatialdata_stores import write_stores as spatialdata_stores
from zomgen.catalog.declarations import Matcher
from zomgen.catalog.dispatch import check_declared
from zomgen.catalog.entries import load_catalogs
from zomgen.site.catalog import catalog_module
from zomgen.targets.shipped import runtime_ts_files

pytestmark = [pytest.mark.slow, pytest.mark.corpus]

SITE = ROOT / "zomgen" / "site"
PAGE_SOURCES = (
    "page.ts",
    "checker.ts",
    "worker.ts",
    "described.ts",
    "declared.ts",
    "other_keys.ts",
    "catalog_page.ts",
)
PROJ = "f17cb550-5864-4468-aeb7-f3180cfb622f"
SPATIAL = "689b58e2-cf7b-45e0-9fff-9cfc0883d6b4"
# Keywords whose messages zomgen writes itself, in both languages alike.
OWN_MESSAGES = {"zarr_conventions", "read", "catalog", "ome-zarr version"}


def _group(attributes: Any, members: dict[str, Any] | None = None) -> dict[str, Any]:
    node: dict[str, Any] = {"zarr_format": 3, "node_type": "group", "attributes": attributes}
    return node if members is None else node | {"members": members}


def _declaring(declared: Any, **more: Any) -> dict[str, Any]:
    return _group({"zarr_conventions": declared, **more}, {})


def _made_here() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every kind of declaration the matcher reads, well formed or not."""
    multiscales_v2 = (
        "https://raw.githubusercontent.com/zarr-conventions/multiscales/refs/tags/v2/schema.json"
    )
    spatial_v02 = (
        "https://raw.githubusercontent.com/zarr-conventions/spatial/refs/tags/v0.2/schema.json"
    )
    yield "unknown uuid", _declaring([{"uuid": "00000000-aaaa-4aaa-8aaa-0", "name": "mine"}])
    yield "unknown schema_url", _declaring([{"schema_url": "https://example.org/x/schema.json"}])
    yield "unknown spec_url", _declaring([{"spec_url": "https://example.org/x/README.md"}])
    yield "another version", _declaring([{"schema_url": multiscales_v2}])
    yield "uuid, other url", _declaring([{"uuid": SPATIAL, "schema_url": spatial_v02}])
    yield "not a list", _declaring({"uuid": PROJ}, **{"proj:code": "EPSG:4326"})
    yield "not an object", _declaring(["proj:"])
    yield "no identity", _declaring([{"name": "proj:"}])
    yield "uuid not a string", _declaring([{"uuid": 7}])
    yield "a field too many", _declaring([{"uuid": PROJ, "version": "1"}])
    quoted = {"uuid": PROJ, "it's": 1, 'say "hi"': 2, "both '\"": 3, "tab\there\n": 4}
    yield "odd field names", _declaring([quoted])
    yield (
        "a thousand",
        _declaring([{"uuid": f"00000000-0000-4000-8000-{i:012d}"} for i in range(1000)]),
    )
    yield "undeclared proj", _group({"proj:code": "not a code"}, {})
    # geoemb: (schemas/catalog/geoemb.json): valid, its scale array missing, zones by UTM
    geoemb = {"uuid": "61c12cc5-0e28-4056-999a-480cf3fb7e4c"}
    embedding = {
        "geoemb:type": "pixel",
        "geoemb:dimensions": 8,
        "geoemb:model": "m",
        "geoemb:source_data": ["s"],
        "geoemb:data_type": "int8",
        "geoemb:quantization": {
            "method": "per_pixel_scale",
            "original_dtype": "float32",
            "scale": {"type": "array", "array_name": "scales"},
        },
    }
    scales = {"scales": {"zarr_format": 3, "node_type": "array", "shape": [1]}}
    yield "geoemb", _group({"zarr_conventions": [geoemb], **embedding}, scales)
    yield "geoemb without scales", _group({"zarr_conventions": [geoemb], **embedding}, {})
    zones = {name: _group({}, {}) for name in ("utm07", "utm61")}
    by_zone = {"zarr_conventions": [geoemb], **embedding, "geoemb:spatial_layout": "utm_zones"}
    yield "geoemb by zone", _group(by_zone, zones)
    yield "cs", _declaring([{"uuid": "e4dbf0b7-7a00-4ce6-b23e-484292014ab4"}])
    # the version policy (docs/catalog.md): a name that disagrees with the identity, NZ's
    # first name, a repeated declaration
    yield "a name not the uuid's", _declaring([{"uuid": PROJ, "name": "spatial:"}])
    nz = {"uuid": "d0a980b5-c644-4dcc-85a1-283799a58f40", "name": "NZUG-1.0"}
    yield "NZ by its first name", _declaring([nz])
    yield "declared twice", _declaring([{"uuid": PROJ}, {"uuid": PROJ, "name": "proj:"}])
    yield "twice after an unknown one", _declaring([{"uuid": "x"}, {"uuid": PROJ}, {"uuid": PROJ}])
    yield "declared proj", _declaring([{"uuid": PROJ}], **{"proj:code": "EPSG:4326"})
    yield "declared proj, wrong", _declaring([{"uuid": PROJ}], **{"proj:code": 4326})
    yield "attributes not an object", {"zarr_format": 3, "node_type": "group", "attributes": []}
    yield "nothing declared", _group({}, {"a": _group({}, {})})
    yield (
        "proj on a v2 node",
        {
            "zarr_format": 2,
            "attributes": {"zarr_conventions": [{"uuid": PROJ}], "proj:code": "EPSG:4326"},
        },
    )
    # OME-Zarr's version policy (tests/cli/test_verdicts.py): every branch
    versions = ("0.6rc02", "0.6.dev42", 5, "0.4", "0.5", "0.6", "0.6rc0", "0.6.dev4", "0.9.dev1")
    for version in (*versions, "1.0", "0.9.dev2"):
        yield f"ome.version {version!r}", _group({"ome": {"version": version, "multiscales": []}})
        yield (
            f"ome.version {version!r} in v2",
            {
                "zarr_format": 2,
                "attributes": {"ome": {"version": version, "multiscales": []}},
            },
        )
        for key, value in (
            ("multiscales", [{"version": version}]),
            ("plate", {"version": version}),
        ):
            yield (
                f"{key} version {version!r} in v2",
                {
                    "zarr_format": 2,
                    "attributes": {key: value},
                },
            )
            yield f"{key} version {version!r} in v3", _group({key: value})
    nested = _group({}, {"x": _declaring([{"uuid": PROJ}], **{"proj:code": 1}), "1": _group({})})
    yield "declared below the root", nested
    # Members named like numbers come first in a JavaScript object's keys: the order may differ,
    # the nodes and problems may not.
    proj = [
        _declaring([{"uuid": PROJ}], **{"proj:code": code})
        for code in ("EPSG:1", 2, "EPSG:3", 4, 5)
    ]
    yield "five members", _group({}, dict(zip(["b", "10", "a", "2", "c"], proj, strict=True)))


def _stores() -> Iterator[tuple[str, Path]]:
    for folder in (
        "geozarr-conformance",
        "ome2024-ngff-challenge",
        "ome-ngff-validator-test_samples",
    ):
        for store in sorted((CORPUS / "stores" / folder).rglob("*.zarr")):
            if not any(parent.suffix == ".zarr" for parent in store.parents):
                yield store.relative_to(CORPUS).as_posix(), store
    for store in sorted((CORPUS / "ome-ngff" / "0.6rc0" / "tests" / "zarr").rglob("*.ome.zarr")):
        yield store.relative_to(CORPUS).as_posix(), store


def _cases(written: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    yield from _made_here()
    mine = sorted(
        p
        for p in written.rglob("*")
        if p.suffix in (".zarr", ".ozx", ".zip") and not any(q.suffix == ".zarr" for q in p.parents)
    )
    for label, store in [*_stores(), *((p.relative_to(written).as_posix(), p) for p in mine)]:
        try:
            document, _problems = read_document(store)
        except StoreError:
            continue
        if document is not None:
            yield label, document
    attributes = CORPUS / "ome-ngff" / "0.6rc0" / "tests" / "attributes"
    for case in sorted(attributes.rglob("*.json")):
        label = case.relative_to(CORPUS).as_posix()
        document = json.loads(case.read_text("utf-8"))
        yield label, _group(document)
        for version in RELEASED:  # the same case at 0.6 and 0.9.dev1
            yield f"{label} as {version}", _group(with_version(document, version))
    yield from _ome_suites()
    for example in sorted((CORPUS / "zarr-conventions").glob("*/examples/*.json")):
        yield example.relative_to(CORPUS).as_posix(), json.loads(example.read_text("utf-8"))


def _ome_suites() -> Iterator[tuple[str, dict[str, Any]]]:
    """The OME-NGFF 0.4 and 0.5 suites' and examples' attributes, each as one group's (0.4: v2,
    0.5: v3) whose members are not known, as `zomgen validate --attributes` reads them."""
    for version in ("0.4", "0.5"):
        folder = CORPUS / "ome-ngff" / version
        found: list[tuple[str, Any]] = []
        for suite in sorted((folder / "tests").glob("*.json")):
            tests = json.loads(suite.read_text("utf-8"))["tests"]
            found += [(f"{version}/{suite.stem}#{i}", test["data"]) for i, test in enumerate(tests)]
        for example in sorted((folder / "examples").glob("*/*.json")):
            try:
                data = json.loads(example.read_text("utf-8"))
            except json.JSONDecodeError:  # a few examples carry // comments for the spec's page
                continue
            found.append((example.relative_to(CORPUS).as_posix(), data.get("attributes", data)))
        for label, attributes in found:
            if version == "0.4":
                yield label, {"zarr_format": 2, "attributes": attributes}
            else:
                yield label, _group(attributes)


def _write_stores(folder: Path) -> None:
    """Stores written by their own tools: OME-Zarr images with labels (0.4, 0.5), one broken
    at its label, and an xarray dataset with CF attributes (v2, v3)."""
    for version in ("0.4", "0.5"):
        ome_image_with_labels(folder / f"ome-{version}.zarr", version)
        broken = folder / f"ome-{version}-broken-label.zarr"
        ome_image_with_labels(broken, version)
        label = broken / "labels" / "cells" / (".zattrs" if version == "0.4" else "zarr.json")
        data = json.loads(label.read_text("utf-8"))
        attributes = data if version == "0.4" else data["attributes"]["ome"]
        attributes["multiscales"][0]["datasets"][0]["path"] = "nowhere"
        label.write_text(json.dumps(data), "utf-8")
    # A writer's own keys in .zgroup and .zarray (warnings, in both languages)
    keys = folder / "ome-0.4-writer-keys.zarr"
    ome_image_with_labels(keys, "0.4")
    for file, key in ((".zgroup", "writer"), ("labels/.zgroup", "1"), ("s0/.zarray", "gain")):
        metadata = json.loads((keys / file).read_text("utf-8"))
        metadata[key] = {"by": "lab"}
        (keys / file).write_text(json.dumps(metadata), "utf-8")
    for version in RELEASED:  # OME-Zarr 0.6 and 0.9.dev1 by ngff-zarr, and one broken at a level
        broken = write_stores(folder, version)["image"]
        edit(broken, "", lambda ome: ome["multiscales"][0]["datasets"][1].update(path="gone"))
        write_stores(folder / version, version)
    # SpatialData (v2, v3, zipped, mixed element formats), whose tables are AnnData
    spatialdata_stores(folder / "spatialdata")
    dataset = xarray_dataset()
    dataset.attrs["Conventions"] = "CF-1.11"
    for zarr_format in (2, 3):
        dataset.to_zarr(
            folder / f"xarray-cf-v{zarr_format}.zarr", zarr_format=zarr_format, consolidated=False
        )


def _compiled(work: Path) -> Path:
    """The page's sources with the runtime and the catalog, compiled by tsc (strict)."""
    for name, text in runtime_ts_files().items():
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_text(text, "utf-8")
    for name in PAGE_SOURCES:
        shutil.copy(SITE / name, work / name)
    (work / "catalog.ts").write_text(catalog_module([]), "utf-8")
    return compile_typescript(work, ["*.ts", "_runtime_ts/*.ts"])


Compared = dict[str, Any]


def _comparable(report: dict[str, Any]) -> Compared:
    def problem(p: dict[str, Any]) -> tuple[str, ...]:
        own = p["keyword"] in OWN_MESSAGES
        return (
            p["node_path"],
            p["pointer"],
            p["keyword"],
            p["schema_path"],
            p.get("convention", ""),
            p["message"] if own else "",
        )

    return {
        "status": report["status"],
        "valid": report["valid"],
        "nodes_read": report["nodes_read"],
        "nodes": {n["node_path"]: n["conventions"] for n in report["nodes"]},
        "unchecked": sorted(
            (u["node_path"], u["pointer"], u["reason"], u["message"]) for u in report["unchecked"]
        ),
        "warnings": sorted(
            (w["node_path"], w["pointer"], w["keyword"], w["message"]) for w in report["warnings"]
        ),
        "problems": sorted(problem(p) for p in report["problems"]),
    }


@pytest.fixture(scope="module")
def twins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Compared, Compared]]:
    """label -> (Python's report, the page's), each case with and without the strict rules."""
    written = tmp_path_factory.mktemp("stores")
    _write_stores(written)
    cases = dict(_cases(written))
    out = _compiled(tmp_path_factory.mktemp("page"))
    matcher = Matcher(load_catalogs([]))
    jobs = [{"document": d, "strict": s} for d in cases.values() for s in (False, True)]
    payload = {
        "declared": str(out / "declared.js"),
        "catalog": str(out / "catalog.js"),
        "jobs": jobs,
    }
    page = iter(run_node(HARNESS / "declared_twins.mjs", payload))
    found: dict[str, tuple[Compared, Compared]] = {}
    for label, document in cases.items():
        for strict in (False, True):
            python = check_declared(document, matcher, strict=strict).to_json()
            found[f"{label} strict={strict}"] = (_comparable(python), _comparable(next(page)))
    return found


def test_the_cases_cover_every_convention_with_a_schema(
    twins: dict[str, tuple[Compared, Compared]],
) -> None:
    applied = {
        c["name"] for python, _page in twins.values() for cs in python["nodes"].values() for c in cs
    }
    with_schema = {e.name for e in load_catalogs([]) if e.schema is not None}
    assert with_schema - applied == set()
    assert len(twins) > 900  # every case above, twice
    invalid = [label for label, (python, _page) in twins.items() if not python["valid"]]
    assert 100 < len(invalid) < len(twins) - 100


def test_the_page_dispatches_as_zomgen_validate(
    twins: dict[str, tuple[Compared, Compared]],
) -> None:
    differ = {label: pair for label, pair in twins.items() if pair[0] != pair[1]}
    assert not differ, json.dumps(dict(list(differ.items())[:3]), indent=1)[:6000]
