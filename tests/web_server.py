"""Helpers for the web tests: ``conquian serve`` as a real process on 127.0.0.1, and a client."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from conquian.web.protocol import RATE_BURST, RATE_PER_SECOND


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: The token the test servers show /health's detail to (``serve --health-token``).
HEALTH_TOKEN = "test-health-token"


class Server:
    """``conquian serve`` in a child process (its output in ``log``); ``preexec`` runs in the
    child before it starts (a resource limit, say)."""

    #: The tests open many tables and connections from 127.0.0.1: limits per address far above them.
    LOOSE = ("--tables-per-minute", "10000", "--connections-per-address", "10000", "--messages-per-address", "10000",
             "--lobby-per-address", "10000", "--replays-per-minute", "10000", "--learn-per-minute", "10000",
             "--accounts-per-hour", "10000", "--account-requests-per-minute", "10000")

    @classmethod
    def loose_except(cls, *flags: str) -> tuple[str, ...]:
        """The loose limits without ``flags``, which keep the server's defaults (by name, not position)."""
        unknown = set(flags) - set(cls.LOOSE[::2])
        assert not unknown, f"not a loose limit: {unknown}"
        pairs = zip(cls.LOOSE[::2], cls.LOOSE[1::2], strict=True)
        return tuple(part for flag, value in pairs if flag not in flags for part in (flag, value))

    def __init__(self, db: str, tmp: Path, bot_delay: float = 0.0, port: int | None = None,
                 extra: tuple[str, ...] = ("--log-level", "warning"), limits: tuple[str, ...] = LOOSE,
                 preexec: Callable[[], None] | None = None, answer_step: float = 0.0, bot_workers: int = 1) -> None:
        self.db, self.tmp, self.bot_delay, self.extra = db, tmp, bot_delay, extra
        self.answer_step, self.bot_workers = answer_step, bot_workers
        self.limits, self.preexec = limits, preexec
        self.chosen = port is None  # a free port picked here (another may be picked if it is taken)
        self.proc: subprocess.Popen[bytes] | None = None
        self._listen_on(port or free_port())

    def _listen_on(self, port: int) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = self.tmp / f"server-{self.port}.log"

    def start(self) -> Server:
        """Start the server and wait until it answers.  A free port is free only when it is picked:
        the tests run in parallel processes, and another process's server, database or client may
        take it before this one binds it; then another port is picked (a port given is kept)."""
        for _ in range(5):
            if self._start_once():
                return self
            if not (self.chosen and self._port_was_taken()):
                break
            self._listen_on(free_port())
        raise RuntimeError("the server did not start: " + self.log.read_text(errors="replace")[-2000:])

    def _port_was_taken(self) -> bool:
        return "address already in use" in self.log.read_text(errors="replace")

    def _answers(self) -> bool:
        """Whether this server (not another process's on the same port) answers ``/health``: the
        process that answers is in this server's process group (its own, or one of its workers)."""
        assert self.proc is not None
        try:
            r = httpx.get(self.url + "/health", headers={"Authorization": f"Bearer {HEALTH_TOKEN}"}, timeout=1)
        except httpx.HTTPError:
            return False
        if r.status_code != 200:
            return False
        pid = r.json().get("pid")
        try:
            return pid is None or os.getpgid(int(pid)) == self.proc.pid
        except ProcessLookupError:
            return False

    def _start_once(self) -> bool:
        env = dict(os.environ, CONQUIAN_DATA=str(self.tmp))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "conquian", "serve", "--port", str(self.port), "--db", self.db,
             "--bot-delay", str(self.bot_delay), "--bot-workers", str(self.bot_workers),
             # the tests' bots answer at once (the server's default keeps their thinking time hidden)
             "--bot-answer-step", str(self.answer_step), "--health-token", HEALTH_TOKEN, *self.limits,
             *self.extra],
            stdout=self.log.open("ab"), stderr=subprocess.STDOUT, env=env, start_new_session=True,
            preexec_fn=self.preexec)
        for _ in range(200):
            if self._answers():
                return True
            if self.proc.poll() is not None:
                return False
            time.sleep(0.1)
        return False

    def kill(self) -> None:
        """SIGKILL to the server and its bot workers at once (a machine lost): no shutdown, no flush."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if self.proc:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)  # whatever of its bot workers is left

    def post(self, path: str, body: Any) -> httpx.Response:
        return httpx.post(self.url + path, json=body, timeout=10)

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.url + path, timeout=10)

    def health(self) -> dict[str, Any]:
        """/health with its detail (the operator's token)."""
        return dict(httpx.get(self.url + "/health", headers={"Authorization": f"Bearer {HEALTH_TOKEN}"},
                              timeout=10).json())

    def create(self, **spec: Any) -> dict[str, Any]:
        r = self.post("/api/tables", spec)
        assert r.status_code == 201, r.text
        return dict(r.json())


class Client:
    """A WebSocket client of one table: ``table`` is the newest snapshot received."""

    def __init__(self, server: Server, table_id: str, token: str | None = None, host: str | None = None,
                 origin: str | None = None, cookie: str | None = None) -> None:
        headers = ({"Origin": origin} if origin else {}) | ({"Cookie": cookie} if cookie else {})
        self._cm = connect(f"ws://127.0.0.1:{server.port}/ws/{table_id}", additional_headers=headers or None,
                           open_timeout=10)
        self.ws: ClientConnection = self._cm.__enter__()
        self.token = token
        self.table: dict[str, Any] = {}
        self.errors: list[dict[str, Any]] = []
        self.other: list[dict[str, Any]] = []
        self.send({"type": "hello", "v": 1, "token": token, "host": host})
        self.welcome = self.wait(lambda m: m["type"] == "welcome")
        self.wait_table(lambda t: True)

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        m: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if m["type"] == "table":
            self.table = m["table"]
        elif m["type"] == "presence" and self.table:
            self.table = dict(self.table, spectators=m["spectators"],
                              seats=[dict(s, connected=c) for s, c in zip(self.table["seats"], m["connected"],
                                                                          strict=True)])
            self.other.append(m)
        elif m["type"] == "error":
            self.errors.append(m)
        else:
            self.other.append(m)
        return m

    def wait(self, pred: Any, timeout: float = 20) -> dict[str, Any]:
        end = time.time() + timeout
        while True:
            m = self.recv(max(0.01, end - time.time()))
            if pred(m):
                return m

    def wait_table(self, pred: Any, timeout: float = 30) -> dict[str, Any]:
        if self.table and pred(self.table):
            return self.table
        return self.wait(lambda m: m["type"] == "table" and pred(m["table"]), timeout)["table"]

    def error(self, timeout: float = 10) -> dict[str, Any]:
        return self.wait(lambda m: m["type"] == "error", timeout)

    def act(self, words: str, state: int | None = None) -> None:
        self.pace()
        self.send({"type": "act", "state": self.table["state"] if state is None else state, "action": words})

    def pace(self) -> None:
        """Moves no faster than the server takes them from one connection (its bucket: 10 a
        second in bursts of 30, ``protocol.RATE_PER_SECOND``/``RATE_BURST``), kept with a margin
        for the other messages a test sends.  A whole deal played at socket speed ran past the
        burst, and the move refused as too_fast left the test waiting for a state that never came
        (one CI run in several, as a deal's length varies with its random deck)."""
        now = time.monotonic()
        rate, burst = RATE_PER_SECOND - 1, RATE_BURST - 6
        tokens = min(burst, getattr(self, "_tokens", burst) + (now - getattr(self, "_paced", now)) * rate)
        if tokens < 1:
            time.sleep((1 - tokens) / rate)
            tokens, now = 1.0, time.monotonic()
        self._tokens, self._paced = tokens - 1, now

    def close(self) -> None:
        self._cm.__exit__(None, None, None)
