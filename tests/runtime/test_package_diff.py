"""A generated package's `diff` and `like` (generated/xarray_v3): models, documents and stores
written by xarray compared alike; an empty list only when both were read whole."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import xarray as xr
from zomgen_runtime import NotFullyChecked, StoreError, ZomError

from tests.support.http_stores import serve
from tests.support.packages import import_package
from tests.support.paths import GENERATED


@pytest.fixture(scope="module")
def pkg() -> Any:
    return import_package(GENERATED, "xarray_v3")


def _store(folder: Path, units: str) -> Path:
    variables = {"temperature": (("y",), np.zeros(2, "f4"), {"units": units})}
    xr.Dataset(variables).to_zarr(folder, zarr_format=3, consolidated=False)
    return folder


def test_models_documents_and_stores_compare_alike(pkg: Any, tmp_path: Path) -> None:
    kelvin, celsius = _store(tmp_path / "k.zarr", "K"), _store(tmp_path / "c.zarr", "degC")
    model = pkg.load(kelvin)
    document = pkg.dump(model)
    for before in (kelvin, model, document):
        found = pkg.diff(before, celsius)
        assert [(d.kind, d.node, d.pointer, d.before, d.after) for d in found] == [
            ("changed", "/temperature", "/attributes/units", "K", "degC")
        ]
        assert pkg.like(before, kelvin)
        assert not pkg.like(before, celsius)
    assert pkg.like(kelvin, celsius, exclude=["units"])


def test_a_model_changed_in_code_against_its_store(pkg: Any, tmp_path: Path) -> None:
    store = _store(tmp_path / "k.zarr", "K")
    model = pkg.load(store)
    renamed = dataclasses.replace(model, attributes={"title": "new"})
    assert [(d.kind, d.pointer) for d in pkg.diff(model, renamed)] == [
        ("added", "/attributes/title")
    ]


def test_what_cannot_be_read_is_raised_not_compared(pkg: Any, tmp_path: Path) -> None:
    store = _store(tmp_path / "k.zarr", "K")
    broken = _store(tmp_path / "b.zarr", "K")
    (broken / "temperature" / "zarr.json").write_text("{", "utf-8")
    with pytest.raises(ZomError, match=r"/temperature: \(after\) zarr.json is not JSON"):
        pkg.diff(store, broken)
    with pytest.raises(StoreError):
        pkg.diff(store, tmp_path / "missing.zarr")
    with serve(tmp_path, listing=False) as served:
        with pytest.raises(NotFullyChecked, match=r"\(after\)"):
            pkg.diff(store, f"{served.url}/k.zarr")
        # accepted: only the named members were read (none here), and the root compared
        found = pkg.diff(store, f"{served.url}/k.zarr", named_members_only=True)
    assert [(d.kind, d.node) for d in found] == [("removed", "/temperature")]
