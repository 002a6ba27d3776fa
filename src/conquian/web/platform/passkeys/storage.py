"""The passkeys' storage: the SQLAlchemy tables of :data:`conquian.web.store.metadata` and the
queries over them (the rules they apply are in the service module beside this one)."""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from sqlalchemy import BigInteger, Column, Float, Index, LargeBinary, String, delete, func, insert, select, update
from sqlalchemy import Table as SqlTable
from sqlalchemy.engine import Engine

from conquian.web.platform.accounts.service import hash_secret
from conquian.web.platform.accounts.storage import account_sessions, accounts
from conquian.web.platform.passkeys.service import CHALLENGE_AGE, MAX_PASSKEYS, b64url, unb64url
from conquian.web.store import account_key, metadata, optional, required

passkeys = SqlTable(
    "passkeys", metadata,
    Column("id", String(16), primary_key=True),
    account_key("account_id"),
    Column("credential_id", String(1400), nullable=False, unique=True),
    *required(public_key=LargeBinary, sign_count=BigInteger, transports=String(200), label=String(60),
              created_at=Float),
    *optional(used_at=Float),
    Index("ix_passkeys_account", "account_id"),
)

passkey_challenges = SqlTable(
    "passkey_challenges", metadata,
    Column("challenge", String(64), primary_key=True),
    *required(purpose=String(12)),
    *optional(account_id=String(32), browser=String(64)),
    *required(expires_at=Float),
    Index("ix_passkey_challenges_expires", "expires_at"),
)


