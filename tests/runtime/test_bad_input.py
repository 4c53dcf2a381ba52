"""Bad input: every case is a Problem with the node path (or a StoreError for an unusable
store), never a traceback, never a hang, never a write. Each test snapshots the store's bytes
before and compares them after."""

from __future__ import annotations

import json
import os
import random
import time
import zipfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import zarr.storage
from zarr.abc.store import ByteRequest
from zarr.core.buffer import Buffer, BufferPrototype, cpu
from zomgen_runtime import (
    DEFAULT_MAX_DEPTH,
    Problem,
    StoreError,
    check_document,
    read_document,
    validate_store,
)

from tests.support.cli import run_zomgen
from tests.support.paths import ROOT
from tests.support.runtime import (
    STORES,
    V3_GROUP,
    base,
    convention,
    snapshot,
    v2_array,
    v3_array,
    write_json,
)

BASE_V3 = ROOT / "schemas" / "zom" / "v3.schema.json"


def _read(store: Path, **options: Any) -> tuple[dict[str, Any] | None, list[Problem]]:
    """read_document, asserting that nothing below `store` changed."""
    before = snapshot(store) if store.exists() else None
    result = read_document(store, **options)
    if before is not None:
        assert snapshot(store) == before, "the read changed the store"
    return result


def _where(problems: list[Problem]) -> list[tuple[str, str]]:
    return [(p.node_path, p.pointer) for p in problems]


def _v3_store(root: Path) -> Path:
    write_json(root, "zarr.json", V3_GROUP)
    write_json(root, "good/zarr.json", v3_array([2], dimension_names=["x"]))
    return root


# -- unusable stores


def test_missing_path(tmp_path: Path) -> None:
    document, problems = _read(tmp_path / "nothing.zarr")
    assert document is None
    assert _where(problems) == [("/", "")] and "no such file or folder" in problems[0].message
    with pytest.raises(StoreError):
        validate_store(tmp_path / "nothing.zarr", base(3))


def test_a_file_that_is_not_a_store(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    document, problems = _read(tmp_path / "notes.txt")
    assert document is None and "not a Zarr store" in problems[0].message


def test_an_object_that_is_not_a_store() -> None:
    document, problems = read_document(42)
    assert document is None and "not a store: a int" in problems[0].message


def test_empty_folder_and_attributes_only_folder(tmp_path: Path) -> None:
    (tmp_path / "empty.zarr").mkdir()
    document, problems = _read(tmp_path / "empty.zarr")
    assert document is None and "no Zarr group or array" in problems[0].message
    # the OME validator's sample: a .zattrs and nothing else
    sample = STORES / "ome-ngff-validator-test_samples" / "invalid" / "no_version_v0.4.zarr"
    document, problems = _read(sample)
    assert document is None
    assert [p.message for p in problems] == [".zattrs without .zgroup or .zarray: not a node"]


def test_unreadable_root_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / "s.zarr").mkdir()
    (tmp_path / "s.zarr" / "zarr.json").write_text("{not json")
    document, problems = _read(tmp_path / "s.zarr")
    assert document is None
    assert problems[0].message.startswith("zarr.json is not JSON: ")


def test_bad_path_inside_the_store(tmp_path: Path) -> None:
    store = _v3_store(tmp_path / "s.zarr")
    for path in ("../s.zarr", "good/../..", "a//b"):
        document, problems = _read(store, path=path)
        assert document is None and "is not a node path" in problems[0].message


# -- one bad node among good ones


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "zarr.json is not JSON: Expecting property name"),
        (b'{"zarr_format": 3, "fill_value": NaN}', "zarr.json: NaN is not JSON"),
        (b'{"zarr_format": 3, "fill_value": -Infinity}', "zarr.json: -Infinity is not JSON"),
        (b"\xff\xfe{}", "zarr.json is not UTF-8 text"),
        (b"[1, 2]", "zarr.json holds a JSON array, not an object"),
        (b"[" * 100_000 + b"]" * 100_000, "zarr.json nests deeper than 512 levels"),
        (b"", "zarr.json is not JSON"),
    ],
)
def test_bad_member_metadata(tmp_path: Path, content: bytes, message: str) -> None:
    store = _v3_store(tmp_path / "s.zarr")
    (store / "bad").mkdir()
    (store / "bad" / "zarr.json").write_bytes(content)
    document, problems = _read(store)
    assert document is not None and set(document["members"]) == {"good"}
    assert _where(problems) == [("/bad", "")]
    assert problems[0].message.startswith(message) and problems[0].keyword == "read"


