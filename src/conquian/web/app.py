"""The ASGI application of ``conquian serve`` (Starlette): pages, the lobby's JSON API, WebSockets.

Transport only: what a table does is :class:`~conquian.web.table.Table`'s, what a seat receives
is :mod:`~conquian.web.snapshot`'s, where it is kept is :class:`~conquian.web.store.Store`'s.
Every command a table accepts is stored (in the transaction that advances it) before anyone is
told of it; a table is rebuilt from its stored commands when it is first asked for after a
start.  The protocol is ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from conquian.bots import bot_names
from conquian.bots.expert import strongest_quick_bot
from conquian.engine.errors import ConquianError
from conquian.engine.record import record_from_match, write_record
from conquian.engine.rules import MEXICANO, PRESETS, get_rules
from conquian.session import HUMAN
from conquian.web import protocol, security
from conquian.web.bots import BotRunner, bot_job
from conquian.web.cluster import HEARTBEAT, PRESENCE_CHUNK, PRESENCE_TTL, Cluster, PostgresCluster, worker_name
from conquian.web.limits import REQUEST_TIMEOUT, AddressLimits, client_address, deadline_protocol
from conquian.web.logs import AccessLog
from conquian.web.logs import configure as configure_logs
from conquian.web.protocol import ProtocolError, RateLimit
from conquian.web.replay import replay_frames
from conquian.web.snapshot import table_snapshot
from conquian.web.store import ConflictError, Store
from conquian.web.table import OPEN, OVER, PLAYING, Table, TableError, hash_token, new_token

log = logging.getLogger("conquian.web")
STATIC = Path(__file__).with_name("static")
#: Seconds a connection has to say hello.
HELLO_TIMEOUT = 10.0
#: Refused messages after which a flooding connection is closed.
FLOOD_CLOSE = 200
#: Seconds between two tries of a process to take the bots of a table another process holds.
LEASE_RETRY = 2.0
#: Seconds without a move after which a process loads a playing table with bots that it does
#: not hold (its bots may have been held by a process that died).
STALE_TABLE = 30.0
#: Seconds a table stays in memory with no connection and no bot to play (it is read again from
#: the database when asked for).
EVICT_AFTER = 300.0
#: Seconds between two write probes of ``/health`` (a failed write counts meanwhile).
WRITE_PROBE_EVERY = 10.0
#: Seconds over which the changes of who is connected to a table are gathered into one
#: ``presence`` message (so that many people arriving make one message each, not one per arrival).
PRESENCE_EVERY = 1.0


@dataclass
class Settings:
    """How the server runs: ``bot_delay`` paces the bots (seconds between their moves, so people
    can follow), ``next_delay`` the next deal at a table of bots only; ``allowed_origins`` adds
    origins a WebSocket may come from besides the server's own; ``allowed_hosts`` are the names
    the server answers to (``Host``; :func:`~conquian.web.security.allowed_hosts`);
    ``health_token``, if set, shows ``/health``'s detail to a request that presents it."""

    db_url: str | None = None
    bot_workers: int | None = None
    bot_delay: float = 0.9
    next_delay: float = 3.0
    allowed_origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = security.LOOPBACK
    health_token: str | None = None
    max_spectators: int = 50
    """Spectators a table takes (in each server process)."""
    connections_per_address: int = 20
    """WebSockets one client address may hold open (in each server process)."""
    messages_per_address: float = 20.0
    """Messages a second one client address may send across all its connections."""
    tables_per_minute: float = 3.0
    """New tables one client address may make a minute (bursts of five)."""
    unjoined_after: float = 600.0
    """Seconds after which the lobby stops listing a waiting table that no person has sat at."""


