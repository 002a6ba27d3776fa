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
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from conquian.bots import bot_names
from conquian.errors import ConquianError
from conquian.record import record_from_match, write_record
from conquian.rules import PRESETS, get_rules
from conquian.session import HUMAN
from conquian.web import protocol
from conquian.web.bots import BotRunner, bot_job
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


@dataclass
class Settings:
    """How the server runs: ``bot_delay`` paces the bots (seconds between their moves, so people
    can follow), ``next_delay`` the next deal at a table of bots only; ``allowed_origins`` adds
    origins a WebSocket may come from besides the server's own."""

    db_url: str | None = None
    bot_workers: int | None = None
    bot_delay: float = 0.9
    next_delay: float = 3.0
    allowed_origins: tuple[str, ...] = ()


@dataclass(eq=False)
class Connection:
    """One open WebSocket: the seat its token holds (None: a spectator), and its rate limit."""

    ws: WebSocket
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


class Server:
    """The tables the process holds, the store and the bots."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.store = Store(settings.db_url)
        self.bots: BotRunner | None = None
        self.hubs: dict[str, Hub] = {}
        self.loading = asyncio.Lock()
        self.tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Upgrade the schema, start the bot workers and the bots of unfinished tables."""
        await run_in_threadpool(self.store.upgrade)
        self.bots = BotRunner(self.settings.bot_workers)
        for row in await run_in_threadpool(self.store.listing, 10_000):
            if row["status"] == PLAYING:
                hub = await self.hub(row["id"])
                if hub:
                    self.schedule(hub)

    async def stop(self) -> None:
        """Stop the bots and close the database."""
        for t in list(self.tasks):
            t.cancel()
        for hub in self.hubs.values():
            if hub.bot_task:
                hub.bot_task.cancel()
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
        return hub

    async def persist(self, hub: Hub) -> None:
        """Store what the table accepted since the last write (before anyone is told of it).  If
        the write fails, the table is rebuilt from the database, so memory never runs ahead of it."""
        try:
            await run_in_threadpool(self.store.append, hub.table, hub.stored)
            hub.stored = hub.table.state
        except (ConflictError, Exception):
            log.exception("table %s: a command could not be stored; rebuilding from the database", hub.table.id)
            table = await run_in_threadpool(self.store.load, hub.table.id)
            if table is not None:
                for s, old in zip(table.seats, hub.table.seats, strict=True):
                    s.connected, s.away_since = old.connected, old.away_since
                hub.table, hub.stored = table, table.state
            raise TableError("storage", "the move could not be saved; the table is as it was") from None

    async def broadcast(self, hub: Hub) -> None:
        """Send every connection the table as its seat may see it."""
        cache: dict[int | None, str] = {}
        for conn in list(hub.connections):
            if conn.seat not in cache:
                cache[conn.seat] = protocol.encode({"type": "table", "table": table_snapshot(hub.table, conn.seat)})
            if conn.ws.application_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await conn.ws.send_text(cache[conn.seat])

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
            if seat.kind == HUMAN and seat.connected == 0:
                return "wait"  # a person away: the expert plays for him once ``away_after`` has passed
        return None

    async def _bots(self, hub: Hub) -> None:
        assert self.bots is not None
        while True:
            work = self._bot_work(hub)
            if work is None:
                return
            t = hub.table
            if work == "wait":
                seat = t.seats[(t.session.deal.to_act or 1) - 1] if t.session else None
                since = seat.away_since if seat and seat.away_since else time.time()
                await asyncio.sleep(max(0.05, since + (t.away_after or 0) - time.time()))
                if t.bot_to_act() is None:
                    continue
            await asyncio.sleep(self.settings.next_delay if work == "next" else self.settings.bot_delay)
            state = hub.table.state
            if work == "next":
                async with hub.lock:
                    if hub.table.state == state and self._bot_work(hub) == "next":
                        hub.table.next_deal(state)
                        await self.persist(hub)
                await self.broadcast(hub)
                continue
            who = hub.table.bot_to_act()
            if who is None:
                continue
            try:
                text = await self.bots.choose(bot_job(hub.table, *who))
            except Exception:
                log.exception("table %s: the bot %s failed", hub.table.id, who[1])
                return
            async with hub.lock:
                if hub.table.state != state:
                    continue  # someone moved meanwhile (a person came back): think again
                try:
                    hub.table.act(who[0], text, state)
                    await self.persist(hub)
                except ConquianError:
                    log.exception("table %s: the bot's move %s was refused", hub.table.id, text)
                    return
            log.info("table %s state %d: %s (bot)", hub.table.id, hub.table.state, hub.table.commands[-1])
            await self.broadcast(hub)


# ---------------------------------------------------------------------------- HTTP
def _error(status: int, code: str, message: str, rule: str | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "rule": rule, "message": message[:300]}}, status_code=status)


def _conquian_error(e: ConquianError, status: int = 400) -> JSONResponse:
    code = getattr(e, "code", None) or ("illegal" if getattr(e, "rule", None) else "bad_request")
    return _error(status, code, str(e), getattr(e, "rule", None))


