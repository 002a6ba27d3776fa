"""Offline matches come home: a match played in the offline app (the page's own engine, against
the bots) kept in its player's history once the page is online again (``POST
/api/offline-matches``, docs/protocol.md).

The page sends the match's record (``conquian-record/1``, with the table note of who sat where,
as its "Export the record" writes it).  The server replays it with the engine: a record that is
not a legal, finished match of a known preset is refused (``400 bad_record`` with the reason,
its deal and action); else it is stored as a finished table of the server, the player (the
signed-in account, a name chosen) at seat 1 and the bots at the others, tied to the account, so
that its replay, record and review work as a server match's.  It is marked offline
(:data:`offline_matches`) and never rated: the cards and the bots' moves are the page's word,
not the server's.  Like a casual private match, only its player sees it (his own page, its
replay and review).  The same record sent again is stored once (its digest, per account).

```pycon
>>> from conquian import Match, get_rules
>>> from conquian.engine.record import record_from_match, write_record
>>> m = Match(get_rules("conquian"), ["Me", "Foster"])
>>> d = m.new_deal(seed=5)
>>> while not d.over:
...     _ = d.play(d.legal_actions()[-1])
>>> note = table_note(["human", "foster"], 1)
>>> t, digest = offline_table(note + write_record(record_from_match(m)), "Ann")
>>> t.status, t.names, t.seats[1].kind, len(digest)
('over', ['Ann', 'Foster'], 'foster', 64)

```
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from typing import Any

from sqlalchemy import Column, Float, ForeignKey, Index, String, UniqueConstraint, insert, select
from sqlalchemy import Table as SqlTable
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.bots import bot_names
from conquian.engine.errors import ConquianError
from conquian.engine.match import new_deal
from conquian.engine.record import ReplayError, read_record, replay, write_record
from conquian.engine.rules import CONQUIAN
from conquian.i18n import Msg
from conquian.session import HUMAN, read_table_note, table_note
from conquian.web.accounts import Accounts, seat_accounts
from conquian.web.lang import reader
from conquian.web.store import Store, metadata
from conquian.web.table import OVER, Table, deck_text

#: The largest record accepted (bytes of the request's body): a whole match of the largest game
#: with its decks is a few tens of kilobytes.
MAX_BYTES = 256 * 1024

offline_matches = SqlTable(
    "offline_matches", metadata,
    Column("table_id", String(16), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("digest", String(64), nullable=False),
    Column("at", Float, nullable=False),
    UniqueConstraint("account_id", "digest", name="uq_offline_matches_digest"),
    Index("ix_offline_matches_account", "account_id"),
)
"""The tables that are matches played offline and sent home: whose, and the digest of the record
(the same record is kept once per account)."""


class OfflineError(ConquianError):
    """An offline match refused: its record is not a legal, finished match (``detail``: the
    replay's error object, its deal, action and rule, when it has them)."""

    def __init__(self, message: Msg, detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.detail = detail or {}


def offline_table(text: str, owner: str) -> tuple[Table, str]:
    """The finished table of an offline match's record and the record's digest; ``owner`` sits at
    seat 1 (the record's first seat), the bots its table note names (else ``foster``) at the
    others.  Refused (:class:`OfflineError`): not a record, an illegal move, a result or a deal
    that does not follow from its seed or deck, a match not over."""
    try:
        rec = read_record(text)
        replay(rec)  # every action legal, every result written the one the engine gives
    except ReplayError as e:
        raise OfflineError(Msg("this offline match cannot be kept: {error}", error=e.message), e.to_json()) from None
    n = len(rec.players)
    if n < 2 or not rec.deals:
        raise OfflineError(Msg("this offline match cannot be kept: it has no deal against a bot"))
    rules = rec.rules()
    note = read_table_note(text, n)
    kinds = note[0] if note else [HUMAN] + ["foster"] * (n - 1)
    if kinds[0] != HUMAN or any(k not in bot_names() for k in kinds[1:]):
        raise OfflineError(Msg("this offline match cannot be kept: the player sits at the first seat, bots at "
                               "the others"))
    # the match's length: the table note's (the page writes it); a Cooncan or mexicano match is one
    # round (R5.4, R8.7)
    deals = note[1] if note else (len(rec.deals) if rules.family == CONQUIAN else n)
    table = Table(id=secrets.token_urlsafe(9)[:12], name=rules.name, rules=rules, seed=None, deals_in_match=deals,
                  first_dealer=rec.deals[0].dealer)
    table.seats[0].kind, table.seats[0].name = HUMAN, owner
    for s, k in zip(table.seats[1:], kinds[1:], strict=True):
        s.kind, s.name = k, rec.players[s.number - 1]
    try:
        for i, d in enumerate(rec.deals):
            deck = d.deck if d.deck is not None else new_deal(rules, None, dealer=d.dealer, seed=d.seed).deck
            table.rebuild([f"{'start' if i == 0 else 'next'} {deck_text(deck)}"])
            table.rebuild([f"act {a}" for a in d.actions])
    except ConquianError as e:  # a name the table refuses, a deal past the match's end
        raise OfflineError(Msg("this offline match cannot be kept: {error}", error=e.message)) from None
    if table.status != OVER:
        raise OfflineError(Msg("this offline match cannot be kept: the match is not over"))
    # the digest of the record as the engine writes it (comments and layout aside), its table note with it
    canonical = table_note(kinds, table.deals_in_match or 1) + write_record(rec)
    return table, hashlib.sha256(canonical.encode()).hexdigest()


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
