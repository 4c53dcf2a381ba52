"""`zomgen build --npm`: a convention as an npm package that a TypeScript app installs from its
folder, type-checks under --strict with exactOptionalPropertyTypes, and runs under Node.

The app is a real one: its own folder and package.json, and the documented install
(docs/typescript.md): `npm pack` of @zomgen/runtime (runtime/typescript) and of each package,
then `npm install` of the tarballs, which brings the peer dependencies Ajv, re2js and zarrita
(from npm's cache); a later plain `npm install` leaves them installed. Then tsc with the app's
tsconfig under both module resolutions a TypeScript app uses (nodenext, and bundler as Vite and
esbuild read packages), and Node on the emitted JavaScript. The documents are real stores written by xarray and
ome-zarr-py, read by the Python loader, valid and broken; Node's verdicts and problems must be
the Python loader's.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from zomgen_runtime import check_document, read_document

from tests.support.cli import run_zomgen
from tests.support.node import TSC, npm, packed, require_toolchain
from tests.support.paths import ROOT
from tests.support.runtime import xarray_dataset
from zomgen.pipeline import Options, generate_package
from zomgen.targets.shipped import runtime_ts_version
from zomgen.targets.typescript.npm import NpmPackage
from zomgen.targets.typescript.toolchain import (
    AJV_VERSION,
    CEL_JS,
    CEL_JS_VERSION,
    NPM_PINS,
    PEER_RANGES,
    RE2JS_VERSION,
    SITE_PINS,
    TYPESCRIPT_VERSION,
    ZARRITA_VERSION,
)
from zomgen.write import write_package

pytestmark = [pytest.mark.node, pytest.mark.slow]

# package folder -> (its schema, the npm name the folder gives, the root type)
PACKAGES = {
    "xarray_v2": ("xarray-v2", "xarray-v2", "XarrayDataset"),
    "xarray_v3": ("xarray-v3", "xarray-v3", "XarrayDataset"),
    "ome_ngff_05_image": ("ome-ngff-05-image", "ome-ngff-05-image", "OmeZarr05Image"),
}


def _build(out: Path, *options: str) -> subprocess.CompletedProcess[str]:
    schema = ROOT / "schemas" / PACKAGES[out.name][0] / "schema.json"
    return run_zomgen("build", schema, "-o", out, *options)


# ---------------------------------------------------------------- the documents


def _read(store: Path) -> dict[str, Any]:
    document, problems = read_document(store)
    assert document is not None, problems
    return document


def _ome_image(store: Path) -> Path:
    import numpy as np
    import zarr
    from ome_zarr import format as formats
    from ome_zarr import writer

    root = zarr.open_group(store, mode="w", zarr_format=3)
    image = np.zeros((2, 32, 32), "uint16")
    writer.write_image(image, root, axes="cyx", fmt=formats.FormatV05(), scale_factors=(2,))
    return store


def _first_array(document: dict[str, Any]) -> dict[str, Any]:
    return next(m for m in document["members"].values() if "shape" in m)


def _without_dimension_names(document: dict[str, Any]) -> None:
    array = _first_array(document)
    array.pop("dimension_names", None)
    array["attributes"].pop("_ARRAY_DIMENSIONS", None)


def _multiscales(document: dict[str, Any]) -> list[dict[str, Any]]:
    multiscales: list[dict[str, Any]] = document["attributes"]["ome"]["multiscales"]
    return multiscales


# Ways users break a document, for every package: (name, change).
BREAKAGES: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("zarr_format 4", lambda d: d.update(zarr_format=4)),
    # (a v2 array may hold a writer's own key, docs/base-schemas.md: a group's key it may not)
    ("a group's key on an array", lambda d: _first_array(d).update(members={})),
    ("shape is text", lambda d: _first_array(d).update(shape="big")),
    ("no attributes", lambda d: d.pop("attributes")),
]
XARRAY_BREAKAGES = [("no dimension names", _without_dimension_names)]
OME_BREAKAGES: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("a dataset path names nothing", lambda d: _multiscales(d)[0]["datasets"][0].update(path="x")),
    ("no axes", lambda d: _multiscales(d)[0].pop("axes")),
]


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[str, Any]]]:
    """package folder -> [(label, document)]: the valid one first, then each broken one."""
    stores = tmp_path_factory.mktemp("stores")
    valid: dict[str, dict[str, Any]] = {}
    for version in (2, 3):
        store = stores / f"xarray_v{version}.zarr"
        xarray_dataset().to_zarr(store, zarr_format=version, consolidated=False)
        valid[f"xarray_v{version}"] = _read(store)
    valid["ome_ngff_05_image"] = _read(_ome_image(stores / "image.zarr"))
    found: dict[str, list[tuple[str, Any]]] = {}
    for package, document in valid.items():
        extra = OME_BREAKAGES if package.startswith("ome") else XARRAY_BREAKAGES
        rows: list[tuple[str, Any]] = [("as written", document)]
        for name, change in BREAKAGES + extra:
            broken = copy.deepcopy(document)
            change(broken)
            rows.append((name, broken))
        found[package] = rows
    return found


# ---------------------------------------------------------------- the app


def _app_source(documents: dict[str, list[tuple[str, Any]]]) -> str:
    """main.ts: each package's valid document as a typed literal, one mistake tsc must refuse,
    and the run-time checks over every document, printed as JSON."""
    lines = ['import * as types3 from "xarray-v3/types";']
    for package, (_schema, name, root) in PACKAGES.items():
        lines.append(f'import * as {package} from "{name}";')
    lines.append("const results: Record<string, unknown[]> = {};")
    for package, (_schema, _name, root) in PACKAGES.items():
        valid = json.dumps(documents[package][0][1])
        every = json.dumps([d for _label, d in documents[package]])
        lines += [
            f"const {package}_valid: {package}.{root} = {valid};",
            "// @ts-expect-error: zarr_format is the convention's, not any number",
            f"const {package}_wrong: {package}.{root} = {{ ...{package}_valid, zarr_format: 7 }};",
            f"void {package}_wrong;",
            f"const {package}_parsed = {package}.parse({package}_valid);",
            f"let {package}_frozen = false;",
            f"try {{ ({package}_parsed as {{ zarr_format: number }}).zarr_format = 7; }}",
            f"catch (error) {{ {package}_frozen = error instanceof TypeError; }}",
            f"const {package}_documents: unknown[] = {every};",
            f"results[{json.dumps(package)}] = {package}_documents.map((document) => {{",
            f"  const problems: readonly {package}.Problem[] = {package}.validate(document);",
            f"  const guard = {package}.is{root}(document);",
            "  let thrown: readonly unknown[] | null = null;",
            f"  try {{ {package}.assert{root}(document); }}",
            f"  catch (error) {{ if (error instanceof {package}.ZomError) thrown = error.problems; }}",
            f"  return {{ problems, guard, thrown, frozen: {package}_frozen }};",
            "});",
        ]
    lines += [
        "const narrowed: unknown = xarray_v3_valid;",
        "if (xarray_v3.isXarrayDataset(narrowed)) {",
        "  const members: types3.XarrayDataset['members'] = narrowed.members;",
        "  void members;",
        "}",
        "console.log(JSON.stringify(results));",
    ]
    return "\n".join(lines) + "\n"


def _tsconfig(resolution: str) -> dict[str, Any]:
    options: dict[str, Any] = {
        "strict": True,
        "exactOptionalPropertyTypes": True,
        "noUncheckedIndexedAccess": True,
        "target": "es2022",
        "module": "nodenext" if resolution == "nodenext" else "esnext",
        "moduleResolution": resolution,
        "outDir": "out",
        "types": [],
    }
    if resolution != "nodenext":
        options["noEmit"] = True
    return {"compilerOptions": options, "files": ["main.ts"]}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory, documents: dict[str, Any]) -> Path:
    """An app folder with @zomgen/runtime and the three packages installed from their
    tarballs, and its main.ts."""
    require_toolchain()
    work = tmp_path_factory.mktemp("npm")
    tarballs = [packed(ROOT / "runtime" / "typescript", work)]
    for package in PACKAGES:
        result = _build(work / package, "--npm")
        assert result.returncode == 0, result.stderr
        tarballs.append(packed(work / package, work))
    app = work / "app"
    app.mkdir()
    manifest = {"name": "zomgen-test-app", "private": True, "type": "module"}
    (app / "package.json").write_text(json.dumps(manifest), encoding="utf-8")
    # Tarballs are installed as copies, as from a registry, with their peers. (A folder would
    # be linked, and Node would resolve Ajv from the folder's own place on disk, where none is:
    # docs/typescript.md.)
    npm(["install", "--prefer-offline", *(f"../{t.name}" for t in tarballs)], app)
    (app / "main.ts").write_text(_app_source(documents), encoding="utf-8")
    for resolution in ("nodenext", "bundler"):
        config = app / f"tsconfig.{resolution}.json"
        config.write_text(json.dumps(_tsconfig(resolution)), encoding="utf-8")
    return app


def _tsc(app: Path, resolution: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(TSC), "-p", f"tsconfig.{resolution}.json", "--pretty", "false"],
        cwd=app,
        capture_output=True,
        text=True,
        check=False,
    )


def _installed(app: Path) -> None:
    for package, (_schema, name, _root) in PACKAGES.items():
        installed = app / "node_modules" / name
        assert not installed.is_symlink() and (installed / "dist" / "index.js").is_file()
        assert not list(installed.rglob("*.py")), "the Python half was installed too"
        assert not (installed / "_runtime_ts").exists(), "the package carries the run time"
        assert not (app.parent / package / "node_modules").exists(), "npm wrote into the package"
    runtime = app / "node_modules" / "@zomgen" / "runtime"
    assert not runtime.is_symlink() and (runtime / "dist" / "validator.js").is_file()
    assert not (app / "node_modules" / name / "node_modules").exists(), "a second run time"
    ajv = json.loads((app / "node_modules" / "ajv" / "package.json").read_text("utf-8"))
    assert ajv["version"] == AJV_VERSION


def test_the_app_installs_the_packages_their_run_time_and_peers(app: Path) -> None:
    _installed(app)
    # A later plain install (as after adding any other dependency) keeps them installed.
    npm(["install", "--prefer-offline"], app)
    _installed(app)


@pytest.mark.parametrize("resolution", ["nodenext", "bundler"])
def test_the_app_type_checks_and_its_mistakes_are_refused(app: Path, resolution: str) -> None:
    result = _tsc(app, resolution)
    assert result.returncode == 0, result.stdout + result.stderr
    # Without the directives, exactly the three mistakes are errors, on their lines.
    source = (app / "main.ts").read_text("utf-8")
    plain = app / f"plain_{resolution}"
    plain.mkdir(exist_ok=True)
    (plain / "main.ts").write_text(source.replace("@ts-expect-error", "mistake"), encoding="utf-8")
    config = _tsconfig(resolution) | {"files": ["main.ts"]}
    config["compilerOptions"] = config["compilerOptions"] | {"noEmit": True}
    (plain / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    (plain / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    os.symlink(app / "node_modules", plain / "node_modules")
    failed = subprocess.run(
        [str(TSC), "-p", "tsconfig.json", "--pretty", "false"],
        cwd=plain,
        capture_output=True,
        text=True,
        check=False,
    )
    errors = [line for line in failed.stdout.splitlines() if ": error TS" in line]
    # 1-based: the line after each directive
    mistakes = [n + 2 for n, line in enumerate(source.splitlines()) if "@ts-expect-error" in line]
    assert len(mistakes) == len(PACKAGES)
    assert [int(e.split("(")[1].split(",")[0]) for e in errors] == mistakes, failed.stdout
    assert all("error TS2322" in e for e in errors), failed.stdout


def _python_rows(package: Path, document: Any) -> list[tuple[str, str, str, str]]:
    schema = json.loads((package / "schema.json").read_text("utf-8"))
    problems = check_document(document, schema)
    return sorted((p.node_path, p.pointer, p.keyword, p.schema_path) for p in problems)


def _rows(problems: list[dict[str, str]]) -> list[tuple[str, str, str, str]]:
    return sorted((p["node_path"], p["pointer"], p["keyword"], p["schema_path"]) for p in problems)


def test_the_app_runs_under_node_with_the_python_loaders_verdicts(
    app: Path, documents: dict[str, list[tuple[str, Any]]]
) -> None:
    assert _tsc(app, "nodenext").returncode == 0
    (app / "out" / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    run = subprocess.run(
        ["node", "out/main.js"], cwd=app, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    for package, rows in documents.items():
        assert len(results[package]) == len(rows)
        for (label, document), result in zip(rows, results[package], strict=True):
            expected = _python_rows(app.parent / package, document)
            assert _rows(result["problems"]) == expected, (package, label)
            assert result["guard"] is (not expected), (package, label)
            if expected:
                assert _rows(result["thrown"]) == expected, (package, label)
            else:
                assert result["thrown"] is None, (package, label)
            assert result["frozen"] is True
        verdicts = [not _python_rows(app.parent / package, d) for _label, d in rows]
        assert verdicts == [True] + [False] * (len(rows) - 1), package


# ---------------------------------------------------------------- the package's files


def _packed_files(folder: Path) -> set[str]:
    listing = npm(["pack", "--dry-run", "--json"], folder)
    return {entry["path"] for entry in json.loads(listing.stdout)[0]["files"]}


def test_npm_pack_ships_the_typescript_half_only(app: Path, tmp_path: Path) -> None:
    files = _packed_files(app.parent / "ome_ngff_05_image")
    assert {"package.json", "dist/index.js", "dist/index.d.ts", "dist/types.d.ts"} <= files
    assert {"index.ts", "types.ts", "schema.json"} <= files
    assert not {f for f in files if f.endswith(".py") or f.startswith(("_runtime", "dist/_"))}
    # --vendor-runtime: the run time's sources and their JavaScript ship in the package
    vendored = tmp_path / "ome_ngff_05_image"
    assert _build(vendored, "--npm", "--vendor-runtime").returncode == 0
    files = _packed_files(vendored)
    assert {"_runtime_ts/validator.ts", "dist/_runtime_ts/validator.js"} <= files
    assert not {f for f in files if f.endswith(".py") or f.startswith("_runtime/")}
    manifest = json.loads((vendored / "package.json").read_text("utf-8"))
    assert "dependencies" not in manifest
    # and it runs on its copy: Node resolves no @zomgen/runtime (the peers alone are there)
    peers = tmp_path / "node_modules"
    peers.mkdir()
    for installed in (ROOT / "node_modules").iterdir():
        if installed.name not in ("@zomgen", ".bin", ".package-lock.json"):
            (peers / installed.name).symlink_to(installed)
    script = (
        f"const m = await import({json.dumps(str(vendored / 'dist' / 'index.js'))});"
        "console.log(m.validate({}).length > 0, typeof m.load);"
    )
    run = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0 and run.stdout.split() == ["true", "function"], run.stderr


def test_the_same_schema_gives_the_same_bytes_in_any_folder(tmp_path: Path) -> None:
    first, second = tmp_path / "a" / "xarray_v3", tmp_path / "b" / "c" / "xarray_v3"
    for out in (first, second):
        assert _build(out, "--npm").returncode == 0
    names = sorted(p.relative_to(first).as_posix() for p in first.rglob("*") if p.is_file())
    assert names == sorted(
        p.relative_to(second).as_posix() for p in second.rglob("*") if p.is_file()
    )
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    # --npm-only writes the same TypeScript half and no Python, and a README of its TypeScript.
    only = tmp_path / "only" / "xarray_v3"
    assert _build(only, "--npm-only").returncode == 0
    python = {n for n in names if n.endswith((".py", "py.typed")) or n.startswith("_runtime/")}
    alone = sorted(p.relative_to(only).as_posix() for p in only.rglob("*") if p.is_file())
    assert alone == sorted(set(names) - python)
    for name in alone:
        if name not in (".zomgen-files", "README.md"):
            assert (only / name).read_bytes() == (first / name).read_bytes(), name
    readme = (only / "README.md").read_text("utf-8")
    assert "## TypeScript\n" in readme and "## Python\n" not in readme
    assert "| `package.json` |" in readme and "| `models.py` |" not in readme


def test_a_rebuild_with_check_is_clean_and_npm_names_and_versions_are_written(
    tmp_path: Path,
) -> None:
    out = tmp_path / "xarray_v3"
    named = ("--npm", "--npm-name", "@lab/xarray", "--npm-version", "1.2.0-rc.1")
    assert _build(out, *named).returncode == 0
    manifest = json.loads((out / "package.json").read_text("utf-8"))
    assert (manifest["name"], manifest["version"]) == ("@lab/xarray", "1.2.0-rc.1")
    assert manifest["peerDependencies"] == PEER_RANGES
    assert manifest["dependencies"] == {"@zomgen/runtime": f"^{runtime_ts_version()}"}
    assert _build(out, "--check", *named).returncode == 0
    stale = _build(out, "--check", "--npm")
    assert stale.returncode == 1 and "--npm" in stale.stderr
    # Back to a Python-only build: the npm files zomgen wrote are removed, nothing else.
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    assert _build(out).returncode == 0
    assert not (out / "package.json").exists() and not (out / "dist").exists()
    assert (out / "notes.txt").read_text("utf-8") == "mine"


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (("--npm-name", "X"), "add --npm or --npm-only"),
        (("--npm", "--npm-name", "Not A Name"), "is not an npm package name"),
        (("--npm", "--npm-version", "1.2"), "is not a semantic version"),
        (("--npm", "--npm-only"), "not allowed with"),
        (("--npm", "--cases", "cases"), "build the npm package separately"),
    ],
)
def test_bad_npm_arguments_exit_2_and_write_nothing(
    tmp_path: Path, options: tuple[str, ...], says: str
) -> None:
    out = tmp_path / "xarray_v3"
    result = _build(out, *options)
    assert result.returncode == 2 and says in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and not out.exists()


def test_without_the_pinned_toolchain_the_build_says_what_to_install(tmp_path: Path) -> None:
    empty = tmp_path / "node_modules"
    (empty / "typescript").mkdir(parents=True)
    (empty / "typescript" / "package.json").write_text('{"version": "5.4.0"}', encoding="utf-8")
    out = tmp_path / "xarray_v3"
    schema = ROOT / "schemas" / "xarray-v3" / "schema.json"
    result = run_zomgen(
        "build", schema, "-o", out, "--npm", env={"ZOMGEN_NODE_MODULES": str(empty)}
    )
    assert result.returncode == 2, result.stderr
    assert (
        f"typescript@{TYPESCRIPT_VERSION} {CEL_JS}@{CEL_JS_VERSION} ajv@{AJV_VERSION} "
        f"re2js@{RE2JS_VERSION} "
        f"zarrita@{ZARRITA_VERSION} @zomgen/runtime@{runtime_ts_version()}" in result.stderr
    )
    assert (
        f"typescript 5.4.0, {CEL_JS} missing, ajv missing, re2js missing, zarrita missing, "
        "@zomgen/runtime missing" in result.stderr
    )
    assert "Traceback" not in result.stderr and not out.exists()


@pytest.mark.slow
def test_every_bundled_convention_builds_and_loads_under_node(tmp_path: Path) -> None:
    """Each bundled convention's dist/ (tsc with nodenext, as the package is built) is imported
    by Node from its package.json's entry point and checks a document."""
    require_toolchain()
    schemas = sorted((ROOT / "schemas").glob("*/schema.json"))
    assert len(schemas) >= 20
    names = []
    for schema in schemas:
        name = schema.parent.name
        package = NpmPackage(name)
        generated = generate_package(Options(schema, (), npm=package, python=False))
        write_package(generated.files, tmp_path / "node_modules" / name)
        names.append(name)
    # Ajv, zarrita and what they need, as the app's own install would have them.
    for installed in (ROOT / "node_modules").iterdir():
        linked = tmp_path / "node_modules" / installed.name
        if not installed.name.startswith(".") and not linked.exists():
            linked.symlink_to(installed)
    script = (
        "const out = {};"
        f"for (const name of {json.dumps(names)}) {{"
        "  const m = await import(name);"
        "  out[name] = { problems: m.validate({}).length, error: typeof m.ZomError };"
        "}"
        "console.log(JSON.stringify(out));"
    )
    run = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    assert {name: r["error"] for name, r in results.items()} == dict.fromkeys(names, "function")
    assert all(r["problems"] >= 1 for r in results.values()), results


