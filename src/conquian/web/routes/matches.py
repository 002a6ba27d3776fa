"""A finished match's routes: its record, its replay and a seat's review, read by those who may
(a public table, one of its tokens, or the account that sat there) and limited per address."""

from __future__ import annotations

import json
import time

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.engine.errors import ConquianError
from conquian.i18n import Msg, Translator
from conquian.web.finished import Busy
from conquian.web.limits import HEAVY_BURST, client_address
from conquian.web.replay import review_moves
from conquian.web.review_jobs import RETRY_AFTER, ReviewAsk, ReviewBusy, ask_of_query
from conquian.web.routes.common import (
    PRIVATE,
    bearer,
    conquian_error,
    first_line,
    lang_of,
    log,
    no_table,
    read_body,
    refuse,
)
from conquian.web.server import Server
from conquian.web.table import OVER, PLAYING, Table


def routes(server: Server) -> list[BaseRoute]:
    """A match's record, replay and review, each made once and limited per address."""
    settings = server.settings
    reviews = server.reviews
    finished = server.finished

    def busy(tr: Translator) -> Response:
        return JSONResponse({"error": {"code": "busy", "rule": None, "message": tr.render(
            Msg("the server is busy making other replays and records; try again in a moment"))[:300]}},
            status_code=503, headers={"Retry-After": str(RETRY_AFTER)})

    def too_often(tr: Translator) -> Response:
        return JSONResponse({"error": {"code": "too_fast", "rule": None, "message": tr.render(
            Msg("at most {burst} replays, records and reviews at once from one address, then {rate} a minute",
                burst=HEAVY_BURST, rate=f"{settings.replays_per_minute:g}"))[:300]}},
            status_code=429, headers={"Retry-After": str(max(1, round(60 / settings.replays_per_minute)))})

    def may_make(request: Request, made: bool) -> bool:
        """Whether the request may have something made (what is made already costs nothing)."""
        return made or server.limits.heavy(client_address(request.client), time.monotonic(),
                                           settings.replays_per_minute)

    async def may_read(request: Request, t: Table) -> bool:
        """Whether the request may read ``t``'s finished match: the table's rule (public, or one of
        its tokens), or the signed-in account that sat there (his private match, from any device)."""
        if t.may_read(bearer(request)):
            return True
        account = await server.accounts.current(request)
        return account is not None and await run_in_threadpool(server.accounts.store.sat_at, account.id, t.id)

    async def record(request: Request) -> Response:
        tr = lang_of(request)
        hub = await server.hub(request.path_params["id"])
        if hub is None:
            return no_table(tr)
        t = hub.table
        if t.status == OVER and not await may_read(request, t):
            return refuse(403, "private", PRIVATE, tr=tr)
        if t.rated and t.status == PLAYING:  # the fair-play rules: nothing to analyse the live match with
            return refuse(409, "fair_play", Msg("a rated match's record is ready once the match is over: the "
                                                "fair-play rules"), tr=tr)
        if t.session is None or not t.session.deal.over:
            return refuse(409, "deal_in_progress", Msg("the record can be downloaded between deals and at the end "
                                                       "(it holds the deck of every deal)"), tr=tr)
        if not may_make(request, finished.cached(t, "record") is not None):
            return too_often(tr)
        try:
            text = await finished.record(t)
        except Busy:
            return busy(tr)
        return Response(text, media_type="application/toml", headers={
            "Content-Disposition": f'attachment; filename="conquian-{t.rules.name}-{t.id}.toml"'})

    async def finished_match(request: Request, tr: Translator, refusal: Msg) -> Table | Response:
        """The request's table when its match is over (nothing in its record is then secret to
        anyone at the table) and the request may read it (a public table, or one of the table's
        tokens); else the refusal: 404 no such table, 409 ``refusal``, 403 ``private``."""
        hub = await server.hub(request.path_params["id"])
        if hub is None:
            return no_table(tr)
        t = hub.table
        if t.status != OVER or t.session is None:
            return refuse(409, "not_over", refusal, tr=tr)
        if not await may_read(request, t):
            return refuse(403, "private", PRIVATE, tr=tr)
        return t

    async def replay(request: Request) -> Response:
        tr = lang_of(request)
        found = await finished_match(request, tr, Msg("a match can be replayed once it is over"))
        if isinstance(found, Response):
            return found
        t = found
        if not may_make(request, finished.cached(t, "replay") is not None):
            return too_often(tr)
        try:
            frames = await finished.replay(t)
            moves = await finished.replay_moves(t, tr)  # each frame's move in the reader's words
        except Busy:
            return busy(tr)
        head = json.dumps({"id": t.id, "name": t.name, "variant": t.rules.name, "names": t.names},
                          ensure_ascii=False, separators=(",", ":")).encode()
        return Response(head[:-1] + b',"moves":' + moves + b',"frames":' + frames + b"}",
                        media_type="application/json")

    async def review(request: Request) -> Response:
        """``POST``: review a seat in a deal of a finished match (a job, or the review made before);
        ``GET ?seat=&deal=&playouts=``: its progress or the review (docs/review.md)."""
        tr = lang_of(request)
        found = await finished_match(request, tr, Msg("a match can be reviewed once it is over"))
        if isinstance(found, Response):
            return found
        t = found
        start = request.method == "POST"
        address = client_address(request.client)
        try:
            if start:
                ask = await read_body(request, ReviewAsk)
            else:
                ask = ask_of_query(request.query_params)
            if not may_make(request, finished.cached(t, "record") is not None and not start):
                return too_often(tr)
            text = await finished.record(t)
            status, answer = await run_in_threadpool(reviews.ask, text, ask.seat, ask.deal, ask.playouts, tr,
                                                     start, address)
            if answer.get("status") == "done":
                # the moves it names in the table's words: the page reads no notation
                assert t.session is not None  # finished_match: a match that is over
                answer["words"]["moves"] = await run_in_threadpool(review_moves, t.session, answer["review"], tr)
                # the seat's accuracy for its player's page (a seat tied to an account), from the
                # server's own review only (its playouts: one asked with fewer is answered, not
                # kept); the review is answered even if the figure cannot be kept (a database gone
                # read-only, two processes keeping the same figure at once)
                try:
                    await run_in_threadpool(server.ratings.keep_review, t.id, answer["review"],
                                            reviews.playouts_for(str(answer["review"]["variant"]), None))
                except Exception as e:
                    log.warning("a review's accuracy could not be kept",
                                extra={"event": "store_failed", "error": first_line(e)})
        except Busy:
            return busy(tr)
        except ReviewBusy as e:
            return JSONResponse({"error": {"code": e.code, "rule": None, "message": e.render(tr)}}, status_code=503,
                                headers={"Retry-After": str(RETRY_AFTER)})
        except ConquianError as e:
            return conquian_error(e, tr)
        return JSONResponse(answer, status_code=status)

    return [
        Route("/api/tables/{id}/record", record),
        Route("/api/tables/{id}/replay", replay),
        Route("/api/tables/{id}/review", review, methods=["GET", "POST"]),
    ]
