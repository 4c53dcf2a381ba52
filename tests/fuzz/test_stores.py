"""Corrupted stores from real writers (issue 12, item 7; the store side of the fuzz campaign).

Stores are written by zarr-python (v2 and v3, a local folder and a zip) and by xarray (v2 and
v3, consolidated), then copied and corrupted with a fixed seed: metadata files truncated, bytes
flipped, numbers made huge (5,000 digits, `1e999`, `-0`), invalid UTF-8 inserted, JSON values
swapped for other types, nesting made 100,000 deep, files and folders deleted; zips truncated,
their bytes flipped, or rewritten with one entry corrupted as above or left out. On each, the
generated packages of the bundled xarray conventions run `validate` and `load`, and a sample goes
through `zomgen validate`: the answer must be problems or the package's error type (`ZomError`,
`StoreError`), never another exception, a traceback or a hang, and no byte of the store may
change (hashed before and after).

The CI run is time-bounded with a fixed seed (ZOMGEN_FUZZ_STORE_SECONDS, 25 s by default:
224 corrupted stores tried on the loaded 2-core machine, 224 clean, 0 defects); a longer run on
demand: `ZOMGEN_FUZZ_STORE_SECONDS=600 pytest tests/fuzz/test_stores.py -s` (it prints its
figures; 90 s: 1,119 tried, 1,119 clean, 0 defects).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import time
import traceback
import warnings
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import xarray as xr
import zarr

from tests.support.cli import run_zomgen
from tests.support.packages import imported
from tests.support.paths import ROOT
from zomgen.pipeline import Options, generate
from zomgen.write import write_package

SEED = 20261123
SECONDS = float(os.environ.get("ZOMGEN_FUZZ_STORE_SECONDS", "25"))
MIN_TRIED = 60  # however loaded the machine, at least this many (each corruption kind ~5 times)
CLI_SAMPLE = 6  # corrupted stores also checked through `zomgen validate` (a process each, ~2 s)
METADATA = re.compile(r"(^|/)(zarr\.json|\.zarray|\.zattrs|\.zgroup|\.zmetadata)$")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.fuzz,
    pytest.mark.filterwarnings("ignore"),
]


@dataclass
class Tally:
    tried: int = 0
    clean: int = 0  # valid, or problems / the package's error type
    cli: int = 0
    defects: list[str] = field(default_factory=list)


# -- the stores, as real writers write them


def _dataset() -> xr.Dataset:
    return xr.Dataset(
        {"t": (("y", "x"), np.arange(6.0).reshape(2, 3), {"units": "K", "long_name": "temp"})},
        coords={"y": [1.0, 2.0], "x": [10, 20, 30]},
        attrs={"title": "fuzz", "history": "written by xarray"},
    )


def _zarr_group(store: Any, version: int) -> None:
    root = zarr.open_group(store, mode="w", zarr_format=version)  # type: ignore[arg-type]
    root.attrs.update({"title": "fuzz", "n": 3, "nested": {"a": [1, 2.5, None]}})
    a = root.create_array("a", shape=(4, 5), chunks=(2, 5), dtype="f8")
    a.attrs["_ARRAY_DIMENSIONS"] = ["y", "x"]
    a[:] = np.ones((4, 5))
    sub = root.create_group("sub")
    sub.attrs["k"] = "v"
    b = sub.create_array("b", shape=(3,), chunks=(3,), dtype="i4")
    b.attrs["_ARRAY_DIMENSIONS"] = ["z"]


def write_originals(folder: Path) -> dict[str, tuple[Path, int]]:
    """name -> (store, Zarr version)."""
    stores: dict[str, tuple[Path, int]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for version in (2, 3):
            path = folder / f"xarray_v{version}.zarr"
            _dataset().to_zarr(path, zarr_format=version, consolidated=True)
            stores[path.name] = (path, version)
            path = folder / f"zarr_v{version}.zarr"
            _zarr_group(zarr.storage.LocalStore(path), version)
            stores[path.name] = (path, version)
            path = folder / f"zarr_v{version}.zip"
            zip_store = zarr.storage.ZipStore(path, mode="w")
            _zarr_group(zip_store, version)
            zip_store.close()
            stores[path.name] = (path, version)
    return stores


# -- corruptions of one metadata text


def _huge_number(text: bytes, rng: random.Random) -> bytes:
    numbers = list(re.finditer(rb"-?\d+(\.\d+)?([eE][-+]?\d+)?", text))
    if not numbers:
        return text + b"9" * 5000
    found = rng.choice(numbers)
    big = rng.choice([b"9" * 5000, b"-" + b"9" * 400, b"1e999", b"-0", b"1" + b"0" * 309, b"0.5"])
    return text[: found.start()] + big + text[found.end() :]


def _swap_value(text: bytes, rng: random.Random) -> bytes:
    try:
        data = json.loads(text)
    except ValueError:
        return text[::-1]
    if not isinstance(data, dict) or not data:
        return b"[]"
    key = rng.choice(sorted(data))
    data[key] = rng.choice([None, "x", -1, 2**70, 1.5, [], {}, [[[]]], {"a": {"b": []}}, True])
    if rng.random() < 0.3:
        data["attributes" if "attributes" not in data else "members"] = rng.choice([[], "s", 7])
    return json.dumps(data).encode()


def _invalid_utf8(text: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(text) + 1)
    return text[:at] + rng.choice([b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\x00"]) + text[at:]


def _flip(text: bytes, rng: random.Random) -> bytes:
    data = bytearray(text or b"{}")
    for _ in range(rng.randint(1, 8)):
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


TEXT_CORRUPTIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "truncate": lambda t, rng: t[: rng.randrange(len(t) + 1)],
    "flip bytes": _flip,
    "huge number": _huge_number,
    "invalid UTF-8": _invalid_utf8,
    "swap a value": _swap_value,
    "nest 100,000 deep": lambda t, rng: b"[" * 100_000 + b"]" * 100_000,
    "empty": lambda t, rng: b"",
    "not JSON": lambda t, rng: b"NaN" if rng.random() < 0.5 else b"{'a': 1}",
}


def corrupt_folder(store: Path, rng: random.Random) -> str:
    files = sorted(p for p in store.rglob("*") if p.is_file())
    metadata = [p for p in files if METADATA.search(p.relative_to(store).as_posix())]
    what = rng.choice([*TEXT_CORRUPTIONS, "delete a file", "delete a folder"])
    if what == "delete a file":
        victim = rng.choice(metadata)
        victim.unlink()
        return f"{what}: {victim.relative_to(store)}"
    if what == "delete a folder":
        folders = sorted(p for p in store.rglob("*") if p.is_dir())
        victim = rng.choice(folders) if folders else store
        shutil.rmtree(victim)
        return f"{what}: {victim.relative_to(store)}"
    victim = rng.choice(metadata)
    victim.write_bytes(TEXT_CORRUPTIONS[what](victim.read_bytes(), rng))
    return f"{what}: {victim.relative_to(store)}"


def corrupt_zip(store: Path, rng: random.Random) -> str:
    data = store.read_bytes()
    what = rng.choice(["truncate the zip", "flip zip bytes", "corrupt an entry", "leave out"])
    if what == "truncate the zip":
        store.write_bytes(data[: rng.randrange(len(data))])
        return what
    if what == "flip zip bytes":
        store.write_bytes(_flip(data, rng))
        return what
    with zipfile.ZipFile(store) as archive:
        entries = [(info, archive.read(info)) for info in archive.infolist()]
    names = [info.filename for info, _ in entries if METADATA.search(info.filename)]
    victim = rng.choice(names)
    how = rng.choice(sorted(TEXT_CORRUPTIONS))
    store.unlink()
    with zipfile.ZipFile(store, "w") as archive:
        for info, content in entries:
            if info.filename == victim:
                if what == "leave out":
                    continue
                content = TEXT_CORRUPTIONS[how](content, rng)
            archive.writestr(info.filename, content)
    return f"{what} {victim}" + (f" ({how})" if what == "corrupt an entry" else "")


def digest(store: Path) -> str:
    """Every path and byte below `store` (or of the file `store`)."""
    h = hashlib.sha256()
    paths = [store] if store.is_file() else sorted(store.rglob("*"))
    for path in paths:
        h.update(path.as_posix().encode("utf-8", "surrogateescape") + b"\0")
        if path.is_file():
            h.update(path.read_bytes())
    return h.hexdigest()


# -- the packages of the bundled conventions


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[int, ModuleType]]:
    out = tmp_path_factory.mktemp("fuzz_store_packages")
    names = {2: "fuzz_store_xarray_v2", 3: "fuzz_store_xarray_v3"}
    for version, name in names.items():
        schema = ROOT / "schemas" / f"xarray-v{version}" / "schema.json"
        write_package(generate(Options(schema=schema, package=name)), out / name)
    with imported(out, *names.values()) as modules:
        yield dict(zip(names, modules, strict=True))


def _run_package(package: ModuleType, store: Path) -> None:
    """validate and load: problems, a model, or the package's error type; nothing else."""
    problems = []
    try:
        problems = package.validate(store)
    except package.ZomError:
        pass
    for problem in problems:
        assert "\n" not in str(problem), str(problem)
    try:
        package.load(store)
    except package.ZomError:
        pass


