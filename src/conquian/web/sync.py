"""A server process among others sharing the database (:mod:`conquian.web.cluster`): the tables
it holds catch up with what the others stored, and who is connected to each table, and the chat
lines and mutes heard in another process, are told here."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool

from conquian.engine.errors import ConquianError
from conquian.web.cluster import PRESENCE_TTL
from conquian.web.hub import ELSEWHERE_KEPT, Hub

if TYPE_CHECKING:
    from conquian.web.server import Server

log = logging.getLogger("conquian.web")
#: How often a table's catch-up after the notifications came back is tried (:meth:`Sync.resync`),
#: and the first pause between two tries (doubled each time, 5 s at most).
RESYNC_TRIES, RESYNC_PAUSE = 8, 0.2


class Sync:
    """What one server process hears from the others, and tells them."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.presence: dict[str, dict[str, tuple[dict[int, int], float]]] = {}
        """Other processes' connections per table: table -> process -> (seat -> count, when told)."""

    async def catch_up(self, hub: Hub, notice: dict[str, Any] | None = None) -> None:
        """Take what other processes stored for the table (a notification came), and tell this
        process's connections.  A move's notification carries its commands: when they follow
        the state this process has, they are applied without reading the database."""
        if notice is not None and await self._apply_notice(hub, notice):
            await self.server.broadcast(hub)
            self.server.schedule(hub)
            return
        async with hub.lock:
            before = (hub.table.state, [(s.kind, s.token_hash) for s in hub.table.seats], hub.table.away_after,
                      hub.table.rematch_id, hub.table.pace, hub.table.turn_timer)
            changes = await run_in_threadpool(self.server.store.changes, hub.table.id, hub.table.state)
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
                await self.server.reload(hub)
            after = (hub.table.state, [(s.kind, s.token_hash) for s in hub.table.seats], hub.table.away_after,
                     hub.table.rematch_id, hub.table.pace, hub.table.turn_timer)
        if after != before:
            await self.server.broadcast(hub)
            self.server.schedule(hub)

    async def resync(self) -> None:
        """After the listening connection was (re)opened: catch up every table this process
        holds from the database (what was stored meanwhile was never told here), and tell
        their pages.  A table whose catch-up fails (after the database came back, the first use
        of each old connection of the pool fails) is tried again, :data:`RESYNC_TRIES` times,
        so no page stays behind a move stored while the notifications were lost."""
        pending = list(self.server.hubs.values())
        pause = RESYNC_PAUSE
        for _ in range(RESYNC_TRIES):
            done = await asyncio.gather(*(self.catch_up(hub) for hub in pending), return_exceptions=True)
            failed = [(hub, e) for hub, e in zip(pending, done, strict=True) if isinstance(e, Exception)]
            pending = [hub for hub, _ in failed if self.server.hubs.get(hub.table.id) is hub]
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
                await self.server.reload(hub)
        return True

    async def on_notice(self, payload: dict[str, Any]) -> None:
        """A notification from the database: another process changed a table, or told who is
        connected to it; ``resync`` after the listening connection was (re)opened."""
        kind = payload.get("k")
        if kind == "resync":
            self.server.spawn(self.resync())
        elif kind == "presence":
            self._presence_message(payload)
        elif kind == "block":
            self.server.friends.on_notice(payload)
        elif kind in ("chat", "mute") and payload.get("w") != self.server.worker:
            self._chat_notice(payload)
        elif kind in ("move", "seats", "settings") and payload.get("w") != self.server.worker:
            hub = self.server.hubs.get(str(payload.get("t")))
            state = payload.get("s")
            if hub is not None and not (kind == "move" and isinstance(state, int) and state <= hub.stored):
                self.server.spawn(self.catch_up(hub, payload if kind == "move" else None))

    def _presence_message(self, payload: dict[str, Any]) -> None:
        worker, tables = payload.get("w"), payload.get("p")
        if worker == self.server.worker or not isinstance(worker, str) or not isinstance(tables, dict):
            return
        now = time.time()
        for table_id, counts in tables.items():
            try:
                seats = {int(k): int(v) for k, v in counts.items()}
            except (AttributeError, TypeError, ValueError):
                continue
            self.presence.setdefault(str(table_id), {})[worker] = (seats, now)
            hub = self.server.hubs.get(str(table_id))
            if hub is not None:
                self.apply_presence(hub, now)

    def apply_presence(self, hub: Hub, now: float | None = None) -> None:
        now = now if now is not None else time.time()
        entries = self.presence.get(hub.table.id, {})
        for w in [w for w, (_, when) in entries.items() if now - when > PRESENCE_TTL]:
            del entries[w]
        before = [s.present for s in hub.table.seats]
        for seat in hub.table.seats:
            hub.table.connected_elsewhere(seat.number, sum(c.get(seat.number, 0) for c, _ in entries.values()), now)
        if before != [s.present for s in hub.table.seats]:
            self.server.schedule(hub)  # someone away: the expert may play for him after the host's delay

    def local_presence(self, hub: Hub) -> dict[str, int]:
        """This process's connections to each seat of the table."""
        return {str(s.number): s.connected for s in hub.table.seats if s.connected}

    async def tell_presence(self, hub: Hub) -> None:
        """Tell the other processes who is connected here (a connection opened or closed)."""
        if self.server.cluster.shared:
            await self.server.cluster.publish({"k": "presence", "w": self.server.worker,
                                        "p": {hub.table.id: self.local_presence(hub)}})

    def _chat_notice(self, payload: dict[str, Any]) -> None:
        """A chat line, reaction or mute from another process: told to this process's connections."""
        hub = self.server.hubs.get(str(payload.get("t")))
        if payload.get("k") == "mute":
            ids, addresses = self.server.mutes_of(str(payload.get("t")))
            if isinstance(payload.get("id"), str) and isinstance(payload.get("a"), str):
                ids.add(payload["id"])
                addresses.add(payload["a"])
                if hub is not None:
                    self.server.spawn(self.server.broadcast(hub))
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
        sender = payload["a"] if isinstance(payload.get("a"), str) else None
        self.server.spawn(self.server.deliver_chat(hub, out, sender))
