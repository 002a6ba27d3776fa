"""The friends', blocks' and reports' storage: the SQLAlchemy tables of
:data:`conquian.web.store.metadata` and the queries over them (the rules they apply are in the
service module beside this one)."""

from __future__ import annotations

import contextlib
import secrets
import time
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Column, Float, Index, Integer, String, and_, delete, func, insert, or_, select
from sqlalchemy import Table as SqlTable
from sqlalchemy.engine import Connection as SqlConnection
from sqlalchemy.engine import Engine

from conquian.i18n import Msg
from conquian.web.platform.accounts.service import FORGET_ACCOUNT
from conquian.web.platform.accounts.storage import account_sessions, accounts, seat_accounts
from conquian.web.platform.friends.service import (
    NO_PLAYER,
    NOTICE_AGE,
    NOTICES_KEPT,
    ONLINE_WINDOW,
    OPEN_REPORT,
    RESOLVED,
    FriendError,
)
from conquian.web.store import account_key, metadata, optional, required
from conquian.web.store import tables as store_tables
from conquian.web.table import WAITING

friend_codes = SqlTable(
    "friend_codes", metadata,
    account_key("account_id", primary=True),
    Column("code", String(32), nullable=False, unique=True),
    *required(created_at=Float),
)



def _pairs(name: str, first: str, second: str, index: str) -> SqlTable:
    """A table of pairs of accounts (``first`` to ``second``) and when each was made, read by either."""
    return SqlTable(name, metadata, account_key(first, primary=True), account_key(second, primary=True),
                    Column("created_at", Float, nullable=False), Index(index, second))


friendships = _pairs("friendships", "account_id", "friend_id", "ix_friendships_friend")
blocks = _pairs("blocks", "blocker", "blocked", "ix_blocks_blocked")

friend_notices = SqlTable(
    "friend_notices", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    account_key("to_account"),
    account_key("from_account"),
    *required(table_id=String(16), created_at=Float),
    Index("ix_friend_notices_to", "to_account"),
)

account_seen = SqlTable(
    "account_seen", metadata,
    account_key("account_id", primary=True),
    *required(seen_at=Float),
)

reports = SqlTable(
    "reports", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    *optional(reporter=String(32), reported=String(32)),
    *required(seat_name=String(40), table_id=String(16), text=String(1000), said_at=Float, created_at=Float,
              status=String(12)),
    *optional(resolved_at=Float),
    Index("ix_reports_status", "status"),
)


def blocked_between(engine_or_store: Engine | FriendStore, a: str | None, b: str | None) -> bool:
    """Whether either of the accounts ``a`` and ``b`` blocked the other: such two are never
    paired at a table, and neither reads the other's chat.  ``engine_or_store`` is the server's
    database engine or a :class:`FriendStore`; a missing account (a guest: None) blocks nobody."""
    if a is None or b is None or a == b:
        return False
    engine = engine_or_store.engine if isinstance(engine_or_store, FriendStore) else engine_or_store
    with engine.begin() as conn:
        return conn.execute(select(blocks.c.blocker).where(or_(
            and_(blocks.c.blocker == a, blocks.c.blocked == b),
            and_(blocks.c.blocker == b, blocks.c.blocked == a))).limit(1)).first() is not None


def forget_account(conn: SqlConnection, account_id: str) -> None:
    """Delete an account's friendships, blocks, invitations, friend link and presence, and take it
    out of the reports (their words and seat names stay) — in the deleting transaction."""
    conn.execute(delete(friendships).where(or_(friendships.c.account_id == account_id,
                                               friendships.c.friend_id == account_id)))
    conn.execute(delete(blocks).where(or_(blocks.c.blocker == account_id, blocks.c.blocked == account_id)))
    conn.execute(delete(friend_notices).where(or_(friend_notices.c.to_account == account_id,
                                                  friend_notices.c.from_account == account_id)))
    conn.execute(delete(friend_codes).where(friend_codes.c.account_id == account_id))
    conn.execute(delete(account_seen).where(account_seen.c.account_id == account_id))
    conn.execute(sa.update(reports).where(reports.c.reporter == account_id).values(reporter=None))
    conn.execute(sa.update(reports).where(reports.c.reported == account_id).values(reported=None))


FORGET_ACCOUNT.append(forget_account)


