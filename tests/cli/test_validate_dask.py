"""`zomgen validate --dask ADDRESS` and `validate_stores(..., client=...)` on a real Dask cluster:
a `LocalCluster` of two worker processes started by the test (in a process of its own, as an
existing cluster is), each store a task on it; the verdicts the same as in one process; a
scheduler that does not answer is bad input, not a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.archive_stores import write_archive
from tests.support.cli import run_zomgen
from tests.support.dask_cluster import local_cluster

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::UserWarning")]

STORES = ["a.zarr", "b.zarr", "c.zarr", "d.zarr", "e.zarr"]


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_archive(tmp_path_factory.mktemp("archive"))


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    with local_cluster() as address:
        yield address


def test_the_cluster_gives_the_verdicts_of_one_process(archive: Path, cluster: str) -> None:
    local = run_zomgen("validate", *STORES, "--format", "json", cwd=archive, timeout=300)
    on_cluster = run_zomgen(
        "validate",
        *STORES,
        "--format",
        "json",
        "--dask",
        cluster,
        cwd=archive,
        timeout=300,
    )
    assert on_cluster.returncode == local.returncode == 1, on_cluster.stderr
    assert json.loads(on_cluster.stdout) == json.loads(local.stdout)
    statuses = [s["status"] for s in json.loads(on_cluster.stdout)["stores"]]
    assert statuses == ["valid", "valid", "invalid", "not fully checked", "unusable"]


def test_each_store_is_a_task_its_verdict_streamed_back(archive: Path, cluster: str) -> None:
    """The Python API, run as a user's script would run it (a process of its own)."""
    script = f"""
import json, sys
from distributed import Client, get_task_stream
from zomgen.many_stores import StoreCheck, validate_stores

stores = {[str(archive / name) for name in STORES]!r}
with Client({cluster!r}) as client, get_task_stream(client) as tasks:
    found = {{v.store: v.status for v in validate_stores(stores, StoreCheck(), client=client)}}
    workers = sorted(client.scheduler_info()["workers"])
ran = [t for t in tasks.data if t["key"].startswith("StoreCheck")]
print(json.dumps({{"found": found, "ran": [t["worker"] for t in ran], "workers": workers}}))
"""
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.splitlines()[-1])
    statuses = ["valid", "valid", "invalid", "not fully checked", "unusable"]
    assert report["found"] == dict(zip([str(archive / n) for n in STORES], statuses))
    assert len(report["ran"]) == len(STORES)  # each store a task of the cluster
    assert set(report["ran"]) <= set(report["workers"]) and len(report["workers"]) == 2


def test_a_scheduler_that_does_not_answer_is_bad_input(archive: Path) -> None:
    result = run_zomgen(
        "validate", "a.zarr", "--dask", "tcp://127.0.0.1:9", cwd=archive, timeout=120
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(
        "zomgen: --dask:/: no Dask scheduler answers at tcp://127.0.0.1:9"
    )
    assert "Traceback" not in result.stderr
