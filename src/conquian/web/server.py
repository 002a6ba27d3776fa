"""The server of ``conquian serve``, apart from its transport: the tables this process holds (a
:class:`Hub` each, with its connections: :mod:`~conquian.web.hub`), who is connected across
processes (:mod:`~conquian.web.sync`), the bots' turns (:mod:`~conquian.web.bot_turns`),
rematches, and the glue to the store.

What a table's message means is the master's (:mod:`~conquian.web.master`, the page's engine's
too), what a table does is :class:`~conquian.web.table.Table`'s, what a seat receives is
:mod:`~conquian.web.snapshot`'s, where it is kept is :class:`~conquian.web.store.Store`'s.
Every command a table accepts is stored (in the transaction that advances it) before anyone is
told of it; a table is rebuilt from its stored commands when it is first asked for after a
start.  The HTTP routes (:mod:`~conquian.web.routes`) and the WebSocket endpoint
(:mod:`~conquian.web.sockets`) call it; it imports neither.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocketState

from conquian.i18n import Msg
from conquian.web import protocol
from conquian.web.bot_turns import BotTurns
from conquian.web.bots import BotRunner
from conquian.web.cluster import HEARTBEAT, PRESENCE_CHUNK, Cluster, PostgresCluster, worker_name
from conquian.web.finished import Finished

# a table in memory and its connections are the hub module's (re-exported: the routes and the socket read them here)
from conquian.web.hub import Connection as Connection
from conquian.web.hub import Hub as Hub
from conquian.web.hub import log_move as log_move
from conquian.web.hub import seat_connected as seat_connected
from conquian.web.hub import snapshot as snapshot
from conquian.web.limits import AddressLimits
from conquian.web.platform.accounts.routes import Accounts
from conquian.web.platform.accounts.service import DELETED_NAME
from conquian.web.platform.friends.routes import Friends
from conquian.web.platform.offline_matches.routes import OfflineMatches
from conquian.web.platform.passkeys.routes import Passkeys
from conquian.web.platform.puzzle_ratings.storage import PuzzleRatings
from conquian.web.platform.ratings.storage import Ratings
from conquian.web.review_jobs import Reviews
from conquian.web.settings import Settings
from conquian.web.store import ConflictError, Store
from conquian.web.sync import Sync
from conquian.web.table import OVER, PLAYING, Table, TableError

log = logging.getLogger("conquian.web")
#: Seconds without a move after which a process loads a playing table with bots that it does
#: not hold (its bots may have been held by a process that died).
STALE_TABLE = 30.0
#: Seconds a table stays in memory with no connection and no bot to play (it is read again from
#: the database when asked for).
EVICT_AFTER = 300.0
#: Tables whose maker's address a process remembers.
MAKERS_KEPT = 50_000
#: Seconds between two write probes of ``/health`` (a failed write counts meanwhile).
WRITE_PROBE_EVERY = 10.0
#: Seconds over which the changes of who is connected to a table are gathered into one
#: ``presence`` message (so that many people arriving make one message each, not one per arrival).
PRESENCE_EVERY = 1.0


class Server:
    """The tables this process holds, the store, the bots, and the other processes sharing the
    database (:mod:`~conquian.web.cluster`)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store(settings.db_url)
        self.worker = worker_name()
        self.cluster: Cluster = (PostgresCluster(self.store.url, self.worker) if self.store.postgres
                                 else Cluster(self.worker))
        self.bots: BotRunner | None = None
        self.reviews = Reviews.from_environment()
        self.finished = Finished()
        self.ratings = Ratings(self.store.engine)
        self.puzzle_ratings = PuzzleRatings(self.store.engine)
        self.accounts = Accounts(self.store.engine, settings.accounts_per_hour, settings.account_requests_per_minute,
                                 settings.allowed_origins)
        self.passkeys = Passkeys(self.accounts, settings.allowed_origins, settings.account_requests_per_minute)
        self.friends = Friends(self.store.engine, self)
        self.offline_matches = OfflineMatches(self.store, self.accounts)
        self.limits = AddressLimits(settings.connections_per_address, settings.messages_per_address,
                                    settings.tables_per_minute)
        self.hubs: dict[str, Hub] = {}
        self.sockets = 0
        """WebSockets open in this process."""
        self.loading = asyncio.Lock()
        self.tasks: set[asyncio.Task[None]] = set()
        self.mutes: dict[str, tuple[set[str], set[str]]] = {}
        """The muted spectators of each table (ids, addresses), told by every process (a hub shares its table's)."""
        self.makers: OrderedDict[str, str] = OrderedDict()
        """The address that made each table this process made (the newest :data:`MAKERS_KEPT`)."""
        self.turns = BotTurns(self)
        """The tables' bot loops."""
        self.sync = Sync(self)
        """What the other processes tell this one, and what it tells them."""

    def schedule(self, hub: Hub) -> None:
        """Start the table's bot loop if the master says a bot is to play (:meth:`BotTurns.schedule`)."""
        self.turns.schedule(hub)

    async def on_notice(self, payload: dict[str, Any]) -> None:
        """A notification from the database (:meth:`Sync.on_notice`)."""
        await self.sync.on_notice(payload)

    async def resync(self) -> None:
        """Catch up every table this process holds (:meth:`Sync.resync`)."""
        await self.sync.resync()

    async def tell_presence(self, hub: Hub) -> None:
        """Tell the other processes who is connected here (:meth:`Sync.tell_presence`)."""
        await self.sync.tell_presence(hub)

    async def make_room(self) -> bool:
        """Close the longest idle spectator's connection (for a player's, the server being full);
        whether there was one."""
        idle = [c for h in self.hubs.values() for c in h.connections if c.seat is None and not c.host]
        if not idle:
            return False
        oldest = min(idle, key=lambda c: c.last)
        await oldest.error("server_full", Msg("the server is full: a player needed this connection"))
        with contextlib.suppress(Exception):
            await oldest.ws.close(code=4503)
        for h in self.hubs.values():
            h.connections.discard(oldest)
        return True

    def made_by(self, table_id: str, address: str) -> None:
        """``address`` made the table (the lobby lists a few of one address's tables only)."""
        self.makers[table_id] = address
        while len(self.makers) > MAKERS_KEPT:
            self.makers.popitem(last=False)

    async def start(self) -> None:
        """Upgrade the schema, start the bot workers, listen to the other processes, start the
        bots of unfinished tables."""
        await run_in_threadpool(self.store.upgrade)
        await run_in_threadpool(self.accounts.store.refresh_skeletons)  # names kept before look-alikes were learnt
        self.bots = BotRunner(self.settings.bot_workers)
        await self.cluster.start(self.on_notice)
        for row in await run_in_threadpool(self.store.listing, 10_000):
            if row["status"] == PLAYING:
                hub = await self.hub(row["id"])
                if hub:
                    self.schedule(hub)
        self.spawn(self._heartbeat())
        log.info("started", extra={"event": "start", "worker": self.worker, "tables": len(self.hubs)})

    async def stop(self) -> None:
        """Stop the bots, give up their leases and close the database."""
        for t in list(self.tasks):
            t.cancel()
        for hub in self.hubs.values():
            if hub.bot_task:
                hub.bot_task.cancel()
        await self.cluster.stop()
        if self.bots:
            await run_in_threadpool(self.bots.close)  # waits for the workers: off the event loop
        await run_in_threadpool(self.finished.close)
        self.store.dispose()

    async def hub(self, table_id: str) -> Hub | None:
        """The table's hub, rebuilt from the database on first use; None if there is no such table."""
        hub = self.hubs.get(table_id)
        if hub is not None:
            return hub
        if len(table_id) > 16:
            return None
        async with self.loading:
            hub = self.hubs.get(table_id)
            if hub is None:
                table = await run_in_threadpool(self.store.load, table_id)
                if table is None:
                    return None
                hub = self.hubs[table_id] = Hub(table, table.state)
                hub.muted, hub.muted_addresses = self.mutes_of(table_id)
                self.sync.apply_presence(hub)
        return hub

    async def persist(self, hub: Hub) -> None:
        """Store what the table accepted since the last write (before anyone is told of it).  If
        another process stored a move first, or the write fails, the table is rebuilt from the
        database, so memory never runs ahead of it (the caller holds ``hub.lock``)."""
        try:
            await run_in_threadpool(self.store.append, hub.table, hub.stored, self.worker)
            hub.stored = hub.table.state
        except ConflictError:
            await self.reload(hub)
            raise TableError("stale", Msg("another move was made first; the table is at state {state}",
                                          state=hub.table.state)) from None
        except Exception:
            log.exception("a command could not be stored; rebuilding from the database",
                          extra={"event": "store_failed", "table": hub.table.id})
            await self.reload(hub)
            raise TableError("storage", Msg("the move could not be saved; the table is as it was")) from None

    async def reload(self, hub: Hub) -> None:
        """Rebuild the table from the database, keeping who is connected (the caller holds the lock)."""
        with contextlib.suppress(Exception):
            table = await run_in_threadpool(self.store.load, hub.table.id)
            if table is not None:
                for s, old in zip(table.seats, hub.table.seats, strict=True):
                    s.connected, s.elsewhere, s.away_since = old.connected, old.elsewhere, old.away_since
                    if s.idle_since is not None and old.idle_since is not None:
                        s.idle_since = old.idle_since  # when his clock ran out, not when it was read again
                hub.table, hub.stored = table, table.state





    # ------------------------------------------------------------------ can the database be written
    _written: tuple[float, bool] | None = None
    """When the database was last found writable or not (:meth:`writable`)."""

    async def writable(self) -> bool:
        """Whether the database takes writes: a write probe (:meth:`Store.probe_write`), run at
        most every :data:`WRITE_PROBE_EVERY` seconds (the answer is kept in between)."""
        now = time.monotonic()
        if self._written is not None and now - self._written[0] < WRITE_PROBE_EVERY:
            return self._written[1]
        self._written = (now, self._written[1] if self._written else True)  # one probe at a time
        try:
            await asyncio.wait_for(run_in_threadpool(self.store.probe_write), 5)
            ok = True
        except Exception:
            ok = False
        self._written = (time.monotonic(), ok)
        return ok

    def write_failed(self) -> None:
        """A write failed: the database counts as not writable until the next probe."""
        self._written = (time.monotonic(), False)

    # ------------------------------------------------------------------ presence across processes




    _probing: asyncio.Task[None] | None = None

    async def _probe_bots(self) -> None:
        """Find a dead bot worker (and replace it), then start again the bots a failure stopped."""
        assert self.bots is not None
        with contextlib.suppress(Exception):
            await self.bots.probe()
        for hub in list(self.hubs.values()):
            self.schedule(hub)

    @property
    def whole(self) -> bool:
        """Whether the bot and review workers are all there (``/health`` is degraded meanwhile)."""
        return (self.bots is None or self.bots.whole) and self.reviews.whole and self.finished.pool.whole

    async def _heartbeat(self) -> None:
        tick = 0
        while True:
            await asyncio.sleep(HEARTBEAT)
            tick += 1
            self.limits.forget()
            if self.bots is not None and (self._probing is None or self._probing.done()):
                self._probing = self.spawn(self._probe_bots())
            if not self.cluster.shared:
                self.evict()
                continue
            with contextlib.suppress(Exception):
                held = [(h.table.id, self.sync.local_presence(h)) for h in list(self.hubs.values())]
                held = [(i, p) for i, p in held if p]
                for k in range(0, max(1, len(held)), PRESENCE_CHUNK):
                    await self.cluster.publish({"k": "presence", "w": self.worker,
                                                "p": dict(held[k:k + PRESENCE_CHUNK])})
                now = time.time()
                for hub in list(self.hubs.values()):
                    if hub.table.id in self.sync.presence:
                        self.sync.apply_presence(hub, now)
            self.evict()
            if tick % 2 == 0:  # tables whose bots a dead process held, and nobody here has loaded
                with contextlib.suppress(Exception):
                    for table_id in await run_in_threadpool(self.store.stale_playing, STALE_TABLE):
                        if table_id not in self.hubs:
                            loaded = await self.hub(table_id)
                            if loaded is not None:
                                self.schedule(loaded)

    def evict(self, now: float | None = None) -> None:
        """Let go of the tables nobody has used for :data:`EVICT_AFTER` seconds and no bot is to
        play (their bots' leases with them)."""
        now = now if now is not None else time.monotonic()
        for table_id, hub in list(self.hubs.items()):
            if hub.idle and now - hub.used > EVICT_AFTER and self.turns.work(hub) is None and not hub.lock.locked():
                del self.hubs[table_id]
                self.spawn(self.cluster.release(table_id))

    # ------------------------------------------------------------------ chat
    async def deliver_chat(self, hub: Hub, out: dict[str, Any], sender: str | None = None) -> None:
        """Send a chat line or reaction (``out``, from a connection of this process or another's)
        to this process's connections of the table that may read it: a seated player's to all, a
        spectator's to the connections that hold no seat only (never to a seated player, the
        seated host included: no coaching).  The sender's name is the seat's, or the
        spectator's number in the reader's language.  ``sender``'s (account's) blocks apply."""
        seat = out.get("seat")
        players = out.get("channel") == "players" and isinstance(seat, int)
        self.friends.heard(hub, out, sender)
        for c in list(hub.connections):
            if (players or c.seat is None) and (sender is None or sender not in c.blocked):
                if isinstance(seat, int) and 1 <= seat <= len(hub.table.names):
                    name = hub.table.names[seat - 1]
                else:
                    name = c.tr.render(Msg("spectator {number}", number=str(out.get("id", ""))[:4]))
                await c.send(out | {"from": name})


    def mutes_of(self, table_id: str) -> tuple[set[str], set[str]]:
        """The muted spectators of a table, by connection id and by address (shared by its hub)."""
        found = self.mutes.get(table_id)
        if found is None:
            found = self.mutes[table_id] = (set(), set())
            while len(self.mutes) > MAKERS_KEPT:
                del self.mutes[next(iter(self.mutes))]
        return found

    # ------------------------------------------------------------------ telling and bots
    async def _settle(self, table: Table) -> None:
        try:
            await run_in_threadpool(self.ratings.settle, table)
        except Exception:
            log.exception("a match could not be rated", extra={"event": "rating_failed", "table": table.id})

    async def rename_seats(self, taken: list[tuple[str, int]]) -> None:
        """Name the seats of a deleted account :data:`~conquian.web.platform.accounts.service.DELETED_NAME` in the
        tables this process holds (the store has renamed them already), and tell their connections."""
        for table_id, number in taken:
            hub = self.hubs.get(table_id)
            if hub is None or not 1 <= number <= len(hub.table.seats):
                continue
            hub.table.seats[number - 1].name = DELETED_NAME
            self.finished.forget(table_id)
            await self.broadcast(hub)

    async def broadcast(self, hub: Hub) -> None:
        """Send every connection the table as its seat may see it, in its reader's language (and
        rate a rated table's match once it is over)."""
        if hub.table.status == OVER and hub.table.id not in self.ratings.done:
            self.spawn(self._settle(hub.table))
        cache: dict[tuple[int | None, str, bool], str] = {}
        for conn in list(hub.connections):
            muted = hub.is_muted(conn)
            key = (conn.seat, conn.tr.lang, muted)
            if key not in cache:
                cache[key] = protocol.encode({"type": "table", "table": snapshot(hub, conn.seat, conn.tr, muted)})
            if conn.ws.application_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await conn.ws.send_text(cache[key])

    def presence_soon(self, hub: Hub) -> None:
        """Tell the table's connections who is connected, once, :data:`PRESENCE_EVERY` seconds from
        now: every arrival and departure until then is told by that one ``presence`` message, of
        the same small size however many watch."""
        if hub.presence_task is None or hub.presence_task.done():
            hub.presence_task = self.spawn(self._presence(hub))

    async def _presence(self, hub: Hub) -> None:
        await asyncio.sleep(PRESENCE_EVERY)
        text = protocol.encode({"type": "presence", "spectators": hub.spectators,
                                "connected": [seat_connected(s) for s in hub.table.seats]})
        for conn in list(hub.connections):
            if conn.ws.application_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await conn.ws.send_text(text)

    def spawn(self, coro: Awaitable[None]) -> asyncio.Task[None]:
        """A background task the server keeps a reference to (and cancels at shutdown)."""
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task
