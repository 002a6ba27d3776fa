"""Friends, blocks and reports of ``conquian serve``'s accounts.

- **Friends.** A signed-in player with a name shares an "add me" link (``/f/{code}``: as a link,
  a QR code, or the phone's share sheet); whoever opens it signed in, with a name, is asked to
  confirm, and the two are friends.  A new link ends the old one.  The friends list tells who is
  online (a live connection to a table, or a request, in the last :data:`ONLINE_WINDOW` seconds,
  kept in the database so every server process agrees), and a player at a table may invite a
  friend to it: the friend finds the invitation (the table's join link, nothing of its cards)
  on the lobby and on the account page.
- **Blocks.** A player may block another (by name, or from one of his chat lines at a table).
  Neither then reads the other's chat lines and reactions, in either direction, at any table and
  in every server process; :func:`blocked_between` tells a pairing not to seat them together.
- **Reports.** Anyone at a table may report a chat line he read: the server keeps what was said,
  by whom (the seat's name, and its account if it had one), where and when, for its owner, who
  reads them with ``conquian admin reports`` and closes them with ``conquian admin resolve ID``.
  A report names the line by the id the server gave it, so its words are the server's, not the
  reporter's.

Deleting an account deletes its friendships, blocks, invitations and friend link; a report it
made or was named in keeps the words and the seat's name, without the account.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy import Column, Float, ForeignKey, Index, Integer, String, and_, delete, func, insert, or_, select
from sqlalchemy import Table as SqlTable
from sqlalchemy.engine import Connection as SqlConnection
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.websockets import WebSocket

from conquian.engine.errors import ConquianError
from conquian.i18n import Msg
from conquian.web.accounts import COOKIE, FORGET_ACCOUNT, Account, account_sessions, accounts, seat_accounts
from conquian.web.lang import reader
from conquian.web.pages import ACCOUNT_SCRIPTS, shell_page
from conquian.web.protocol import ProtocolError
from conquian.web.store import metadata
from conquian.web.store import tables as store_tables
from conquian.web.table import OVER, WAITING

if TYPE_CHECKING:
    from conquian.web.server import Connection, Hub, Server

#: Seconds since a player's last connection or request during which he shows as online.
ONLINE_WINDOW = 300.0
#: Seconds between two notes of "still here" for the accounts connected to this process's tables.
SEEN_EVERY = 60.0
#: Chat lines this process remembers (what a report may name).
LINES_KEPT = 5000
#: Invitations a player keeps (the newest), and how long one is shown.
NOTICES_KEPT, NOTICE_AGE = 20, 24 * 3600.0
#: Reports one connection may make.
REPORTS_PER_CONNECTION = 20
#: A report's states.
OPEN_REPORT, RESOLVED = "open", "resolved"

friend_codes = SqlTable(
    "friend_codes", metadata,
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("code", String(32), nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
)

friendships = SqlTable(
    "friendships", metadata,
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("friend_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", Float, nullable=False),
    Index("ix_friendships_friend", "friend_id"),
)

blocks = SqlTable(
    "blocks", metadata,
    Column("blocker", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("blocked", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", Float, nullable=False),
    Index("ix_blocks_blocked", "blocked"),
)

friend_notices = SqlTable(
    "friend_notices", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("to_account", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("from_account", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("table_id", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
    Index("ix_friend_notices_to", "to_account"),
)

account_seen = SqlTable(
    "account_seen", metadata,
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("seen_at", Float, nullable=False),
)

reports = SqlTable(
    "reports", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("reporter", String(32), nullable=True),
    Column("reported", String(32), nullable=True),
    Column("seat_name", String(40), nullable=False),
    Column("table_id", String(16), nullable=False),
    Column("text", String(1000), nullable=False),
    Column("said_at", Float, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("status", String(12), nullable=False),
    Column("resolved_at", Float, nullable=True),
    Index("ix_reports_status", "status"),
)


class FriendError(ConquianError):
    """A refused friends request (its ``code``, a sentence and the HTTP status)."""

    def __init__(self, code: str, message: Msg, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.status = code, status


NO_PLAYER = Msg("there is no player of that name")


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
        try:
            body = await request.json()
        except ValueError:
            body = None
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
