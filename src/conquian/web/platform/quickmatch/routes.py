"""Quick match's HTTP routes: the Starlette handlers that read a request, call the storage and the
rules beside this module, and answer in the web's JSON conventions."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.i18n import Msg
from conquian.web.lang import reader
from conquian.web.limits import client_address
from conquian.web.platform.accounts.routes import json_or_none
from conquian.web.platform.quickmatch.service import PAIR_EVERY, QuickError, Raced, check_request, log, status
from conquian.web.platform.quickmatch.storage import QuickStore

if TYPE_CHECKING:
    from conquian.web.server import Server


class QuickMatch:
    """The quick match of one server process: its pairing rounds and its endpoints."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.queue = QuickStore(server.store)
        self.last = 0.0
        self.lock = asyncio.Lock()
        server.accounts.leaving.append(self._left)

    async def _left(self, account_id: str) -> None:
        # the browser that waited for the account has left it: nobody is there to sit down
        await run_in_threadpool(self.queue.leave, account_id)

    @property
    def bot_after(self) -> float:
        """Seconds a player waits before bots may fill his empty seats."""
        return self.server.settings.quick_bot_after

    async def pair(self) -> int:
        """One pairing round (the bots of the tables made start at once); the tables made."""
        async with self.lock:
            self.last = time.monotonic()
            try:
                made = await run_in_threadpool(self.queue.pair, self.bot_after, self.server.settings.quick_deals,
                                               None, self.server.settings.quick_gone_after,
                                               self.server.settings.rated_clock)
            except Raced:
                return 0
        for table in made:
            log.info("quick match", extra={"event": "quick_match", "table": table.id,
                                           "players": sum(1 for s in table.seats if s.token_hash)})
            hub = await self.server.hub(table.id)
            if hub is not None:
                self.server.schedule(hub)
        return len(made)

    async def pair_soon(self) -> None:
        """A pairing round for a request (one that fails is logged: the request is answered with
        the queue as it stands, and the next round pairs)."""
        try:
            await self.pair()
        except Exception:
            log.exception("quick match pairing failed", extra={"event": "quick_failed"})

    async def run(self) -> None:
        """Pair every :data:`PAIR_EVERY` seconds while the server runs."""
        failing = False
        while True:
            await asyncio.sleep(PAIR_EVERY)
            if time.monotonic() - self.last < PAIR_EVERY / 2:
                continue  # a request has just paired
            try:
                await self.pair()
                failing = False
            except Exception:
                if not failing:  # once, not every second while the database is away
                    log.exception("quick match pairing failed", extra={"event": "quick_failed"})
                failing = True

    async def _status(self, account_id: str) -> dict[str, Any]:
        entry = await run_in_threadpool(self.queue.entry, account_id)
        count = 0
        if entry is not None and entry["table_id"] is None:
            count = await run_in_threadpool(self.queue.waiting_count, entry["game"], entry["players"],
                                            bool(entry["rated"]), account_id)
        return status(entry, time.time(), self.bot_after, count)

    def routes(self) -> list[BaseRoute]:
        """``/api/quick``: ``POST`` join, ``GET`` how it stands, ``DELETE`` leave;
        ``POST /api/quick/bots``: fill the empty seats with bots (after the wait)."""
        accounts_ = self.server.accounts

        def refuse(request: Request, code: str, message: Msg, status_code: int) -> JSONResponse:
            tr = reader(request.query_params.get("lang"), request.headers.get("accept-language"))
            return JSONResponse({"error": {"code": code, "rule": None, "message": tr.render(message)[:300]}},
                                status_code=status_code)

        sign_in = Msg("a quick match is for signed-in players with a name: choose yours on your account's page "
                      "(/account)")

        async def named(request: Request, guarded: bool) -> Any:
            found = await (accounts_.guarded(request) if guarded else accounts_.current(request))
            if isinstance(found, Response):
                return found
            if found is None:
                return refuse(request, "signed_out", Msg("you are not signed in"), 401)
            if found.name is None:
                return refuse(request, "sign_in", sign_in, 403)
            return found

        async def join(request: Request) -> Response:
            found = await named(request, True)
            if isinstance(found, Response):
                return found
            body = await json_or_none(request)
            try:
                game, players, bots, rated = check_request(body)
            except QuickError as e:
                return refuse(request, e.code, e.message, e.status)
            address = client_address(request.client)
            await run_in_threadpool(self.queue.join, found.id, game, players, bots, rated, None,
                                    None if address == "unknown" else address)
            await self.pair_soon()
            return JSONResponse(await self._status(found.id), headers={"Cache-Control": "no-store"})

        async def get(request: Request) -> Response:
            found = await named(request, False)
            if isinstance(found, Response):
                return found
            await run_in_threadpool(self.queue.seen, found.id)
            if time.monotonic() - self.last >= PAIR_EVERY / 2:
                await self.pair_soon()
            return JSONResponse(await self._status(found.id), headers={"Cache-Control": "no-store"})

        async def leave(request: Request) -> Response:
            found = await named(request, True)
            if isinstance(found, Response):
                return found
            if not await run_in_threadpool(self.queue.leave, found.id):
                now = await self._status(found.id)
                if now.get("matched"):
                    return JSONResponse({"error": {"code": "paired", "rule": None, "message": reader(
                        request.query_params.get("lang"), request.headers.get("accept-language")).render(
                        Msg("you are paired already: your seat is waiting for you"))}, "quick": now},
                        status_code=409)
            return JSONResponse({"queued": False}, headers={"Cache-Control": "no-store"})

        async def fill(request: Request) -> Response:
            found = await named(request, True)
            if isinstance(found, Response):
                return found
            now = await self._status(found.id)
            if not now["queued"] or now["matched"]:
                return JSONResponse(now, headers={"Cache-Control": "no-store"})
            if now["bots_in"] > 0:
                return refuse(request, "too_soon", Msg("bots may fill the empty seats after {seconds} s of waiting",
                                                       seconds=f"{now['waited'] + now['bots_in']:g}"), 409)
            await run_in_threadpool(self.queue.want_bots, found.id)
            await self.pair_soon()
            return JSONResponse(await self._status(found.id), headers={"Cache-Control": "no-store"})

        return [
            Route("/api/quick", join, methods=["POST"]),
            Route("/api/quick", get, methods=["GET"]),
            Route("/api/quick", leave, methods=["DELETE"]),
            Route("/api/quick/bots", fill, methods=["POST"]),
        ]
