"""The accounts' storage: the SQLAlchemy tables of :data:`conquian.web.store.metadata` and the
queries over them (the rules they apply are in the service module beside this one)."""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from sqlalchemy import Column, Float, Index, Integer, String, Text, delete, insert, select, update
from sqlalchemy import Table as SqlTable
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from conquian.i18n import Msg
from conquian.web.platform.accounts.service import (
    DELETED_NAME,
    FORGET_ACCOUNT,
    NAME_UNAVAILABLE,
    SEEN_EVERY,
    Account,
    AccountError,
    hash_secret,
    log,
    look_alike,
    name_keys,
)
from conquian.web.store import account_key, metadata, optional, required, seats, table_key

accounts = SqlTable(
    "accounts", metadata,
    Column("id", String(32), primary_key=True),
    *optional(name=String(40)),
    Column("skeleton", String(160), nullable=True, unique=True),
    *required(created_at=Float),
)

account_sessions = SqlTable(
    "account_sessions", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("id", String(16), nullable=False, unique=True),
    account_key("account_id"),
    *required(created_at=Float, seen_at=Float, agent=String(120)),
    Index("ix_account_sessions_account", "account_id"),
)

seat_accounts = SqlTable(
    "seat_accounts", metadata,
    table_key(),
    Column("seat", Integer, primary_key=True),
    account_key("account_id"),
    Index("ix_seat_accounts_account", "account_id"),
)


learn_progress = SqlTable(
    "learn_progress", metadata,
    account_key("account_id", primary=True),
    *required(lessons=Text, puzzles=Text, updated_at=Float),
)


