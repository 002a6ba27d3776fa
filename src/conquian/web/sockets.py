"""The WebSocket endpoint of ``conquian serve`` (``/ws/{id}``): the origin check, the hello, the
loop that reads a connection's messages (rate-limited), and what each message does: a move or
the next deal, the options a selection of cards makes, the host's delay for someone away and
turn timer, a rematch.  The protocol is ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time

from starlette.concurrency import run_in_threadpool
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from conquian.engine.errors import ConquianError
from conquian.i18n import Msg, Translator
from conquian.session import HUMAN
from conquian.web import protocol
from conquian.web.accounts import same_origin
from conquian.web.lang import hello_translator, reader
from conquian.web.limits import client_address
from conquian.web.protocol import ProtocolError
from conquian.web.rematch import rematch
from conquian.web.server import Connection, Hub, Server, log_move, snapshot
from conquian.web.snapshot import hint_message, options_message
from conquian.web.table import NO_HINT, OPEN, PLAYING, TableError, check_turn_timer, rated_clock

log = logging.getLogger("conquian.web")
#: Seconds a connection has to say hello.
HELLO_TIMEOUT = 10.0
#: Refused messages after which a flooding connection is closed.
FLOOD_CLOSE = 200


def websocket_route(server: Server) -> WebSocketRoute:
    """The WebSocket of ``server``'s tables: ``/ws/{id}``."""
    settings = server.settings

    async def websocket(ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        if not same_origin(origin, ws.url.scheme, ws.headers.get("host", ""), settings.allowed_origins):
            await ws.close(code=1008, reason="origin not allowed")
            return
        await ws.accept()
        conn = Connection(ws, client_address(ws.client))
        # until the hello says otherwise, the browser's language (``?lang=``, Accept-Language)
        conn.tr = reader(ws.query_params.get("lang"), ws.headers.get("accept-language"))
        if not server.limits.connect(conn.address):
            await conn.error("too_many_connections", Msg("at most {limit} connections from one address",
                                                         limit=settings.connections_per_address))
            await ws.close(code=4429)
            return
        server.sockets += 1
        try:
            hub = await server.hub(ws.path_params["id"])
            if hub is None:
                await conn.error("no_table", Msg("there is no such table"))
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
            server.sockets -= 1
            server.limits.disconnect(conn.address)

    return WebSocketRoute("/ws/{id}", websocket)


async def _serve(server: Server, hub: Hub, conn: Connection) -> None:
    ws = conn.ws
    try:
        first = await asyncio.wait_for(ws.receive_text(), HELLO_TIMEOUT)
    except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
        return
    try:
        hello = protocol.decode_client(first)
        if not isinstance(hello, protocol.Hello):
            raise ProtocolError("bad_message", Msg("the first message must be hello"))
    except ProtocolError as e:
        await conn.error(e.code, e.message)
        await ws.close(code=4400)
        return
    if hello.lang is not None:
        conn.tr = hello_translator(hello.lang)
    seat = hub.table.seat_of(hello.token)
    host = hub.table.is_host(hello.host)
    if seat is None and not host and hub.spectators >= server.settings.max_spectators:
        await conn.error("too_many_spectators", Msg("this table has its {limit} spectators: try again later",
                                                    limit=server.settings.max_spectators))
        await ws.close(code=4429)
        return
    if server.sockets > server.settings.max_sockets and ((seat is None and not host) or not await server.make_room()):
        # full: a spectator is refused; a player or the host closes the longest idle spectator
        await conn.error("server_full", Msg("the server is full: try again later"))
        await ws.close(code=4503)
        return
    if hello.token is not None and seat is None:
        await conn.error("bad_token", Msg("this seat token is not valid at this table: you are watching"))
    conn.seat, conn.host = seat, host
    conn.account, conn.blocked = await server.friends.identify(ws)
    conn.chat = protocol.RateLimit(server.settings.chat_per_second, server.settings.chat_burst)
    hub.table.connect(seat)
    hub.connections.add(conn)
    hub.used = time.monotonic()
    log.info("opened", extra={"event": "ws_open", "table": hub.table.id, "seat": seat})
    if seat is not None:
        server.spawn(server.tell_presence(hub))
    await conn.send({"type": "welcome", "v": protocol.VERSION, "seat": seat, "host": conn.host,
                     "lang": conn.tr.lang, "id": conn.id,
                     "chat_chars": server.settings.chat_chars})
    # the newcomer gets the table; the others hear of him in the next presence message
    await conn.send({"type": "table", "table": snapshot(hub, seat, conn.tr, hub.is_muted(conn))})
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
        now = conn.last = time.monotonic()
        if not (conn.limit.allow(now) and server.limits.message(conn.address, now)):
            conn.refused += 1
            if conn.refused >= FLOOD_CLOSE:
                await conn.error("too_fast", Msg("too many messages: closing this connection"))
                await ws.close(code=4429)
                return
            await conn.error("too_fast", Msg("at most {rate} messages a second, and {per_address} from one address",
                                             rate=f"{protocol.RATE_PER_SECOND:g}",
                                             per_address=f"{server.settings.messages_per_address:g}"))
            continue
        try:
            msg = protocol.decode_client(data)
            await _handle(server, hub, conn, msg)
        except ConquianError as e:
            await conn.error(getattr(e, "code", None) or ("illegal" if getattr(e, "rule", None) else "bad_message"),
                             _words(hub, e, conn.tr), getattr(e, "rule", None), hub.table.state)


def _words(hub: Hub, e: ConquianError, tr: Translator) -> str:
    """A refusal in the reader's language, the seats named."""
    text = e.render(tr)
    session = hub.table.session
    return session.humanize(text, tr) if session else text


async def _handle(server: Server, hub: Hub, conn: Connection, msg: protocol.ClientMessage) -> None:
    if isinstance(msg, protocol.Ping):
        await conn.send({"type": "pong"})
        return
    if isinstance(msg, protocol.Hello):
        raise ProtocolError("bad_message", Msg("hello is sent once"))
    if isinstance(msg, protocol.Options):
        await conn.send(options_message(hub.table, conn.seat, msg.cards, conn.tr))
        return
    if isinstance(msg, protocol.Chat | protocol.React):
        await _chat(server, hub, conn, msg)
        return
    if isinstance(msg, protocol.Report):
        await server.friends.report_line(hub, conn, msg.line)
        return
    if isinstance(msg, protocol.Block):
        await server.friends.block_line(hub, conn, msg.line)
        return
    if isinstance(msg, protocol.Hint):
        await _hint(server, hub, conn)
        return
    if isinstance(msg, protocol.Mute):
        if not conn.host:
            raise TableError("not_host", Msg("only the host may mute a spectator"))
        # a spectator of this process, or one of another process whose lines were heard here
        target = next((c for c in hub.connections if c.id == msg.spectator and c.seat is None), None)
        address = target.address if target is not None else hub.watching_elsewhere.get(msg.spectator)
        if address is None:
            raise ProtocolError("bad_message", Msg("no spectator {id} watches this table", id=repr(msg.spectator[:20])))
        hub.muted.add(msg.spectator)
        hub.muted_addresses.add(address)
        await server.cluster.publish({"k": "mute", "w": server.worker, "t": hub.table.id, "id": msg.spectator,
                                      "a": address})
        await server.broadcast(hub)
        return
    if isinstance(msg, protocol.Hurry):
        if conn.seat is None and not conn.host:
            raise TableError("not_your_seat", Msg("only a player or the host may hurry the bots"))
        hub.hurry.set()
        return
    if isinstance(msg, protocol.Pace):
        # a table of bots: every other seat played by a bot (not open: a waiting table's lone
        # player is not its host)
        alone = conn.seat is not None and all(s.kind not in (HUMAN, OPEN) for s in hub.table.seats
                                               if s.number != conn.seat)
        if not (conn.host or alone):
            raise TableError("not_host", Msg("only the host, or the one person at a table of bots, "
                                             "sets the bots' pace"))
        async with hub.lock:
            hub.table.pace = float(msg.seconds)
            await run_in_threadpool(server.store.save_settings, hub.table, server.worker)
        hub.hurry.set()  # a shorter pace takes effect now
    elif isinstance(msg, protocol.Away):
        if not conn.host:
            raise TableError("not_host", Msg("only the host may let a bot play for someone away"))
        async with hub.lock:
            hub.table.away_after = msg.seconds
            await run_in_threadpool(server.store.save_settings, hub.table, server.worker)
    elif isinstance(msg, protocol.TurnTimer):
        if not conn.host:
            raise TableError("not_host", Msg("only the host may set the turn timer"))
        seconds = check_turn_timer(msg.seconds, server.settings.turn_timers)
        if hub.table.rated:
            seconds = rated_clock(seconds, server.settings.rated_clock)
        async with hub.lock:
            # the person to act gets the whole time from now
            hub.table.turn_timer, hub.table.turn_since = seconds, time.time()
            await run_in_threadpool(server.store.save_settings, hub.table, server.worker)
    elif isinstance(msg, protocol.Rematch):
        if conn.seat is None and not conn.host:
            raise TableError("not_your_seat", Msg("only a player or the host may ask for a rematch"))
        try:
            await rematch(server, hub)
        except ConquianError:
            raise
        except Exception as e:  # a full disk, a database gone read-only or away
            server.write_failed()
            reason = str(e).splitlines()[0][:150] if str(e) else type(e).__name__
            log.warning("a rematch could not be stored",
                        extra={"event": "store_failed", "table": hub.table.id, "error": reason})
            raise TableError("storage", Msg("the rematch could not be saved; try again")) from None
    else:
        if conn.seat is None:
            raise TableError("not_your_seat", Msg("spectators watch; take a seat to play"))
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


async def _chat(server: Server, hub: Hub, conn: Connection, msg: protocol.Chat | protocol.React) -> None:
    """A chat line or a reaction.  A seated player's goes to everyone at the table; a spectator's
    (or the host's from a tab that holds no seat) to the connections that hold no seat only: never
    to a seated player, the seated host included (no coaching).  The name is the seat's, or the
    spectator's number; the text stays text (the client never reads markup)."""
    if hub.is_muted(conn):
        raise ProtocolError("muted", Msg("the host has muted you: you may still watch"))
    text = protocol.check_chat(msg.text, server.settings.chat_chars) if isinstance(msg, protocol.Chat) else ""
    if not conn.chat.allow(time.monotonic()):
        raise ProtocolError("too_fast", Msg("at most {burst} chat messages at once, then one every {seconds} seconds",
                                            burst=server.settings.chat_burst,
                                            seconds=f"{1 / max(server.settings.chat_per_second, 1e-9):g}"))
    players = conn.seat is not None
    out: dict[str, object] = {
        "type": "chat", "channel": "players" if players else "spectators",
        "seat": conn.seat, "id": conn.id, "line": secrets.token_urlsafe(6), "text": text,
        "reaction": msg.reaction if isinstance(msg, protocol.React) else None, "at": round(time.time(), 3),
    }
    await server.deliver_chat(hub, out, conn.account)
    # the table's connections held by the other processes hear it too (and whose it is, for the blocks)
    # (and, a spectator's, his address: the host on another process may mute him by it)
    await server.cluster.publish({"k": "chat", "w": server.worker, "t": hub.table.id, "m": out}
                                 | ({"a": conn.account} if conn.account else {})
                                 | ({"sa": conn.address} if not players else {}))


async def _hint(server: Server, hub: Hub, conn: Connection) -> None:
    """The terminal game's hint for the seat to act, to it only: the move the review of the
    record would call best (its playouts and the position's seed, in the bots' workers) and the
    live outs with their chance to fill in time, both from the seat's own view."""
    from conquian.web.bots import HINT, bot_job

    t = hub.table
    if t.rated:  # the fair-play rules: no engine help at a rated table (docs/play.md)
        raise TableError("fair_play", NO_HINT)
    if conn.seat is None or t.session is None or t.status != PLAYING:
        raise TableError("not_your_seat", Msg("only a seat in play may ask for a hint"))
    session = t.session
    if session.deal.over or session.deal.to_act != conn.seat:
        raise TableError("not_your_turn", Msg("a hint is for the seat to act"))
    assert server.bots is not None
    state = t.state
    try:
        # worked out once per position, however many connections of the seat ask; in the
        # address's share of the bot workers; the review's choice (asked twice, the same)
        act = await server.bots.hint(bot_job(t, conn.seat, HINT), (t.id, state, conn.seat), f"address {conn.address}")
    except Exception:
        log.exception("a hint failed", extra={"event": "hint_failed", "table": t.id})
        raise TableError("bots_unavailable", Msg("the bots cannot work out a hint just now; try again")) from None
    if t.state != state or t.session is not session:
        raise TableError("stale", Msg("the table moved on while the hint was worked out; ask again"))
    await conn.send(await run_in_threadpool(hint_message, session, conn.seat, act, conn.tr))

