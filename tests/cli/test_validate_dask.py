"""`zomgen validate --dask ADDRESS` and `validate_stores(..., client=...)` on a real Dask cluster:
a `LocalCluster` of two worker processes started here, each store a task on it; the verdicts the
same as in one process; a scheduler that does not answer is bad input, not a traceback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.archive_stores import write_archive
from tests.support.cli import run_zomgen
from zomgen.many_stores import StoreCheck, validate_stores

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::UserWarning")]

STORES = ["a.zarr", "b.zarr", "c.zarr", "d.zarr", "e.zarr"]


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_archive(tmp_path_factory.mktemp("archive"))


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as started:
        yield started


def test_the_cluster_gives_the_verdicts_of_one_process(archive: Path, cluster: Any) -> None:
    local = run_zomgen("validate", *STORES, "--format", "json", cwd=archive, timeout=300)
    on_cluster = run_zomgen(
        "validate",
        *STORES,
        "--format",
        "json",
        "--dask",
        cluster.scheduler_address,
        cwd=archive,
        timeout=300,
    )
    assert on_cluster.returncode == local.returncode == 1, on_cluster.stderr
    assert json.loads(on_cluster.stdout) == json.loads(local.stdout)
    statuses = [s["status"] for s in json.loads(on_cluster.stdout)["stores"]]
    assert statuses == ["valid", "valid", "invalid", "not fully checked", "unusable"]


def test_each_store_is_a_task_its_verdict_streamed_back(archive: Path, cluster: Any) -> None:
    from distributed import Client, get_task_stream

    stores = [str(archive / name) for name in STORES]
    with Client(cluster) as client, get_task_stream(client) as tasks:
        found = {v.store: v.status for v in validate_stores(stores, StoreCheck(), client=client)}
    assert found == dict(
        zip(stores, ["valid", "valid", "invalid", "not fully checked", "unusable"])
    )
    ran = [task for task in tasks.data if task["key"].startswith("StoreCheck")]
    assert len(ran) == len(stores), tasks.data
    assert {task["worker"] for task in ran} <= set(cluster.scheduler_info["workers"])


def test_a_scheduler_that_does_not_answer_is_bad_input(archive: Path) -> None:
    result = run_zomgen(
        "validate", "a.zarr", "--dask", "tcp://127.0.0.1:9", cwd=archive, timeout=120
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(
        "zomgen: --dask:/: no Dask scheduler answers at tcp://127.0.0.1:9"
    )
    assert "Traceback" not in result.stderr
