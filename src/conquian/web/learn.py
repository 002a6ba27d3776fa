"""The web table's Learn section: ``/learn`` (the page) and ``/api/learn`` (the lessons, and one
lesson's state after the learner's moves), played by taps with the same lesson runner as the
terminal (:mod:`conquian.learn`).

The server keeps nothing of a lesson: the page sends the moves the lesson accepted so far and the
move tried; the server replays them on the lesson's deal and answers with the seat's view
(:mod:`conquian.learn.api`, which the offline app runs in the page itself). Progress is kept by
the browser (``localStorage``) and, for a signed-in player, in his account
(``/api/account/learn``: :mod:`conquian.web.accounts`).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.i18n import Msg, Translator
from conquian.learn.api import MAX_MOVES, LearnError, learn_request, lesson_state, page_words
from conquian.learn.page import learn_html
from conquian.web.lang import reader

__all__ = ["MAX_MOVES", "learn_page", "learn_routes", "lesson_state"]


def _reader(request: Request) -> Translator:
    return reader(request.query_params.get("lang"), request.headers.get("accept-language"))


def _error(status: int, message: Msg, tr: Translator) -> JSONResponse:
    return JSONResponse({"error": {"code": "bad_request", "rule": None, "message": tr.render(message)}},
                        status_code=status)


def learn_routes() -> list[BaseRoute]:
    """The Learn section's routes (their answers: :func:`conquian.learn.api.learn_request`)."""

    async def page(request: Request) -> Response:
        tr = _reader(request)
        return HTMLResponse(learn_page(tr), headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    def listing(path: str) -> Callable[[Request], Awaitable[Response]]:
        async def answer(request: Request) -> Response:
            return JSONResponse(learn_request(path, None, _reader(request)),
                                headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})
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