@dataclass(eq=False)
class Connection:
    """One open WebSocket: the seat its token holds (None: a spectator), and its rate limit."""

    ws: WebSocket
    address: str = "unknown"
    seat: int | None = None
    host: bool = False
    limit: RateLimit = field(default_factory=RateLimit)
    refused: int = 0

    async def send(self, message: dict[str, Any]) -> None:
        """Send a message; a connection that has gone is ignored (its reader cleans it up)."""
        if self.ws.application_state != WebSocketState.CONNECTED:
            return
        with contextlib.suppress(Exception):
            await self.ws.send_text(protocol.encode(message))

    async def error(self, code: str, message: str, rule: str | None = None, state: int | None = None) -> None:
        """Tell this connection only what was refused and why."""
        await self.send({"type": "error", "code": code, "rule": rule, "message": message[:300], "state": state})


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
        self.limits = AddressLimits(settings.connections_per_address, settings.messages_per_address,
                                    settings.tables_per_minute)
        self.hubs: dict[str, Hub] = {}
        self.loading = asyncio.Lock()
        self.tasks: set[asyncio.Task[None]] = set()
        self.presence: dict[str, dict[str, tuple[dict[int, int], float]]] = {}
        """Other processes' connections per table: table -> process -> (seat -> count, when told)."""

    async def start(self) -> None:
        """Upgrade the schema, start the bot workers, listen to the other processes, start the
        bots of unfinished tables."""
        await run_in_threadpool(self.store.upgrade)
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
            self.bots.close()
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
            raise TableError("stale", f"another move was made first; the table is at state {hub.table.state}"
                             ) from None
        except Exception:
            log.exception("a command could not be stored; rebuilding from the database",
                          extra={"event": "store_failed", "table": hub.table.id})
            await self.reload(hub)
            raise TableError("storage", "the move could not be saved; the table is as it was") from None

    async def reload(self, hub: Hub) -> None:
        """Rebuild the table from the database, keeping who is connected (the caller holds the lock)."""
        with contextlib.suppress(Exception):
            table = await run_in_threadpool(self.store.load, hub.table.id)
            if table is not None:
                for s, old in zip(table.seats, hub.table.seats, strict=True):
                    s.connected, s.elsewhere, s.away_since = old.connected, old.elsewhere, old.away_since
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
                      hub.table.rematch_id)
            changes = await run_in_threadpool(self.store.changes, hub.table.id, hub.table.state)
            if changes is None:
                return
            seats, settings, stored = changes
            try:
                hub.table.update_seats(seats)
                hub.table.away_after, hub.table.rematch_id = settings["away_after"], settings["rematch_id"]
                hub.table.rebuild(stored)
                hub.stored = hub.table.state
            except ConquianError:
                log.exception("a stored command could not be applied; rebuilding the table",
                              extra={"event": "catch_up_failed", "table": hub.table.id})
                await self.reload(hub)
            after = (hub.table.state, [(s.kind, s.token_hash) for s in hub.table.seats], hub.table.away_after,
                     hub.table.rematch_id)
        if after != before:
            await self.broadcast(hub)
            self.schedule(hub)

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
            for held in list(self.hubs.values()):
                self.spawn(self.catch_up(held))
        elif kind == "presence":
            self._presence_message(payload)
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

    async def _heartbeat(self) -> None:
        tick = 0
        while True:
            await asyncio.sleep(HEARTBEAT)
            tick += 1
            self.limits.forget()
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

    # ------------------------------------------------------------------ telling and bots
    async def broadcast(self, hub: Hub) -> None:
        """Send every connection the table as its seat may see it."""
        cache: dict[int | None, str] = {}
        for conn in list(hub.connections):
            if conn.seat not in cache:
                cache[conn.seat] = protocol.encode({"type": "table", "table": snapshot(hub, conn.seat)})
            if conn.ws.application_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await conn.ws.send_text(cache[conn.seat])

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

    def _bot_work(self, hub: Hub) -> str | None:
        t = hub.table
        if t.status != PLAYING or t.session is None:
            return None
        if t.session.deal.over:
            return "next" if t.all_bots else None
        if t.bot_to_act() is not None:
            return "move"
        seat_no = t.session.deal.to_act
        if seat_no is not None and t.away_after is not None:
            seat = t.seats[seat_no - 1]
            if seat.kind == HUMAN and not seat.present:
                return "wait"  # a person away: the expert plays for him once ``away_after`` has passed
        return None

    async def _bots(self, hub: Hub) -> None:
        """Play the table's bots while there is bot work, holding its lease (one process at a time,
        for the whole match unless it dies)."""
        assert self.bots is not None
        table_id = hub.table.id
        while True:
            work = self._bot_work(hub)
            if work is None:
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
                seat = t.seats[(t.session.deal.to_act or 1) - 1] if t.session else None
                since = seat.away_since if seat and seat.away_since else time.time()
                await asyncio.sleep(min(LEASE_RETRY, max(0.05, since + (t.away_after or 0) - time.time())))
                continue
            await asyncio.sleep(self.settings.next_delay if work == "next" else self.settings.bot_delay)
            state = hub.table.state
            if work == "next":
                async with hub.lock:
                    if hub.table.state == state and self._bot_work(hub) == "next":
                        hub.table.next_deal(state)
                        with contextlib.suppress(TableError):
                            await self.persist(hub)
                await self.broadcast(hub)
                continue
            who = hub.table.bot_to_act()
            if who is None:
                continue
            try:
                text = await self.bots.choose(bot_job(hub.table, *who))
            except Exception:
                log.exception("the bot failed", extra={"event": "bot_failed", "table": table_id, "by": who[1]})
                await self.cluster.release(table_id)
                return
            async with hub.lock:
                if hub.table.state != state:
                    continue  # someone moved meanwhile (a person came back, another process): think again
                try:
                    hub.table.act(who[0], text, state)
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