async def _body(request: Request, kind: type[Any]) -> Any:
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

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "tables_in_memory": len(server.hubs)})

    async def presets(request: Request) -> Response:
        return JSONResponse({
            "variants": [
                {"name": r.name, "family": r.family, "min_players": r.min_players, "max_players": r.max_players,
                 "players": r.players, "options": _option_defaults(r.name)}
                for r in PRESETS.values()
            ],
            "bots": bot_names(),
            "protocol": protocol.VERSION,
        })

    async def list_tables(request: Request) -> Response:
        return JSONResponse({"open": await run_in_threadpool(server.store.listing),
                             "finished": await run_in_threadpool(server.store.finished)})

    async def create_table(request: Request) -> Response:
        try:
            spec = await _body(request, protocol.CreateTable)
            table, host_token, token = _new_table(spec)
        except ConquianError as e:
            return _conquian_error(e)
        await run_in_threadpool(server.store.create, table)
        hub = server.hubs[table.id] = Hub(table, table.state)
        server.schedule(hub)
        log.info("table %s created: %s, %d players", table.id, table.rules.name, table.rules.players)
        return JSONResponse({"id": table.id, "host": host_token, "seat": 1 if token else None, "token": token,
                             "url": f"/t/{table.id}"}, status_code=201)

    async def get_table(request: Request) -> Response:
        hub = await server.hub(request.path_params["id"])
        if hub is None:
            return _error(404, "no_table", "there is no such table")
        return JSONResponse(table_snapshot(hub.table, None))

    async def seat_change(request: Request, kind: type[Any]) -> Response:
        """Take a seat (``Sit``) or, for the host, give one to a bot (``SeatBot``)."""
        hub = await server.hub(request.path_params["id"])
        if hub is None:
            return _error(404, "no_table", "there is no such table")
        try:
            spec = await _body(request, kind)
            async with hub.lock:
                if isinstance(spec, protocol.Sit):
                    answer = {"seat": spec.seat, "token": hub.table.sit(spec.seat, spec.name)}
                else:
                    hub.table.set_bot(spec.seat, spec.bot, host=hub.table.is_host(spec.host))
                    answer = {"seat": spec.seat, "bot": spec.bot}
                await run_in_threadpool(server.store.save_seats, hub.table)
                await server.persist(hub)
        except ConquianError as e:
            code = getattr(e, "code", "")
            return _conquian_error(e, {"seat_taken": 409, "not_host": 403}.get(code, 400))
        await server.broadcast(hub)
        server.schedule(hub)
        return JSONResponse(answer)

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
        conn = Connection(ws)
        hub = await server.hub(ws.path_params["id"])
        if hub is None:
            await conn.error("no_table", "there is no such table")
            await ws.close(code=4404)
            return
        try:
            await _serve(server, hub, conn)
        finally:
            hub.connections.discard(conn)
            if conn.seat is not None:
                hub.table.disconnect(conn.seat)
                server.schedule(hub)
                await server.broadcast(hub)

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
    )
    app.state.server = server
    return app


def _option_defaults(variant: str) -> dict[str, Any]:
    from conquian.rules import _OPTIONS

    r = PRESETS[variant]
    return {k: getattr(r, k) for k in sorted(_OPTIONS[r.family]) if k != "players"}


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
    host_token = new_token()
    table = Table(
        id=secrets.token_urlsafe(6), name=(spec.name.strip() or f"{rules.name} table")[:60], rules=rules,
        seed=spec.seed if spec.seed is not None else secrets.randbits(63), host_hash=hash_token(host_token),
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
    if hello.token is not None and seat is None:
        await conn.error("bad_token", "this seat token is not valid at this table: you are watching")
    conn.seat, conn.host = seat, hub.table.is_host(hello.host)
    hub.table.connect(seat)
    hub.connections.add(conn)
    await conn.send({"type": "welcome", "v": protocol.VERSION, "seat": seat, "host": conn.host})
    await server.broadcast(hub)
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
        if not conn.limit.allow(time.monotonic()):
            conn.refused += 1
            if conn.refused >= FLOOD_CLOSE:
                await conn.error("too_fast", "too many messages: closing this connection")
                await ws.close(code=4429)
                return
            await conn.error("too_fast", f"at most {protocol.RATE_PER_SECOND:g} messages a second")
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
    t = hub.table
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
            t.away_after = msg.seconds
            await run_in_threadpool(server.store.save_seats, t)
    elif isinstance(msg, protocol.Rematch):
        if conn.seat is None and not conn.host:
            raise TableError("not_your_seat", "only a player or the host may ask for a rematch")
        await _rematch(server, hub)
    else:
        if conn.seat is None:
            raise TableError("not_your_seat", "spectators watch; take a seat to play")
        async with hub.lock:
            if isinstance(msg, protocol.Act):
                t.act(conn.seat, msg.action, msg.state)
            else:
                t.next_deal(msg.state)
            await server.persist(hub)
        log.info("table %s state %d: %s", t.id, t.state, t.commands[-1])
    await server.broadcast(hub)
    server.schedule(hub)


def _options(hub: Hub, conn: Connection, cards: list[str]) -> list[str]:
    """The moves the selection makes: listed moves holding every selected card, and forms built from
    the selection and checked by the engine."""
    from conquian.cards import parse_card

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
            table = Table(id=secrets.token_urlsafe(6), name=old.name, rules=old.rules, seed=secrets.randbits(63),
                          host_hash=old.host_hash, show_buried=old.show_buried, away_after=old.away_after,
                          deals_in_match=old.deals_in_match)
            for s, o in zip(table.seats, old.seats, strict=True):
                s.kind, s.name, s.token_hash = o.kind, o.name, o.token_hash
            table.start_if_full()
            await run_in_threadpool(server.store.create, table)
            new = server.hubs[table.id] = Hub(table, table.state)
            old.rematch_id = table.id
            await run_in_threadpool(server.store.save_seats, old)
            server.schedule(new)
