"""What one client may take of the server: connections, messages and new tables per client
address, a deadline for each HTTP request, and one ``conquian serve`` per SQLite database.

The *client address* is the socket's peer, or, behind a proxy the server is told to trust
(uvicorn's ``forwarded_allow_ips``), the address the proxy forwards.

```pycon
>>> limits = AddressLimits(connections=2, messages_per_second=1, tables_per_minute=60)
>>> limits.connect("10.0.0.1"), limits.connect("10.0.0.1"), limits.connect("10.0.0.1")
(True, True, False)
>>> limits.disconnect("10.0.0.1"); limits.connect("10.0.0.1")
True
>>> limits.connect("10.0.0.2")
True

```
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from conquian.web.protocol import RateLimit

#: Characters a chat line may hold (after trimming).
CHAT_CHARS = 200
#: Chat lines and reactions one connection may send a second on average, and in a burst.
CHAT_PER_SECOND = 1.0
CHAT_BURST = 3
#: Seconds a client has to send a whole HTTP request (headers and body) once it began it.
REQUEST_TIMEOUT = 10.0


@dataclass
class _Address:
    connections: int = 0
    messages: RateLimit | None = None
    tables: RateLimit | None = None
    used: float = field(default_factory=time.monotonic)


class AddressLimits:
    """Per client address: at most ``connections`` open WebSockets, ``messages_per_second``
    messages across all of them (bursts of three seconds' worth), ``tables_per_minute`` new
    tables (bursts of at least five)."""

    def __init__(self, connections: int = 20, messages_per_second: float = 20.0,
                 tables_per_minute: float = 3.0) -> None:
        self.connections = connections
        self.messages_per_second = messages_per_second
        self.tables_per_minute = tables_per_minute
        self.addresses: dict[str, _Address] = {}

    def _get(self, address: str) -> _Address:
        a = self.addresses.get(address)
        if a is None:
            a = self.addresses[address] = _Address()
        a.used = time.monotonic()
        return a

    def connect(self, address: str) -> bool:
        """One more connection from ``address``, if it has fewer than the limit."""
        a = self._get(address)
        if a.connections >= self.connections:
            return False
        a.connections += 1
        return True

    def disconnect(self, address: str) -> None:
        """A connection from ``address`` closed."""
        a = self._get(address)
        a.connections = max(0, a.connections - 1)

    def message(self, address: str, now: float) -> bool:
        """Whether one more message from ``address`` may pass now."""
        a = self._get(address)
        if a.messages is None:
            a.messages = RateLimit(self.messages_per_second, max(1, round(self.messages_per_second * 3)))
        return a.messages.allow(now)

    def new_table(self, address: str, now: float) -> bool:
        """Whether ``address`` may make one more table now."""
        a = self._get(address)
        if a.tables is None:
            a.tables = RateLimit(self.tables_per_minute / 60, max(5, round(self.tables_per_minute)))
        return a.tables.allow(now)

    def forget(self, idle: float = 600.0) -> None:
        """Let go of addresses with no connection, unused for ``idle`` seconds (their buckets
        have long been full again)."""
        now = time.monotonic()
        for address in [k for k, a in self.addresses.items() if not a.connections and now - a.used > idle]:
            del self.addresses[address]


def client_address(scope_client: Any) -> str:
    """The client address of a request or WebSocket (``request.client``)."""
    return str(scope_client.host) if scope_client is not None and scope_client.host else "unknown"


# ---------------------------------------------------------------------------- slow clients
class DeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 HTTP protocol with a deadline: a client that has opened a connection or
    begun a request and not sent all of it, headers and body, within :attr:`timeout` seconds is
    cut off.  uvicorn's own keep-alive timer starts again at every byte, so without this a
    client sending a byte now and then would be held for ever."""

    timeout: ClassVar[float] = REQUEST_TIMEOUT
    """Seconds (set once per process, by :func:`deadline_protocol`)."""
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """The connection opened: its first request has :attr:`timeout` seconds."""
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(type(self).timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def data_received(self, data: bytes) -> None:
        """Bytes came: the deadline stops once the request is all there (or the connection
        became a WebSocket), and starts with the first bytes of the next request."""
        super().data_received(data)
        if self.transport.get_protocol() is not self or self.conn.their_state in (h11.DONE, h11.CLOSED,
                                                                                  h11.MUST_CLOSE, h11.ERROR):
            self._disarm()
        else:
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection closed."""
        self._disarm()
        super().connection_lost(exc)

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport.get_protocol() is self and not self.transport.is_closing():
            self.transport.close()


def deadline_protocol(timeout: float = REQUEST_TIMEOUT) -> type[DeadlineH11Protocol]:
    """:class:`DeadlineH11Protocol` with ``timeout`` seconds, for uvicorn's ``http``."""
    DeadlineH11Protocol.timeout = timeout
    return DeadlineH11Protocol


# ---------------------------------------------------------------------------- one server per file
class DatabaseInUse(Exception):
    """Another ``conquian serve`` holds the SQLite database (``pid``: its process, if known)."""

    def __init__(self, path: Path, pid: str) -> None:
        self.path, self.pid = path, pid
        super().__init__(f"the database {path} is in use by another conquian serve (pid {pid or 'unknown'}); "
                         "stop it, or share tables between processes with PostgreSQL")


def lock_database(path: Path) -> IO[str]:
    """Take ``<path>.lock`` (an exclusive ``flock``, the holder's pid written in it) for as long as
    the returned file stays open (until the process ends); :class:`DatabaseInUse` if another
    process holds it.  Two servers on one SQLite file would each keep tables in memory and
    disagree about them."""
    import fcntl

    lock_path = path.with_name(path.name + ".lock")
    f = open(lock_path, "a+", encoding="ascii")  # noqa: SIM115 - held open for the process's life
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        pid = f.read(20).strip()
        f.close()
        raise DatabaseInUse(path, pid) from None
    f.seek(0)
    f.truncate()
    f.write(f"{os.getpid()}\n")
    f.flush()
    return f


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite database URL (None: not SQLite, or in memory)."""
    from sqlalchemy.engine import make_url

    with contextlib.suppress(Exception):
        u = make_url(url)
        if u.get_backend_name() == "sqlite" and u.database and u.database != ":memory:":
            return Path(u.database).resolve()
    return None
