"""A finished match's rematch: a new table with the same seats, dealt afresh, its totals carried.

The seats stay tied to the accounts that held them, and the rematch of a rated table is rated
too (its match moves the ratings as the first did) while every person there still has his
account; if one of them deleted his account meanwhile, the rematch is casual and private."""

from __future__ import annotations

import secrets

from starlette.concurrency import run_in_threadpool

from conquian.web.master import rematch_table
from conquian.web.server import Hub, Server


async def rematch(server: Server, hub: Hub) -> None:
    """Start the rematch of a finished match: a new table with the same seats (or, if another
    process made it first, the rematch is that one)."""
    old = hub.table  # the master checked the ask (:func:`conquian.web.master.rematch`); it checks the match is over
    async with hub.lock:
        if old.rematch_id is None:
            tied, rated = await run_in_threadpool(server.ratings.rematch_of, old)
            # a rated table is public because it is rated: a casual rematch of it is private
            public = old.public and (rated or not await run_in_threadpool(server.ratings.is_rated, old.id))
            table = rematch_table(old, secrets.token_urlsafe(6), public=public)
            table.rated = rated
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
