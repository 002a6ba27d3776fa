"""The HTTP endpoints of ``conquian serve``: the pages, the rule book, ``/health``, the lobby's
JSON API (the games, the tables, making one, taking a seat, seating a bot) and a match's record
and replay.  They ask the :class:`~conquian.web.server.Server` for the table; a refusal is
``{"error": {...}}`` with its status.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import secrets
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.bots import bot_names
from conquian.bots.expert import strongest_quick_bot
from conquian.bots.levels import LEVELS, bot_ratings, levels_by_rating
from conquian.engine.errors import ConquianError
from conquian.engine.rules import PRESETS, get_rules
from conquian.i18n import ENGLISH, Msg, Translator
from conquian.present import game_name
from conquian.session import HUMAN
from conquian.web import app_shell, protocol, security, site
from conquian.web.finished import Busy
from conquian.web.lang import catalogue, language_list, reader
from conquian.web.limits import HEAVY_BURST, client_address
from conquian.web.lobby import lobby_entry
from conquian.web.pages import tables_page
from conquian.web.protocol import ProtocolError
from conquian.web.ratings import check_rated_bot
from conquian.web.review_jobs import RETRY_AFTER, ReviewAsk, ReviewBusy, ask_of_query
from conquian.web.rulebook_page import rules_html
from conquian.web.server import Hub, Server, snapshot
from conquian.web.store import ConflictError
from conquian.web.table import (
    OPEN,
    OVER,
    PLAYING,
    Table,
    TableError,
    check_turn_timer,
    hash_token,
    new_token,
    rated_clock,
)

log = logging.getLogger("conquian.web")
STATIC = Path(__file__).with_name("static")


def _error(status: int, code: str, message: str | Msg, rule: str | None = None, tr: Translator = ENGLISH,
           ) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "rule": rule, "message": tr.render(message)[:300]}},
                        status_code=status)


def _reader(request: Request) -> Translator:
    """The language a request is answered in: ``?lang=``, else its ``Accept-Language``."""
    return reader(request.query_params.get("lang"), request.headers.get("accept-language"))


def _bearer(request: Request) -> str | None:
    """The token a request presents (``Authorization: Bearer TOKEN``: a seat's or the host's), or None."""
    scheme, _, token = (request.headers.get("authorization") or "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


#: The refusal of a private table's finished match to a request without one of its tokens.
PRIVATE = Msg("this match is kept to its players: open it in the browser you played it in, or from your seat's "
              "link")


def _first_line(e: BaseException) -> str:
    """An exception in one short line (a database error's own message, without its SQL)."""
    text = str(getattr(e, "orig", None) or e).strip()
    return (text.splitlines()[0] if text else type(e).__name__)[:150]


def _conquian_error(e: ConquianError, tr: Translator, status: int = 400) -> JSONResponse:
    code = getattr(e, "code", None) or ("illegal" if getattr(e, "rule", None) else "bad_request")
    return _error(415 if code == "not_json" else status, code, e.message, getattr(e, "rule", None), tr)


async def _body(request: Request, kind: type[Any]) -> Any:
    if not security.is_json(request.headers.get("content-type")):
        raise ProtocolError("not_json", Msg("the body must be JSON, sent as Content-Type: application/json"))
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > protocol.MAX_MESSAGE_BYTES:
            raise ProtocolError("too_large", Msg("a request body is at most {limit} bytes",
                                                 limit=protocol.MAX_MESSAGE_BYTES))
    return protocol.decode_body(data, kind)


def http_routes(server: Server) -> list[BaseRoute]:
    """The pages and the JSON API of ``server``'s tables."""
    settings = server.settings
    # fixed for the process: its bot modules are imported once, compiled or not
    default_bot = strongest_quick_bot()
    reviews = server.reviews
    finished = server.finished

    async def page(request: Request) -> Response:
        return tables_page()

    async def web_manifest(request: Request) -> Response:
        return JSONResponse(app_shell.manifest(_reader(request)), media_type="application/manifest+json",
                            headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    async def service_worker(request: Request) -> Response:
        # never kept by the browser's HTTP cache: a new version is seen on the next visit
        # made once a process (the engine's files read and digested): off the event loop
        return Response(await run_in_threadpool(site.server_worker), media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})

    async def health(request: Request) -> Response:
        try:
            database = await asyncio.wait_for(run_in_threadpool(server.store.ping), 5)
        except Exception:
            database = False
        writable = database and await server.writable()
        whole = server.whole
        ok = writable and server.cluster.listening and whole
        if not security.presents_token(request.headers.get("authorization"), settings.health_token):
            return JSONResponse({"ok": ok}, status_code=200 if ok else 503)
        return JSONResponse({
            "ok": ok, "database": server.store.engine.dialect.name, "database_ok": database,
            "workers_whole": whole,
            "bot_workers_replaced": server.bots.pool.replaced if server.bots else 0,
            "bot_jobs_waiting": server.bots.waiting if server.bots else 0,
            "bot_jobs_run": server.bots.jobs_run if server.bots else 0,
            "database_writable": writable,
            "listening": server.cluster.listening, "worker": server.worker, "pid": os.getpid(),
            "tables_in_memory": len(server.hubs),
            "connections": sum(len(h.connections) for h in server.hubs.values()),
            "bots_for": sorted(server.cluster.leases),
        }, status_code=200 if ok else 503)

    async def rules_page(request: Request) -> Response:
        asked = request.query_params.get("lang")
        tr = _reader(request)
        # a page in the language asked for is the same for everybody; one chosen by the browser's
        # Accept-Language varies with it
        headers = {"Cache-Control": "max-age=3600"} if asked else {"Cache-Control": "no-cache",
                                                                   "Vary": "Accept-Language"}
        return HTMLResponse(rules_html(tr.lang), headers=headers)

    async def i18n(request: Request) -> Response:
        lang = request.path_params["lang"]
        if lang == "auto":  # the browser's languages decide
            return JSONResponse(catalogue(_reader(request).lang),
                                headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})
        return JSONResponse(catalogue(lang[:35]), headers={"Cache-Control": "max-age=3600"})

    async def lang_choice(request: Request) -> Response:
        return JSONResponse({"lang": _reader(request).lang, "languages": language_list()},
                            headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    async def presets(request: Request) -> Response:
        return JSONResponse({
            "variants": [
                {"name": r.name, "family": r.family, "min_players": r.min_players, "max_players": r.max_players,
                 "players": r.players, "options": _option_defaults(r.name), "pack": _pack(r.name)}
                for r in PRESETS.values()
            ],
            "bots": bot_names(),
            "levels": [level.bot for level in LEVELS],
            # per game, the levels as listed for people: by their fitted rating there, weakest first
            "level_order": {name: levels_by_rating(name) for name in PRESETS},
            "bot_ratings": bot_ratings(),
            "default_bot": default_bot,
            "protocol": protocol.VERSION,
            # the turn timers a table may have here (the page's menus: never a copy of the list)
            "turn_timers": list(settings.turn_timers),
        })

    async def list_tables(request: Request) -> Response:
        # the game in the reader's words, the seats free, who sits there, how many watch (here)
        tr = _reader(request)
        per_address = settings.lobby_per_address
        rows = await run_in_threadpool(server.store.listing, 100 * min(per_address, 10), settings.unjoined_after)
        rows = lobby_rows(rows, server.makers, per_address=per_address)
        done = await run_in_threadpool(server.store.finished)
        watching = {i: h.spectators for i, h in server.hubs.items()}
        return JSONResponse({"open": [lobby_entry(r, tr, watching.get(r["id"], 0)) for r in rows],
                             "finished": [lobby_entry(r, tr) for r in done]},
                            headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    async def create_table(request: Request) -> Response:
        tr = _reader(request)
        if not server.limits.new_table(client_address(request.client), time.monotonic()):
            return _error(429, "too_many_tables", Msg("at most {limit} new tables a minute from one address; "
                                                      "try again in a minute",
                                                      limit=f"{settings.tables_per_minute:g}"), tr=tr)
        try:
            spec = await _body(request, protocol.CreateTable)
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
                    from conquian.web.ratings import RATED_AWAY

                    table.away_after = RATED_AWAY
            table.turn_timer = check_turn_timer(spec.turn_timer, settings.turn_timers)
            if spec.rated:  # the move clock: the server's, or a shorter one the host chose
                table.rated = True
                table.turn_timer = rated_clock(table.turn_timer or settings.rated_clock, settings.rated_clock)
        except ConquianError as e:
            return _conquian_error(e, tr)
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
            log.warning("a table could not be stored", extra={"event": "store_failed", "error": _first_line(e)})
            return _error(503, "storage", Msg("the server cannot store the table: {reason}", reason=_first_line(e)),
                          tr=tr)
        address = client_address(request.client)
        hub = server.hubs[table.id] = Hub(table, table.state, maker=address)
        hub.muted, hub.muted_addresses = server.mutes_of(table.id)
        server.made_by(table.id, address)
        server.schedule(hub)
        log.info("table %s created: %s, %d players", table.id, table.rules.name, table.rules.players)
        return JSONResponse({"id": table.id, "host": host_token, "seat": 1 if token else None, "token": token,
                             "url": f"/t/{table.id}"}, status_code=201)

    def no_table(tr: Translator) -> Response:
        """The answer to a request for a table the server does not have."""
        return _error(404, "no_table", Msg("there is no such table"), tr=tr)

    async def get_table(request: Request) -> Response:
        tr = _reader(request)
        hub = await server.hub(request.path_params["id"])
        if hub is None:
            return no_table(tr)
        return JSONResponse(snapshot(hub, None, tr))

    async def invitation_qr(request: Request) -> Response:
        """The table's invitation (its address as the request reached the server) as a QR code, SVG."""
        from conquian.web.invite import qr_svg

        hub = await server.hub(request.path_params["id"])
        if hub is None:
            return no_table(_reader(request))
        invitation = f"{str(request.base_url).rstrip('/')}/t/{hub.table.id}"
        return Response(qr_svg(invitation), media_type="image/svg+xml", headers={"Cache-Control": "no-cache"})

    async def seat_change(request: Request, kind: type[Any], name: str | None = None) -> Response:
        """Take a seat (``Sit``; ``name``: a signed-in player's, whatever the body says) or, for
        the host, give one to a bot (``SeatBot``)."""
        tr = _reader(request)
        hub = await server.hub(request.path_params["id"])
        if hub is None:
            return no_table(tr)
        try:
            spec = await _body(request, kind)
            if name is not None:
                spec = msgspec.structs.replace(spec, name=name)
            if (isinstance(spec, protocol.SeatBot) and spec.bot in bot_names()
                    and await run_in_threadpool(server.ratings.is_rated, hub.table.id)):
                check_rated_bot(hub.table.rules.name, spec.bot)
            answer = await _seat(server, hub, spec)
        except ConquianError as e:
            code = getattr(e, "code", "")
            return _conquian_error(e, tr, {"seat_taken": 409, "not_host": 403, "storage": 503}.get(code, 400))
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
                return _error(403, "sign_in", Msg("a rated table's seats are for signed-in players with a name: "
                                                  "choose yours on your account's page (/account)"),
                              tr=_reader(request))
            return await seat_change(request, protocol.Sit)
        response = await seat_change(request, protocol.Sit, account.name)
        if response.status_code == 200:
            answer = json.loads(bytes(response.body))
            await run_in_threadpool(server.accounts.store.tie_seat, account.id, request.path_params["id"],
                                    answer["seat"])
        return response

    async def seat_bot(request: Request) -> Response:
        return await seat_change(request, protocol.SeatBot)

    def busy(tr: Translator) -> Response:
        return JSONResponse({"error": {"code": "busy", "rule": None, "message": tr.render(
            Msg("the server is busy making other replays and records; try again in a moment"))[:300]}},
            status_code=503, headers={"Retry-After": str(RETRY_AFTER)})

    def too_often(tr: Translator) -> Response:
        return JSONResponse({"error": {"code": "too_fast", "rule": None, "message": tr.render(
            Msg("at most {burst} replays, records and reviews at once from one address, then {rate} a minute",
                burst=HEAVY_BURST, rate=f"{settings.replays_per_minute:g}"))[:300]}},
            status_code=429, headers={"Retry-After": str(max(1, round(60 / settings.replays_per_minute)))})

    def may_make(request: Request, made: bool) -> bool:
        """Whether the request may have something made (what is made already costs nothing)."""
        return made or server.limits.heavy(client_address(request.client), time.monotonic(),
                                           settings.replays_per_minute)

    async def may_read(request: Request, t: Table) -> bool:
        """Whether the request may read ``t``'s finished match: the table's rule (public, or one of
        its tokens), or the signed-in account that sat there (his private match, from any device)."""
        if t.may_read(_bearer(request)):
            return True
        account = await server.accounts.current(request)
        return account is not None and await run_in_threadpool(server.accounts.store.sat_at, account.id, t.id)

    async def record(request: Request) -> Response:
        tr = _reader(request)
        hub = await server.hub(request.path_params["id"])
        if hub is None:
            return no_table(tr)
        t = hub.table
        if t.status == OVER and not await may_read(request, t):
            return _error(403, "private", PRIVATE, tr=tr)
        if t.rated and t.status == PLAYING:  # the fair-play rules: nothing to analyse the live match with
            return _error(409, "fair_play", Msg("a rated match's record is ready once the match is over: the "
                                                "fair-play rules"), tr=tr)
        if t.session is None or not t.session.deal.over:
            return _error(409, "deal_in_progress", Msg("the record can be downloaded between deals and at the end "
                                                       "(it holds the deck of every deal)"), tr=tr)
        if not may_make(request, finished.cached(t, "record") is not None):
            return too_often(tr)
        try:
            text = await finished.record(t)
        except Busy:
            return busy(tr)
        return Response(text, media_type="application/toml", headers={
            "Content-Disposition": f'attachment; filename="conquian-{t.rules.name}-{t.id}.toml"'})

    async def finished_match(request: Request, tr: Translator, refusal: Msg) -> Table | Response:
        """The request's table when its match is over (nothing in its record is then secret to
        anyone at the table) and the request may read it (a public table, or one of the table's
        tokens); else the refusal: 404 no such table, 409 ``refusal``, 403 ``private``."""
        hub = await server.hub(request.path_params["id"])
        if hub is None:
            return no_table(tr)
        t = hub.table
        if t.status != OVER or t.session is None:
            return _error(409, "not_over", refusal, tr=tr)
        if not await may_read(request, t):
            return _error(403, "private", PRIVATE, tr=tr)
        return t

    async def replay(request: Request) -> Response:
        tr = _reader(request)
        found = await finished_match(request, tr, Msg("a match can be replayed once it is over"))
        if isinstance(found, Response):
            return found
        t = found
        if not may_make(request, finished.cached(t, "replay") is not None):
            return too_often(tr)
        try:
            frames = await finished.replay(t)
        except Busy:
            return busy(tr)
        head = json.dumps({"id": t.id, "name": t.name, "variant": t.rules.name, "names": t.names},
                          ensure_ascii=False, separators=(",", ":")).encode()
        return Response(head[:-1] + b',"frames":' + frames + b"}", media_type="application/json")

    async def review(request: Request) -> Response:
        """``POST``: review a seat in a deal of a finished match (a job, or the review made before);
        ``GET ?seat=&deal=&playouts=``: its progress or the review (docs/review.md)."""
        tr = _reader(request)
        found = await finished_match(request, tr, Msg("a match can be reviewed once it is over"))
        if isinstance(found, Response):
            return found
        t = found
        start = request.method == "POST"
        address = client_address(request.client)
        try:
            if start:
                ask = await _body(request, ReviewAsk)
            else:
                ask = ask_of_query(request.query_params)
            if not may_make(request, finished.cached(t, "record") is not None and not start):
                return too_often(tr)
            text = await finished.record(t)
            status, answer = await run_in_threadpool(reviews.ask, text, ask.seat, ask.deal, ask.playouts, tr,
                                                     start, address)
            if answer.get("status") == "done":
                # the seat's accuracy for its player's page (a seat tied to an account), from the
                # server's own review only (its playouts: one asked with fewer is answered, not
                # kept); the review is answered even if the figure cannot be kept (a database gone
                # read-only, two processes keeping the same figure at once)
                try:
                    await run_in_threadpool(server.ratings.keep_review, t.id, answer["review"],
                                            reviews.playouts_for(str(answer["review"]["variant"]), None))
                except Exception as e:
                    log.warning("a review's accuracy could not be kept",
                                extra={"event": "store_failed", "error": _first_line(e)})
        except Busy:
            return busy(tr)
        except ReviewBusy as e:
            return JSONResponse({"error": {"code": e.code, "rule": None, "message": e.render(tr)}}, status_code=503,
                                headers={"Retry-After": str(RETRY_AFTER)})
        except ConquianError as e:
            return _conquian_error(e, tr)
        return JSONResponse(answer, status_code=status)

    return [
        Route("/", page),
        Route("/t/{id}", page),
        Route("/r/{id}", page),
        Route("/manifest.webmanifest", web_manifest),
        Route("/sw.js", service_worker),
        Route("/health", health),
        Route("/rules", rules_page),
        Route("/i18n/{lang}.json", i18n),
        Route("/api/lang", lang_choice),
        Route("/api/presets", presets),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{id}", get_table),
        Route("/api/tables/{id}/sit", sit, methods=["POST"]),
        Route("/api/tables/{id}/invitation.svg", invitation_qr),
        Route("/api/tables/{id}/bot", seat_bot, methods=["POST"]),
        Route("/api/tables/{id}/record", record),
        Route("/api/tables/{id}/replay", replay),
        Route("/api/tables/{id}/review", review, methods=["GET", "POST"]),
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


@functools.cache
def _pack(variant: str) -> str:
    """``spanish`` for the presets played with the Spanish pack (R2.2, R8.1), whose suits a player may
    have shown as oros, copas, espadas and bastos; ``french`` otherwise."""
    ranks = PRESETS[variant].ranks
    return "spanish" if 11 in ranks and 8 not in ranks else "french"


def _option_defaults(variant: str) -> dict[str, Any]:
    return {k: v for k, v in PRESETS[variant].option_values().items() if k != "players"}


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

