"""The ratings' and leaderboards' HTTP routes: the Starlette handlers that read a request, call the
storage and the rules beside this module, and answer in the web's JSON conventions."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.engine.rules import PRESETS
from conquian.i18n import Msg
from conquian.web.lang import reader
from conquian.web.pages import shell_page
from conquian.web.platform.ratings.service import PROVISIONAL_GAMES, check_game
from conquian.web.platform.ratings.storage import Ratings


def routes(board: Ratings, viewer_of: Callable[[Request], Awaitable[str | None]] | None = None) -> list[BaseRoute]:
    """``GET /api/leaderboard?game=``, ``GET /api/players/{name}``, and their pages (``viewer_of``:
    the account id of the request's signed-in player, who sees his own page whole)."""

    def refuse(request: Request, code: str, message: Msg, status: int) -> JSONResponse:
        tr = reader(request.query_params.get("lang"), request.headers.get("accept-language"))
        return JSONResponse({"error": {"code": code, "rule": None, "message": tr.render(message)[:300]}},
                            status_code=status)

    async def leaderboard(request: Request) -> Response:
        game = check_game(request.query_params.get("game", "conquian"))
        if game is None:
            return refuse(request, "bad_variant", Msg("there is no game {variant} (games: {games})",
                                                      variant=repr(request.query_params.get("game", "")[:30]),
                                                      games=", ".join(PRESETS)), 400)
        rows = await run_in_threadpool(board.leaderboard, game)
        return JSONResponse({"game": game, "players": rows, "provisional_games": PROVISIONAL_GAMES},
                            headers={"Cache-Control": "no-cache"})

    async def player(request: Request) -> Response:
        # the page differs for its own player (his casual private matches too): not kept by caches
        viewer = await viewer_of(request) if viewer_of is not None else None
        found = await run_in_threadpool(board.player, request.path_params["name"][:40], viewer)
        if found is None:
            return refuse(request, "no_player", Msg("there is no player of that name"), 404)
        return JSONResponse(found, headers={"Cache-Control": "private, no-store", "Vary": "Cookie"})

    async def page(request: Request) -> Response:
        return shell_page("ratings.js")

    return [
        Route("/leaderboard", page),
        Route("/p/{name}", page),
        Route("/api/leaderboard", leaderboard),
        Route("/api/players/{name}", player),
    ]
