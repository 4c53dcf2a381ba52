"""Jobs kept in flight for a remote source's walk (`sources.Requests`): on an event loop that
runs in another thread (the kept-alive HTTP client's, zarr's), or on a pool of threads (urllib
through a proxy).

On a loop, a fixed number of workers take the next job, so no more than `concurrency` requests
are ever in flight and a queued job costs no task of its own; each answer is handed to the walk
right there, on the loop, which queues the jobs it leads to: no answer crosses threads, and the
caller's thread only waits. Listings go before reads (each leads to more jobs). A job that
raises is answered with a Failure, so the walk never waits for an answer that will not come.
"""

from __future__ import annotations

import asyncio
import itertools
import queue
import threading
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from .httpget import describe
from .sources import Answered, Failure, Fetched, Job, Listing

Answer = Fetched | Listing
# How long an interrupted walk waits for its requests to stop.
_STOP_SECONDS = 30.0
# Queued jobs: (0 for a listing, 1 for a read, _STOP to stop a worker; the order queued; the job)
_Queued = tuple[int, int, Job]
_STOP = 2


class LoopRequests:
    """Jobs run by `concurrency` workers on `loop`, which runs in another thread."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        one: Callable[[Job], Awaitable[Answer]],
        concurrency: int,
    ) -> None:
        self._loop = loop
        self._one = one
        self._concurrency = concurrency

    def run(self, jobs: Sequence[Job], answered: Answered) -> None:
        stopped = threading.Event()
        future = asyncio.run_coroutine_threadsafe(self._all(jobs, answered, stopped), self._loop)
        try:
            future.result()
        except BaseException:
            future.cancel()
            stopped.wait(_STOP_SECONDS)
            raise

    async def _all(self, jobs: Sequence[Job], answered: Answered, stopped: threading.Event) -> None:
        waiting: asyncio.PriorityQueue[_Queued] = asyncio.PriorityQueue()
        order = itertools.count()
        left = 0

        def queue_jobs(more: Sequence[Job]) -> None:
            nonlocal left
            left += len(more)
            for job in more:
                waiting.put_nowait((0 if job.listing else 1, next(order), job))

        async def work() -> None:
            nonlocal left
            while (queued := await waiting.get())[0] != _STOP:
                job = queued[2]
                queue_jobs(answered(job.tag, await self._answer(job)))
                left -= 1
                if not left:  # every job answered: the workers stop
                    for _ in range(self._concurrency):
                        waiting.put_nowait((_STOP, next(order), job))

        queue_jobs(jobs)
        # No job, no worker: none would ever be told to stop.
        workers = [asyncio.ensure_future(work()) for _ in range(self._concurrency if jobs else 0)]
        try:
            await asyncio.gather(*workers)
        finally:
            for worker in workers:
                worker.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
            stopped.set()

    async def _answer(self, job: Job) -> Answer:
        try:
            return await self._one(job)
        except Exception as exc:  # noqa: BLE001  # a job's failure is its answer
            return Failure(describe(exc))


class PoolRequests:
    """Jobs run by a pool of threads, each job blocking its thread until it is answered; the
    answers are handed to the walk in the caller's thread."""

    def __init__(self, pool: ThreadPoolExecutor, one: Callable[[Job], Answer]) -> None:
        self._pool = pool
        self._one = one

    def run(self, jobs: Sequence[Job], answered: Answered) -> None:
        answers: queue.SimpleQueue[tuple[int, Answer]] = queue.SimpleQueue()

        def answer(job: Job) -> None:
            try:
                got = self._one(job)
            except Exception as exc:  # noqa: BLE001  # a job's failure is its answer
                got = Failure(describe(exc))
            answers.put((job.tag, got))

        futures = [self._pool.submit(answer, job) for job in jobs]
        left = len(jobs)
        try:
            while left:
                more = answered(*answers.get())
                futures.extend(self._pool.submit(answer, job) for job in more)
                left += len(more) - 1
        finally:
            for future in futures:
                future.cancel()  # those not started yet; the others end within their time-out
            for future in futures:
                if not future.cancelled():
                    future.exception()