class FriendStore:
    """Friends, blocks, invitations, presence and reports in the server's database (synchronous;
    called from worker threads, and by ``conquian admin``)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -------------------------------------------------------------- the friend link
    def code_of(self, account_id: str, renew: bool = False) -> str:
        """The account's friend link code (made on first use; ``renew``: a new one, the old link ended)."""
        with self.engine.begin() as conn:
            code = conn.execute(select(friend_codes.c.code).where(friend_codes.c.account_id == account_id)).scalar()
            if code is not None and not renew:
                return str(code)
            conn.execute(delete(friend_codes).where(friend_codes.c.account_id == account_id))
            code = secrets.token_urlsafe(12)
            conn.execute(insert(friend_codes).values(account_id=account_id, code=code, created_at=time.time()))
        return code

    def owner_of(self, code: str) -> tuple[str, str] | None:
        """The (account id, name) whose friend link ``code`` is, or None."""
        with self.engine.begin() as conn:
            row = conn.execute(select(accounts.c.id, accounts.c.name)
                               .join(friend_codes, friend_codes.c.account_id == accounts.c.id)
                               .where(friend_codes.c.code == code[:32])).first()
        return (row.id, row.name) if row is not None and row.name else None

    def _named(self, conn: SqlConnection, name: str) -> str:
        found = conn.execute(select(accounts.c.id).where(accounts.c.name == name[:40])).scalar()
        if found is None:
            raise FriendError("no_player", NO_PLAYER, 404)
        return str(found)

    # -------------------------------------------------------------- friends
    def befriend(self, account_id: str, code: str) -> str:
        """Make the account and the owner of friend link ``code`` friends; the friend's name."""
        owner = self.owner_of(code)
        if owner is None:
            raise FriendError("no_link", Msg("this friend link is not valid (any more): ask for a new one"), 404)
        friend_id, name = owner
        if friend_id == account_id:
            raise FriendError("own_link", Msg("this is your own friend link: share it with a friend"))
        with self.engine.begin() as conn:
            if conn.execute(select(accounts.c.name).where(accounts.c.id == account_id)).scalar() is None:
                raise FriendError("no_name", Msg("choose your name first (on your account's page)"), 409)
        if blocked_between(self.engine, account_id, friend_id):
            raise FriendError("blocked", Msg("one of you blocked the other: unblock first"), 409)
        now = time.time()
        with self.engine.begin() as conn:
            for a, b in ((account_id, friend_id), (friend_id, account_id)):
                if conn.execute(select(friendships.c.account_id).where(friendships.c.account_id == a,
                                                                       friendships.c.friend_id == b)).first() is None:
                    conn.execute(insert(friendships).values(account_id=a, friend_id=b, created_at=now))
        return name

    def unfriend(self, account_id: str, name: str) -> None:
        """End the friendship with ``name`` (both ways), or :class:`FriendError`."""
        with self.engine.begin() as conn:
            other = self._named(conn, name)
            gone = conn.execute(delete(friendships).where(or_(
                and_(friendships.c.account_id == account_id, friendships.c.friend_id == other),
                and_(friendships.c.account_id == other, friendships.c.friend_id == account_id)))).rowcount
        if not gone:
            raise FriendError("not_friends", Msg("{name} is not your friend", name=name[:40]), 404)

    def friends(self, account_id: str, live: set[str] | frozenset[str] = frozenset()) -> list[dict[str, Any]]:
        """The account's friends by name, each with whether he is online (connected here:
        ``live``, or seen by any process in the last :data:`ONLINE_WINDOW` seconds) and when last seen."""
        with self.engine.begin() as conn:
            rows = conn.execute(select(accounts.c.id, accounts.c.name)
                                .join(friendships, friendships.c.friend_id == accounts.c.id)
                                .where(friendships.c.account_id == account_id)).all()
            ids = [r.id for r in rows]
            seen = dict(conn.execute(select(account_seen.c.account_id, account_seen.c.seen_at)
                                     .where(account_seen.c.account_id.in_(ids))).all()) if ids else {}
            used = dict(conn.execute(select(account_sessions.c.account_id, func.max(account_sessions.c.seen_at))
                                     .where(account_sessions.c.account_id.in_(ids))
                                     .group_by(account_sessions.c.account_id)).all()) if ids else {}
        now = time.time()
        out = []
        for r in rows:
            last = max(float(seen.get(r.id) or 0), float(used.get(r.id) or 0))
            out.append({"name": r.name, "online": r.id in live or now - last <= ONLINE_WINDOW,
                        "seen_at": round(last) if last else None})
        out.sort(key=lambda f: (not f["online"], str(f["name"]).casefold()))
        return out

    def touch(self, account_ids: set[str]) -> None:
        """Note that these accounts are here now (connected to a table)."""
        if not account_ids:
            return
        now = time.time()
        with self.engine.begin() as conn:
            for account_id in sorted(account_ids):
                if not conn.execute(sa.update(account_seen).where(account_seen.c.account_id == account_id)
                                    .values(seen_at=now)).rowcount:
                    with contextlib.suppress(Exception), conn.begin_nested():
                        conn.execute(insert(account_seen).values(account_id=account_id, seen_at=now))

    # -------------------------------------------------------------- blocks
    def block(self, account_id: str, other: str) -> None:
        """``account_id`` blocks the account ``other`` (their friendship, if any, ends)."""
        if other == account_id:
            raise FriendError("self", Msg("you cannot block yourself"))
        with self.engine.begin() as conn:
            if conn.execute(select(blocks.c.blocker).where(blocks.c.blocker == account_id,
                                                           blocks.c.blocked == other)).first() is None:
                conn.execute(insert(blocks).values(blocker=account_id, blocked=other, created_at=time.time()))
            conn.execute(delete(friendships).where(or_(
                and_(friendships.c.account_id == account_id, friendships.c.friend_id == other),
                and_(friendships.c.account_id == other, friendships.c.friend_id == account_id))))
            conn.execute(delete(friend_notices).where(or_(
                and_(friend_notices.c.to_account == account_id, friend_notices.c.from_account == other),
                and_(friend_notices.c.to_account == other, friend_notices.c.from_account == account_id))))

    def block_name(self, account_id: str, name: str) -> str:
        """Block the player called ``name``; his account id."""
        with self.engine.begin() as conn:
            other = self._named(conn, name)
        self.block(account_id, other)
        return other

    def unblock(self, account_id: str, name: str) -> str:
        """Unblock the player called ``name``; his account id."""
        with self.engine.begin() as conn:
            other = self._named(conn, name)
            gone = conn.execute(delete(blocks).where(blocks.c.blocker == account_id,
                                                     blocks.c.blocked == other)).rowcount
        if not gone:
            raise FriendError("not_blocked", Msg("you have not blocked {name}", name=name[:40]), 404)
        return other

    def blocked_names(self, account_id: str) -> list[str]:
        """The names of the players the account blocked."""
        with self.engine.begin() as conn:
            rows = conn.execute(select(accounts.c.name).join(blocks, blocks.c.blocked == accounts.c.id)
                                .where(blocks.c.blocker == account_id)).scalars().all()
        return sorted((str(n) for n in rows if n), key=str.casefold)

    def blocked_set(self, account_id: str) -> set[str]:
        """The accounts the account blocked or was blocked by (neither reads the other)."""
        with self.engine.begin() as conn:
            rows = conn.execute(select(blocks.c.blocker, blocks.c.blocked).where(
                or_(blocks.c.blocker == account_id, blocks.c.blocked == account_id))).all()
        return {r.blocked if r.blocker == account_id else r.blocker for r in rows}

    # -------------------------------------------------------------- invitations to a table
    def is_friend(self, account_id: str, name: str) -> str:
        """The account id of the friend called ``name``, or :class:`FriendError`."""
        with self.engine.begin() as conn:
            other = self._named(conn, name)
            if conn.execute(select(friendships.c.account_id).where(friendships.c.account_id == account_id,
                                                                   friendships.c.friend_id == other)).first() is None:
                raise FriendError("not_friends", Msg("{name} is not your friend", name=name[:40]), 404)
        return other

    def seated_at(self, account_id: str, table_id: str) -> bool:
        """Whether the account took a seat at the table."""
        with self.engine.begin() as conn:
            return conn.execute(select(seat_accounts.c.seat).where(seat_accounts.c.account_id == account_id,
                                                                   seat_accounts.c.table_id == table_id)).first() \
                is not None

    def waiting_tables(self, account_id: str, limit: int = 5) -> list[dict[str, str]]:
        """The waiting tables where the account holds a seat, the newest first (their id and name):
        where the account page offers to invite a friend."""
        with self.engine.begin() as conn:
            rows = conn.execute(select(store_tables.c.id, store_tables.c.name)
                                .join(seat_accounts, seat_accounts.c.table_id == store_tables.c.id)
                                .where(seat_accounts.c.account_id == account_id, store_tables.c.status == WAITING)
                                .order_by(store_tables.c.updated_at.desc()).limit(limit)).all()
        return [{"id": r.id, "name": r.name} for r in rows]

    def invite(self, account_id: str, friend_id: str, table_id: str) -> None:
        """Leave the friend an invitation to the table (the newest replaces one to the same table)."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(delete(friend_notices).where(friend_notices.c.to_account == friend_id,
                                                      friend_notices.c.from_account == account_id,
                                                      friend_notices.c.table_id == table_id))
            conn.execute(insert(friend_notices).values(to_account=friend_id, from_account=account_id,
                                                       table_id=table_id, created_at=now))
            old = conn.execute(select(friend_notices.c.id).where(friend_notices.c.to_account == friend_id)
                               .order_by(friend_notices.c.id.desc()).offset(NOTICES_KEPT)).scalars().all()
            if old:
                conn.execute(delete(friend_notices).where(friend_notices.c.id.in_(old)))

    def notices(self, account_id: str) -> list[dict[str, Any]]:
        """The account's invitations of the last day, newest first (who, which table, its link)."""
        with self.engine.begin() as conn:
            rows = conn.execute(select(friend_notices, accounts.c.name)
                                .join(accounts, accounts.c.id == friend_notices.c.from_account)
                                .where(friend_notices.c.to_account == account_id,
                                       friend_notices.c.created_at >= time.time() - NOTICE_AGE)
                                .order_by(friend_notices.c.id.desc())).all()
        return [{"id": r.id, "from": r.name, "table": r.table_id, "link": f"/t/{r.table_id}",
                 "at": round(r.created_at)} for r in rows if r.name]

    def dismiss(self, account_id: str, notice_id: int) -> bool:
        """Forget one of the account's invitations; whether there was one."""
        with self.engine.begin() as conn:
            return bool(conn.execute(delete(friend_notices).where(friend_notices.c.id == notice_id,
                                                                  friend_notices.c.to_account == account_id)).rowcount)

    # -------------------------------------------------------------- reports
    def report(self, reporter: str | None, reported: str | None, seat_name: str, table_id: str, text: str,
               said_at: float) -> int:
        """Keep a report of a chat line; its number."""
        with self.engine.begin() as conn:
            done = conn.execute(insert(reports).values(
                reporter=reporter, reported=reported, seat_name=seat_name[:40], table_id=table_id[:16],
                text=text[:1000], said_at=said_at, created_at=time.time(), status=OPEN_REPORT, resolved_at=None))
            return int(done.inserted_primary_key[0])  # type: ignore[index, unused-ignore]

    def reports(self, every: bool = False) -> list[dict[str, Any]]:
        """The open reports (``every``: the resolved too), oldest first, with the names of the
        accounts they name (None: a guest, or a deleted account)."""
        reporter, reported = accounts.alias("reporter_account"), accounts.alias("reported_account")
        query = (select(reports, reporter.c.name.label("reporter_name"), reported.c.name.label("reported_name"))
                 .outerjoin(reporter, reporter.c.id == reports.c.reporter)
                 .outerjoin(reported, reported.c.id == reports.c.reported).order_by(reports.c.id))
        if not every:
            query = query.where(reports.c.status == OPEN_REPORT)
        with self.engine.begin() as conn:
            rows = conn.execute(query).all()
        return [{"id": r.id, "status": r.status, "table": r.table_id, "seat_name": r.seat_name,
                 "account": r.reported_name, "reporter": r.reporter_name, "text": r.text, "said_at": r.said_at,
                 "created_at": r.created_at, "resolved_at": r.resolved_at} for r in rows]

    def resolve(self, report_id: int) -> bool:
        """Close a report; whether there is such a report (closing a closed one is no error)."""
        with self.engine.begin() as conn:
            found = conn.execute(select(reports.c.status).where(reports.c.id == report_id)).scalar()
            if found is None:
                return False
            if found != RESOLVED:
                conn.execute(sa.update(reports).where(reports.c.id == report_id)
                             .values(status=RESOLVED, resolved_at=time.time()))
        return True
