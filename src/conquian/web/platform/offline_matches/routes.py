"""The offline matches' HTTP routes: the Starlette handlers that read a request, call the storage and the
rules beside this module, and answer in the web's JSON conventions."""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.i18n import Msg
from conquian.web.lang import reader
from conquian.web.platform.accounts.routes import Accounts
from conquian.web.platform.accounts.storage import seat_accounts
from conquian.web.platform.offline_matches.service import MAX_BYTES, OfflineError, offline_table
from conquian.web.platform.offline_matches.storage import offline_matches
from conquian.web.store import Store
from conquian.web.table import Table


class OfflineMatches:
    """The offline matches kept on the server (the module's docstring)."""

    def __init__(self, store: Store, accounts: Accounts) -> None:
        self.store = store
        self.accounts = accounts

    def keep(self, account_id: str, table: Table, digest: str) -> tuple[str, bool]:
        """Store the table as the account's offline match, unless the same record is kept already:
        its table id, and whether it is new."""
        engine: Engine = self.store.engine
        found = select(offline_matches.c.table_id).where(offline_matches.c.account_id == account_id,
                                                         offline_matches.c.digest == digest)
        try:
            with engine.begin() as conn:
                kept = conn.execute(found).scalar()
                if kept is not None:
                    return str(kept), False
                self.store.insert_table(conn, table)
                conn.execute(insert(seat_accounts).values(table_id=table.id, seat=1, account_id=account_id))
                conn.execute(insert(offline_matches).values(table_id=table.id, account_id=account_id, digest=digest,
                                                            at=time.time()))
        except IntegrityError:  # the same record sent twice at once: the other request kept it
            with engine.connect() as conn:
                kept = conn.execute(found).scalar()
            if kept is None:
                raise
            return str(kept), False
        return table.id, True

    async def send(self, request: Request) -> Response:
        """``POST /api/offline-matches`` ``{"record": TEXT}``: keep an offline match in the signed-in
        player's history (``201``, or ``200`` when it was kept already: ``{"table", "new",
        "replay"}``).  Refused: not signed in (401), CSRF (403), no name chosen (403 ``no_name``),
        too often (429), too large (413), not a legal finished match (400 ``bad_record``)."""
        tr = reader(request.query_params.get("lang"), request.headers.get("accept-language"))

        def refuse(code: str, message: Msg, status: int, detail: dict[str, Any] | None = None) -> JSONResponse:
            error = {"code": code, "rule": None, "message": tr.render(message)[:500]}
            if detail:
                error |= {k: detail.get(k) for k in ("deal", "action", "rule")}
            return JSONResponse({"error": error}, status_code=status)

        found = await self.accounts.guarded(request)  # signed in, CSRF, the account's and address's limits
        if isinstance(found, Response):
            return found
        if not found.name:
            return refuse("no_name", Msg("choose a name for your account first: offline matches are kept in a "
                                         "named player's history"), 403)
        body = await _body(request)
        if body is None:
            return refuse("too_large", Msg("an offline match's record is at most {n} bytes", n=f"{MAX_BYTES:,}"), 413)
        try:
            data = json.loads(body)
        except ValueError:
            data = None
        text = data.get("record") if isinstance(data, dict) else None
        if not isinstance(text, str):
            return refuse("bad_record", Msg("send the match as {json}", json='{"record": "..."}'), 400)
        try:
            table, digest = await run_in_threadpool(offline_table, text, found.name)
        except OfflineError as e:
            return refuse("bad_record", e.message, 400, e.detail)
        table_id, new = await run_in_threadpool(self.keep, found.id, table, digest)
        return JSONResponse({"table": table_id, "new": new, "replay": f"/r/{table_id}"},
                            status_code=201 if new else 200, headers={"Cache-Control": "no-store"})

    def routes(self) -> list[BaseRoute]:
        """``POST /api/offline-matches``."""
        return [Route("/api/offline-matches", self.send, methods=["POST"])]


async def _body(request: Request) -> bytes | None:
    """The request's body, or None past :data:`MAX_BYTES` (read no further than that)."""
    try:
        if int(request.headers.get("content-length") or 0) > MAX_BYTES:
            return None
    except ValueError:
        return None
    out = bytearray()
    async for chunk in request.stream():
        out += chunk
        if len(out) > MAX_BYTES:
            return None
    return bytes(out)
