"""The ASGI application of ``conquian serve`` (Starlette): :func:`build_app` assembles the
server (:mod:`~conquian.web.server`), the HTTP endpoints (:mod:`~conquian.web.routes`), the
WebSocket endpoint (:mod:`~conquian.web.sockets`), the static files, the middleware and the
lifespan; :func:`app_from_environment` builds it in each process of ``conquian serve --workers N``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from conquian.i18n import Msg
from conquian.web import security
from conquian.web.lang import reader
from conquian.web.limits import REQUEST_TIMEOUT, deadline_protocol
from conquian.web.logs import AccessLog
from conquian.web.logs import configure as configure_logs
from conquian.web.platform.accounts.routes import CsrfCheck
from conquian.web.platform.learn.routes import learn_routes
from conquian.web.platform.quickmatch.routes import QuickMatch
from conquian.web.platform.ratings.routes import routes as ratings_routes
from conquian.web.routes import STATIC, http_routes
from conquian.web.server import EVICT_AFTER, Connection, Hub, Server
from conquian.web.settings import Settings
from conquian.web.site import offline_file
from conquian.web.sockets import websocket_route

log = logging.getLogger("conquian.web")

__all__ = ["EVICT_AFTER", "SETTINGS_ENV", "Connection", "Hub", "Server", "Settings", "app_from_environment",
           "build_app"]


async def offline(request: Request) -> Response:
    """The offline app (:mod:`conquian.web.site`): the page, its worker, the engine, the runtime."""
    found = offline_file(request.path_params["path"])
    if found is None:
        return JSONResponse({"error": {"code": "not_found", "message": "no such file of the offline app "
                                       "(the runtime is fetched by: conquian site fetch)"}}, status_code=404)
    data, kind = found
    # the page and the list of files are asked again each time (a new version is seen); the rest is
    # kept a while; either is checked again by its digest (a service worker's install: 304, no body)
    cache = "no-cache" if request.path_params["path"] in ("", "index.html", "sw.js", "engine-assets.json") \
        else "max-age=3600"
    etag = '"' + hashlib.sha256(data).hexdigest()[:32] + '"'
    headers = {"Cache-Control": cache, "ETag": etag}
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(data, media_type=kind, headers=headers)


#: What a request is answered when the database fails it (full, read-only, away): the API's
#: ``storage`` refusal, as the tables' own endpoints answer it.
STORAGE = Msg("the server cannot use its database just now; try again in a moment")


def storage_handler(server: Server) -> Any:
    """The answer to an error of the database that an endpoint did not handle itself: ``503
    storage`` in the request's language (a WebSocket is closed, ``1011``), the database counted
    not writable until the next probe, the error logged on one line (never a traceback, never
    a connection reset)."""

    async def handle(conn: HTTPConnection, exc: Exception) -> Response | None:
        text = str(getattr(exc, "orig", None) or exc).strip()
        log.warning("a request failed on the database", extra={
            "event": "store_failed", "error": (text.splitlines()[0] if text else type(exc).__name__)[:150]})
        server.write_failed()
        if isinstance(conn, WebSocket):
            with contextlib.suppress(Exception):
                await conn.close(code=1011)
            return None
        tr = reader(conn.query_params.get("lang"), conn.headers.get("accept-language"))
        return JSONResponse({"error": {"code": "storage", "rule": None, "message": tr.render(STORAGE)}},
                            status_code=503, headers={"Retry-After": "5"})

    return handle


def build_app(settings: Settings | None = None) -> Starlette:
    """The application; ``settings`` say where the database is and how bots are paced."""
    settings = settings or Settings()
    server = Server(settings)
    quick = QuickMatch(server)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        server.spawn(quick.run())  # pairs the quick match's players, in every process
        server.spawn(server.friends.keep_seen())  # notes who is connected here (friends online)
        try:
            yield
        finally:
            await server.stop()

    app = Starlette(
        routes=[
            *server.accounts.routes(server.rename_seats),
            *server.passkeys.routes(),
            *server.friends.routes(),
            *server.offline_matches.routes(),
            *ratings_routes(server.ratings, server.accounts.viewer),
            *quick.routes(),
            *http_routes(server),
            *learn_routes(server.accounts, server.puzzle_ratings, server.limits, settings.learn_per_minute,
                          server.write_failed),
            websocket_route(server),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
            Route("/offline", lambda request: RedirectResponse("/offline/", status_code=308)),
            # the offline app's links to the rule book (one file a language in a built site)
            Route("/rules/{lang}.html", lambda request: RedirectResponse(
                f"/rules?lang={request.path_params['lang'][:35]}", status_code=308)),
            Route("/offline/{path:path}", offline),
        ],
        lifespan=lifespan,
        exception_handlers={SQLAlchemyError: storage_handler(server)},
        middleware=[Middleware(AccessLog), Middleware(security.HostCheck, allowed=settings.allowed_hosts),
                    Middleware(CsrfCheck, origins=settings.allowed_origins)],
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
    if "turn_timers" in data:
        data["turn_timers"] = tuple(data["turn_timers"])
    return build_app(Settings(**data))
