"""What every answer of ``conquian serve`` carries and checks before the application sees a
request: the ``Host`` header against the server's own names (a page of another site reaching a
server on this machine through a name it controls, "DNS rebinding", is refused), and headers that
keep the pages from being framed, sniffed or told where a link came from.

```pycon
>>> allowed_hosts("127.0.0.1", ())
('127.0.0.1', 'localhost', '[::1]')
>>> check = HostNames(allowed_hosts("0.0.0.0", ("cards.example",)))
>>> [check.allows(h) for h in ("cards.example:443", "CARDS.example", "[::1]:8000", "evil.example", "")]
[True, True, True, False, False]

```
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Sequence

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from conquian.i18n import Msg

#: The names a server answers to whatever it listens on: the loopback names (a page can reach
#: them only from this machine, where a name can never be rebound to them by another site).
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
#: The addresses that mean "every interface": listening there, the server cannot know the names
#: people reach it by, so ``--allowed-host`` must say them (or ``*``: any).
WILDCARD_BINDS = ("0.0.0.0", "::", "")
#: Files the pages load, and where they connect: the server's own origin only (no inline script
#: or style, no plugin, no frame of these pages on any site).  ``{wasm}``: WebAssembly compiled
#: from the server's own files, on the offline app's paths only (:data:`WASM_PATHS`: its engine, Pyodide).
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'{wasm}; style-src 'self'; "
                           "img-src 'self' data:; "
                           "connect-src 'self'{ws}; object-src 'none'; base-uri 'none'; form-action 'self'; "
                           "frame-ancestors 'none'")
#: The paths under which the offline app runs its engine in WebAssembly (its page, its worker):
#: the one place the policy allows ``'wasm-unsafe-eval'``.
WASM_PATHS = "/offline"
#: Headers on every HTTP answer besides the policy.  ``no-referrer``: a seat's link carries its
#: token (after ``#``, which browsers never send, but nothing of a table's address need leave).
HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


def host_name(header: str) -> str:
    """The name in a ``Host`` header, lower case, without its port (``[::1]:8000`` is ``[::1]``)."""
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        return header[:end + 1] if end > 0 else ""
    return header.split(":", 1)[0].rstrip(".")


def allowed_hosts(bind: str, names: Sequence[str]) -> tuple[str, ...]:
    """The ``Host`` names a server listening on ``bind`` answers to: the address it listens on,
    the loopback names, and ``names`` (``*``: any name; ``*.example.org``: its subdomains)."""
    out: list[str] = []
    bind = f"[{bind}]" if ":" in bind and not bind.startswith("[") else bind
    for name in (bind if bind.strip("[]") not in WILDCARD_BINDS else "", *LOOPBACK, *names):
        name = name if name == "*" or name.startswith("*.") else host_name(name)
        if name and name not in out:
            out.append(name.lower())
    return tuple(out)


def needs_names(bind: str, names: Sequence[str]) -> bool:
    """Whether a server listening on ``bind`` must be told its names (it listens on every
    interface and no ``--allowed-host`` was given)."""
    return bind.strip("[]") in WILDCARD_BINDS and not names


def _error(code: str, message: Msg, scope: Scope | None = None) -> bytes:
    """A refusal as the API's JSON error, its words in the request's language (``?lang=``, else
    its ``Accept-Language``)."""
    from urllib.parse import parse_qs

    from conquian.web.lang import reader

    scope = scope or {}
    query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [None])[0]
    accept = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"accept-language"), None)
    text = reader(query, accept).render(message)
    return json.dumps({"error": {"code": code, "rule": None, "message": text}}).encode()


#: Paths served whatever the ``Host``: a load balancer checks each machine by its address (or,
#: in HTTP/1.0, with no ``Host`` at all), and ``/health`` tells the public only ok or not ok.
ANY_HOST_PATHS = frozenset({"/health"})


class HostNames:
    """The names a server answers to (``*``: any; ``*.example.org``: its subdomains)."""

    def __init__(self, allowed: Sequence[str]) -> None:
        self.any = "*" in allowed
        self.names = frozenset(a for a in allowed if not a.startswith("*"))
        self.suffixes = tuple(a[1:] for a in allowed if a.startswith("*."))

    def allows(self, header: str) -> bool:
        """Whether a request with this ``Host`` header is served."""
        if self.any:
            return True
        name = host_name(header)
        return bool(name) and (name in self.names or name.endswith(self.suffixes))


class HostCheck:
    """ASGI middleware: a request whose ``Host`` is not one of ``allowed`` is answered ``400``
    (HTTP, the protocol's JSON error) or refused before its WebSocket opens (``403``); paths of
    :data:`ANY_HOST_PATHS` excepted.  (Starlette's ``TrustedHostMiddleware`` would cut
    ``[::1]:8000`` at its first colon and answer in plain text.)"""

    def __init__(self, app: ASGIApp, allowed: Sequence[str]) -> None:
        self.app = app
        self.hosts = HostNames(allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self.hosts.any or scope.get("path") in ANY_HOST_PATHS:
            await self.app(scope, receive, send)
            return
        header = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"), "")
        if self.hosts.allows(header):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "host not allowed"})
            return
        body = _error("bad_host", Msg("this server does not answer to that name (its names: conquian serve "
                                      "--allowed-host)"), scope)
        await send({"type": "http.response.start", "status": 400, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


class SecurityHeaders:
    """ASGI middleware: every HTTP answer carries :data:`CONTENT_SECURITY_POLICY` (its WebSocket
    connections to the request's own host; WebAssembly under :data:`WASM_PATHS` only) and
    :data:`HEADERS`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"), "")
        # the Host header was checked (HostCheck) before: a name, maybe a port, nothing else
        ws = f" ws://{host} wss://{host}" if host and all(c.isalnum() or c in ".-:[]" for c in host) else ""
        path = str(scope.get("path", ""))
        wasm = " 'wasm-unsafe-eval'" if path == WASM_PATHS or path.startswith(WASM_PATHS + "/") else ""
        policy = CONTENT_SECURITY_POLICY.format(ws=ws, wasm=wasm).encode()

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", ())
                           if k.lower() not in (b"content-security-policy", *(h for h, _ in HEADERS))]
                message = dict(message, headers=[*headers, (b"content-security-policy", policy), *HEADERS])
            await send(message)

        await self.app(scope, receive, sending)


def is_json(content_type: str | None) -> bool:
    """Whether a request's ``Content-Type`` says JSON (``application/json``, any parameters): the
    API reads no other body, so a form or ``text/plain`` post of another site (sent without the
    browser asking first) is refused unread."""
    return (content_type or "").split(";", 1)[0].strip().lower() == "application/json"


def presents_token(authorization: str | None, token: str | None) -> bool:
    """Whether a request's ``Authorization`` header is ``Bearer TOKEN`` with the operator's token
    (``serve --health-token``); never without a token set."""
    if not token or not authorization:
        return False
    scheme, _, given = authorization.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())