class AccountStore:
    """The accounts in the server's database (synchronous; called from worker threads)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, agent: str) -> tuple[str, str, str]:
        """A new account and its first session: (account id, session id, session token)."""
        account_id, token, sid = secrets.token_urlsafe(18), secrets.token_urlsafe(32), secrets.token_urlsafe(9)
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(accounts).values(id=account_id, name=None, skeleton=None, created_at=now))
            conn.execute(insert(account_sessions).values(token_hash=hash_secret(token), id=sid, account_id=account_id,
                                                         created_at=now, seen_at=now, agent=agent[:120]))
        return account_id, sid, token

    def session(self, token: str) -> Account | None:
        """The account of a session token, or None (unknown, revoked, its account deleted).  When
        the session was last seen is noted at most every :data:`SEEN_EVERY` seconds, and only
        if the database takes it: a database gone read-only fails the writes that need it, not
        every signed-in request."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts.c.id, accounts.c.name, account_sessions.c.id.label("sid"), account_sessions.c.seen_at)
                .join(account_sessions, account_sessions.c.account_id == accounts.c.id)
                .where(account_sessions.c.token_hash == hash_secret(token))).first()
        if row is None:
            return None
        now = time.time()
        if not 0 <= now - row.seen_at < SEEN_EVERY:
            try:
                with self.engine.begin() as conn:
                    conn.execute(update(account_sessions).where(account_sessions.c.token_hash == hash_secret(token))
                                 .values(seen_at=now))
            except Exception as e:
                reason = (str(getattr(e, "orig", None) or e).splitlines() or [""])[0][:150]
                log.warning("a session's last visit could not be noted", extra={"event": "store_failed",
                                                                                  "error": reason})
        return Account(row.id, row.name, row.sid, token)

    def set_name(self, account_id: str, name: str) -> None:
        """Give the account its display name (once), or :class:`AccountError`."""
        with self.engine.begin() as conn:
            current = conn.execute(select(accounts.c.name).where(accounts.c.id == account_id)).scalar()
            if current is not None:
                raise AccountError("name_chosen", Msg("your name is chosen once: you are {name}", name=current), 409)
            try:
                conn.execute(update(accounts).where(accounts.c.id == account_id)
                             .values(name=name, skeleton=look_alike(name)))
            except IntegrityError:
                raise AccountError("name_unavailable", NAME_UNAVAILABLE, 409) from None

    def refresh_skeletons(self) -> int:
        """Give every named account the skeleton :func:`look_alike` makes today (it learns new
        look-alikes: an account named before must be found by a name that looks like it now);
        how many changed.  Where two accounts named before now look alike, one keeps its old
        skeleton (both names stay; a new name like either is refused)."""
        changed = 0
        with self.engine.begin() as conn:
            rows = conn.execute(select(accounts.c.id, accounts.c.name, accounts.c.skeleton)
                                .where(accounts.c.name.is_not(None)).order_by(accounts.c.created_at)).all()
        for row in rows:
            skeleton = look_alike(row.name)
            if skeleton == row.skeleton:
                continue
            try:
                with self.engine.begin() as conn:
                    conn.execute(update(accounts).where(accounts.c.id == row.id).values(skeleton=skeleton))
                changed += 1
            except IntegrityError:
                continue  # an older account holds it
        return changed

    def sessions(self, account_id: str) -> list[dict[str, Any]]:
        """The account's sessions (their ids, when made and last seen, the browser's words)."""
        with self.engine.begin() as conn:
            rows = conn.execute(select(account_sessions).where(account_sessions.c.account_id == account_id)
                                .order_by(account_sessions.c.created_at)).all()
        return [{"id": r.id, "created_at": r.created_at, "seen_at": r.seen_at, "agent": r.agent} for r in rows]

    def revoke(self, account_id: str, session_id: str) -> bool:
        """End one of the account's sessions; whether there was one."""
        with self.engine.begin() as conn:
            done = conn.execute(delete(account_sessions).where(account_sessions.c.account_id == account_id,
                                                               account_sessions.c.id == session_id))
        return bool(done.rowcount)

    def tie_seat(self, account_id: str, table_id: str, seat: int) -> None:
        """Record that the account took ``seat`` at ``table_id``."""
        with self.engine.begin() as conn:
            conn.execute(delete(seat_accounts).where(seat_accounts.c.table_id == table_id,
                                                     seat_accounts.c.seat == seat))
            conn.execute(insert(seat_accounts).values(table_id=table_id, seat=seat, account_id=account_id))

    def seats_of(self, account_id: str) -> list[tuple[str, int]]:
        """The (table, seat) pairs the account took."""
        with self.engine.begin() as conn:
            rows = conn.execute(select(seat_accounts.c.table_id, seat_accounts.c.seat)
                                .where(seat_accounts.c.account_id == account_id)).all()
        return [(r.table_id, r.seat) for r in rows]

    def sat_at(self, account_id: str, table_id: str) -> bool:
        """Whether the account took a seat at ``table_id``."""
        with self.engine.begin() as conn:
            return conn.execute(select(seat_accounts.c.seat).where(
                seat_accounts.c.table_id == table_id, seat_accounts.c.account_id == account_id)).first() is not None

    def progress(self, account_id: str) -> tuple[list[str], list[str]]:
        """The account's progress in the Learn section: the lessons done, the puzzles solved."""
        with self.engine.begin() as conn:
            row = conn.execute(select(learn_progress.c.lessons, learn_progress.c.puzzles)
                               .where(learn_progress.c.account_id == account_id)).first()
        if row is None:
            return [], []
        return name_keys(row.lessons), name_keys(row.puzzles)

    def set_progress(self, account_id: str, lessons: list[str], puzzles: list[str]) -> None:
        """Keep the account's progress in the Learn section (the whole of it: it replaces the last)."""
        values = {"lessons": json.dumps(sorted(set(lessons))), "puzzles": json.dumps(sorted(set(puzzles))),
                  "updated_at": time.time()}
        with self.engine.begin() as conn:
            done = conn.execute(update(learn_progress).where(learn_progress.c.account_id == account_id)
                                .values(**values))
            if not done.rowcount:
                conn.execute(insert(learn_progress).values(account_id=account_id, **values))

    def delete(self, account_id: str) -> list[tuple[str, int]]:
        """Delete the account and its sessions; its seats keep their place in the records under
        :data:`DELETED_NAME`.  Returns those (table, seat) pairs."""
        with self.engine.begin() as conn:
            taken = [(r.table_id, r.seat) for r in conn.execute(
                select(seat_accounts.c.table_id, seat_accounts.c.seat)
                .where(seat_accounts.c.account_id == account_id)).all()]
            for table_id, seat in taken:
                conn.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat)
                             .values(name=DELETED_NAME))
            conn.execute(delete(seat_accounts).where(seat_accounts.c.account_id == account_id))
            conn.execute(delete(learn_progress).where(learn_progress.c.account_id == account_id))
            for name in ("rating_history", "ratings"):  # its ratings (platform.ratings), if that module is in use
                kept = metadata.tables.get(name)
                if kept is not None:
                    conn.execute(delete(kept).where(kept.c.subject == account_id))
            for name in ("passkeys", "passkey_challenges"):  # its passkeys (conquian.web.platform.passkeys), if in use
                kept = metadata.tables.get(name)
                if kept is not None:
                    conn.execute(delete(kept).where(kept.c.account_id == account_id))
            for forget in FORGET_ACCOUNT:
                forget(conn, account_id)
            conn.execute(delete(account_sessions).where(account_sessions.c.account_id == account_id))
            conn.execute(delete(accounts).where(accounts.c.id == account_id))
        return taken