def test_bad_attributes_file_of_a_v2_array(tmp_path: Path) -> None:
    store = tmp_path / "s.zarr"
    write_json(store, ".zgroup", {"zarr_format": 2})
    write_json(store, "a/.zarray", v2_array([2]))
    (store / "a" / ".zattrs").write_text('{"scale": Infinity}')
    document, problems = _read(store)
    assert document is not None and document["members"] == {}
    assert [str(p) for p in problems] == [
        '/a: .zattrs: Infinity is not JSON (Zarr writes it as the string "Infinity")'
    ]


def test_unreadable_member_does_not_also_fail_required(tmp_path: Path) -> None:
    store = tmp_path / "s.zarr"
    write_json(store, "zarr.json", V3_GROUP)
    write_json(store, "labels/zarr.json", V3_GROUP)
    write_json(store, "labels/cells/zarr.json", v3_array([1], dimension_names=["x"]))
    (store / "raw").mkdir()
    (store / "raw" / "zarr.json").write_text("{")
    problems = validate_store(store, convention("named-members"))
    assert _where(problems) == [("/raw", "")]  # not also "'raw' is a required property"


def test_metadata_that_is_a_folder_or_a_fifo(tmp_path: Path) -> None:
    store = _v3_store(tmp_path / "s.zarr")
    (store / "dir" / "zarr.json").mkdir(parents=True)
    (store / "fifo").mkdir()
    os.mkfifo(store / "fifo" / "zarr.json")  # opening it for reading must not block
    document, problems = _read(store)
    assert document is not None and set(document["members"]) == {"good"}
    assert sorted(_where(problems)) == [("/dir", ""), ("/fifo", "")]
    assert all("not a regular file" in p.message for p in problems)


def test_folders_without_metadata_are_not_members(tmp_path: Path) -> None:
    store = _v3_store(tmp_path / "s.zarr")
    (store / "plain" / "deeper").mkdir(parents=True)
    (store / "README.md").write_text("not a node")
    assert _read(store)[1] == []
    assert set(_read(store)[0]["members"]) == {"good"}  # type: ignore[index]


def test_huge_metadata_document(tmp_path: Path) -> None:
    store = tmp_path / "s.zarr"
    write_json(store, ".zgroup", {"zarr_format": 2})
    write_json(store, "a/.zarray", v2_array([2]))
    with open(store / "a" / ".zattrs", "wb") as f:
        f.truncate(100 * 1024 * 1024)  # a 100 MB attribute document (sparse: instant)
    document, problems = _read(store)
    assert document is not None and document["members"] == {}
    assert _where(problems) == [("/a", "")]
    assert "104857600 bytes, over the limit of" in problems[0].message
    # the limit is an option; stores that are read whole (memory) are checked after the read
    memory = zarr.storage.MemoryStore()
    group = zarr.open_group(memory, mode="w")
    group.create_group("big", attributes={"big": "x" * 5000})
    document, problems = read_document(memory, max_document_bytes=4096)
    assert document is not None and document["members"] == {}
    assert _where(problems) == [("/big", "")]
    assert "over the limit of 4096 bytes" in problems[0].message


def test_consolidated_metadata_may_exceed_the_limit_of_one_document(tmp_path: Path) -> None:
    """A v3 root's zarr.json holds the consolidated metadata of every node: 100,000 arrays make
    104 MB, over the limit of one node's document, and the root cannot be read any other way."""
    store = tmp_path / "s.zarr"
    group = zarr.open_group(store, mode="w", zarr_format=3)
    for i in range(20):
        group.create_array(f"a{i}", shape=(2,), dtype="f8")
    zarr.consolidate_metadata(store)
    assert (store / "zarr.json").stat().st_size > 8192
    document, problems = read_document(str(store), max_document_bytes=4096)
    assert problems == [] and document is not None and len(document["members"]) == 20
    limited = read_document(str(store), max_document_bytes=4096, max_consolidated_bytes=8192)
    assert limited[0] is None and "over the limit of 8192 bytes" in limited[1][0].message


# -- names the spec forbids


def test_forbidden_names_on_disk(tmp_path: Path) -> None:
    store = _v3_store(tmp_path / "s.zarr")
    write_json(store, "__zarr/zarr.json", V3_GROUP)
    write_json(store, ".../zarr.json", V3_GROUP)
    write_json(store, "__pycache__/x.json", {})  # reserved name, but no node: ignored
    document, problems = _read(store)
    assert document is not None and set(document["members"]) == {"good"}
    assert sorted(p.message for p in problems) == [
        "forbidden node name '...': a node name cannot consist of periods only",
        "forbidden node name '__zarr': node names starting with '__' are reserved",
    ]


