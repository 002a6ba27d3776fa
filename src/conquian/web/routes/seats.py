"""A table's routes before play: its snapshot, its invitation's QR code, taking a seat and giving
one to a bot (a signed-in player's seat tied to his account)."""

from __future__ import annotations

import json
from typing import Any

import msgspec
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.bots import bot_names
from conquian.engine.errors import ConquianError
from conquian.i18n import Msg
from conquian.web import protocol
from conquian.web.platform.ratings.service import check_rated_bot
from conquian.web.routes.common import conquian_error, lang_of, log, no_table, read_body, refuse
from conquian.web.server import Hub, Server, snapshot
from conquian.web.store import ConflictError
from conquian.web.table import TableError


def routes(server: Server) -> list[BaseRoute]:
    """A table's snapshot, its invitation and its seats (a person's or a bot's)."""

    async def get_table(request: Request) -> Response:
        tr = lang_of(request)
        hub = await server.hub(request.path_params["id"])
        if hub is None:
            return no_table(tr)
        return JSONResponse(snapshot(hub, None, tr))

    async def invitation_qr(request: Request) -> Response:
        """The table's invitation (its address as the request reached the server) as a QR code, SVG."""
        from conquian.web.invite import qr_svg

        hub = await server.hub(request.path_params["id"])
        if hub is None:
            return no_table(lang_of(request))
        invitation = f"{str(request.base_url).rstrip('/')}/t/{hub.table.id}"
        return Response(qr_svg(invitation), media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})

    async def seat_change(request: Request, kind: type[Any], name: str | None = None) -> Response:
        """Take a seat (``Sit``; ``name``: a signed-in player's, whatever the body says) or, for
        the host, give one to a bot (``SeatBot``)."""
        tr = lang_of(request)
        hub = await server.hub(request.path_params["id"])
        if hub is None:
            return no_table(tr)
        try:
            spec = await read_body(request, kind)
            if name is not None:
                spec = msgspec.structs.replace(spec, name=name)
            if (isinstance(spec, protocol.SeatBot) and spec.bot in bot_names()
                    and await run_in_threadpool(server.ratings.is_rated, hub.table.id)):
                check_rated_bot(hub.table.rules.name, spec.bot)
            answer = await _seat(server, hub, spec)
        except ConquianError as e:
            code = getattr(e, "code", "")
            return conquian_error(e, tr, {"seat_taken": 409, "not_host": 403, "storage": 503}.get(code, 400))
        await server.broadcast(hub)
        server.schedule(hub)
        return JSONResponse(answer)

    async def _seat(server: Server, hub: Hub, spec: Any) -> dict[str, Any]:
        # another process may seat someone at the same moment: the store then refuses ours, and we
        # try again on the table as stored (where the seat may now be taken: a clear refusal)
        for _ in range(5):
            async with hub.lock:
                first = hub.table.state
                if isinstance(spec, protocol.Sit):
                    answer = {"seat": spec.seat, "token": hub.table.sit(spec.seat, spec.name)}
                else:
                    hub.table.set_bot(spec.seat, spec.bot, host=hub.table.is_host(spec.host))
                    answer = {"seat": spec.seat, "bot": spec.bot}
                try:
                    await run_in_threadpool(server.store.save_seat, hub.table, spec.seat, first, server.worker)
                    hub.stored = hub.table.state
                except ConflictError:
                    await server.reload(hub)
                    continue
                except Exception:
                    log.exception("a seat could not be stored", extra={"event": "store_failed", "table": hub.table.id})
                    await server.reload(hub)
                    raise TableError("storage", Msg("the seat could not be saved; try again")) from None
            log.info("seat", extra={"event": "seat", "table": hub.table.id, "seat": spec.seat,
                                    "by": "person" if isinstance(spec, protocol.Sit) else spec.bot})
            return answer
        raise TableError("busy", Msg("the table's seats keep changing; try again"))

    async def sit(request: Request) -> Response:
        # a signed-in player with a name sits under that name, the seat tied to the account (the
        # seat's token works as for a guest)
        account = await server.accounts.current(request)
        if account is None or account.name is None:
            if await run_in_threadpool(server.ratings.is_rated, request.path_params["id"]):
                return refuse(403, "sign_in", Msg("a rated table's seats are for signed-in players with a name: "
                                                  "choose yours on your account's page (/account)"),
                              tr=lang_of(request))
            return await seat_change(request, protocol.Sit)
        response = await seat_change(request, protocol.Sit, account.name)
        if response.status_code == 200:
            answer = json.loads(bytes(response.body))
            await run_in_threadpool(server.accounts.store.tie_seat, account.id, request.path_params["id"],
                                    answer["seat"])
        return response

    async def seat_bot(request: Request) -> Response:
        return await seat_change(request, protocol.SeatBot)

    return [
        Route("/api/tables/{id}", get_table),
        Route("/api/tables/{id}/sit", sit, methods=["POST"]),
        Route("/api/tables/{id}/invitation.svg", invitation_qr),
        Route("/api/tables/{id}/bot", seat_bot, methods=["POST"]),
    ]
