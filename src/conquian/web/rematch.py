"""A finished match's rematch: a new table with the same seats, dealt afresh, its totals carried.

The seats stay tied to the accounts that held them, and the rematch of a rated table is rated
too (its match moves the ratings as the first did) while every person there still has his
account; if one of them deleted his account meanwhile, the rematch is casual and private."""

from __future__ import annotations

import secrets

from starlette.concurrency import run_in_threadpool

from conquian.i18n import Msg
from conquian.web.server import Hub, Server
from conquian.web.table import OVER, Table, TableError


async def rematch(server: Server, hub: Hub) -> None:
    """Start the rematch of a finished match: a new table with the same seats (or, if another
    process made it first, the rematch is that one)."""
    old = hub.table
    if old.status != OVER:
        raise TableError("not_over", Msg("a rematch starts once the match is over"))
    async with hub.lock:
        if old.rematch_id is None:
            tied, rated = await run_in_threadpool(server.ratings.rematch_of, old)
            # a rated table is public because it is rated: a casual rematch of it is private
            public = old.public and (rated or not await run_in_threadpool(server.ratings.is_rated, old.id))
            # a rematch is dealt from fresh randomness, a set deal's too: its decks are known to
            # whoever read the first match's record or replay (seats swapped, every card the same)
            table = Table(id=secrets.token_urlsafe(6), name=old.name, rules=old.rules, seed=None, deck=None,
                          host_hash=old.host_hash, show_buried=old.show_buried, away_after=old.away_after,
                          deals_in_match=old.deals_in_match, pace=old.pace, turn_timer=old.turn_timer,
                          public=public, first_dealer=old.dealer_of_first_deal % len(old.seats) + 1,
                          carried=[int(r["total"]) for r in old.standings()])  # type: ignore[call-overload, unused-ignore]
            table.rated = rated
            for s, o in zip(table.seats, old.seats, strict=True):
                s.kind, s.name, s.token_hash = o.kind, o.name, o.token_hash
            table.start_if_full()
            await run_in_threadpool(server.store.create, table)
            old.rematch_id = table.id
            stored = await run_in_threadpool(server.store.save_rematch, old)
            if stored != table.id:  # another process made the rematch first: join that one
                await run_in_threadpool(server.store.delete, table.id)
                old.rematch_id = stored
                return
            await run_in_threadpool(server.ratings.keep_rematch, table.id, tied, rated)
            new = server.hubs[table.id] = Hub(table, table.state, maker=hub.maker)
            new.muted, new.muted_addresses = server.mutes_of(table.id)
            server.schedule(new)
