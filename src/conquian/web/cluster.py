"""Several server processes over one PostgreSQL database: notifications, bot leases, presence.

Nothing here is home-made messaging: it is PostgreSQL's own ``LISTEN``/``NOTIFY`` and its
advisory locks, through psycopg 3.

- **Notifications.**  Every change the store commits for a table (a move, a seat, a setting)
  carries a ``NOTIFY`` on :data:`~conquian.web.store.CHANNEL` in the same transaction, so every
  process listening learns of it when, and only when, it is committed.  A process that holds the
  table catches up from the database and tells its own connections.  After its listening
  connection is lost and found again, a process catches up on every table it holds (it may have
  missed notifications meanwhile; :meth:`conquian.web.server.Server.resync`, which tries a
  table again when its read fails).
- **Bot leases.**  A process plays a table's bots only while it holds the table's advisory lock,
  taken on a connection of its own: one process at a time, and when a process dies its
  connection closes, PostgreSQL releases the lock, and another process takes the bots over.
- **Presence.**  Whether a person is still connected (the expert plays for someone away) is
  known across processes from the processes' presence messages, repeated every
  :data:`HEARTBEAT` seconds; a process not heard of for :data:`PRESENCE_TTL` seconds counts as
  gone with its connections.

With SQLite (one process) :class:`Cluster` is the whole of it: no notifications, every lease held.

```pycon
>>> import asyncio
>>> c = Cluster("w1")
>>> asyncio.run(c.lease("t1")), c.leases
(True, {'t1'})

```
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from conquian.web.store import CHANNEL

log = logging.getLogger("conquian.web.cluster")

#: Seconds between a process's presence messages.
HEARTBEAT = 5.0
#: Seconds after which a process's presence counts no more unless repeated.
PRESENCE_TTL = 3 * HEARTBEAT
#: First key of the advisory locks (the second is the table's): "conq" in ASCII.
LOCK_NAMESPACE = 0x636F6E71
#: Tables per presence message (a NOTIFY payload holds at most 8,000 bytes).
PRESENCE_CHUNK = 100

Handler = Callable[[dict[str, Any]], Awaitable[None]]


def worker_name() -> str:
    """A name for this process, unique across machines and restarts (host, pid, random)."""
    return f"{socket.gethostname()[:30]}:{os.getpid()}:{secrets.token_hex(3)}"


def lock_key(table_id: str) -> int:
    """The advisory lock's second key for a table: a stable signed 32-bit hash of its id."""
    return int.from_bytes(hashlib.sha256(table_id.encode()).digest()[:4], "big", signed=True)


class Cluster:
    """One process alone (SQLite): every lease is held, nothing is published or heard."""

    shared = False

    def __init__(self, worker: str) -> None:
        self.worker = worker
        self.leases: set[str] = set()

    @property
    def listening(self) -> bool:
        """Whether notifications from other processes arrive (always, when there are none)."""
        return True

    async def start(self, handler: Handler) -> None:
        """Start listening; ``handler`` receives every notification's payload."""

    async def stop(self) -> None:
        """Stop listening and give up every lease."""
        self.leases.clear()

    async def lease(self, table_id: str) -> bool:
        """Hold the table's bots (True), or another process holds them (False)."""
        self.leases.add(table_id)
        return True

    async def release(self, table_id: str) -> None:
        """Give the table's bots up."""
        self.leases.discard(table_id)

    async def publish(self, payload: dict[str, Any]) -> None:
        """Tell the other processes (presence): nothing to do alone."""


class PostgresCluster(Cluster):
    """Processes sharing one PostgreSQL database (``url``: a SQLAlchemy URL of it)."""

    shared = True

    def __init__(self, url: str, worker: str) -> None:
        super().__init__(worker)
        from sqlalchemy.engine import make_url

        self.conninfo = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self._listener: asyncio.Task[None] | None = None
        self._listening = False
        self._locks: Any = None  # the connection holding the advisory locks
        self._mutex = asyncio.Lock()

    @property
    def listening(self) -> bool:
        return self._listening

    async def start(self, handler: Handler) -> None:
        self._listener = asyncio.ensure_future(self._listen(handler))

    async def stop(self) -> None:
        if self._listener:
            self._listener.cancel()
            with contextlib.suppress(BaseException):
                await self._listener
        if self._locks is not None:
            with contextlib.suppress(Exception):
                await self._locks.close()  # closing the connection releases every lock
        self.leases.clear()

    async def _listen(self, handler: Handler) -> None:
        import psycopg

        delay = 0.2
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._listening, delay = True, 0.2
                    log.info("listening", extra={"event": "listen", "worker": self.worker})
                    await handler({"k": "resync"})  # whatever was missed while not listening
                    async for note in conn.notifies():
                        try:
                            payload = json.loads(note.payload)
                        except ValueError:
                            continue
                        if isinstance(payload, dict):
                            try:
                                await handler(payload)
                            except Exception:
                                log.exception("a notification could not be handled",
                                              extra={"event": "notify_failed", "table": payload.get("t")})
            except asyncio.CancelledError:
                self._listening = False
                raise
            except Exception as e:
                self._listening = False
                log.warning("the database's notifications are lost; retrying",
                            extra={"event": "listen_lost", "error": str(e).splitlines()[0][:200] if str(e) else ""})
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    async def _lock_connection(self) -> Any:
        import psycopg

        if self._locks is None or self._locks.closed:
            self.leases.clear()  # a new connection holds no lock
            self._locks = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        return self._locks

    async def lease(self, table_id: str) -> bool:
        async with self._mutex:
            try:
                conn = await self._lock_connection()
                if table_id in self.leases:
                    await conn.execute("SELECT 1")  # the connection, hence the lock, is still there
                    return True
                cur = await conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (LOCK_NAMESPACE, lock_key(table_id)))
                row = await cur.fetchone()
            except Exception as e:
                # the lock connection is gone, and every lock with it: hold nothing until it is back
                log.warning("the bots' locks are lost", extra={"event": "lease_lost", "error": str(e)[:200]})
                await self._drop()
                return False
            if row and row[0]:
                self.leases.add(table_id)
                log.info("bots taken", extra={"event": "lease", "table": table_id})
                return True
            return False

    async def release(self, table_id: str) -> None:
        async with self._mutex:
            if table_id not in self.leases:
                return
            self.leases.discard(table_id)
            with contextlib.suppress(Exception):
                conn = await self._lock_connection()
                await conn.execute("SELECT pg_advisory_unlock(%s, %s)", (LOCK_NAMESPACE, lock_key(table_id)))

    async def publish(self, payload: dict[str, Any]) -> None:
        async with self._mutex:
            try:
                conn = await self._lock_connection()
                await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, json.dumps(payload, separators=(",", ":"))))
            except Exception as e:
                log.warning("a presence message was not sent", extra={"event": "publish_failed", "error": str(e)[:200]})
                await self._drop()

    async def _drop(self) -> None:
        # close the connection (so that no lock outlives our knowing of it) and hold nothing
        self.leases.clear()
        if self._locks is not None:
            with contextlib.suppress(Exception):
                await self._locks.close()
        self._locks = None
