"""Reading is bounded by the per-document limit even when a store lies about sizes: a zip
entry is inflated only up to the limit, whatever its compression and whatever size it states
(zipfile alone inflates a bzip2 or LZMA entry in full: 1 GiB from under 1 KiB)."""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support.node import HARNESS, require_toolchain
from tests.support.paths import ROOT

pytestmark = pytest.mark.slow
from zomgen.pipeline import Options, generate_package
from zomgen.targets.typescript.npm import NpmPackage
from zomgen.write import write_package

METHODS = {"deflate": zipfile.ZIP_DEFLATED, "bzip2": zipfile.ZIP_BZIP2, "lzma": zipfile.ZIP_LZMA}


def _bomb(path: Path, method: int) -> None:
    """A store whose member `a/zarr.json` inflates to 512 MiB."""
    with zipfile.ZipFile(path, "w", compression=method) as archive:
        archive.writestr("zarr.json", b'{"zarr_format": 3, "node_type": "group"}')
        with archive.open("a/zarr.json", "w") as entry:
            entry.write(b'{"zarr_format": 3, "node_type": "group", "attributes": {"pad": "')
            spaces = b" " * (1 << 20)
            for _ in range(512):
                entry.write(spaces)


def _understate(path: Path, copy: Path) -> None:
    """`path` with the local header and central directory of `a/zarr.json` saying it holds 2
    bytes (zipfile trusts the headers)."""
    data = bytearray(path.read_bytes())
    for signature, size_at, name_at in ((b"PK\x03\x04", 22, 30), (b"PK\x01\x02", 24, 46)):
        at = -1
        while (at := data.find(signature, at + 1)) >= 0:
            if data[at + name_at : at + name_at + 11] == b"a/zarr.json":
                data[at + size_at : at + size_at + 4] = struct.pack("<I", 2)
    copy.write_bytes(bytes(data))


_READ = """
import json, sys
from zomgen_runtime import read_document
document, problems = read_document(sys.argv[1], max_document_bytes=1 << 20)
# VmHWM: this process's peak resident memory (ru_maxrss would count what the forking parent held)
status = open("/proc/self/status").read().split("VmHWM:")[1]
peak_kib = int(status.split()[0])
print(json.dumps({"problems": {p.node_path: p.message for p in problems}, "peak": peak_kib}))
"""


@pytest.fixture(scope="module")
def bombs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, bool], Path]:
    folder = tmp_path_factory.mktemp("bombs")
    made: dict[tuple[str, bool], Path] = {}
    for name, method in METHODS.items():
        made[name, False] = folder / f"{name}.zip"
        made[name, True] = folder / f"{name}-understated.zip"
        _bomb(made[name, False], method)
        _understate(made[name, False], made[name, True])
    return made


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/self/status")
@pytest.mark.parametrize("understate", [False, True], ids=["honest size", "understated size"])
@pytest.mark.parametrize("method", list(METHODS))
def test_a_zip_bomb_is_inflated_only_to_the_limit(
    bombs: dict[tuple[str, bool], Path], method: str, understate: bool
) -> None:
    store = bombs[method, understate]
    assert store.stat().st_size < 2 << 20  # at most a few MiB on disk, 512 MiB inflated
    run = subprocess.run(
        [sys.executable, "-c", _READ, str(store)], capture_output=True, text=True, check=True
    )
    answer = json.loads(run.stdout)
    assert list(answer["problems"]) == ["/a"]
    message = answer["problems"]["/a"]
    if understate and method == "deflate":
        assert "Bad CRC-32" in message  # zipfile stops at the stated 2 bytes
    elif understate:
        assert "inflates past the limit of 1048576 bytes" in message
    else:
        assert "over the limit of 1048576 bytes" in message  # the stated size says so
    # The reading process peaks near 100 MiB; 512 MiB inflated would be far above.
    assert answer["peak"] < 300 * 1024, answer["peak"]


