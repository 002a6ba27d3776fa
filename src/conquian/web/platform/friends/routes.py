"""The friends', blocks' and reports' HTTP routes: the Starlette handlers that read a request, call the
storage and the rules beside this module, and answer in the web's JSON conventions."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.websockets import WebSocket

from conquian.i18n import Msg
from conquian.web.lang import reader
from conquian.web.pages import ACCOUNT_SCRIPTS, shell_page
from conquian.web.platform.accounts.routes import json_or_none
from conquian.web.platform.accounts.service import COOKIE, Account
from conquian.web.platform.friends.service import LINES_KEPT, REPORTS_PER_CONNECTION, SEEN_EVERY, FriendError
from conquian.web.platform.friends.storage import FriendStore, blocked_between
from conquian.web.protocol import ProtocolError
from conquian.web.table import OVER

if TYPE_CHECKING:
    from conquian.web.server import Connection, Hub, Server


@dataclass(frozen=True)
class Line:
    """A chat line this process delivered: where, by whom (the seat's name, its account), what, when."""

    table_id: str
    channel: str
    seat: int | None
    conn_id: str
    name: str
    text: str
    at: float
    sender: str | None


class Friends:
    """The friends, blocks and reports of one server process: the store, the chat lines it
    delivered lately, the routes, and the WebSocket's part (who a connection is, what it blocks)."""

    def __init__(self, engine: Engine, server: Server) -> None:
        self.store = FriendStore(engine)
        self.server = server
        self.lines: OrderedDict[str, Line] = OrderedDict()

    # -------------------------------------------------------------- the WebSocket's part
    async def identify(self, ws: WebSocket) -> tuple[str | None, set[str]]:
        """The account of a WebSocket (its cookie's session), and the accounts it does not read."""
        token = ws.cookies.get(COOKIE)
        if not token or len(token) > 100:
            return None, set()
        with contextlib.suppress(Exception):
            account = await run_in_threadpool(self.server.accounts.store.session, token)
            if account is not None:
                await run_in_threadpool(self.store.touch, {account.id})
                return account.id, await run_in_threadpool(self.store.blocked_set, account.id)
        return None, set()

    def heard(self, hub: Hub, out: dict[str, Any], sender: str | None) -> None:
        """Remember a chat line delivered at ``hub``'s table (what a report of it names)."""
        line = out.get("line")
        if not isinstance(line, str) or line in self.lines:
            return
        seat = out.get("seat")
        names = hub.table.names
        name = names[seat - 1] if isinstance(seat, int) and 1 <= seat <= len(names) else \
            f"spectator {str(out.get('id', ''))[:4]}"
        self.lines[line] = Line(hub.table.id, str(out.get("channel")), seat if isinstance(seat, int) else None,
                                str(out.get("id", "")), name,
                                str(out.get("text") or out.get("reaction") or ""), float(out.get("at") or time.time()),
                                sender)
        while len(self.lines) > LINES_KEPT:
            self.lines.popitem(last=False)

    def _line(self, hub: Hub, conn: Connection, line_id: str) -> Line:
        line = self.lines.get(line_id)
        if line is None or line.table_id != hub.table.id or (line.channel == "spectators" and conn.seat is not None):
            raise ProtocolError("no_line", Msg("that chat line is not known here (any more)"))
        if line.conn_id == conn.id or (line.sender is not None and line.sender == conn.account):
            raise ProtocolError("own_line", Msg("that line is yours"))
        return line

    async def report_line(self, hub: Hub, conn: Connection, line_id: str) -> None:
        """A ``report`` message: keep the line for the server's owner, and say so to the reporter."""
        line = self._line(hub, conn, line_id)
        if conn.reports >= REPORTS_PER_CONNECTION:
            raise ProtocolError("too_fast", Msg("you have reported enough lines from this connection"))
        conn.reports += 1
        await run_in_threadpool(self.store.report, conn.account, line.sender, line.name, line.table_id, line.text,
                                line.at)
        await conn.send({"type": "reported", "line": line_id})

    async def block_line(self, hub: Hub, conn: Connection, line_id: str) -> None:
        """A ``block`` message: the reader blocks the account that said the line."""
        line = self._line(hub, conn, line_id)
        if conn.account is None:
            raise ProtocolError("signed_out", Msg("sign in (your account's page) to block a player"))
        if line.sender is None:
            raise ProtocolError("no_account", Msg("{name} plays without an account: it cannot be blocked",
                                                  name=line.name))
        await run_in_threadpool(self.store.block, conn.account, line.sender)
        await self.changed(conn.account, line.sender, True)
        await conn.send({"type": "blocked", "line": line_id, "seat": line.seat, "id": line.conn_id})

    async def changed(self, a: str, b: str, blocked: bool) -> None:
        """The block between ``a`` and ``b`` is now ``blocked`` (either way round) or not: their
        connections here know it at once, before any chat line this process delivers next, and
        so do the other processes' (a notice)."""
        self._apply(a, b, blocked)
        with contextlib.suppress(Exception):
            await self.server.cluster.publish({"k": "block", "w": self.server.worker, "a": a, "b": b, "on": blocked})

    def on_notice(self, payload: dict[str, Any]) -> None:
        """A block began or ended in another process (applied before the chat lines that follow it)."""
        a, b, on = payload.get("a"), payload.get("b"), payload.get("on")
        if payload.get("w") != self.server.worker and isinstance(a, str) and isinstance(b, str) \
                and isinstance(on, bool):
            self._apply(a, b, on)

    def _apply(self, a: str, b: str, blocked: bool) -> None:
        for h in list(self.server.hubs.values()):
            for c in h.connections:
                other = b if c.account == a else a if c.account == b else None
                if other is not None:
                    if blocked:
                        c.blocked.add(other)
                    else:
                        c.blocked.discard(other)

    def live(self) -> set[str]:
        """The accounts connected to this process's tables."""
        return {c.account for h in list(self.server.hubs.values()) for c in h.connections if c.account}

    async def keep_seen(self) -> None:
        """Note every :data:`SEEN_EVERY` seconds that the accounts connected here are still here."""
        while True:
            await asyncio.sleep(SEEN_EVERY)
            with contextlib.suppress(Exception):
                await run_in_threadpool(self.store.touch, self.live())

    # -------------------------------------------------------------- HTTP
    def _refuse(self, request: Request, code: str, message: Msg, status: int) -> JSONResponse:
        tr = reader(request.query_params.get("lang"), request.headers.get("accept-language"))
        return JSONResponse({"error": {"code": code, "rule": None, "message": tr.render(message)[:300]}},
                            status_code=status)

    async def _signed_in(self, request: Request, write: bool) -> Account | Response:
        if write:
            return await self.server.accounts.guarded(request)
        account = await self.server.accounts.current(request)
        if account is None:
            return self._refuse(request, "signed_out", Msg("you are not signed in"), 401)
        return account

    async def _body(self, request: Request) -> dict[str, Any]:
        body = await json_or_none(request)
        if not isinstance(body, dict):
            raise FriendError("bad_request", Msg("the body must be a JSON object"))
        return body

    @staticmethod
    def _text(body: dict[str, Any], key: str, limit: int = 40) -> str:
        value = body.get(key)
        if not isinstance(value, str) or not value or len(value) > limit:
            raise FriendError("bad_request", Msg("the body needs {field}: a text of at most {limit} characters",
                                                 field=key, limit=limit))
        return value

    def _handler(self, write: bool, act: Any) -> Any:
        async def handle(request: Request) -> Response:
            account = await self._signed_in(request, write)
            if isinstance(account, Response):
                return account
            try:
                found = await act(request, account)
            except FriendError as e:
                return self._refuse(request, e.code, e.message, e.status)
            return JSONResponse(found, headers={"Cache-Control": "no-store"})
        return handle

    async def _list(self, request: Request, account: Account) -> dict[str, Any]:
        s = self.store
        code = await run_in_threadpool(s.code_of, account.id) if account.name else None
        return {"name": account.name, "link": f"/f/{code}" if code else None,
                "friends": await run_in_threadpool(s.friends, account.id, self.live()),
                "blocked": await run_in_threadpool(s.blocked_names, account.id),
                "notices": await run_in_threadpool(s.notices, account.id),
                "tables": await run_in_threadpool(s.waiting_tables, account.id)}

    async def _new_link(self, request: Request, account: Account) -> dict[str, Any]:
        if not account.name:
            raise FriendError("no_name", Msg("choose your name first (on your account's page)"), 409)
        return {"link": f"/f/{await run_in_threadpool(self.store.code_of, account.id, True)}"}

    async def _link(self, request: Request, account: Account) -> dict[str, Any]:
        owner = await run_in_threadpool(self.store.owner_of, request.path_params["code"])
        if owner is None:
            raise FriendError("no_link", Msg("this friend link is not valid (any more): ask for a new one"), 404)
        return {"name": owner[1], "yours": owner[0] == account.id}

    async def _add(self, request: Request, account: Account) -> dict[str, Any]:
        code = self._text(await self._body(request), "code")
        return {"friend": await run_in_threadpool(self.store.befriend, account.id, code)}

    async def _remove(self, request: Request, account: Account) -> dict[str, Any]:
        name = self._text(await self._body(request), "name")
        await run_in_threadpool(self.store.unfriend, account.id, name)
        return {"removed": name}

    async def _block(self, request: Request, account: Account) -> dict[str, Any]:
        name = self._text(await self._body(request), "name")
        other = await run_in_threadpool(self.store.block_name, account.id, name)
        await self.changed(account.id, other, True)
        return {"blocked": name}

    async def _unblock(self, request: Request, account: Account) -> dict[str, Any]:
        name = self._text(await self._body(request), "name")
        other = await run_in_threadpool(self.store.unblock, account.id, name)
        # the other may have blocked this account too: then neither reads the other still
        await self.changed(account.id, other, await run_in_threadpool(blocked_between, self.store, account.id, other))
        return {"unblocked": name}

    async def _invite(self, request: Request, account: Account) -> dict[str, Any]:
        body = await self._body(request)
        name, table_id = self._text(body, "name"), self._text(body, "table", 16)
        token = body.get("token")
        friend = await run_in_threadpool(self.store.is_friend, account.id, name)
        hub = await self.server.hub(table_id)
        if hub is None or hub.table.status == OVER:
            raise FriendError("no_table", Msg("there is no such table, or its match is over"), 404)
        mine = isinstance(token, str) and (hub.table.seat_of(token) is not None or hub.table.is_host(token))
        if not mine and not await run_in_threadpool(self.store.seated_at, account.id, table_id):
            raise FriendError("not_your_table", Msg("invite friends to a table you sit at or host"), 403)
        await run_in_threadpool(self.store.invite, account.id, friend, table_id)
        return {"invited": name, "table": table_id, "link": f"/t/{table_id}"}

    async def _dismiss(self, request: Request, account: Account) -> dict[str, Any]:
        notice = (await self._body(request)).get("id")
        if not isinstance(notice, int) or not await run_in_threadpool(self.store.dismiss, account.id, notice):
            raise FriendError("no_notice", Msg("you have no such invitation"), 404)
        return {"dismissed": notice}

    async def _qr(self, request: Request) -> Response:
        from conquian.web.invite import qr_svg

        account = await self.server.accounts.current(request)
        if account is None or not account.name:
            return self._refuse(request, "signed_out", Msg("you are not signed in"), 401)
        code = await run_in_threadpool(self.store.code_of, account.id)
        return Response(qr_svg(f"{request.url.scheme}://{request.url.netloc}/f/{code}"), media_type="image/svg+xml",
                        headers={"Cache-Control": "no-store"})

    def routes(self) -> list[BaseRoute]:
        """The friends endpoints (docs/protocol.md) and the friend link's page."""
        async def page(request: Request) -> Response:
            return shell_page(*ACCOUNT_SCRIPTS)

        h = self._handler
        return [
            Route("/f/{code}", page),
            Route("/api/friends", h(False, self._list), methods=["GET"]),
            Route("/api/friends/link", h(True, self._new_link), methods=["POST"]),
            Route("/api/friends/link.svg", self._qr, methods=["GET"]),
            Route("/api/friends/link/{code}", h(False, self._link), methods=["GET"]),
            Route("/api/friends/add", h(True, self._add), methods=["POST"]),
            Route("/api/friends/remove", h(True, self._remove), methods=["POST"]),
            Route("/api/friends/invite", h(True, self._invite), methods=["POST"]),
            Route("/api/friends/notices/dismiss", h(True, self._dismiss), methods=["POST"]),
            Route("/api/blocks", h(True, self._block), methods=["POST"]),
            Route("/api/blocks/remove", h(True, self._unblock), methods=["POST"]),
        ]