class PasskeyStore:
    """The passkeys and the open challenges in the server's database (synchronous)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def new_challenge(self, purpose: str, account_id: str | None = None, browser: str | None = None) -> bytes:
        """A fresh challenge for ``purpose`` (``register``: ``account_id``'s; ``signin``: the
        ``browser``'s), kept until used or :data:`CHALLENGE_AGE` has passed."""
        challenge = secrets.token_bytes(32)
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(delete(passkey_challenges).where(passkey_challenges.c.expires_at < now))
            conn.execute(insert(passkey_challenges).values(
                challenge=hash_secret(b64url(challenge)), purpose=purpose, account_id=account_id,
                browser=hash_secret(browser) if browser else None, expires_at=now + CHALLENGE_AGE))
        return challenge

    def take_challenge(self, challenge: str, purpose: str, account_id: str | None = None,
                       browser: str | None = None) -> bytes | None:
        """The challenge's bytes if it is open, for ``purpose``, of that account or browser, and
        not expired; it is deleted either way (used once)."""
        this = passkey_challenges.c.challenge == hash_secret(challenge)
        with self.engine.begin() as conn:
            row = conn.execute(select(passkey_challenges).where(this)).first()
            if row is None:
                return None
            gone = conn.execute(delete(passkey_challenges).where(this))
        if gone.rowcount != 1 or row.purpose != purpose or row.expires_at < time.time():
            return None  # another process took it first, or it is not this ceremony's
        if row.account_id != account_id or row.browser != (hash_secret(browser) if browser else None):
            return None
        try:
            return unb64url(challenge)
        except ValueError:
            return None

    def add(self, account_id: str, credential_id: bytes, public_key: bytes, sign_count: int,
            transports: list[str], label: str) -> str | None:
        """Keep a new passkey of the account: its id, or None (it is known already, or the account
        holds :data:`MAX_PASSKEYS`)."""
        pid = secrets.token_urlsafe(9)
        with self.engine.begin() as conn:
            held = conn.execute(select(func.count()).select_from(passkeys)
                                .where(passkeys.c.account_id == account_id)).scalar() or 0
            known = conn.execute(select(passkeys.c.id).where(passkeys.c.credential_id == b64url(credential_id))).first()
            if held >= MAX_PASSKEYS or known is not None:
                return None
            conn.execute(insert(passkeys).values(
                id=pid, account_id=account_id, credential_id=b64url(credential_id), public_key=public_key,
                sign_count=sign_count, transports=json.dumps(transports)[:200], label=label, created_at=time.time(),
                used_at=None))
        return pid

    def find(self, credential_id: str) -> Any:
        """The row of a passkey by its credential id (base64url), or None."""
        with self.engine.begin() as conn:
            return conn.execute(select(passkeys).where(passkeys.c.credential_id == credential_id)).first()

    def credential_ids(self, account_id: str) -> list[tuple[bytes, list[str]]]:
        """The account's credential ids and their transports (so that a device is not registered twice)."""
        with self.engine.begin() as conn:
            rows = conn.execute(select(passkeys.c.credential_id, passkeys.c.transports)
                                .where(passkeys.c.account_id == account_id)).all()
        return [(unb64url(r.credential_id), json.loads(r.transports)) for r in rows]

    def end_challenges(self, browser: str) -> None:
        """Delete the open sign-in challenges of ``browser`` (it signed in)."""
        with self.engine.begin() as conn:
            conn.execute(delete(passkey_challenges).where(passkey_challenges.c.browser == hash_secret(browser)))

    def reachable_otherwise(self, account_id: str) -> bool:
        """Whether the account can be reached again without this session: it has a passkey, or
        another session."""
        with self.engine.begin() as conn:
            keys = conn.execute(select(func.count()).select_from(passkeys)
                                .where(passkeys.c.account_id == account_id)).scalar() or 0
            sessions = conn.execute(select(func.count()).select_from(account_sessions)
                                    .where(account_sessions.c.account_id == account_id)).scalar() or 0
        return keys > 0 or sessions > 1

    def used(self, pid: str, old_count: int, sign_count: int) -> bool:
        """Record a sign-in with the passkey (its new counter); False if another sign-in moved the
        counter meanwhile (the same answer twice at once)."""
        with self.engine.begin() as conn:
            done = conn.execute(update(passkeys).where(passkeys.c.id == pid, passkeys.c.sign_count == old_count)
                                .values(sign_count=sign_count, used_at=time.time()))
        return bool(done.rowcount)

    def listing(self, account_id: str) -> list[dict[str, Any]]:
        """The account's passkeys as the page shows them."""
        with self.engine.begin() as conn:
            rows = conn.execute(select(passkeys).where(passkeys.c.account_id == account_id)
                                .order_by(passkeys.c.created_at)).all()
        return [{"id": r.id, "label": r.label, "created_at": r.created_at, "used_at": r.used_at,
                 "transports": json.loads(r.transports)} for r in rows]

    def remove(self, account_id: str, pid: str) -> bool:
        """Remove one of the account's passkeys; whether there was one."""
        with self.engine.begin() as conn:
            done = conn.execute(delete(passkeys).where(passkeys.c.account_id == account_id, passkeys.c.id == pid))
        return bool(done.rowcount)

    def open_session(self, account_id: str, agent: str, replaced: str | None) -> tuple[str, str] | None:
        """A new session of the account (its id and token), or None if the account is gone.  The
        session ``replaced`` (the token the browser held) ends; its account is deleted if it is
        another account with neither a name nor a passkey."""
        token, sid, now = secrets.token_urlsafe(32), secrets.token_urlsafe(9), time.time()
        with self.engine.begin() as conn:
            if conn.execute(select(accounts.c.id).where(accounts.c.id == account_id)).first() is None:
                return None
            if replaced:
                old = conn.execute(select(account_sessions.c.account_id)
                                   .where(account_sessions.c.token_hash == hash_secret(replaced))).scalar()
                conn.execute(delete(account_sessions).where(account_sessions.c.token_hash == hash_secret(replaced)))
                if old is not None and old != account_id:
                    nameless = conn.execute(select(accounts.c.name).where(accounts.c.id == old)).scalar() is None
                    keys = conn.execute(select(func.count()).select_from(passkeys)
                                        .where(passkeys.c.account_id == old)).scalar()
                    if nameless and not keys:
                        conn.execute(delete(account_sessions).where(account_sessions.c.account_id == old))
                        conn.execute(delete(accounts).where(accounts.c.id == old))
            conn.execute(insert(account_sessions).values(token_hash=hash_secret(token), id=sid, account_id=account_id,
                                                         created_at=now, seen_at=now, agent=agent[:120]))
        return sid, token