def snapshot(hub: Hub, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` may see it, with how many watch it."""
    return table_snapshot(hub.table, seat) | {"spectators": hub.spectators}


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


# ---------------------------------------------------------------------------- HTTP
def _error(status: int, code: str, message: str, rule: str | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "rule": rule, "message": message[:300]}}, status_code=status)


def _first_line(e: BaseException) -> str:
    """An exception in one short line (a database error's own message, without its SQL)."""
    text = str(getattr(e, "orig", None) or e).strip()
    return (text.splitlines()[0] if text else type(e).__name__)[:150]


def _conquian_error(e: ConquianError, status: int = 400) -> JSONResponse:
    code = getattr(e, "code", None) or ("illegal" if getattr(e, "rule", None) else "bad_request")
    return _error(415 if code == "not_json" else status, code, str(e), getattr(e, "rule", None))


async def _body(request: Request, kind: type[Any]) -> Any:
    if not security.is_json(request.headers.get("content-type")):
        raise ProtocolError("not_json", "the body must be JSON, sent as Content-Type: application/json")
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > protocol.MAX_MESSAGE_BYTES:
            raise ProtocolError("too_large", f"a request body is at most {protocol.MAX_MESSAGE_BYTES} bytes")
    return protocol.decode_body(data, kind)


def build_app(settings: Settings | None = None) -> Starlette:
    """The application; ``settings`` say where the database is and how bots are paced."""
    settings = settings or Settings()
    server = Server(settings)
    # fixed for the process: its bot modules are imported once, compiled or not
    default_bot = strongest_quick_bot()

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def health(request: Request) -> Response:
        try:
            database = await asyncio.wait_for(run_in_threadpool(server.store.ping), 5)
        except Exception:
            database = False
        writable = database and await server.writable()
        ok = writable and server.cluster.listening
        if not security.presents_token(request.headers.get("authorization"), settings.health_token):
            return JSONResponse({"ok": ok}, status_code=200 if ok else 503)
        return JSONResponse({
            "ok": ok, "database": server.store.engine.dialect.name, "database_ok": database,
            "database_writable": writable,
            "listening": server.cluster.listening, "worker": server.worker, "pid": os.getpid(),
            "tables_in_memory": len(server.hubs),
            "connections": sum(len(h.connections) for h in server.hubs.values()),
            "bots_for": sorted(server.cluster.leases),
        }, status_code=200 if ok else 503)

    async def rules_page(request: Request) -> Response:
        return HTMLResponse(_rules_html(), headers={"Cache-Control": "max-age=3600"})

    async def presets(request: Request) -> Response:
        return JSONResponse({
            "variants": [
                {"name": r.name, "family": r.family, "min_players": r.min_players, "max_players": r.max_players,
                 "players": r.players, "options": _option_defaults(r.name)}
                for r in PRESETS.values() if r.family != MEXICANO  # not yet played at the web table
            ],
            "bots": bot_names(),
            "default_bot": default_bot,
            "protocol": protocol.VERSION,
        })

    async def list_tables(request: Request) -> Response:
        return JSONResponse({"open": await run_in_threadpool(server.store.listing, 100, settings.unjoined_after),
                             "finished": await run_in_threadpool(server.store.finished)})

    async def create_table(request: Request) -> Response:
        if not server.limits.new_table(client_address(request.client), time.monotonic()):
            return _error(429, "too_many_tables", f"at most {settings.tables_per_minute:g} new tables a minute "
                          "from one address; try again in a minute")
        try:
            spec = await _body(request, protocol.CreateTable)
            table, host_token, token = _new_table(spec)
        except ConquianError as e:
            return _conquian_error(e)
        try:
            await run_in_threadpool(server.store.create, table)
        except Exception as e:  # a full disk, a database gone read-only or away
            server.write_failed()
            log.warning("a table could not be stored", extra={"event": "store_failed", "error": _first_line(e)})
            return _error(503, "storage", f"the server cannot store the table: {_first_line(e)}")
        hub = server.hubs[table.id] = Hub(table, table.state)
        server.schedule(hub)
        log.info("table %s created: %s, %d players", table.id, table.rules.name, table.rules.players)
        return JSONResponse({"id": table.id, "host": host_token, "seat": 1 if token else None, "token": token,
                             "url": f"/t/{table.id}"}, status_code=201)

    async def get_table(request: Request) -> Response:
        hub = await server.hub(request.path_params["id"])
        if hub is None:
            return _error(404, "no_table", "there is no such table")
        return JSONResponse(snapshot(hub, None))

    async def seat_change(request: Request, kind: type[Any]) -> Response:
        """Take a seat (``Sit``) or, for the host, give one to a bot (``SeatBot``)."""
        hub = await server.hub(request.path_params["id"])
        if hub is None:
            return _error(404, "no_table", "there is no such table")
        try:
            spec = await _body(request, kind)
            answer = await _seat(server, hub, spec)
        except ConquianError as e:
            code = getattr(e, "code", "")
            return _conquian_error(e, {"seat_taken": 409, "not_host": 403, "storage": 503}.get(code, 400))
        await server.broadcast(hub)
        server.schedule(hub)
        return JSONResponse(answer)

    async def _seat(server: Server, hub: Hub, spec: Any) -> dict[str, Any]:
        # another process may seat someone at the same moment: the store then refuses ours, and we
        # try again on the table as stored (where the seat may now be taken: a clear refusal)
        for _ in range(5):
            async with hub.lock:
                first = hub.table.state
                if isinstance(spec, protocol.Sit):
                    answer = {"seat": spec.seat, "token": hub.table.sit(spec.seat, spec.name)}
                else:
                    hub.table.set_bot(spec.seat, spec.bot, host=hub.table.is_host(spec.host))
                    answer = {"seat": spec.seat, "bot": spec.bot}
                try:
                    await run_in_threadpool(server.store.save_seat, hub.table, spec.seat, first, server.worker)
                    hub.stored = hub.table.state
                except ConflictError:
                    await server.reload(hub)
                    continue
                except Exception:
                    log.exception("a seat could not be stored", extra={"event": "store_failed", "table": hub.table.id})
                    await server.reload(hub)
                    raise TableError("storage", "the seat could not be saved; try again") from None
            log.info("seat", extra={"event": "seat", "table": hub.table.id, "seat": spec.seat,
                                    "by": "person" if isinstance(spec, protocol.Sit) else spec.bot})
            return answer
        raise TableError("busy", "the table's seats keep changing; try again")

    async def sit(request: Request) -> Response:
        return await seat_change(request, protocol.Sit)

    async def seat_bot(request: Request) -> Response:
        return await seat_change(request, protocol.SeatBot)

    async def record(request: Request) -> Response:
        hub = await server.hub(request.path_params["id"])
        if hub is None:
            return _error(404, "no_table", "there is no such table")
        t = hub.table
        if t.session is None or not t.session.deal.over:
            return _error(409, "deal_in_progress", "the record can be downloaded between deals and at the end "
                          "(it holds the deck of every deal)")
        text = write_record(record_from_match(t.session.match))
        return Response(text, media_type="application/toml", headers={
            "Content-Disposition": f'attachment; filename="conquian-{t.rules.name}-{t.id}.toml"'})

    async def replay(request: Request) -> Response:
        hub = await server.hub(request.path_params["id"])
        if hub is None:
            return _error(404, "no_table", "there is no such table")
        t = hub.table
        if t.status != OVER or t.session is None:
            return _error(409, "not_over", "a match can be replayed once it is over")
        return JSONResponse({"id": t.id, "name": t.name, "variant": t.rules.name, "names": t.names,
                             "frames": replay_frames(t.session.match)})

    async def websocket(ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        if origin is not None and not _same_origin(origin, ws.headers.get("host", ""), settings.allowed_origins):
            await ws.close(code=1008, reason="origin not allowed")
            return
        await ws.accept()
        conn = Connection(ws, client_address(ws.client))
        if not server.limits.connect(conn.address):
            await conn.error("too_many_connections", f"at most {settings.connections_per_address} connections "
                             "from one address")
            await ws.close(code=4429)
            return
        try:
            hub = await server.hub(ws.path_params["id"])
            if hub is None:
                await conn.error("no_table", "there is no such table")
                await ws.close(code=4404)
                return
            opened = time.monotonic()
            try:
                await _serve(server, hub, conn)
            finally:
                was_here = conn in hub.connections
                hub.connections.discard(conn)
                hub.used = time.monotonic()
                log.info("closed", extra={"event": "ws_close", "table": hub.table.id, "seat": conn.seat,
                                          "ms": round((time.monotonic() - opened) * 1000)})
                if conn.seat is not None:
                    hub.table.disconnect(conn.seat)
                    server.schedule(hub)
                    with contextlib.suppress(Exception):
                        await server.tell_presence(hub)
                if was_here:
                    server.presence_soon(hub)
        finally:
            server.limits.disconnect(conn.address)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/t/{id}", page),
            Route("/r/{id}", page),
            Route("/health", health),
            Route("/rules", rules_page),
            Route("/api/presets", presets),
            Route("/api/tables", list_tables, methods=["GET"]),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables/{id}", get_table),
            Route("/api/tables/{id}/sit", sit, methods=["POST"]),
            Route("/api/tables/{id}/bot", seat_bot, methods=["POST"]),
            Route("/api/tables/{id}/record", record),
            Route("/api/tables/{id}/replay", replay),
            WebSocketRoute("/ws/{id}", websocket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
        middleware=[Middleware(AccessLog), Middleware(security.HostCheck, allowed=settings.allowed_hosts)],
    )
    app.state.server = server
    # the security headers wrap Starlette's own error handler too, so its 500s carry them
    app.middleware_stack = security.SecurityHeaders(app.build_middleware_stack())
    return app


#: The environment variable that carries the settings to each of ``conquian serve --workers N``'s
#: processes (JSON: :class:`Settings`' fields, ``log_level`` and ``log_format``).
SETTINGS_ENV = "CONQUIAN_SERVE_SETTINGS"


def app_from_environment() -> Starlette:
    """The application of one process of ``conquian serve --workers N`` (uvicorn's factory)."""
    data = json.loads(os.environ[SETTINGS_ENV])
    configure_logs(data.pop("log_level", "info"), data.pop("log_format", "text"))
    deadline_protocol(data.pop("request_timeout", REQUEST_TIMEOUT))  # this process's slow-client deadline
    data["allowed_origins"] = tuple(data.get("allowed_origins", ()))
    data["allowed_hosts"] = tuple(data.get("allowed_hosts", security.LOOPBACK))
    return build_app(Settings(**data))


@functools.cache
def _rules_html() -> str:
    """The rule book as a page, every rule with its anchor (``/rules#R3.4``, where refusals link)."""
    import markdown

    from conquian.engine import rulebook

    body = markdown.markdown(rulebook.markdown(), extensions=["attr_list", "tables"], output_format="html")
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<title>The rules - conquian</title><link rel=\"stylesheet\" href=\"/static/style.css\"></head>"
            "<body><header class=\"top\"><a href=\"/\" class=\"brand\">conquian</a>"
            "<span class=\"title\">The rules</span></header>"
            f"<main class=\"rulebook\">{body}</main></body></html>")


def _option_defaults(variant: str) -> dict[str, Any]:
    return {k: v for k, v in PRESETS[variant].option_values().items() if k != "players"}


def _same_origin(origin: str, host: str, allowed: tuple[str, ...]) -> bool:
    if origin in allowed:
        return True
    for scheme in ("http://", "https://"):
        if origin.startswith(scheme):
            return origin[len(scheme):] == host
    return False


def _new_table(spec: protocol.CreateTable) -> tuple[Table, str, str | None]:
    if spec.variant not in PRESETS:
        raise TableError("bad_variant", f"there is no game {spec.variant[:30]!r} (games: {', '.join(PRESETS)})")
    options = dict(spec.options)
    if spec.players is not None:
        options["players"] = spec.players
    rules = get_rules(spec.variant, **options)
    kinds = [s.kind for s in spec.seats] or ([OPEN] * rules.players)
    if len(kinds) != rules.players:
        raise TableError("no_seat", f"{rules.name} with {rules.players} players has {rules.players} seats, "
                         f"not {len(kinds)}")
    deck = _set_deal(spec, rules)
    host_token = new_token()
    table = Table(
        id=secrets.token_urlsafe(6), name=(protocol.check_table_name(spec.name) or f"{rules.name} table")[:60],
        rules=rules, seed=spec.seed, deck=deck, host_hash=hash_token(host_token),
        show_buried=spec.show_buried, away_after=spec.away_after, deals_in_match=spec.deals,
    )
    token = None
    if spec.host_name is not None:
        if kinds[0] not in (OPEN, HUMAN):
            raise TableError("seat_taken", "the host sits at seat 1: leave it open")
        token = table.sit(1, spec.host_name)
    for number, kind in enumerate(kinds, 1):
        if kind not in (OPEN, HUMAN) and table.seats[number - 1].kind == OPEN:
            table.set_bot(number, kind, host=True)
    return table, host_token, token


def _set_deal(spec: protocol.CreateTable, rules: Any) -> tuple[int, ...] | None:
    """A set deal's first deck (checked), or None; a seed or a deck without ``set_deal`` is
    refused: an ordinary table's cards come from the server's randomness only."""
    if not spec.set_deal:
        if spec.seed is not None or spec.deck is not None:
            raise ProtocolError("not_set_deal", "the server shuffles every deal: a seed or a deck makes a set deal "
                                "(set_deal: true), which every seat is shown")
        return None
    if spec.seed is None and spec.deck is None:
        raise ProtocolError("bad_set_deal", "a set deal needs a seed or a deck")
    if spec.deck is None:
        return None
    from conquian.engine.cards import parse_cards
    from conquian.engine.match import new_deal

    try:
        deck = tuple(parse_cards(spec.deck))
        new_deal(rules, deck)
    except ConquianError as e:
        raise ProtocolError("bad_deck", f"the deck is not a {rules.name} deck: {e}") from None
    return deck


# ---------------------------------------------------------------------------- WebSocket
async def _serve(server: Server, hub: Hub, conn: Connection) -> None:
    ws = conn.ws
    try:
        first = await asyncio.wait_for(ws.receive_text(), HELLO_TIMEOUT)
    except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
        return
    try:
        hello = protocol.decode_client(first)
        if not isinstance(hello, protocol.Hello):
            raise ProtocolError("bad_message", "the first message must be hello")
    except ProtocolError as e:
        await conn.error(e.code, str(e))
        await ws.close(code=4400)
        return
    seat = hub.table.seat_of(hello.token)
    host = hub.table.is_host(hello.host)
    if seat is None and not host and hub.spectators >= server.settings.max_spectators:
        await conn.error("too_many_spectators", f"this table has its {server.settings.max_spectators} spectators: "
                         "try again later")
        await ws.close(code=4429)
        return
    if hello.token is not None and seat is None:
        await conn.error("bad_token", "this seat token is not valid at this table: you are watching")
    conn.seat, conn.host = seat, host
    hub.table.connect(seat)
    hub.connections.add(conn)
    hub.used = time.monotonic()
    log.info("opened", extra={"event": "ws_open", "table": hub.table.id, "seat": seat})
    if seat is not None:
        server.spawn(server.tell_presence(hub))
    await conn.send({"type": "welcome", "v": protocol.VERSION, "seat": seat, "host": conn.host})
    # the newcomer gets the table; the others hear of him in the next presence message
    await conn.send({"type": "table", "table": snapshot(hub, seat)})
    server.presence_soon(hub)
    while True:
        try:
            message = await ws.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        data = message.get("text")
        if data is None:
            data = message.get("bytes") or b""
        now = time.monotonic()
        if not (conn.limit.allow(now) and server.limits.message(conn.address, now)):
            conn.refused += 1
            if conn.refused >= FLOOD_CLOSE:
                await conn.error("too_fast", "too many messages: closing this connection")
                await ws.close(code=4429)
                return
            await conn.error("too_fast", f"at most {protocol.RATE_PER_SECOND:g} messages a second, and "
                             f"{server.settings.messages_per_address:g} from one address")
            continue
        try:
            msg = protocol.decode_client(data)
            await _handle(server, hub, conn, msg)
        except ConquianError as e:
            await conn.error(getattr(e, "code", None) or ("illegal" if getattr(e, "rule", None) else "bad_message"),
                             _words(hub, str(e)), getattr(e, "rule", None), hub.table.state)


def _words(hub: Hub, text: str) -> str:
    session = hub.table.session
    return session.humanize(text) if session else text


async def _handle(server: Server, hub: Hub, conn: Connection, msg: protocol.ClientMessage) -> None:
    if isinstance(msg, protocol.Ping):
        await conn.send({"type": "pong"})
        return
    if isinstance(msg, protocol.Hello):
        raise ProtocolError("bad_message", "hello is sent once")
    if isinstance(msg, protocol.Options):
        await conn.send({"type": "options", "cards": msg.cards, "actions": _options(hub, conn, msg.cards)})
        return
    if isinstance(msg, protocol.Away):
        if not conn.host:
            raise TableError("not_host", "only the host may let a bot play for someone away")
        async with hub.lock:
            hub.table.away_after = msg.seconds
            await run_in_threadpool(server.store.save_settings, hub.table, server.worker)
    elif isinstance(msg, protocol.Rematch):
        if conn.seat is None and not conn.host:
            raise TableError("not_your_seat", "only a player or the host may ask for a rematch")
        await _rematch(server, hub)
    else:
        if conn.seat is None:
            raise TableError("not_your_seat", "spectators watch; take a seat to play")
        async with hub.lock:
            if isinstance(msg, protocol.Act):
                hub.table.act(conn.seat, msg.action, msg.state)
            else:
                hub.table.next_deal(msg.state)
            try:
                await server.persist(hub)
            except TableError:
                server.spawn(server.broadcast(hub))  # the table as stored, which the move missed
                raise
        log_move(hub.table, conn.seat, "person")
    await server.broadcast(hub)
    server.schedule(hub)


def _options(hub: Hub, conn: Connection, cards: list[str]) -> list[str]:
    """The moves the selection makes: listed moves holding every selected card, and forms built from
    the selection and checked by the engine."""
    from conquian.engine.cards import parse_card

    t = hub.table
    if conn.seat is None or t.session is None or t.status != PLAYING:
        return []
    session = t.session
    deal = session.deal
    if deal.to_act != conn.seat:
        return []
    try:
        chosen = [parse_card(c) for c in cards]
    except ConquianError:
        raise ProtocolError("bad_message", "a selected card is not a card") from None
    view = deal.view(conn.seat)
    hand = view.hand_mask if hasattr(view, "hand_mask") else sum(1 << c for c in view.hand if c >= 0)
    if any(c >= 0 and not hand >> c & 1 for c in chosen):
        raise ProtocolError("bad_message", "select only cards in your hand")
    names = {c.replace("10", "T") for c in cards}
    listed = [a for a in view.legal_actions() if names <= set(str(a).replace("|", " ").split()[2:])]
    built = session.actions_from_selection(chosen) if chosen else []
    out: list[str] = []
    for a in [*listed, *built]:
        words = session.action_words(a)
        if words not in out:
            out.append(words)
    return out


async def _rematch(server: Server, hub: Hub) -> None:
    old = hub.table
    if old.status != OVER:
        raise TableError("not_over", "a rematch starts once the match is over")
    async with hub.lock:
        if old.rematch_id is None:
            # an ordinary table's rematch is dealt from fresh randomness; a set deal's is the same set deal
            table = Table(id=secrets.token_urlsafe(6), name=old.name, rules=old.rules, seed=old.seed, deck=old.deck,
                          host_hash=old.host_hash, show_buried=old.show_buried, away_after=old.away_after,
                          deals_in_match=old.deals_in_match)
            for s, o in zip(table.seats, old.seats, strict=True):
                s.kind, s.name, s.token_hash = o.kind, o.name, o.token_hash
            table.start_if_full()
            await run_in_threadpool(server.store.create, table)
            old.rematch_id = table.id
            stored = await run_in_threadpool(server.store.save_rematch, old)
            if stored != table.id:  # another process made the rematch first: join that one
                await run_in_threadpool(server.store.delete, table.id)
                old.rematch_id = stored
                return
            new = server.hubs[table.id] = Hub(table, table.state)
            server.schedule(new)
