"""Quick match's storage: the SQLAlchemy tables of :data:`conquian.web.store.metadata` and the
queries over them (the rules they apply are in the service module beside this one)."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Boolean, Float, Index, Integer, String, delete, func, insert, select, update
from sqlalchemy import Table as SqlTable
from sqlalchemy.engine import Connection

from conquian.bots.levels import level_for
from conquian.web.platform.accounts.storage import accounts, seat_accounts
from conquian.web.platform.friends.storage import blocks
from conquian.web.platform.quickmatch.service import (
    FILL_BOT,
    KEPT_AFTER,
    NEW_RATING,
    QUICK_CLOCK,
    WAIT_AT_MOST,
    Raced,
    Waiting,
    address_key,
    bot_distance,
    groups,
    new_table,
)
from conquian.web.platform.ratings.service import provisional, rating
from conquian.web.platform.ratings.storage import rated_tables, ratings
from conquian.web.store import Store, account_key, metadata, optional, required
from conquian.web.table import Table

quick_queue = SqlTable(
    "quick_queue", metadata,
    account_key("account_id", primary=True),
    *required(game=String(30), players=Integer, rating=Integer, joined_at=Float, bots=Boolean, rated=Boolean),
    *optional(table_id=String(16), seat=Integer, token=String(64), matched_at=Float),
    # when the player's page last asked how things stand (None: when he joined)
    *optional(seen_at=Float),
    # the hash of the address he joined from (address_key): one address is not paired with itself
    *optional(address=String(64)),
    Index("ix_quick_queue_game", "game", "players"),
)


class QuickStore:
    """The queue in the server's database (synchronous; called from worker threads)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    def rating(self, conn: Connection, account_id: str, game: str) -> int:
        """The account's rating of ``game`` as shown (a newcomer's if he has none)."""
        row = conn.execute(select(ratings.c.mu).where(ratings.c.subject == account_id,
                                                      ratings.c.game == game)).first()
        return NEW_RATING if row is None else rating(row.mu)

    def join(self, account_id: str, game: str, players: int, bots: bool, rated: bool = True,
             now: float | None = None, address: str | None = None) -> None:
        """Put the account in the queue (in place of any entry it had, paired or not); ``address``:
        the client address it joined from (kept as :func:`address_key`)."""
        now = time.time() if now is None else now
        with self.engine.begin() as conn:
            conn.execute(delete(quick_queue).where(quick_queue.c.account_id == account_id))
            conn.execute(insert(quick_queue).values(
                account_id=account_id, game=game, players=players, rating=self.rating(conn, account_id, game),
                joined_at=now, bots=bots, rated=rated, table_id=None, seat=None, token=None, matched_at=None,
                seen_at=now, address=None if address is None else address_key(address)))

    def seen(self, account_id: str, now: float | None = None) -> None:
        """Note that the account's page has just asked how things stand (it is still there)."""
        now = time.time() if now is None else now
        with self.engine.begin() as conn:
            conn.execute(update(quick_queue).where(quick_queue.c.account_id == account_id,
                                                   quick_queue.c.table_id.is_(None)).values(seen_at=now))

    def leave(self, account_id: str) -> bool:
        """Take the account out of the queue if it is still waiting; whether it was."""
        with self.engine.begin() as conn:
            return bool(conn.execute(delete(quick_queue).where(quick_queue.c.account_id == account_id,
                                                               quick_queue.c.table_id.is_(None))).rowcount)

    def want_bots(self, account_id: str) -> bool:
        """Have the account's empty seats filled with bots; whether it is still waiting."""
        with self.engine.begin() as conn:
            return bool(conn.execute(update(quick_queue).where(quick_queue.c.account_id == account_id,
                                                               quick_queue.c.table_id.is_(None))
                                     .values(bots=True)).rowcount)

    def entry(self, account_id: str) -> dict[str, Any] | None:
        """The account's entry in the queue, or None; with ``provisional``: whether his rating of
        its game is (:func:`~conquian.web.platform.ratings.service.provisional`)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(quick_queue).where(quick_queue.c.account_id == account_id)).mappings().first()
            if row is None:
                return None
            games = conn.execute(select(ratings.c.games).where(ratings.c.subject == account_id,
                                                               ratings.c.game == row["game"])).scalar()
        return dict(row) | {"provisional": provisional(int(games or 0))}

    def waiting_count(self, game: str, players: int, rated: bool = True, account_id: str | None = None) -> int:
        """How many wait for ``game`` with ``players`` (a rated match, or a casual one); for
        ``account_id`` (waiting himself), himself and those he could be paired with: not an
        account he blocked or that blocked him, nor, for a rated match, one from his address."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(quick_queue.c.account_id, quick_queue.c.address).where(
                quick_queue.c.game == game, quick_queue.c.players == players, quick_queue.c.rated.is_(rated),
                quick_queue.c.table_id.is_(None))).all()
            if account_id is None:
                return len(rows)
            mine = next((r.address for r in rows if r.account_id == account_id), None)
            others = [r.account_id for r in rows if r.account_id != account_id]
            barred = {b for row in conn.execute(select(blocks.c.blocker, blocks.c.blocked).where(
                ((blocks.c.blocker == account_id) & blocks.c.blocked.in_(others))
                | ((blocks.c.blocked == account_id) & blocks.c.blocker.in_(others)))) for b in row} if others else set()
        return 1 + sum(1 for r in rows if r.account_id != account_id and r.account_id not in barred
                       and not (rated and mine is not None and r.address == mine))

    def pair(self, bot_after: float | None, deals: int | None = None, now: float | None = None,
             gone_after: float | None = None, clock: int = QUICK_CLOCK) -> list[Table]:
        """One pairing round over the whole queue: the tables made (stored, rated, their seats
        tied to their accounts, each paired player's row holding his seat), in one transaction.
        ``gone_after``: the seconds after which a waiting player whose page stopped asking leaves
        the queue (None: only after :data:`WAIT_AT_MOST`); ``clock``: the tables' move clock."""
        now = time.time() if now is None else now
        made: list[Table] = []
        unpaired = quick_queue.c.table_id.is_(None)
        gone = unpaired & (quick_queue.c.joined_at < now - WAIT_AT_MOST)
        if gone_after is not None:
            asked = func.coalesce(quick_queue.c.seen_at, quick_queue.c.joined_at)
            gone = gone | (unpaired & (asked < now - gone_after))
        with self.engine.begin() as conn:
            conn.execute(delete(quick_queue).where((quick_queue.c.matched_at < now - KEPT_AFTER) | gone))
            query = (select(quick_queue, accounts.c.name).join(accounts, accounts.c.id == quick_queue.c.account_id)
                     .where(quick_queue.c.table_id.is_(None)).order_by(quick_queue.c.joined_at))
            if self.store.postgres:
                # rows another process is pairing now are skipped (it pairs them); ours are held
                query = query.with_for_update(skip_locked=True, of=quick_queue)
            rows = conn.execute(query).all()
            kinds: dict[tuple[str, int, bool], list[Waiting]] = {}
            names = {r.account_id: r.name for r in rows}
            addresses = {r.account_id: r.address for r in rows}
            for r in rows:
                if r.name is not None:
                    kinds.setdefault((r.game, r.players, bool(r.rated)), []).append(
                        Waiting(r.account_id, r.rating, r.joined_at, bool(r.bots), bot_distance(r.game, r.rating)))
            queued = list(names)
            barred = {(r.blocker, r.blocked) for r in conn.execute(select(blocks.c.blocker, blocks.c.blocked).where(
                blocks.c.blocker.in_(queued), blocks.c.blocked.in_(queued)))} if len(queued) > 1 else set()

            def blocked(a: str, b: str) -> bool:
                return (a, b) in barred or (b, a) in barred

            def apart(a: str, b: str) -> bool:  # a rated match: people, not one address with itself
                return blocked(a, b) or (addresses[a] is not None and addresses[a] == addresses[b])

            for (game, size, rated), waiting in kinds.items():
                for group, bots in groups(waiting, size, now, bot_after, apart if rated else blocked):
                    mean = sum(w.rating for w in group) / len(group)
                    table, tokens = new_table(game, size, [(w.account, str(names[w.account])) for w in group], bots,
                                              deals, rated, level_for(game, mean) or FILL_BOT, clock)
                    for account_id, (seat, token) in tokens.items():
                        claimed = conn.execute(update(quick_queue).where(
                            quick_queue.c.account_id == account_id, quick_queue.c.table_id.is_(None)).values(
                            table_id=table.id, seat=seat, token=token, matched_at=now)).rowcount
                        if claimed != 1:  # paired meanwhile elsewhere: this whole round is undone
                            raise Raced()
                    self.store.insert_table(conn, table)
                    if rated:
                        conn.execute(insert(rated_tables).values(table_id=table.id, settled=False, settled_at=None))
                    conn.execute(insert(seat_accounts), [{"table_id": table.id, "seat": seat, "account_id": a}
                                                         for a, (seat, _token) in tokens.items()])
                    made.append(table)
        return made
