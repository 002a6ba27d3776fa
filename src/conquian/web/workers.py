"""Worker processes that the server supervises: :class:`SupervisedPool` runs functions in a pool
of *spawned* processes (never forked: the server has threads and an event loop that a fork
would copy) and replaces the pool when one of its processes dies (the kernel's OOM killer, an
operator's ``kill -9``), retrying the jobs that were under way.  Until a job has run on the new
pool it counts as not *whole*, and ``/health`` says so.

:class:`FairQueue` decides which waiting job goes to a free worker next: the time-outs' moves
first, then the job of whoever has used the workers least lately (a table, an address), so that
no one table, seat or address can starve the others, however many jobs it asks for.

```pycon
>>> q = FairQueue()
>>> q.charge("busy", 5.0, now=0.0)
>>> q.push("busy", 1, "a", now=0.0); q.push("quiet", 1, "b", now=0.0); q.push("late", 0, "c", now=0.0)
>>> [q.pop(now=0.0) for _ in range(3)]
['c', 'b', 'a']

```
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, Generic, TypeVar

log = logging.getLogger("conquian.web")

T = TypeVar("T")

#: Times a job is tried again on a new pool after the pool broke under it.
RETRIES = 2
#: Seconds over which the work a key was given is halved in :class:`FairQueue`'s reckoning.
HALF_LIFE = 10.0


def _pid() -> int:
    return os.getpid()


#: In a worker of a pool made ``yielding``: the pool's shared count of jobs that a person waits
#: for and that wait for a worker (:meth:`SupervisedPool.ask_to_yield`).
_WAITING: Any = None


def _worker_start(waiting: Any = None) -> None:
    """A worker ignores the terminal's ctrl+c and a stop sent to the whole process group
    (systemd's SIGTERM to every process of the service): the server stops its workers when it
    stops itself (:meth:`SupervisedPool.close`), after their last answer.  ``waiting``: the
    pool's shared count, for :func:`yield_asked`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _thread_start(waiting)


def _thread_start(waiting: Any = None) -> None:
    global _WAITING
    if waiting is not None:
        _WAITING = waiting


def yield_asked() -> bool:
    """In a worker: whether a job that a person waits for is waiting for a worker (a job that
    nobody waits for then ends as soon as it can, and gives its worker up)."""
    return _WAITING is not None and _WAITING.value > 0


class PoolGone(Exception):
    """The pool broke again and again, or was closed: the job could not be run."""


class SupervisedPool:
    """``workers`` spawned processes (0: one thread of this process, for tests) that are replaced
    when one dies.  :meth:`run` tries a job again (at most :data:`RETRIES` times) when the pool
    broke under it; :attr:`whole` is false from a death until a job has run on the new pool."""

    def __init__(self, workers: int, name: str = "workers", yielding: bool = False) -> None:
        self.workers = workers
        self.name = name
        # shared with the workers, read between a search's re-deals (no lock: one int, one writer)
        self.waiting = multiprocessing.get_context("spawn").RawValue("i", 0) if yielding else None
        self.generation = 0
        self.replaced = 0
        """How many times the pool was replaced (a process died)."""
        self.whole = True
        self.closed = False
        self.executor: Executor = self._new()

    def _new(self) -> Executor:
        if self.workers <= 0:
            return ThreadPoolExecutor(max_workers=1, thread_name_prefix=self.name,
                                      initializer=_thread_start, initargs=(self.waiting,))
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_start, initargs=(self.waiting,))

    def ask_to_yield(self, waiting: int) -> None:
        """Tell the workers how many jobs that a person waits for wait for a worker (a pool made
        ``yielding``): while any do, the jobs that nobody waits for end early."""
        if self.waiting is not None:
            self.waiting.value = waiting

    def _replace(self, generation: int) -> None:
        """Replace the pool of ``generation`` (once, however many jobs saw it break)."""
        if generation != self.generation or self.closed:
            return
        old = self.executor
        self.generation += 1
        self.replaced += 1
        self.whole = False
        self.executor = self._new()
        with contextlib.suppress(Exception):
            old.shutdown(wait=False, cancel_futures=True)
        log.warning("a worker process died; its pool was replaced",
                    extra={"event": "workers_replaced", "pool": self.name, "times": self.replaced})

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker, tried again on a new pool if the pool broke under it."""
        loop = asyncio.get_running_loop()
        for attempt in range(RETRIES + 1):
            if self.closed:
                raise PoolGone(f"the {self.name} are stopped")
            generation = self.generation
            try:
                result = await loop.run_in_executor(self.executor, fn, *args)
            except (BrokenExecutor, RuntimeError) as e:
                # BrokenProcessPool: a process died; RuntimeError: submitted to a pool just shut down
                if self.closed:
                    raise PoolGone(f"the {self.name} are stopped") from e
                self._replace(generation)
                if attempt == RETRIES:
                    raise PoolGone(f"the {self.name} keep dying") from e
                continue
            if generation == self.generation:
                self.whole = True
            return result
        raise PoolGone(f"the {self.name} keep dying")  # pragma: no cover - the loop returns or raises

    async def probe(self, timeout: float = 30.0) -> bool:
        """Run a trivial job (a dead process is found and replaced); whether the pool is whole."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.run(_pid), timeout)
        return self.whole

    def close(self, timeout: float = 3.0) -> None:
        """Stop the workers and wait for them: the jobs not started are dropped, a job under way
        has ``timeout`` seconds to end before its process is killed; then the pool's queues and
        their semaphores are released (a process left running, or a pool left to the
        interpreter's exit, makes Python warn of "leaked semaphore objects")."""
        self.closed = True
        executor = self.executor
        if not isinstance(executor, ProcessPoolExecutor):
            executor.shutdown(wait=False, cancel_futures=True)  # a thread: nothing outlives the process
            return
        processes = list((getattr(executor, "_processes", None) or {}).values())

        def stop_late_jobs() -> None:
            for process in processes:
                if process.is_alive():
                    process.kill()  # it ignores SIGTERM

        late = threading.Timer(timeout, stop_late_jobs)
        late.daemon = True
        late.start()
        try:
            executor.shutdown(wait=True, cancel_futures=True)  # joins the workers, closes the queues
        finally:
            late.cancel()