def test_forbidden_names_in_a_mapping_store_are_never_read() -> None:
    group = json.dumps(V3_GROUP).encode()
    mapping = {
        "zarr.json": group,
        "a/zarr.json": group,
        "a/../zarr.json": group,  # would climb out of the node
        "a//zarr.json": group,  # an empty name
    }
    document, problems = read_document(mapping)
    assert document is not None and list(document["members"]) == ["a"]
    assert sorted(str(p) for p in problems) == [
        "/a/..: forbidden node name '..'",
        "/a/: forbidden node name ''",
    ]


def test_forbidden_names_in_consolidated_metadata(tmp_path: Path) -> None:
    store = tmp_path / "s.zarr"
    array = v3_array([1])
    write_json(
        store,
        "zarr.json",
        {
            **V3_GROUP,
            "consolidated_metadata": {
                "kind": "inline",
                "must_understand": False,
                "metadata": {"ok": array, "../up": array, "__zarr": array, "a//b": array},
            },
        },
    )
    # trusted: the entries are this store's only metadata (no node files, on purpose)
    document, problems = _read(store, check_consolidated=False)
    assert document is not None and list(document["members"]) == ["ok"]
    assert sorted(p.node_path for p in problems) == ["/../up", "/__zarr", "/a//b"]
    assert all("consolidated metadata lists" in p.message for p in problems)


def test_consolidated_entry_without_its_parent(tmp_path: Path) -> None:
    store = tmp_path / "s.zarr"
    envelope = {"kind": "inline", "must_understand": False, "metadata": {"g/a": v3_array([1])}}
    write_json(store, "zarr.json", {**V3_GROUP, "consolidated_metadata": envelope})
    document, problems = _read(store, check_consolidated=False)
    assert document is not None and document["members"] == {}
    assert _where(problems) == [("/g/a", "")]


def test_malformed_consolidated_envelope_is_reported_then_walked(tmp_path: Path) -> None:
    store = _v3_store(tmp_path / "s.zarr")
    envelope = {"kind": "table", "must_understand": True, "metadata": {}}
    write_json(store, "zarr.json", {**V3_GROUP, "consolidated_metadata": envelope})
    document, problems = _read(store)
    assert document is not None and set(document["members"]) == {"good"}  # walked instead
    assert _where(problems) == [
        ("/", "/consolidated_metadata/kind"),
        ("/", "/consolidated_metadata/must_understand"),
    ]
    write_json(store, "zarr.json", {**V3_GROUP, "consolidated_metadata": None})
    assert _read(store)[1] == []  # null: not consolidated (zarr-python once wrote it)


def test_bad_v2_consolidated_metadata(tmp_path: Path) -> None:
    store = tmp_path / "s.zarr"
    write_json(store, ".zgroup", {"zarr_format": 2})
    write_json(store, "a/.zarray", v2_array([1]))
    (store / ".zmetadata").write_text("{")
    document, problems = _read(store)
    assert document is not None and list(document["members"]) == ["a"]
    assert [p.message for p in problems] == [
        (
            ".zmetadata is not JSON: Expecting property name enclosed in double quotes: "
            "line 1 column 2 (char 1)"
        )
    ]
    write_json(store, ".zmetadata", {"zarr_consolidated_format": 2, "metadata": {}})
    document, problems = _read(store)
    assert document is not None and list(document["members"]) == ["a"]
    assert "zarr_consolidated_format is 2, not 1" in problems[0].message


# -- symlinks


def test_symlink_to_an_ancestor(tmp_path: Path) -> None:
    store = _v3_store(tmp_path / "s.zarr")
    write_json(store, "g/zarr.json", V3_GROUP)
    os.symlink("..", store / "g" / "up")  # g/up is the store's root again
    document, problems = _read(store)
    assert document is not None and document["members"]["g"]["members"] == {}
    assert _where(problems) == [("/g/up", "")]
    assert problems[0].message == "symlink loop: this folder is the folder of / again"


def test_symlink_that_loops_on_itself(tmp_path: Path) -> None:
    store = _v3_store(tmp_path / "s.zarr")
    os.symlink("self", store / "self")
    document, problems = _read(store)
    assert document is not None and set(document["members"]) == {"good"}
    assert _where(problems) == [("/self", "")] and "symlink loop" in problems[0].message
    os.symlink("loop", tmp_path / "loop")
    document, problems = _read(tmp_path / "loop")
    assert document is None and "looping symlink" in problems[0].message


