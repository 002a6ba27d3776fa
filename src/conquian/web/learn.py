"""The web table's Learn section: ``/learn`` (the page) and ``/api/learn`` (the lessons, and one
lesson's state after the learner's moves), played by taps with the same lesson runner as the
terminal (:mod:`conquian.learn`).

The server keeps nothing of a lesson: the page sends the moves the lesson accepted so far and the
move tried; the server replays them on the lesson's deal and answers with the seat's view
(:mod:`conquian.learn.api`, which the offline app runs in the page itself). Progress is kept by
the browser (``localStorage``) and, for a signed-in player, in his account
(``/api/account/learn``: :mod:`conquian.web.accounts`).

For a signed-in player, the first answer to each puzzle is rated (:mod:`conquian.web.puzzle_ratings`):
the answer carries his new puzzle rating and its change, the list his rating and every puzzle's.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.i18n import Msg, Translator
from conquian.learn.api import MAX_MOVES, LearnError, learn_request, lesson_state, page_words
from conquian.learn.page import learn_html
from conquian.web.accounts import Accounts
from conquian.web.lang import reader
from conquian.web.puzzle_ratings import PuzzleRatings

__all__ = ["MAX_MOVES", "learn_page", "learn_routes", "lesson_state"]


def _reader(request: Request) -> Translator:
    return reader(request.query_params.get("lang"), request.headers.get("accept-language"))


def _error(status: int, message: Msg, tr: Translator) -> JSONResponse:
    return JSONResponse({"error": {"code": "bad_request", "rule": None, "message": tr.render(message)}},
                        status_code=status)


def learn_routes(accounts: Accounts | None = None, board: PuzzleRatings | None = None) -> list[BaseRoute]:
    """The Learn section's routes (their answers: :func:`conquian.learn.api.learn_request`); with
    ``accounts`` and ``board``, a signed-in player's puzzles are rated."""

    async def rated(request: Request, path: str, out: dict[str, Any]) -> None:
        """Add the signed-in player's puzzle rating (and rate his answer) to a puzzles answer."""
        if accounts is None or board is None:
            return
        account = await accounts.current(request)
        if account is None:
            return
        if path == "/api/puzzles":
            mine = await run_in_threadpool(board.player, account.id)
            shown = await run_in_threadpool(board.puzzle_ratings)
            out["player"] = mine
            for p in out["puzzles"]:
                p["rating"] = shown.get(p["id"], p["rating"])
        elif "result" in out:
            out["rating"] = await run_in_threadpool(board.attempt, account.id, out["id"], out["result"]["right"])

    async def page(request: Request) -> Response:
        tr = _reader(request)
        return HTMLResponse(learn_page(tr), headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    def listing(path: str) -> Callable[[Request], Awaitable[Response]]:
        async def answer(request: Request) -> Response:
            out = learn_request(path, None, _reader(request))
            await rated(request, path, out)
            return JSONResponse(out, headers={"Cache-Control": "no-cache", "Vary": "Accept-Language, Cookie"})
        return answer

    def one(prefix: str, param: str) -> Callable[[Request], Awaitable[Response]]:
        async def answer(request: Request) -> Response:
            tr = _reader(request)
            try:
                body = json.loads(await request.body() or b"{}")
            except ValueError:
                body = None
            try:
                out = learn_request(prefix + str(request.path_params[param]), body, tr)
            except LearnError as e:
                return _error(e.status, e.message, tr)
            if prefix == "/api/puzzles/":
                await rated(request, prefix, out)
            return JSONResponse(out, headers={"Cache-Control": "no-store"})
        return answer

    return [
        Route("/learn", page),
        Route("/api/learn", listing("/api/learn")),
        Route("/api/learn/{key}", one("/api/learn/", "key"), methods=["POST"]),
        Route("/api/puzzles", listing("/api/puzzles")),
        Route("/api/puzzles/{id}", one("/api/puzzles/", "id"), methods=["POST"]),
    ]


def learn_page(tr: Translator) -> str:
    """The Learn page, its words in the reader's language (the lessons come from ``/api/learn``)."""
    return learn_html(page_words(tr), tr.lang)