@pytest.mark.parametrize("method", list(METHODS))
def test_a_store_zipped_with_each_method_reads_as_its_folder(tmp_path: Path, method: str) -> None:
    """The bounded inflation gives the same bytes zipfile would: a store written by zarr-python,
    zipped with each compression, reads back as the folder does."""
    import zarr
    from zomgen_runtime import read_document

    folder = tmp_path / "store"
    root = zarr.open_group(folder, mode="w", attributes={"title": "t" * 5000})
    root.create_array("a", shape=(3,), dtype="i2", attributes={"units": "m"})
    zipped = tmp_path / "store.zip"
    with zipfile.ZipFile(zipped, "w", compression=METHODS[method]) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())
    from_folder, folder_problems = read_document(str(folder))
    from_zip, zip_problems = read_document(str(zipped))
    assert folder_problems == zip_problems == []
    assert from_zip == from_folder


WIDE = 12  # members of one level, each with a 60 MiB metadata file (under the 64 MiB limit)
_READ_DEFAULT = _READ.replace(", max_document_bytes=1 << 20", "")


def _wide_folder(folder: Path) -> None:
    """A level of members whose zarr.json are sparse 60 MiB files: 4 KiB each on disk."""
    (folder / "zarr.json").write_text('{"zarr_format": 3, "node_type": "group"}')
    for i in range(WIDE):
        (folder / f"m{i}").mkdir()
        with open(folder / f"m{i}" / "zarr.json", "wb") as sparse:
            sparse.truncate(60 << 20)


def _wide_zip(path: Path) -> None:
    """The same level in a zip: each 60 MiB entry deflated to about 60 KiB."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("zarr.json", b'{"zarr_format": 3, "node_type": "group"}')
        for i in range(WIDE):
            with archive.open(f"m{i}/zarr.json", "w") as entry:
                for _ in range(60):
                    entry.write(b" " * (1 << 20))


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/self/status")
@pytest.mark.parametrize("kind", ["folder", "zip"])
def test_a_level_of_large_files_is_read_and_parsed_one_file_at_a_time(
    tmp_path: Path, kind: str
) -> None:
    """Before, every file of a level was held before any was parsed: 12 x 60 MiB = 720 MiB."""
    store = tmp_path / ("wide.zip" if kind == "zip" else "wide")
    if kind == "zip":
        _wide_zip(store)
    else:
        store.mkdir()
        _wide_folder(store)
    run = subprocess.run(
        [sys.executable, "-c", _READ_DEFAULT, str(store)],
        capture_output=True,
        text=True,
        check=True,
    )
    answer = json.loads(run.stdout)
    assert sorted(answer["problems"]) == sorted(f"/m{i}" for i in range(WIDE))
    assert answer["peak"] < 300 * 1024, answer["peak"]  # KiB: two files at most, and Python


@pytest.fixture(scope="module")
def node_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The xarray-v3 npm package, built, beside a node_modules with zarrita, and the harness."""
    require_toolchain()
    work = tmp_path_factory.mktemp("node_zip")
    schema = ROOT / "schemas" / "xarray-v3" / "schema.json"
    generated = generate_package(Options(schema, (), npm=NpmPackage("xarray-v3"), python=False))
    write_package(generated.files, work / "xarray-v3")
    (work / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    shutil.copy(HARNESS / "zip_bomb.mjs", work / "zip_bomb.mjs")
    return work


@pytest.mark.node
@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/self/status")
@pytest.mark.parametrize("understate", [False, True], ids=["honest size", "understated size"])
def test_the_node_loader_inflates_a_zip_bomb_only_to_the_limit(
    bombs: dict[tuple[str, bool], Path], node_package: Path, understate: bool
) -> None:
    """zarrita's ZipFileStore inflates a whole entry: 512 MiB from this 509 KiB zip (593 MiB
    resident for a 255 KB one, issue 53). The TypeScript loader now inflates it itself, up to
    the limit, in Node and in the page alike (unzipit reads only deflate among the methods)."""
    job = {
        "package": str(node_package / "xarray-v3"),
        "store": str(bombs["deflate", understate]),
        "limit": 1 << 20,
    }
    run = subprocess.run(
        ["node", str(node_package / "zip_bomb.mjs")],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        check=True,
    )
    answer = json.loads(run.stdout)
    assert list(answer["problems"]) == ["/a"]
    if understate:
        expected = "zarr.json inflates past the limit of 1048576 bytes for one metadata document"
    else:
        expected = "over the limit of 1048576 bytes"  # the stated size says so
    assert expected in answer["problems"]["/a"]
    assert answer["peak"] < 300 * 1024, answer["peak"]