# -- v2 and v3 in one node


def test_mixed_versions_in_the_root(tmp_path: Path) -> None:
    store = _v3_store(tmp_path / "s.zarr")
    write_json(store, ".zgroup", {"zarr_format": 2})
    document, problems = _read(store)
    assert document is None
    assert problems[0].message == "Zarr v3 and v2 metadata mixed in one node (zarr.json, .zgroup)"
    with pytest.raises(StoreError):
        validate_store(store, base(3))


def test_mixed_versions_in_members(tmp_path: Path) -> None:
    store = _v3_store(tmp_path / "s.zarr")
    write_json(store, "arr/zarr.json", v3_array([1]))
    write_json(store, "arr/.zattrs", {"units": "m"})
    write_json(store, "old/.zgroup", {"zarr_format": 2})
    document, problems = _read(store)
    assert document is not None and set(document["members"]) == {"good"}
    assert [str(p) for p in problems] == [
        "/arr: Zarr v3 and v2 metadata mixed in one node (zarr.json, .zattrs)",
        "/old: a Zarr v2 node in a Zarr v3 hierarchy",
    ]


def test_mixed_group_in_a_remote_store() -> None:
    files = {
        "zarr.json": V3_GROUP,
        "g/zarr.json": V3_GROUP,
        "g/.zgroup": {"zarr_format": 2},  # beside zarr.json: a mixed group
        "g/h/zarr.json": V3_GROUP,
        "a/zarr.json": v3_array([1]),
    }
    memory = zarr.storage.MemoryStore(
        {k: cpu.Buffer.from_bytes(json.dumps(v).encode()) for k, v in files.items()}
    )
    document, problems = read_document(memory)
    assert document is not None and list(document["members"]) == ["a"]
    assert [str(p) for p in problems] == [
        "/g: Zarr v3 and v2 metadata mixed in one node (zarr.json, .zgroup)"
    ]


# -- a hierarchy 10,000 levels deep


class DeepStore(zarr.storage.WrapperStore[zarr.storage.MemoryStore]):
    """Groups a/a/a/... `depth` levels deep, made up on request (10,000 real levels would need
    100 MB of keys); the node at `broken` levels has attributes that are not an object."""

    def __init__(self, depth: int, broken: int | None = None) -> None:
        super().__init__(zarr.storage.MemoryStore())
        self.depth, self.broken = depth, broken

    def _level(self, key: str) -> int | None:
        parts = key.split("/")
        if parts[-1] != "zarr.json" or any(p != "a" for p in parts[:-1]):
            return None
        return len(parts) - 1 if len(parts) - 1 <= self.depth else None

    async def get(
        self, key: str, prototype: BufferPrototype, byte_range: ByteRequest | None = None
    ) -> Buffer | None:
        level = self._level(key)
        if level is None:
            return None
        attributes: Any = [] if level == self.broken else {}
        body = json.dumps({"zarr_format": 3, "node_type": "group", "attributes": attributes})
        return prototype.buffer.from_bytes(body.encode())

    async def exists(self, key: str) -> bool:
        return self._level(key) is not None

    async def list_dir(self, prefix: str) -> AsyncIterator[str]:
        level = self._level(f"{prefix}/zarr.json" if prefix else "zarr.json")
        if level is not None:
            yield "zarr.json"
            if level < self.depth:
                yield "a"


def test_a_hierarchy_ten_thousand_levels_deep() -> None:
    document, problems = read_document(DeepStore(10_000))
    assert document is not None
    assert len(problems) == 1 and problems[0].node_path == "/a" * DEFAULT_MAX_DEPTH
    assert f"deeper than {DEFAULT_MAX_DEPTH} levels" in problems[0].message
    assert check_document(document, base(3)) == []


def test_a_deep_error_is_reported_without_recursion_error() -> None:
    # python-jsonschema needs ~12 frames per level and gives up near 80 levels by default
    document, problems = read_document(DeepStore(DEFAULT_MAX_DEPTH, broken=200))
    assert document is not None and problems == []
    found = check_document(document, base(3))
    assert _where(found) == [("/a" * 200, "/attributes")]
    shallow, _ = read_document(DeepStore(5, broken=4))
    assert shallow is not None
    assert _where(check_document(shallow, base(3))) == [("/a/a/a/a", "/attributes")]


