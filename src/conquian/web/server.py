"""The server of ``conquian serve``, apart from its transport: the tables this process holds (a
:class:`Hub` each, with its connections), who is connected across processes, the bots' turns,
rematches, and the glue to the store.

What a table does is :class:`~conquian.web.table.Table`'s, what a seat receives is
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
import math
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket, WebSocketState

from conquian.engine.errors import ConquianError
from conquian.i18n import ENGLISH, Msg, Translator
from conquian.session import HUMAN
from conquian.web import protocol
from conquian.web.accounts import DELETED_NAME, Accounts
from conquian.web.bots import BotRunner, bot_job
from conquian.web.cluster import HEARTBEAT, PRESENCE_CHUNK, PRESENCE_TTL, Cluster, PostgresCluster, worker_name
from conquian.web.finished import Finished
from conquian.web.friends import Friends
from conquian.web.limits import CHAT_BURST, CHAT_PER_SECOND, AddressLimits
from conquian.web.master import BotTurn, bot_turn
from conquian.web.offline_matches import OfflineMatches
from conquian.web.passkeys import Passkeys
from conquian.web.protocol import RateLimit
from conquian.web.puzzle_ratings import PuzzleRatings
from conquian.web.ratings import Ratings
from conquian.web.review_jobs import Reviews
from conquian.web.settings import Settings
from conquian.web.snapshot import table_snapshot
from conquian.web.store import ConflictError, Store
from conquian.web.table import OPEN, OVER, PLAYING, Table, TableError

log = logging.getLogger("conquian.web")
#: Seconds between two tries of a process to take the bots of a table another process holds.
LEASE_RETRY = 2.0
#: Seconds without a move after which a process loads a playing table with bots that it does
#: not hold (its bots may have been held by a process that died).
STALE_TABLE = 30.0
#: Seconds a table stays in memory with no connection and no bot to play (it is read again from
#: the database when asked for).
EVICT_AFTER = 300.0
#: Spectators of other processes a table remembers (:attr:`Hub.watching_elsewhere`).
ELSEWHERE_KEPT = 200
#: Tables whose maker's address a process remembers.
MAKERS_KEPT = 50_000
#: Failures of the bot workers in a row after which a table's bot loop stops until the next heartbeat.
BOT_FAILURES = 3
#: Seconds between two write probes of ``/health`` (a failed write counts meanwhile).
WRITE_PROBE_EVERY = 10.0
#: How often a table's catch-up after the notifications came back is tried (:meth:`Server.resync`),
#: and the first pause between two tries (doubled each time, 5 s at most).
RESYNC_TRIES, RESYNC_PAUSE = 8, 0.2
#: Seconds over which the changes of who is connected to a table are gathered into one
#: ``presence`` message (so that many people arriving make one message each, not one per arrival).
PRESENCE_EVERY = 1.0


@dataclass(eq=False)
class Connection:
    """One open WebSocket: the seat its token holds (None: a spectator), its rate limit, and the
    reader's language (``tr``: its ``hello``'s ``lang``)."""

    ws: WebSocket
    address: str = "unknown"
    seat: int | None = None
    host: bool = False
    limit: RateLimit = field(default_factory=RateLimit)
    refused: int = 0
    tr: Translator = ENGLISH
    id: str = field(default_factory=lambda: secrets.token_urlsafe(6))
    """The connection's id: what its chat lines carry, and what the host mutes a spectator by."""
    chat: RateLimit = field(default_factory=lambda: RateLimit(CHAT_PER_SECOND, CHAT_BURST))
    last: float = field(default_factory=time.monotonic)
    """When it last sent a message (the longest idle spectator is closed first when the server is full)."""
    account: str | None = None
    """The signed-in account (its cookie), the accounts it does not read, its reports (:mod:`~conquian.web.friends`)."""
    blocked: set[str] = field(default_factory=set)
    reports: int = 0

    async def send(self, message: dict[str, Any]) -> None:
        """Send a message; a connection that has gone is ignored (its reader cleans it up)."""
        if self.ws.application_state != WebSocketState.CONNECTED:
            return
        with contextlib.suppress(Exception):
            await self.ws.send_text(protocol.encode(message))

    async def error(self, code: str, message: str | Msg, rule: str | None = None, state: int | None = None) -> None:
        """Tell this connection only what was refused and why (in its reader's language; ``code``
        and ``rule`` are the same in every language)."""
        await self.send({"type": "error", "code": code, "rule": rule, "message": self.tr.render(message)[:300],
                         "state": state})