def test_an_apps_own_package_json_is_never_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "xarray_v3"
    out.mkdir()
    (out / "package.json").write_text('{"name": "my-app"}', encoding="utf-8")
    result = _build(out, "--npm")
    assert result.returncode == 2, result.stderr
    assert "package.json:/: exists and was not generated by zomgen" in result.stderr
    assert [p.name for p in out.iterdir()] == ["package.json"]
    assert (out / "package.json").read_text("utf-8") == '{"name": "my-app"}'


def test_the_pinned_versions_are_the_ones_the_tests_install() -> None:
    """`--npm` and `zomgen site` pin the versions zomgen's own package.json installs for its
    tests."""
    installed = json.loads((ROOT / "package.json").read_text("utf-8"))["devDependencies"]
    for pins in (NPM_PINS, SITE_PINS):
        assert {name: installed.get(name) for name in pins} == pins
    expected = {
        "typescript": TYPESCRIPT_VERSION,
        CEL_JS: CEL_JS_VERSION,
        "ajv": AJV_VERSION,
        "re2js": RE2JS_VERSION,
        "zarrita": ZARRITA_VERSION,
    }
    assert expected == NPM_PINS
    # A generated package and @zomgen/runtime accept the same versions of their peers.
    runtime = json.loads((ROOT / "runtime" / "typescript" / "package.json").read_text("utf-8"))
    assert runtime["peerDependencies"] == PEER_RANGES
