"""Structured logs of the web server: a line per request and per move, as JSON or ``key=value``.

Fields come from a fixed list (:data:`FIELDS`), so nothing a log call did not mean to show is
written; no call is ever given a seat's token (tokens travel only inside WebSocket hellos and
request bodies, which are never logged, and in URL fragments, which browsers never send).

```pycon
>>> import logging
>>> record = logging.LogRecord("conquian.web", logging.INFO, "", 0, "move", None, None)
>>> record.table, record.state, record.seat = "x1", 7, 2
>>> JsonFormatter().format(record).split(",", 1)[1]
'"level":"info","logger":"conquian.web","msg":"move","table":"x1","state":7,"seat":2}'

```
"""

from __future__ import annotations

import json
import logging
import sys
import time
import unicodedata
from typing import Any

#: The extra fields a log line may carry, in the order they are written.
FIELDS = ("event", "worker", "table", "state", "seat", "by", "command", "method", "path", "status", "ms",
          "client", "code", "error", "tables", "count")


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    return {k: getattr(record, k) for k in FIELDS if getattr(record, k, None) is not None}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, msg, then the fields."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(), "logger": record.name, "msg": record.getMessage(),
        }
        out.update(_fields(record))
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, separators=(",", ":"), default=str)


#: Characters written as escapes in a text log: controls (a line break, NUL, ESC), format
#: characters (bidi overrides), separators of lines and paragraphs, and what is not a character.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\", '"': '\\"'}


def escape(text: str, quote: bool = False) -> str:
    r"""``text`` with every control or format character written as an escape (``\n``, ``\x00``,
    ``\u202e``) and backslashes doubled, so what a client sent can never start a line or hide
    part of one; ``quote``: in double quotes (quotes escaped) if it holds a space, ``=`` or ``"``,
    or is empty, so it can never pass for another ``key=value`` field.

    >>> print(escape("/x\nmove table=a1"), escape("/x move", quote=True), escape("p2 pass", quote=True))
    /x\nmove table=a1 "/x move" "p2 pass"
    """
    out = []
    for ch in text:
        if ch in _SHORT and (quote or ch != '"'):
            out.append(_SHORT[ch])
        elif unicodedata.category(ch) in _HIDDEN:
            n = ord(ch)
            out.append(f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}")
        else:
            out.append(ch)
    escaped = "".join(out)
    if quote and (not text or any(c.isspace() or c in '="' for c in text)):
        return f'"{escaped}"'
    return escaped


class TextFormatter(logging.Formatter):
    """``time level logger: message key=value ...`` for a person reading a terminal: one event,
    one line (every part escaped, :func:`escape`; an exception's traceback as the field
    ``exception``)."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        record.message = record.getMessage()
        record.asctime = self.formatTime(record, self.datefmt)
        line = f"{record.asctime} {escape(record.levelname)} {escape(record.name)}: {escape(record.message)}"
        fields = {k: str(v) for k, v in _fields(record).items()}
        if record.exc_info:
            fields["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            fields["exception"] = record.exc_text
        if record.stack_info:
            fields["stack"] = self.formatStack(record.stack_info)
        extra = " ".join(f"{k}={escape(v, quote=True)}" for k, v in fields.items())
        return f"{line} {extra}" if extra else line


def configure(level: str = "info", fmt: str = "text") -> None:
    """Send every log line to standard error, as ``fmt`` (``text`` or ``json``) says."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    root.addHandler(handler)
    root.setLevel(level.upper())
    # uvicorn's own lines go through the same handler; its access log is replaced by ours
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        lg = logging.getLogger(name)
        lg.handlers.clear()
        lg.propagate = True
    logging.getLogger("uvicorn.access").disabled = True
    error_log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _ClientFault) for f in error_log.filters):
        error_log.addFilter(_ClientFault())


class _ClientFault(logging.Filter):
    """A WebSocket text frame that is not UTF-8 is the client's fault, not the server's: uvicorn
    closes it (1007) and logs an error with a traceback; it is logged as a warning, without one."""

    def filter(self, record: logging.LogRecord) -> bool:
        if str(record.msg).startswith("Invalid UTF-8 sequence received from client"):
            record.levelno, record.levelname, record.exc_info, record.exc_text = logging.WARNING, "WARNING", None, None
        return True


class AccessLog:
    """ASGI middleware: a line per HTTP request (method, path without its query, status,
    milliseconds, client address)."""

    def __init__(self, app: Any, logger: logging.Logger | None = None) -> None:
        self.app = app
        self.log = logger or logging.getLogger("conquian.web.access")

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def sending(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            client = scope.get("client")
            self.log.info("request", extra={
                "event": "request", "method": scope.get("method"), "path": scope.get("path", "")[:200],
                "status": status, "ms": round((time.perf_counter() - start) * 1000, 1),
                "client": client[0] if client else None})
