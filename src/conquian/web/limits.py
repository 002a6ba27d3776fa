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
#: Records, replays or reviews made for one address a minute, on average...
HEAVY_PER_MINUTE = 30.0
#: ...and how many it may have made at once.
HEAVY_BURST = 6
#: Learn requests (lessons, puzzles: each replays a position with the engine) one address may
#: make a minute on average (``--learn-per-minute``)...
LEARN_PER_MINUTE = 120.0
#: ...and how many at once, at least (:func:`learn_burst`).
LEARN_BURST = 20
#: Bytes a request's line and headers may hold (docs/deployment.md), and headers it may have.
MAX_HEAD_BYTES = 16 * 1024
MAX_HEADER_LINES = 100
#: Seconds a client has to send a whole HTTP request (headers and body) once it began it.
REQUEST_TIMEOUT = 10.0


def learn_burst(per_minute: float) -> int:
    """The Learn requests an address may make at once: ten seconds' worth, at least :data:`LEARN_BURST`.

    >>> learn_burst(LEARN_PER_MINUTE), learn_burst(30), learn_burst(600)
    (20, 20, 100)
    """
    return max(LEARN_BURST, round(per_minute / 6))


@dataclass
class _Address:
    connections: int = 0
    messages: RateLimit | None = None
    tables: RateLimit | None = None
    heavy: RateLimit | None = None
    learn: RateLimit | None = None
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

    def heavy(self, address: str, now: float, per_minute: float = HEAVY_PER_MINUTE) -> bool:
        """Whether ``address`` may have one more record, replay or review made now (``per_minute``
        on average, in bursts of :data:`HEAVY_BURST`; what is made already is not counted)."""
        a = self._get(address)
        if a.heavy is None:
            a.heavy = RateLimit(per_minute / 60, HEAVY_BURST)
        return a.heavy.allow(now)

    def learn(self, address: str, now: float, per_minute: float = LEARN_PER_MINUTE) -> bool:
        """Whether ``address`` may make one more Learn request now (a lesson's step, a puzzle, their
        lists): ``per_minute`` on average, in bursts of :func:`learn_burst`."""
        a = self._get(address)
        if a.learn is None:
            a.learn = RateLimit(per_minute / 60, learn_burst(per_minute))
        return a.learn.allow(now)

    def forget(self, idle: float = 600.0) -> None:
        """Let go of addresses with no connection, unused for ``idle`` seconds (their buckets
        have long been full again)."""
        now = time.monotonic()
        for address in [k for k, a in self.addresses.items() if not a.connections and now - a.used > idle]:
            del self.addresses[address]


def client_address(scope_client: Any) -> str:
    """The client address of a request or WebSocket (``request.client``)."""
    return str(scope_client.host) if scope_client is not None and scope_client.host else "unknown"


# ---------------------------------------------------------------------------- open files
#: File descriptors a process keeps for itself beyond its connections (the database, the
#: workers' pipes, the logs).
FD_HEADROOM = 100


def raise_open_files() -> int:
    """Raise this process's soft limit of open files to its hard limit (where allowed), and
    return the soft limit now in force."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return int(soft if soft != resource.RLIM_INFINITY else 1 << 20)


def connection_budget(max_connections: int, open_files: int) -> tuple[int, int]:
    """The connections a process takes (uvicorn's ``limit_concurrency``), under its open-file
    limit with :data:`FD_HEADROOM` to spare, and the WebSockets among them: a tenth (at least
    ten) is kept for HTTP requests, so ``/health`` and the lobby answer however many sockets
    are open.

    >>> connection_budget(2000, 1024), connection_budget(2000, 65536), connection_budget(60, 65536)
    ((924, 832), (2000, 1800), (60, 50))
    """
    total = max(20, min(max_connections, open_files - FD_HEADROOM))
    return total, total - max(10, total // 10)


# ---------------------------------------------------------------------------- slow clients
class DeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 HTTP protocol with a deadline: a client that has opened a connection or
    begun a request and not sent all of it, headers and body, within :attr:`timeout` seconds is
    cut off.  uvicorn's own keep-alive timer starts again at every byte, so without this a
    client sending a byte now and then would be held for ever."""

    timeout: ClassVar[float] = REQUEST_TIMEOUT
    """Seconds (set once per process, by :func:`deadline_protocol`)."""
    _deadline: asyncio.TimerHandle | None = None
    _head: bytes = b""
    """The request's head received so far (until it is whole)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override, unused-ignore]
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
        became a WebSocket), and starts with the first bytes of the next request.  A request's
        head (its line and headers) is at most :data:`MAX_HEAD_BYTES` bytes and
        :data:`MAX_HEADER_LINES` headers, however it comes (in one piece or many): a larger one is
        answered 431 and the connection closed."""
        if self.transport.get_protocol() is self and self.conn.their_state is h11.IDLE:
            head = self._head + data
            end = head.find(b"\r\n\r\n")
            size = len(head) if end < 0 else end + 4
            if size > MAX_HEAD_BYTES or head.count(b"\n", 0, size) > MAX_HEADER_LINES + 2:
                self._head = b""
                self._disarm()
                body = b"the request's headers are too large\n"
                self.transport.write(b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                                     b"content-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
                                     b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
                self.transport.close()
                return
            self._head = b"" if end >= 0 else head
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


def lock_database(path: Path) -> IO[bytes]:
    """Take an exclusive ``flock`` on the database file itself (made empty if there is none:
    SQLite takes an empty file as a new database) for as long as the returned file stays open
    (until the process ends); :class:`DatabaseInUse` if another process holds it.  The lock is
    on the file, not its name: another path to it (a hard link, a symbolic link, ``../``)
    finds it taken.  Two servers on one SQLite file would each keep tables in memory and
    disagree about them.  (SQLite's own locks are ``fcntl`` locks, which a ``flock`` does not
    touch on Linux.)  The holder's pid is written beside it, in ``<path>.lock``, to be named."""
    import fcntl

    f = open(path, "ab")  # noqa: SIM115 - held open for the process's life
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        pid = ""
        with contextlib.suppress(OSError):
            pid = path.with_name(path.name + ".lock").read_text(encoding="ascii")[:20].strip()
        raise DatabaseInUse(path, pid) from None
    with contextlib.suppress(OSError):
        path.with_name(path.name + ".lock").write_text(f"{os.getpid()}\n", encoding="ascii")
    return f


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite database URL (None: not SQLite, or in memory)."""
    from sqlalchemy.engine import make_url

    with contextlib.suppress(Exception):
        u = make_url(url)
        if u.get_backend_name() == "sqlite" and u.database and u.database != ":memory:":
            return Path(u.database).resolve()
    return None