def _cli(store: Path, version: int) -> str | None:
    schema = ROOT / "schemas" / f"xarray-v{version}" / "schema.json"
    result = run_zomgen(
        "validate", store, "--schema", schema, errors="backslashreplace", timeout=120
    )
    if result.returncode not in (0, 1, 2) or "Traceback" in result.stderr:
        return f"exit {result.returncode}: {result.stderr[-1500:]}"
    stray = [line for line in result.stderr.splitlines() if not line.startswith("zomgen: ")]
    return f"stderr not one line per problem: {stray[:3]}" if stray else None


def test_corrupted_stores_give_problems_or_the_error_type(
    packages: dict[int, ModuleType], tmp_path: Path
) -> None:
    originals = write_originals(tmp_path / "originals")
    for name, (path, version) in originals.items():  # xarray's own stores are valid
        problems = packages[version].validate(path)  # zarr's: a subgroup is not xarray's
        assert problems == [] if name.startswith("xarray") else problems, name
    rng = random.Random(SEED)
    tally = Tally()
    started = time.monotonic()
    names = sorted(originals)
    while tally.tried < MIN_TRIED or time.monotonic() - started < SECONDS:
        name = names[tally.tried % len(names)]
        source, version = originals[name]
        store = tmp_path / f"c{tally.tried}" / name
        store.parent.mkdir()
        if source.is_dir():
            shutil.copytree(source, store)
            what = corrupt_folder(store, rng)
        else:
            shutil.copyfile(source, store)
            what = corrupt_zip(store, rng)
        label = f"#{tally.tried} {name}: {what}"
        tally.tried += 1
        before = digest(store)
        try:
            _run_package(packages[version], store)
        except Exception:  # noqa: BLE001 - the defect being looked for
            tally.defects.append(f"{label}: {traceback.format_exc(limit=-3)}")
            continue
        if tally.cli < CLI_SAMPLE and tally.tried % 5 == 0:
            tally.cli += 1
            failure = _cli(store, version)
            if failure is not None:
                tally.defects.append(f"{label}: zomgen validate: {failure}")
                continue
        if digest(store) != before:
            tally.defects.append(f"{label}: the store changed")
            continue
        tally.clean += 1
        shutil.rmtree(store.parent)
    print(
        f"store campaign: {tally.tried} tried, {tally.clean} clean, "
        f"{len(tally.defects)} defects, {tally.cli} through zomgen validate, "
        f"{time.monotonic() - started:.0f} s"
    )
    assert tally.cli == CLI_SAMPLE, tally
    assert not tally.defects, "\n".join(tally.defects[:5])
