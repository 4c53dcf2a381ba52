"""A real Dask `LocalCluster` of two worker processes, in a process of its own (`local_cluster`):
the tests talk to it by its scheduler's address, as a user talks to an existing cluster, and the
test process itself holds none of the cluster's threads or processes (cli/test_validate_dask.py).

Run as a module, it starts the cluster, prints the scheduler's address, and stops when its
standard input closes."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from tests.support.paths import ROOT


@contextmanager
def local_cluster() -> Iterator[str]:
    """The scheduler's address (tcp://127.0.0.1:PORT) while the block runs."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.support.dask_cluster"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        address = process.stdout.readline().strip()
        assert address.startswith("tcp://"), f"the cluster did not start: {address!r}"
        yield address
    finally:
        if process.stdin is not None:
            process.stdin.close()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _serve() -> None:
    import warnings

    from distributed import LocalCluster

    warnings.filterwarnings("ignore")
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        print(cluster.scheduler_address, flush=True)
        sys.stdin.read()  # until the test closes it


if __name__ == "__main__":
    _serve()
