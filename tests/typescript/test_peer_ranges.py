"""The ranges of the peer dependencies (ajv, re2js, zarrita) that @zomgen/runtime and every
generated npm package declare (`PEER_RANGES`), tried at both ends: the lowest version each range
admits, and the newest npm has in it.

At each end an app installs @zomgen/runtime and the xarray-v3 package from their tarballs, as
docs/typescript.md says, with the peers at that end; tsc (strict, `exactOptionalPropertyTypes`,
`nodenext`, the libraries' declarations checked) accepts the app; and under Node the verdicts and
problems are the Python loader's: on documents read from a store xarray wrote, valid and broken,
on the same store read from its folder, and over HTTP through zarrita's `FetchStore`. The floors
were found the same way: ajv 8.12 has no named export `Ajv2020` (engine.ts imports it), re2js
1.x fails in patterns.ts, and zarrita 0.7.1 is the first 0.7.
"""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import check_document, read_document

from tests.support.cli import run_zomgen
from tests.support.http_stores import serve
from tests.support.node import TSC, npm, packed, require_toolchain
from tests.support.paths import ROOT
from tests.support.runtime import xarray_dataset
from zomgen.targets.typescript.toolchain import PEER_RANGES

pytestmark = pytest.mark.node

# zarrita's own dependencies, whose declarations import relative paths without the `.js` that
# `nodenext` requires (TS2834/TS2835): any app sees these with skipLibCheck off, at either end,
# and nothing of zomgen's is among them. Every other declaration is checked.
THEIR_DECLARATIONS = ("node_modules/numcodecs/", "node_modules/unzipit/")


def _newest(name: str, accepted: str) -> str:
    """The newest version of `name` npm's registry has in the range `accepted`."""
    found = json.loads(npm(["view", f"{name}@{accepted}", "version", "--json"], ROOT).stdout)
    newest = found[-1] if isinstance(found, list) else found
    assert isinstance(newest, str), found
    return newest


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The two tarballs, and a store xarray wrote, in one folder."""
    require_toolchain()
    work = tmp_path_factory.mktemp("peers")
    packed(ROOT / "runtime" / "typescript", work)
    schema = ROOT / "schemas" / "xarray-v3" / "schema.json"
    built = run_zomgen("build", schema, "-o", work / "xarray_v3", "--npm")
    assert built.returncode == 0, built.stderr
    packed(work / "xarray_v3", work)
    xarray_dataset().to_zarr(work / "store.zarr", zarr_format=3, consolidated=False)
    return work


def _documents(store: Path) -> list[dict[str, Any]]:
    """The store's document as written, and broken two ways."""
    document, problems = read_document(store)
    assert document is not None, problems
    wrong_format = copy.deepcopy(document) | {"zarr_format": 4}
    unnamed = copy.deepcopy(document)
    array = next(m for m in unnamed["members"].values() if "shape" in m)
    array.pop("dimension_names")
    return [document, wrong_format, unnamed]


def _main(documents: list[dict[str, Any]], folder: Path, url: str) -> str:
    return "\n".join(
        [
            'import { FetchStore } from "zarrita";',
            'import { type XarrayDataset, load, validate, validateStore } from "xarray-v3";',
            f"const valid: XarrayDataset = {json.dumps(documents[0])};",
            f"const documents: unknown[] = {json.dumps(documents)};",
            f"const folder = {json.dumps(str(folder))};",
            f"const url = {json.dumps(url)};",
            "const store = new FetchStore(url);",
            "const loaded = await load(folder);",
            "console.log(JSON.stringify({",
            "  documents: documents.map((document) => validate(document)),",
            "  folder: await validateStore(folder),",
            "  http: await validateStore(url),",
            "  fetchstore: await validateStore(store, { namedMembersOnly: true }),",
            "  members: Object.keys(loaded.members).sort(),",
            "}));",
            "void valid;",
        ]
    )


def _rows(problems: list[dict[str, Any]]) -> list[tuple[str, str, str, str]]:
    return sorted((p["node_path"], p["pointer"], p["keyword"], p["schema_path"]) for p in problems)


@pytest.mark.parametrize("end", ["lowest", "newest"])
def test_the_package_works_at_each_end_of_its_peer_ranges(work: Path, end: str) -> None:
    versions = {
        name: accepted.removeprefix("^") if end == "lowest" else _newest(name, accepted)
        for name, accepted in PEER_RANGES.items()
    }
    app = work / f"app_{end}"
    app.mkdir()
    manifest = {"name": f"peers-{end}", "private": True, "type": "module"}
    (app / "package.json").write_text(json.dumps(manifest), encoding="utf-8")
    tarballs = sorted(f"../{t.name}" for t in work.glob("*.tgz"))
    peers = [f"{name}@{version}" for name, version in versions.items()]
    npm(["install", "--prefer-offline", *tarballs, *peers], app)
    for name, version in versions.items():
        installed = json.loads((app / "node_modules" / name / "package.json").read_text("utf-8"))
        assert installed["version"] == version, name

    store = work / "store.zarr"
    documents = _documents(store)
    schema = json.loads((work / "xarray_v3" / "schema.json").read_text("utf-8"))
    with serve(work, listing=True) as served:
        (app / "main.ts").write_text(
            _main(documents, store, f"{served.url}/store.zarr"), encoding="utf-8"
        )
        options = {
            "strict": True,
            "exactOptionalPropertyTypes": True,
            "noUncheckedIndexedAccess": True,
            "target": "es2022",
            "module": "nodenext",
            "moduleResolution": "nodenext",
            "outDir": "out",
            "types": [],
        }
        config = {"compilerOptions": options, "files": ["main.ts"]}
        (app / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
        tsc = subprocess.run(
            [str(TSC), "-p", "tsconfig.json", "--pretty", "false"],
            cwd=app,
            capture_output=True,
            text=True,
            check=False,
        )
        errors = [line for line in tsc.stdout.splitlines() if ": error TS" in line]
        assert not [e for e in errors if not e.startswith(THEIR_DECLARATIONS)], tsc.stdout
        (app / "out" / "package.json").write_text('{"type": "module"}', encoding="utf-8")
        run = subprocess.run(
            ["node", "out/main.js"],
            cwd=app,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    expected = [_rows([p.to_json() for p in check_document(d, schema)]) for d in documents]
    assert [_rows(problems) for problems in result["documents"]] == expected
    assert expected[0] == [] and all(expected[1:])
    for read in ("folder", "http", "fetchstore"):
        assert result[read] == [], (read, result[read])
    assert result["members"] == sorted(documents[0]["members"])
