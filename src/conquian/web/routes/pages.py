"""The pages and the server's own answers: the tables' page, the app's manifest and service worker,
``/health``, the rule book, the catalogues, the reader's language and the games' presets."""

from __future__ import annotations

import asyncio
import os

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.bots import bot_names
from conquian.bots.expert import strongest_quick_bot
from conquian.web import app_shell, master, security, site
from conquian.web.lang import catalogue, language_list
from conquian.web.pages import tables_page
from conquian.web.routes.common import lang_of
from conquian.web.rulebook_page import rules_html
from conquian.web.server import Server


def routes(server: Server) -> list[BaseRoute]:
    """The pages, the app's manifest and worker, ``/health``, the rule book, the catalogues and the presets."""
    settings = server.settings
    # fixed for the process: its bot modules are imported once, compiled or not
    default_bot = strongest_quick_bot()

    async def page(request: Request) -> Response:
        return tables_page()

    async def web_manifest(request: Request) -> Response:
        return JSONResponse(app_shell.manifest(lang_of(request)), media_type="application/manifest+json",
                            headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    async def service_worker(request: Request) -> Response:
        # never kept by the browser's HTTP cache: a new version is seen on the next visit
        # made once a process (the engine's files read and digested): off the event loop
        return Response(await run_in_threadpool(site.server_worker), media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})

    async def health(request: Request) -> Response:
        try:
            database = await asyncio.wait_for(run_in_threadpool(server.store.ping), 5)
        except Exception:
            database = False
        writable = database and await server.writable()
        whole = server.whole
        ok = writable and server.cluster.listening and whole
        if not security.presents_token(request.headers.get("authorization"), settings.health_token):
            return JSONResponse({"ok": ok}, status_code=200 if ok else 503)
        return JSONResponse({
            "ok": ok, "database": server.store.engine.dialect.name, "database_ok": database,
            "workers_whole": whole,
            "bot_workers_replaced": server.bots.pool.replaced if server.bots else 0,
            "bot_jobs_waiting": server.bots.waiting if server.bots else 0,
            "bot_jobs_run": server.bots.jobs_run if server.bots else 0,
            "database_writable": writable,
            "listening": server.cluster.listening, "worker": server.worker, "pid": os.getpid(),
            "tables_in_memory": len(server.hubs),
            "connections": sum(len(h.connections) for h in server.hubs.values()),
            "bots_for": sorted(server.cluster.leases),
        }, status_code=200 if ok else 503)

    async def rules_page(request: Request) -> Response:
        asked = request.query_params.get("lang")
        tr = lang_of(request)
        # a page in the language asked for is the same for everybody; one chosen by the browser's
        # Accept-Language varies with it
        headers = {"Cache-Control": "max-age=3600"} if asked else {"Cache-Control": "no-cache",
                                                                   "Vary": "Accept-Language"}
        return HTMLResponse(rules_html(tr.lang), headers=headers)

    async def i18n(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang == "auto":  # the browser's languages decide
            return JSONResponse(catalogue(lang_of(request).lang),
                                headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})
        return JSONResponse(catalogue(lang[:35]), headers={"Cache-Control": "max-age=3600"})

    async def lang_choice(request: Request) -> Response:
        return JSONResponse({"lang": lang_of(request).lang, "languages": language_list()},
                            headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    async def presets(request: Request) -> Response:
        # the page's engine reads the same list (with its own bots)
        return JSONResponse(master.presets(bot_names(), default_bot, settings.turn_timers))

    return [
        Route("/", page),
        Route("/t/{id}", page),
        Route("/r/{id}", page),
        Route("/manifest.webmanifest", web_manifest),
        Route("/sw.js", service_worker),
        Route("/health", health),
        Route("/rules", rules_page),
        Route("/i18n/{lang}.json", i18n),
        Route("/api/lang", lang_choice),
        Route("/api/presets", presets),
    ]
