"""The lobby's routes: the list of tables (a few a maker) and making a table (its settings checked,
a rated table's seats and clock, a set deal's deck)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.engine.errors import ConquianError
from conquian.engine.rules import PRESETS, get_rules
from conquian.i18n import ENGLISH, Msg, Translator
from conquian.present import game_name
from conquian.session import HUMAN
from conquian.web import protocol
from conquian.web.limits import client_address
from conquian.web.lobby import lobby_entry
from conquian.web.platform.ratings.service import check_rated_bot
from conquian.web.protocol import ProtocolError
from conquian.web.routes.common import conquian_error, first_line, lang_of, log, read_body, refuse
from conquian.web.server import Hub, Server
from conquian.web.table import OPEN, Table, TableError, check_turn_timer, hash_token, new_token, rated_clock


def routes(server: Server) -> list[BaseRoute]:
    """The lobby: the list of tables and making one."""
    settings = server.settings

    async def list_tables(request: Request) -> Response:
        # the game in the reader's words, the seats free, who sits there, how many watch (here)
        tr = lang_of(request)
        per_address = settings.lobby_per_address
        rows = await run_in_threadpool(server.store.listing, 100 * min(per_address, 10), settings.unjoined_after)
        rows = lobby_rows(rows, server.makers, per_address=per_address)
        done = await run_in_threadpool(server.store.finished)
        watching = {i: h.spectators for i, h in server.hubs.items()}
        return JSONResponse({"open": [lobby_entry(r, tr, watching.get(r["id"], 0)) for r in rows],
                             "finished": [lobby_entry(r, tr) for r in done]},
                            headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    async def create_table(request: Request) -> Response:
        tr = lang_of(request)
        if not server.limits.new_table(client_address(request.client), time.monotonic()):
            return refuse(429, "too_many_tables", Msg("at most {limit} new tables a minute from one address; "
                                                      "try again in a minute",
                                                      limit=f"{settings.tables_per_minute:g}"), tr=tr)
        try:
            spec = await read_body(request, protocol.CreateTable)
            table, host_token, token = _new_table(spec, tr)
            if spec.rated:
                if token is not None:
                    raise TableError("sign_in", Msg("at a rated table, every person sits from a signed-in account: "
                                                    "take your seat once the table is made"))
                for place in table.seats:  # only bots with a fitted rating in the game
                    if place.kind not in (OPEN, HUMAN):
                        check_rated_bot(table.rules.name, place.kind)
                table.public = True  # a rated match is listed when it is over, its replay open to all
                if table.away_after is None:  # a person who leaves does not stop the match: a bot plays on
                    from conquian.web.platform.ratings.service import RATED_AWAY

                    table.away_after = RATED_AWAY
            table.turn_timer = check_turn_timer(spec.turn_timer, settings.turn_timers)
            if spec.rated:  # the move clock: the server's, or a shorter one the host chose
                table.rated = True
                table.turn_timer = rated_clock(table.turn_timer or settings.rated_clock, settings.rated_clock)
        except ConquianError as e:
            return conquian_error(e, tr)
        try:
            await run_in_threadpool(server.store.create, table)
            if spec.rated:
                await run_in_threadpool(server.ratings.mark_rated, table.id)
            if token is not None:
                # a signed-in host who sits under his account's name: the seat is his account's (as
                # when he sits later), so that he may invite his friends from his account's page
                account = await server.accounts.current(request)
                if account is not None and account.name is not None and table.seats[0].name == account.name:
                    await run_in_threadpool(server.accounts.store.tie_seat, account.id, table.id, 1)
        except Exception as e:  # a full disk, a database gone read-only or away
            server.write_failed()
            log.warning("a table could not be stored", extra={"event": "store_failed", "error": first_line(e)})
            return refuse(503, "storage", Msg("the server cannot store the table: {reason}", reason=first_line(e)),
                          tr=tr)
        address = client_address(request.client)
        hub = server.hubs[table.id] = Hub(table, table.state, maker=address)
        hub.muted, hub.muted_addresses = server.mutes_of(table.id)
        server.made_by(table.id, address)
        server.schedule(hub)
        log.info("table %s created: %s, %d players", table.id, table.rules.name, table.rules.players)
        return JSONResponse({"id": table.id, "host": host_token, "seat": 1 if token else None, "token": token,
                             "url": f"/t/{table.id}"}, status_code=201)

    return [
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
    ]




#: Waiting tables the lobby lists from one address (that made them), at most.
LOBBY_PER_ADDRESS = 5


def lobby_rows(rows: list[dict[str, Any]], makers: Mapping[str, str], limit: int = 100,
               per_address: int = LOBBY_PER_ADDRESS) -> list[dict[str, Any]]:
    """The lobby's ``rows`` (in their order), at most ``per_address`` of the waiting tables one
    address made (``makers``: table -> address), at most ``limit`` in all: many tables made from
    a few addresses cannot push the others out of the list.  Tables being played are not counted.

    >>> rows = [{"id": f"t{i}", "status": "waiting"} for i in range(6)]
    >>> [r["id"] for r in lobby_rows(rows, {"t0": "a", "t1": "a", "t2": "a", "t3": "a"}, per_address=2)]
    ['t0', 't1', 't4', 't5']
    """
    out: list[dict[str, Any]] = []
    count: dict[str, int] = {}
    for r in rows:
        maker = makers.get(r["id"])
        if maker is not None and r.get("status") == "waiting":
            count[maker] = count.get(maker, 0) + 1
            if count[maker] > per_address:
                continue
        out.append(r)
        if len(out) >= limit:
            break
    return out


def _new_table(spec: protocol.CreateTable, tr: Translator = ENGLISH) -> tuple[Table, str, str | None]:
    """A new table as ``spec`` asks (unnamed: named in the words of its creator's language)."""
    if spec.variant not in PRESETS:
        raise TableError("bad_variant", Msg("there is no game {variant} (games: {games})",
                                            variant=repr(spec.variant[:30]), games=", ".join(PRESETS)))
    options = dict(spec.options)
    if spec.players is not None:
        options["players"] = spec.players
    rules = get_rules(spec.variant, **options)
    kinds = [s.kind for s in spec.seats] or ([OPEN] * rules.players)
    if len(kinds) != rules.players:
        raise TableError("no_seat", Msg("{game} with {players} players has {players} seats, not {seats}",
                                        game=game_name(rules.name), players=rules.players, seats=len(kinds)))
    deck = _set_deal(spec, rules)
    host_token = new_token()
    # no name given: the game's name for people, never its preset's code ("Conquián mexicano")
    name = protocol.check_table_name(spec.name) or tr.render(game_name(rules.name))
    table = Table(
        id=secrets.token_urlsafe(6), name=name[:60],
        rules=rules, seed=spec.seed, deck=deck, host_hash=hash_token(host_token),
        show_buried=spec.show_buried, away_after=spec.away_after, deals_in_match=spec.deals, public=spec.public,
    )
    token = None
    if spec.host_name is not None:
        if kinds[0] not in (OPEN, HUMAN):
            raise TableError("seat_taken", Msg("the host sits at seat 1: leave it open"))
        token = table.sit(1, spec.host_name)
    for number, kind in enumerate(kinds, 1):
        if kind not in (OPEN, HUMAN) and table.seats[number - 1].kind == OPEN:
            table.set_bot(number, kind, host=True)
    return table, host_token, token


def _set_deal(spec: protocol.CreateTable, rules: Any) -> tuple[int, ...] | None:
    """A set deal's first deck (checked), or None; a seed or a deck without ``set_deal`` is
    refused: an ordinary table's cards come from the server's randomness only."""
    if not spec.set_deal:
        if spec.seed is not None or spec.deck is not None:
            raise ProtocolError("not_set_deal", Msg("the server shuffles every deal: a seed or a deck makes a set "
                                                    "deal (set_deal: true), which every seat is shown"))
        return None
    if spec.seed is None and spec.deck is None:
        raise ProtocolError("bad_set_deal", Msg("a set deal needs a seed or a deck"))
    if spec.deck is None:
        return None
    from conquian.engine.cards import parse_cards
    from conquian.engine.match import new_deal

    try:
        deck = tuple(parse_cards(spec.deck))
        new_deal(rules, deck)
    except ConquianError as e:
        raise ProtocolError("bad_deck", Msg("the deck is not a {game} deck: {reason}", game=game_name(rules.name),
                                            reason=e.message)) from None
    return deck