class FairQueue(Generic[T]):
    """Jobs waiting for a worker, each with a key (who asked: a table, an address) and a class
    (0 first: a time-out's move; then 1).  Within a class, the job of the key that has had the
    least of the workers' time lately (:meth:`charge`, halved every :data:`HALF_LIFE` seconds)
    goes first; equal keys go in the order they came."""

    def __init__(self) -> None:
        self._heap: list[tuple[int, float, int, str, T]] = []
        self._count = itertools.count()
        self._used: dict[str, tuple[float, float]] = {}

    def __len__(self) -> int:
        return len(self._heap)

    def used(self, key: str, now: float | None = None) -> float:
        """The worker seconds ``key`` had, decayed to ``now``."""
        now = time.monotonic() if now is None else now
        amount, when = self._used.get(key, (0.0, now))
        return amount * math.pow(0.5, max(0.0, now - when) / HALF_LIFE)

    def charge(self, key: str, seconds: float, now: float | None = None) -> None:
        """``key`` had ``seconds`` of a worker."""
        now = time.monotonic() if now is None else now
        self._used[key] = (self.used(key, now) + seconds, now)
        if len(self._used) > 10_000:  # keys long quiet weigh nothing: forget them
            for k in [k for k in self._used if self.used(k, now) < 0.001]:
                del self._used[k]

    def push(self, key: str, klass: int, item: T, now: float | None = None) -> None:
        """Queue ``item`` for ``key``."""
        heapq.heappush(self._heap, (klass, 0.0, next(self._count), key, item))
        self._reorder(now)

    def _reorder(self, now: float | None) -> None:
        now = time.monotonic() if now is None else now
        self._heap = [(k, self.used(key, now), n, key, item) for k, _, n, key, item in self._heap]
        heapq.heapify(self._heap)

    def pop(self, now: float | None = None) -> T:
        """The next job (the queue must not be empty)."""
        self._reorder(now)
        return heapq.heappop(self._heap)[4]

    def discard(self, item: T) -> None:
        """Forget a queued ``item`` (its asker went)."""
        self._heap = [e for e in self._heap if e[4] is not item]
        heapq.heapify(self._heap)
