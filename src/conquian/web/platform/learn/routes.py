"""The web table's Learn section: ``/learn`` (the page) and ``/api/learn`` (the lessons, and one
lesson's state after the learner's moves), played by taps with the same lesson runner as the
terminal (:mod:`conquian.learn`).

The server keeps nothing of a lesson: the page sends the moves the lesson accepted so far and the
move tried; the server replays them on the lesson's deal and answers with the seat's view
(:mod:`conquian.learn.api`, which the offline app runs in the page itself). Progress is kept by
the browser (``localStorage``) and, for a signed-in player, in his account
(``/api/account/learn``: :mod:`conquian.web.platform.accounts`).

For a signed-in player, the first answer to each puzzle is rated (:mod:`conquian.web.platform.puzzle_ratings`):
the answer carries his new puzzle rating and its change, the list his rating and every puzzle's.
A puzzle's answer is shown only with the verdict of an attempt, and the browser that saw it (a
guest's too: its ``conquian_puzzles`` cookie) and the account are marked as shown it, so that no
later attempt from them is rated.

Every request is limited per client address (:meth:`conquian.web.limits.AddressLimits.learn`:
``429 too_fast``), its engine and database work runs in a worker thread, off the event loop, and
a verdict that cannot be kept in the database is answered ``503 storage`` without the answer.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.i18n import Msg, Translator
from conquian.learn.api import MAX_MOVES, LearnError, learn_request, lesson_state
from conquian.web.lang import reader
from conquian.web.limits import LEARN_PER_MINUTE, AddressLimits, client_address, learn_burst
from conquian.web.platform.accounts.routes import Accounts
from conquian.web.platform.accounts.service import COOKIE_AGE
from conquian.web.platform.learn.service import BROWSER_COOKIE, first_line, learn_page, log, puzzle_player
from conquian.web.platform.puzzle_ratings.service import browser_key
from conquian.web.platform.puzzle_ratings.storage import PuzzleRatings
from conquian.web.security import is_json

__all__ = ["BROWSER_COOKIE", "MAX_MOVES", "learn_page", "learn_routes", "lesson_state"]


def _reader(request: Request) -> Translator:
    return reader(request.query_params.get("lang"), request.headers.get("accept-language"))


def _error(status: int, message: Msg, tr: Translator) -> JSONResponse:
    return JSONResponse({"error": {"code": "bad_request", "rule": None, "message": tr.render(message)}},
                        status_code=status)


def learn_routes(accounts: Accounts | None = None, board: PuzzleRatings | None = None,
                 limits: AddressLimits | None = None, per_minute: float = LEARN_PER_MINUTE,
                 write_failed: Callable[[], None] | None = None) -> list[BaseRoute]:
    """The Learn section's routes (their answers: :func:`conquian.learn.api.learn_request`); with
    ``accounts`` and ``board``, a signed-in player's puzzles are rated and the answers shown to a
    browser are kept (:mod:`conquian.web.platform.puzzle_ratings`); with ``limits``, an address makes at
    most ``per_minute`` requests a minute (bursts of :func:`~conquian.web.limits.learn_burst`).
    ``write_failed`` is told when the database refused to keep something (``/health`` says so)."""

    def storage(e: BaseException, tr: Translator) -> JSONResponse:
        if write_failed is not None:
            write_failed()
        reason = first_line(e)
        return _storage(tr, Msg("the server cannot keep your answer now: {reason}", reason=reason),
                        "a puzzle answer could not be kept", reason)

    def too_often(request: Request, tr: Translator) -> Response | None:
        """The refusal of a request past its address's limit, or None."""
        if limits is None or limits.learn(client_address(request.client), time.monotonic(), per_minute):
            return None
        return JSONResponse({"error": {"code": "too_fast", "rule": None, "message": tr.render(
            Msg("at most {burst} lessons and puzzles at once from one address, then {rate} a minute",
                burst=learn_burst(per_minute), rate=f"{per_minute:g}"))[:300]}},
            status_code=429, headers={"Retry-After": str(max(1, round(60 / per_minute)))})

    async def page(request: Request) -> Response:
        tr = _reader(request)
        return HTMLResponse(learn_page(tr), headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    def listing(path: str) -> Callable[[Request], Awaitable[Response]]:
        async def answer(request: Request) -> Response:
            tr = _reader(request)
            refused = too_often(request, tr)
            if refused is not None:
                return refused
            out = await run_in_threadpool(learn_request, path, None, tr)
            if path == "/api/puzzles" and accounts is not None and board is not None:
                try:
                    account = await accounts.current(request)
                    if account is not None:
                        out["player"], shown = await run_in_threadpool(puzzle_player, board, account.id)
                        for p in out["puzzles"]:
                            p["rating"] = shown.get(p["id"], p["rating"])
                except Exception as e:  # a database gone away
                    reason = first_line(e)
                    return _storage(tr, Msg("the server cannot read your puzzle rating now: {reason}",
                                            reason=reason), "a puzzle rating could not be read", reason)
            return JSONResponse(out, headers={"Cache-Control": "no-cache", "Vary": "Accept-Language, Cookie"})
        return answer

    def one(prefix: str, param: str) -> Callable[[Request], Awaitable[Response]]:
        async def answer(request: Request) -> Response:
            tr = _reader(request)
            refused = too_often(request, tr)
            if refused is not None:
                return refused
            if prefix == "/api/puzzles/" and not is_json(request.headers.get("content-type")):
                # an answer marks the browser: another site's form or text/plain post may not
                return JSONResponse({"error": {"code": "not_json", "rule": None, "message": tr.render(
                    Msg("the body must be JSON, sent as Content-Type: application/json"))}}, status_code=415)
            try:
                body = json.loads(await request.body() or b"{}")
            except ValueError:
                body = None
            try:
                out = await run_in_threadpool(learn_request, prefix + str(request.path_params[param]), body, tr)
            except LearnError as e:
                return _error(e.status, e.message, tr)
            if prefix != "/api/puzzles/" or "result" not in out or accounts is None or board is None:
                return JSONResponse(out, headers={"Cache-Control": "no-store"})
            # a verdict shows the answer: the browser (and the account) are marked as shown it
            # before the answer goes out, and nothing is said if that cannot be kept
            cookie = request.cookies.get(BROWSER_COOKIE) or ""
            made = not cookie or len(cookie) > 100
            if made:
                cookie = secrets.token_urlsafe(24)
            try:
                account = await accounts.current(request)
                if account is None:
                    await run_in_threadpool(board.shown_to, browser_key(cookie), out["id"])
                else:
                    out["rating"] = await run_in_threadpool(board.attempt, account.id, out["id"],
                                                            out["result"]["right"], browser_key(cookie))
            except Exception as e:  # a full disk, a database gone read-only or away
                return storage(e, tr)
            response = JSONResponse(out, headers={"Cache-Control": "no-store"})
            if made:
                response.set_cookie(BROWSER_COOKIE, cookie, max_age=COOKIE_AGE, httponly=True, samesite="lax",
                                    path="/api/puzzles", secure=request.url.scheme == "https")
            return response
        return answer

    return [
        Route("/learn", page),
        Route("/api/learn", listing("/api/learn")),
        Route("/api/learn/{key}", one("/api/learn/", "key"), methods=["POST"]),
        Route("/api/puzzles", listing("/api/puzzles")),
        Route("/api/puzzles/{id}", one("/api/puzzles/", "id"), methods=["POST"]),
    ]


def _storage(tr: Translator, said: Msg, logged: str, reason: str) -> JSONResponse:
    """The answer to a request whose database work failed (a full disk, a database gone read-only
    or away): ``503 storage``, as the tables' own requests; ``logged`` and the ``reason`` in the log."""
    log.warning(logged, extra={"event": "store_failed", "error": reason})
    return JSONResponse({"error": {"code": "storage", "rule": None, "message": tr.render(said)[:300]}},
                        status_code=503, headers={"Retry-After": "5"})
