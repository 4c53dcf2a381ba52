"""Helpers of the tests that load real stores of formats whose nodes are told apart by their
attributes (runtime/test_anndata.py, runtime/test_spatialdata.py): their packages built from
tests/runtime/conventions/, the nodes of a loaded model, and what a store holds on disk."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.support.cli import build_package
from tests.support.packages import imported
from tests.support.runtime import snapshot


@contextlib.contextmanager
def packages_built(
    out: Path, schemas: dict[int, Path], names: dict[int, str]
) -> Iterator[dict[int, ModuleType]]:
    """The package of each convention (by Zarr version), built into `out` without a warning
    and imported for the length of a `with` block."""
    for version, name in names.items():
        result = build_package(schemas[version], out / name)
        assert "warning" not in result.stderr, result.stderr
    with imported(out, *names.values()) as modules:
        yield dict(zip(names, modules, strict=True))


def model_nodes(node: Any, path: str = "/") -> Iterator[tuple[str, Any]]:
    """(node path, model) for a loaded model and every member below it."""
    yield path, node
    for name, member in (getattr(node, "members", None) or {}).items():
        yield from model_nodes(member, f"{path.rstrip('/')}/{name}")


def store_state(store: Path) -> object:
    """What a folder or zip store holds, to compare before and after reading it."""
    return snapshot(store) if store.is_dir() else store.read_bytes()


def assert_one_problem(
    package: ModuleType, store: Path, node_path: str, pointer: str, keyword: str, word: str
) -> None:
    """`validate` finds exactly one problem, at that node, pointer and keyword, its message
    saying `word`; `load` refuses the store with that word."""
    problems = package.validate(str(store))
    assert [(p.node_path, p.pointer, p.keyword) for p in problems] == [
        (node_path, pointer, keyword)
    ], [str(p) for p in problems]
    assert word in problems[0].message
    with pytest.raises(ValueError, match=word):
        package.load(str(store))
