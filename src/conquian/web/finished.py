"""The records and replays the server hands out (``GET /api/tables/{id}/record``, ``/replay``, and
the record a review reads): made off the event loop, a few at a time, once per position of a
match, and kept (a finished match never changes).

- The record's text is written in a thread (it is small: tens of milliseconds for the longest
  match); the replay's frames (megabytes of JSON for a long Cooncan match, a second of work) in
  a supervised worker process (:class:`~conquian.web.workers.SupervisedPool`), so the tables
  never wait for either.
- At most :data:`JOBS` are made at once in a process, and at most :data:`QUEUE` wait; past
  that the request is answered ``503 busy`` with ``Retry-After``.  Several requests for the same
  thing wait for one making of it.
- What was made is kept by table and state (the last :data:`CACHE_BYTES` bytes): asked again, it
  is answered at once.  What must be made is paid for by the client's address
  (:meth:`~conquian.web.limits.AddressLimits.heavy`); what is kept is not.

```pycon
>>> cache = Kept(limit=10)
>>> cache.put(("t1", 5, "record"), b"12345"); cache.put(("t2", 9, "record"), b"678901")
>>> cache.get(("t1", 5, "record")) is None, cache.get(("t2", 9, "record"))
(True, b'678901')

```
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from starlette.concurrency import run_in_threadpool

from conquian.engine.record import record_from_match, write_record
from conquian.i18n import Translator
from conquian.web.replay import replay_json, replay_moves
from conquian.web.table import Table
from conquian.web.workers import SupervisedPool

#: Records and replays made at once by a server process.
JOBS = 1
#: Requests that may wait for one (more are answered ``503 busy``).
QUEUE = 16
#: Bytes of records and replays kept in memory by a server process.
CACHE_BYTES = 64 * 1024 * 1024

Key = tuple[str, int, str]


class Busy(Exception):
    """Too many records and replays are being made or waited for."""


class Kept:
    """Made records and replays by (table, state, kind), the least recently asked forgotten first
    past ``limit`` bytes."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self.size = 0
        self.items: OrderedDict[Key, bytes] = OrderedDict()

    def get(self, key: Key) -> bytes | None:
        """What was made for ``key``, if it is kept."""
        found = self.items.get(key)
        if found is not None:
            self.items.move_to_end(key)
        return found

    def put(self, key: Key, data: bytes) -> None:
        """Keep ``data`` (forgetting the oldest past the limit)."""
        if key in self.items:
            self.size -= len(self.items.pop(key))
        self.items[key] = data
        self.size += len(data)
        while self.size > self.limit and self.items:
            _, old = self.items.popitem(last=False)
            self.size -= len(old)


    def forget(self, table_id: str) -> None:
        """Forget everything made for ``table_id`` (a name in it changed)."""
        for key in [k for k in self.items if k[0] == table_id]:
            self.size -= len(self.items.pop(key))


class Finished:
    """The records and replays of one server process (module docstring)."""

    def __init__(self, workers: int = 1, jobs: int = JOBS, queue: int = QUEUE, cache_bytes: int = CACHE_BYTES) -> None:
        self.pool = SupervisedPool(workers, "replay workers")
        self.gate = asyncio.Semaphore(jobs)
        self.queue = queue
        self.waiting = 0
        self.kept = Kept(cache_bytes)
        self.making: dict[Key, asyncio.Future[bytes]] = {}

    def cached(self, table: Table, kind: str) -> bytes | None:
        """The record (``kind`` "record") or replay ("replay") of the table as it is, if made already."""
        return self.kept.get((table.id, table.state, kind))

    async def record(self, table: Table) -> str:
        """The record of the table's match as it is (its deals over so far)."""
        assert table.session is not None
        match = table.session.match
        data = await self._make((table.id, table.state, "record"),
                                lambda: run_in_threadpool(lambda: write_record(record_from_match(match)).encode()))
        return data.decode()

    async def replay(self, table: Table) -> bytes:
        """The replay's frames of the table's finished match, as JSON."""
        text = await self.record(table)
        return await self._make((table.id, table.state, "replay"), lambda: self.pool.run(replay_json, text))

    async def replay_moves(self, table: Table, tr: Translator) -> bytes:
        """Each replay frame's move in ``tr``'s language (:func:`~conquian.web.replay.replay_moves`),
        as JSON: small, made in a thread, kept by language."""
        session = table.session
        assert session is not None

        def make() -> bytes:
            return json.dumps(replay_moves(session, tr), separators=(",", ":"), ensure_ascii=False).encode()

        return await self._make((table.id, table.state, f"replay-moves:{tr.lang}"), lambda: run_in_threadpool(make))

    async def _make(self, key: Key, make: Callable[[], Awaitable[bytes]]) -> bytes:
        found = self.kept.get(key)
        if found is not None:
            return found
        running = self.making.get(key)
        if running is None:
            if self.waiting >= self.queue:
                raise Busy
            running = self.making[key] = asyncio.ensure_future(self._run(key, make))
        return await asyncio.shield(running)

    async def _run(self, key: Key, make: Callable[[], Awaitable[bytes]]) -> bytes:
        self.waiting += 1
        try:
            async with self.gate:
                data = await make()
            self.kept.put(key, data)
            return data
        finally:
            self.waiting -= 1
            self.making.pop(key, None)

    def forget(self, table_id: str) -> None:
        """Forget the records and replays made for ``table_id`` (a name in it changed)."""
        self.kept.forget(table_id)

    def close(self) -> None:
        """Stop the worker."""
        self.pool.close()
