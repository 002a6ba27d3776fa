"""A table in a server process's memory (:class:`Hub`) with its open WebSockets (:class:`Connection`),
what each connection is sent of it (:func:`snapshot`), and the log line of a move."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

from conquian.i18n import ENGLISH, Msg, Translator
from conquian.session import HUMAN
from conquian.web import protocol
from conquian.web.limits import CHAT_BURST, CHAT_PER_SECOND
from conquian.web.protocol import RateLimit
from conquian.web.snapshot import table_snapshot
from conquian.web.table import OPEN, Table

log = logging.getLogger("conquian.web")
#: Spectators of other processes a table remembers (:attr:`Hub.watching_elsewhere`).
ELSEWHERE_KEPT = 200


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
    """The signed-in account (its cookie), the accounts it does not read, its reports
    (:mod:`~conquian.web.platform.friends`)."""
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