def test_the_corpus_is_never_written(tmp_path: Path) -> None:
    before = snapshot(STORES)
    for store in sorted(p for p in STORES.rglob("*") if p.is_dir()):
        read_document(store)
        read_document(store, use_consolidated=False)
    assert snapshot(STORES) == before


# -- hostile stores (issue 12): problems or StoreError, in bounded time, store bytes unchanged


@pytest.mark.parametrize("where", ["attributes", "shape"])
def test_an_integer_of_5000_digits_is_a_problem_of_its_file(tmp_path: Path, where: str) -> None:
    """No 64-bit float holds it (JavaScript reads it as an infinity; Python refuses integers of
    more than 4,300 digits): the file is reported, through read_document, validate_store and
    `zomgen validate`, in the words of both run times."""
    store = _v3_store(tmp_path / "s.zarr")
    (store / "bad").mkdir()
    huge = "9" * 5000
    text = (
        f'{{"zarr_format": 3, "node_type": "group", "attributes": {{"n": {huge}}}}}'
        if where == "attributes"
        else json.dumps(v3_array([1])).replace('"shape": [1]', f'"shape": [{huge}]')
    )
    (store / "bad" / "zarr.json").write_text(text)
    document, problems = _read(store)
    assert document is not None and set(document["members"]) == {"good"}
    assert _where(problems) == [("/bad", "")]
    assert "holds a number beyond what a 64-bit float holds" in problems[0].message
    assert any("/bad" == p.node_path for p in validate_store(store, base(3)))
    before = snapshot(store)
    result = run_zomgen("validate", store, "--schema", BASE_V3, timeout=120)
    assert result.returncode in (1, 2) and "Traceback" not in result.stderr, result.stderr
    assert "holds a number beyond what a 64-bit float holds" in result.stdout + result.stderr
    assert snapshot(store) == before


def _zip_store(path: Path, members: int = 3) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("zarr.json", json.dumps(V3_GROUP))
        for i in range(members):
            archive.writestr(f"a{i}/zarr.json", json.dumps(v3_array([2])))
    return path


def test_a_zip_entry_flagged_encrypted_is_a_problem(tmp_path: Path) -> None:
    path = _zip_store(tmp_path / "s.zip")
    data = bytearray(path.read_bytes())
    for signature, flags in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = data.find(signature)
        while at >= 0:
            data[at + flags] |= 1  # general purpose bit 0: encrypted
            at = data.find(signature, at + 4)
    path.write_bytes(bytes(data))
    document, problems = _read(path)
    assert document is None
    assert problems and "encrypted" in problems[0].message


def test_corrupted_zips_give_problems_or_store_error(tmp_path: Path) -> None:
    """Truncations and byte flips of a real zip (fixed seed): read_document returns, never
    raises; validate_store returns problems or raises StoreError."""
    original = _zip_store(tmp_path / "good.zip").read_bytes()
    rng = random.Random(12)
    path = tmp_path / "bad.zip"
    for _ in range(400):
        data = bytearray(original)
        if rng.random() < 0.3:
            data = data[: rng.randrange(len(data))]
        else:
            for _ in range(rng.randint(1, 8)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        path.write_bytes(bytes(data))
        read_document(path)
        try:
            validate_store(path, base(3))
        except StoreError:
            pass
        assert path.read_bytes() == bytes(data)


@pytest.mark.parametrize("version", [2, 3])
def test_a_zip_with_20000_members_reads_in_linear_time(tmp_path: Path, version: int) -> None:
    """20,000 array members in one zip, v2 as fast as v3 (the issue measured ~20 s for v2)."""
    path = tmp_path / f"v{version}.zip"
    with zipfile.ZipFile(path, "w") as archive:
        if version == 3:
            archive.writestr("zarr.json", json.dumps(V3_GROUP))
        else:
            archive.writestr(".zgroup", json.dumps({"zarr_format": 2}))
            archive.writestr(".zattrs", "{}")
        for i in range(20_000):
            if version == 3:
                archive.writestr(f"a{i}/zarr.json", json.dumps(v3_array([1])))
            else:
                meta = {k: v for k, v in v2_array([1]).items() if k != "attributes"}
                archive.writestr(f"a{i}/.zarray", json.dumps(meta))
                archive.writestr(f"a{i}/.zattrs", "{}")
                archive.writestr(f"a{i}/0", b"\0" * 8)
    started = time.perf_counter()
    document, problems = read_document(path)
    elapsed = time.perf_counter() - started
    assert document is not None and len(document["members"]) == 20_000, problems[:3]
    assert elapsed < 15, f"{elapsed:.1f} s"