@dataclass(eq=False)
class Hub:
    """A table in memory with its connections; ``lock`` serialises its commands."""

    table: Table
    stored: int
    """The state number stored in the database."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    used: float = field(default_factory=time.monotonic)
    """When a connection last opened or closed (a table nobody uses is let go of after a while)."""
    presence_task: asyncio.Task[None] | None = None
    muted: set[str] = field(default_factory=set)
    """The spectators the host muted (their connections' ids)..."""
    muted_addresses: set[str] = field(default_factory=set)
    """...and their addresses: a muted spectator who comes back on a new connection is still muted."""
    watching_elsewhere: OrderedDict[str, str] = field(default_factory=OrderedDict)
    """The spectators connected to other processes whose lines were heard here (connection id ->
    address, the newest :data:`ELSEWHERE_KEPT`): the host may mute them from this process."""

    def is_muted(self, conn: Connection) -> bool:
        """Whether ``conn`` is a spectator the host muted (on this connection or another from its address)."""
        return conn.seat is None and not conn.host and (conn.id in self.muted or conn.address in self.muted_addresses)
    hurry: asyncio.Event = field(default_factory=asyncio.Event)
    """Set to have the bots play their next move now."""
    maker: str | None = None
    """The address that made the table (if this process made it): its bots share that address's
    share of the bot workers."""

    @property
    def people(self) -> bool:
        """Whether a person sits at the table or watches it (here)."""
        return any(s.kind == HUMAN for s in self.table.seats) or bool(self.connections)

    @property
    def spectators(self) -> int:
        """Connections that hold no seat (in this process)."""
        return sum(1 for c in self.connections if c.seat is None)

    @property
    def idle(self) -> bool:
        """No connection, and no bot thinking."""
        return not self.connections and (self.bot_task is None or self.bot_task.done())


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
        self.presence: dict[str, dict[str, tuple[dict[int, int], float]]] = {}
        """Other processes' connections per table: table -> process -> (seat -> count, when told)."""

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
                self._apply_presence(hub)
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

    async def catch_up(self, hub: Hub, notice: dict[str, Any] | None = None) -> None:
        """Take what other processes stored for the table (a notification came), and tell this
        process's connections.  A move's notification carries its commands: when they follow
        the state this process has, they are applied without reading the database."""
        if notice is not None and await self._apply_notice(hub, notice):
            await self.broadcast(hub)
            self.schedule(hub)
            return
        async with hub.lock:
            before = (hub.table.state, [(s.kind, s.token_hash) for s in hub.table.seats], hub.table.away_after,
                      hub.table.rematch_id, hub.table.pace, hub.table.turn_timer)
            changes = await run_in_threadpool(self.store.changes, hub.table.id, hub.table.state)
            if changes is None:
                return
            seats, settings, stored = changes
            try:
                hub.table.update_seats(seats)
                hub.table.away_after, hub.table.rematch_id = settings["away_after"], settings["rematch_id"]
                hub.table.pace = settings["pace"]
                if hub.table.turn_timer != settings["turn_timer"]:
                    hub.table.turn_timer, hub.table.turn_since = settings["turn_timer"], time.time()
                hub.table.rebuild(stored)
                hub.stored = hub.table.state
            except ConquianError:
                log.exception("a stored command could not be applied; rebuilding the table",
                              extra={"event": "catch_up_failed", "table": hub.table.id})
                await self.reload(hub)
            after = (hub.table.state, [(s.kind, s.token_hash) for s in hub.table.seats], hub.table.away_after,
                     hub.table.rematch_id, hub.table.pace, hub.table.turn_timer)
        if after != before:
            await self.broadcast(hub)
            self.schedule(hub)

    async def resync(self) -> None:
        """After the listening connection was (re)opened: catch up every table this process
        holds from the database (what was stored meanwhile was never told here), and tell
        their pages.  A table whose catch-up fails (after the database came back, the first use
        of each old connection of the pool fails) is tried again, :data:`RESYNC_TRIES` times,
        so no page stays behind a move stored while the notifications were lost."""
        pending = list(self.hubs.values())
        pause = RESYNC_PAUSE
        for _ in range(RESYNC_TRIES):
            done = await asyncio.gather(*(self.catch_up(hub) for hub in pending), return_exceptions=True)
            failed = [(hub, e) for hub, e in zip(pending, done, strict=True) if isinstance(e, Exception)]
            pending = [hub for hub, _ in failed if self.hubs.get(hub.table.id) is hub]
            if not pending:
                return
            log.warning("tables could not catch up after the notifications came back; trying again",
                        extra={"event": "catch_up_failed", "tables": len(pending),
                               "error": (str(failed[0][1]).splitlines() or [""])[0][:200]})
            await asyncio.sleep(pause)
            pause = min(pause * 2, 5.0)

    async def _apply_notice(self, hub: Hub, notice: dict[str, Any]) -> bool:
        commands = notice.get("c")
        if not (isinstance(commands, list) and all(isinstance(c, str) for c in commands)):
            return False
        async with hub.lock:
            if notice.get("f") != hub.stored or hub.stored != hub.table.state:
                return False  # this process missed something: read it from the database
            try:
                hub.table.rebuild(commands)
                hub.stored = hub.table.state
            except ConquianError:
                await self.reload(hub)
        return True

    async def on_notice(self, payload: dict[str, Any]) -> None:
        """A notification from the database: another process changed a table, or told who is
        connected to it; ``resync`` after the listening connection was (re)opened."""
        kind = payload.get("k")
        if kind == "resync":
            self.spawn(self.resync())
        elif kind == "presence":
            self._presence_message(payload)
        elif kind == "block":
            self.friends.on_notice(payload)
        elif kind in ("chat", "mute") and payload.get("w") != self.worker:
            self._chat_notice(payload)
        elif kind in ("move", "seats", "settings") and payload.get("w") != self.worker:
            hub = self.hubs.get(str(payload.get("t")))
            state = payload.get("s")
            if hub is not None and not (kind == "move" and isinstance(state, int) and state <= hub.stored):
                self.spawn(self.catch_up(hub, payload if kind == "move" else None))

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
    def _presence_message(self, payload: dict[str, Any]) -> None:
        worker, tables = payload.get("w"), payload.get("p")
        if worker == self.worker or not isinstance(worker, str) or not isinstance(tables, dict):
            return
        now = time.time()
        for table_id, counts in tables.items():
            try:
                seats = {int(k): int(v) for k, v in counts.items()}
            except (AttributeError, TypeError, ValueError):
                continue
            self.presence.setdefault(str(table_id), {})[worker] = (seats, now)
            hub = self.hubs.get(str(table_id))
            if hub is not None:
                self._apply_presence(hub, now)

    def _apply_presence(self, hub: Hub, now: float | None = None) -> None:
        now = now if now is not None else time.time()
        entries = self.presence.get(hub.table.id, {})
        for w in [w for w, (_, when) in entries.items() if now - when > PRESENCE_TTL]:
            del entries[w]
        before = [s.present for s in hub.table.seats]
        for seat in hub.table.seats:
            hub.table.connected_elsewhere(seat.number, sum(c.get(seat.number, 0) for c, _ in entries.values()), now)
        if before != [s.present for s in hub.table.seats]:
            self.schedule(hub)  # someone away: the expert may play for him after the host's delay

    def local_presence(self, hub: Hub) -> dict[str, int]:
        """This process's connections to each seat of the table."""
        return {str(s.number): s.connected for s in hub.table.seats if s.connected}

    async def tell_presence(self, hub: Hub) -> None:
        """Tell the other processes who is connected here (a connection opened or closed)."""
        if self.cluster.shared:
            await self.cluster.publish({"k": "presence", "w": self.worker,
                                        "p": {hub.table.id: self.local_presence(hub)}})

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
                held = [(h.table.id, self.local_presence(h)) for h in list(self.hubs.values())]
                held = [(i, p) for i, p in held if p]
                for k in range(0, max(1, len(held)), PRESENCE_CHUNK):
                    await self.cluster.publish({"k": "presence", "w": self.worker,
                                                "p": dict(held[k:k + PRESENCE_CHUNK])})
                now = time.time()
                for hub in list(self.hubs.values()):
                    if hub.table.id in self.presence:
                        self._apply_presence(hub, now)
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
            if hub.idle and now - hub.used > EVICT_AFTER and self._bot_work(hub) is None and not hub.lock.locked():
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

    def _chat_notice(self, payload: dict[str, Any]) -> None:
        """A chat line, reaction or mute from another process: told to this process's connections."""
        hub = self.hubs.get(str(payload.get("t")))
        if payload.get("k") == "mute":
            ids, addresses = self.mutes_of(str(payload.get("t")))
            if isinstance(payload.get("id"), str) and isinstance(payload.get("a"), str):
                ids.add(payload["id"])
                addresses.add(payload["a"])
                if hub is not None:
                    self.spawn(self.broadcast(hub))
            return
        out = payload.get("m")
        if hub is None or not isinstance(out, dict) or out.get("type") != "chat" \
                or out.get("channel") not in ("players", "spectators") or not isinstance(out.get("text"), str):
            return
        spectator, address = out.get("id"), payload.get("sa")
        if out.get("channel") == "spectators" and isinstance(spectator, str) and isinstance(address, str):
            if spectator in hub.muted or address in hub.muted_addresses:
                return  # muted here before his process heard of it
            hub.watching_elsewhere[spectator] = address  # the host, if here, may mute him
            hub.watching_elsewhere.move_to_end(spectator)
            while len(hub.watching_elsewhere) > ELSEWHERE_KEPT:
                hub.watching_elsewhere.popitem(last=False)
        self.spawn(self.deliver_chat(hub, out, payload["a"] if isinstance(payload.get("a"), str) else None))

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
        """Name the seats of a deleted account :data:`~conquian.web.accounts.DELETED_NAME` in the
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

    def schedule(self, hub: Hub) -> None:
        """Start the table's bot loop if a bot is to play (or a table of bots needs its next deal)."""
        if (hub.bot_task is None or hub.bot_task.done()) and self._bot_work(hub) is not None:
            hub.bot_task = self.spawn(self._bots(hub))

    def _bot_turn(self, hub: Hub) -> BotTurn | None:
        """The bots' next work at the table: the master's effect (:func:`conquian.web.master.bot_turn`)."""
        return bot_turn(hub.table, self.settings.bot_delay)

    def _bot_work(self, hub: Hub) -> str | None:
        turn = self._bot_turn(hub)
        return turn.work if turn is not None else None

    async def _pause(self, hub: Hub, seconds: float) -> None:
        """Wait ``seconds`` before the bots' next move, or less if someone asks them to hurry."""
        if seconds > 0 and not hub.hurry.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(hub.hurry.wait(), seconds)
        hub.hurry.clear()

    def bot_key(self, hub: Hub) -> str:
        """Whose share of the bot workers a table's bots use: its maker's address if this process
        made it, else the table's own (so many tables from one address share one address's share)."""
        return f"address {hub.maker}" if hub.maker else f"table {hub.table.id}"

    async def _answer_at(self, began: float, thought: float, watched: bool) -> None:
        """Wait so that a bot's answer, begun at ``began`` and thought over for ``thought`` seconds,
        comes at a multiple of :attr:`Settings.bot_answer_step` (at a table where a person plays
        or watches): its time tells nothing of how long it thought."""
        step = self.settings.bot_answer_step
        if step <= 0 or not watched:
            return
        elapsed = time.monotonic() - began
        target = max(step, math.ceil(elapsed / step - 1e-9) * step)
        if target > elapsed:
            await asyncio.sleep(target - elapsed)

    async def _bots(self, hub: Hub) -> None:
        """Play the table's bots while there is bot work, holding its lease (one process at a time,
        for the whole match unless it dies)."""
        assert self.bots is not None
        table_id = hub.table.id
        failures = 0
        while True:
            turn = self._bot_turn(hub)
            work = turn.work if turn is not None else None
            if turn is None:
                # the lease is kept while the match lasts: the bots stay with one process, which
                # the others take them from only if it dies
                if hub.table.status != PLAYING:
                    await self.cluster.release(table_id)
                return
            if not await self.cluster.lease(table_id):
                await asyncio.sleep(LEASE_RETRY)  # another process plays them, or died: try again
                continue
            t = hub.table
            if work == "wait":
                since = t.away_from(t.session.deal.to_act or 1) if t.session else None
                due = [since + (t.away_after or 0)] if since is not None and t.away_after is not None else []
                ends = t.turn_ends()
                due += [ends] if ends is not None else []
                await asyncio.sleep(min(LEASE_RETRY, max(0.05, min(due, default=time.time() + LEASE_RETRY)
                                                         - time.time())))
                continue
            delay = turn.delay  # the table's pace, else the server's
            if work == "next":
                await self._pause(hub, self.settings.next_delay)
                state = hub.table.state
                async with hub.lock:
                    if hub.table.state == state and self._bot_work(hub) == "next":
                        hub.table.next_deal(state)
                        with contextlib.suppress(TableError):
                            await self.persist(hub)
                await self.broadcast(hub)
                continue
            state = hub.table.state
            who = hub.table.bot_to_act()
            if who is None:
                continue
            for_person = hub.table.seats[who[0] - 1].kind == HUMAN
            timed = for_person and hub.table.out_of_time()
            # the bot thinks during the pause, and answers when both are over: at the pace, however
            # long it thought (one legal move or many), rounded up to a step when it thought longer
            began = time.monotonic()
            thinking = asyncio.ensure_future(self.bots.choose(bot_job(hub.table, *who), self.bot_key(hub),
                                                              urgent=hub.table.seats[who[0] - 1].kind == HUMAN))
            try:
                await self._pause(hub, delay)
                text = await thinking
            except asyncio.CancelledError:
                thinking.cancel()
                raise
            except Exception:
                failures += 1
                log.exception("the bot failed", extra={"event": "bot_failed", "table": table_id, "by": who[1]})
                if failures >= BOT_FAILURES:
                    await self.cluster.release(table_id)  # the heartbeat tries it again later
                    return
                await asyncio.sleep(LEASE_RETRY)
                continue
            failures = 0
            await self._answer_at(began, time.monotonic() - began, bool(hub.people))
            async with hub.lock:
                if hub.table.state != state or hub.table.bot_to_act() != who:
                    continue  # someone moved meanwhile, or came back (or another process): think again
                try:
                    hub.table.act(who[0], text, state, timed=timed, away=for_person and not timed)
                    await self.persist(hub)
                except TableError as e:
                    if e.code in ("stale", "storage"):
                        continue
                    raise
                except ConquianError:
                    log.exception("the bot's move was refused",
                                  extra={"event": "bot_refused", "table": table_id, "command": text})
                    await self.cluster.release(table_id)
                    return
            log_move(hub.table, who[0], who[1])
            await self.broadcast(hub)


def snapshot(hub: Hub, seat: int | None, tr: Translator = ENGLISH, muted: bool = False) -> dict[str, Any]:
    """The table as ``seat`` may see it, with how many watch it (its words in ``tr``'s language);
    ``muted``: the reader is a spectator the host muted."""
    return table_snapshot(hub.table, seat, tr) | {"spectators": hub.spectators, "chat_muted": muted}


def seat_connected(seat: Any) -> bool:
    """Whether a seat shows as connected: its person has a connection open, or a bot plays it."""
    return bool(seat.connected > 0 or seat.kind not in (HUMAN, OPEN))


def log_move(table: Table, seat: int | None, by: str) -> None:
    """The log line of a move (its command is public: every seat saw it made; a deal's deck is
    left out)."""
    command = table.commands[-1] if table.commands else None
    if command is not None and command.startswith(("start", "next")):
        command = command.split(" ", 1)[0]  # never the deck of a deal
    log.info("move", extra={"event": "move", "table": table.id, "state": table.state, "seat": seat, "by": by,
                            "command": command})
