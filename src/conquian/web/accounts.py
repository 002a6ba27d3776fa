"""Players who come back: an account without a password, made on a person's first visit (a
``POST``: reading the account never makes one) and kept by a cookie (``Secure`` over HTTPS,
``HttpOnly``, ``SameSite=Lax``), with a display name chosen once.

- A name is unique up to what it looks like: NFKC, case folding, and a confusables skeleton
  (Unicode's confusables through ``confusable_homoglyphs``, plus the tables' own
  :func:`~conquian.web.table.name_skeleton`), so "Аnn" with a Cyrillic A is refused beside "Ann".
  Letter pairs that read as one letter ("Sarn" and "Sam") and punctuation around a name count
  for nothing; every bot's name, in every language, and the server's own words are kept
  (:func:`reserved`).  A refused name is refused in the same words whether it is taken or only
  looks like one taken, and no endpoint says whether an account exists (no enumeration).
- A session is a random token; the server keeps its SHA-256 only, and a session can be revoked
  (signing out revokes the current one; ``/api/account/sessions`` lists and revokes the others).
- Every state-changing request that carries the cookie must present the session's CSRF token in
  ``X-CSRF-Token`` (and, when it sends one, an ``Origin`` of this server): a page of another site
  cannot act with a player's cookie.  Requests without the cookie hold no ambient authority (a
  seat's or host's token travels in the request itself) and keep the API's rules.
- Rate limits per address and per account on making accounts, choosing names and revoking.
- Deleting an account deletes its sessions and replaces its name, in every seat it took, with
  :data:`DELETED_NAME`.

```pycon
>>> look_alike("Ann") == look_alike("\\u0410nn") == look_alike("ANN") == look_alike("Аnn")
True
>>> look_alike("Ann") == look_alike("Anne")
False
>>> check_display_name("  Ann  ")
'Ann'

```
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import logging
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Float, ForeignKey, Index, Integer, String, Text, delete, insert, select, update
from sqlalchemy import Table as SqlTable
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.engine.errors import ConquianError
from conquian.engine.match import check_name
from conquian.i18n import N_, Msg, Translator
from conquian.web.lang import reader
from conquian.web.limits import client_address
from conquian.web.pages import ACCOUNT_SCRIPTS, shell_page
from conquian.web.security import is_json
from conquian.web.store import metadata, seats
from conquian.web.table import name_skeleton

log = logging.getLogger("conquian.web.accounts")

#: The cookie that keeps a player's session.
COOKIE = "conquian_account"
#: The readable cookie that holds the session's CSRF token for the page's scripts.
CSRF_COOKIE = "conquian_csrf"
#: The cookie that ties a passkey sign-in's challenge to the browser (:mod:`conquian.web.passkeys`),
#: and the path it is sent to.
PASSKEY_COOKIE, PASSKEY_PATH = "conquian_passkey", "/api/account/passkeys"
#: The header that carries a session's CSRF token on a state-changing request.
CSRF_HEADER = "x-csrf-token"
#: How long a session's cookie is kept by the browser (a year; the server can revoke it sooner).
COOKIE_AGE = 365 * 24 * 3600
#: What a deleted account's seats are named in the kept records.
DELETED_NAME = "deleted player"
#: The length of a display name.
NAME_MIN, NAME_MAX = 2, 24
#: Seconds between two notes of when a session was last seen (each signed-in request would
#: otherwise write to the database; a friend is online for minutes after a request).
SEEN_EVERY = 60.0
#: Requests changing state without cookie authority: the methods that need the CSRF token.
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})

accounts = SqlTable(
    "accounts", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(40), nullable=True),
    Column("skeleton", String(160), nullable=True, unique=True),
    Column("created_at", Float, nullable=False),
)

account_sessions = SqlTable(
    "account_sessions", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("id", String(16), nullable=False, unique=True),
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
    Column("agent", String(120), nullable=False),
    Index("ix_account_sessions_account", "account_id"),
)

seat_accounts = SqlTable(
    "seat_accounts", metadata,
    Column("table_id", String(16), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Index("ix_seat_accounts_account", "account_id"),
)


learn_progress = SqlTable(
    "learn_progress", metadata,
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("lessons", Text, nullable=False),
    Column("puzzles", Text, nullable=False),
    Column("updated_at", Float, nullable=False),
)


class AccountError(ConquianError):
    """A refused account request (its ``code`` and a sentence)."""

    def __init__(self, code: str, message: Msg, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.status = code, status


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype: the smallest of the characters Unicode's confusables
    say it looks like (itself included), so every member of a group maps alike."""
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped, unused-ignore]

    out: dict[str, str] = {}
    for ch, entry in confusables.confusables_data.items():
        group = [ch, *(h["c"] for h in entry if len(h["c"]) == 1)]
        out[ch] = min(group)
    return out


def look_alike(name: str) -> str:
    """What a display name looks like: NFKC, case folded, each character its confusables'
    prototype, then the tables' own skeleton (blanks, marks and the usual look-alikes)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    proto = _prototypes()
    mapped = "".join(proto.get(ch, ch) for ch in folded)
    return name_skeleton(unicodedata.normalize("NFKC", mapped).casefold())


#: Names no account may take, besides every bot's (:func:`reserved_skeletons`): the server's own
#: words for people who are not a player, and what a deleted account's seats show.  Marked for
#: the catalogues: each is refused in every language the server speaks.
RESERVED = (N_("admin"), N_("administrator"), N_("moderator"), N_("guest"), N_("host"), N_("spectator"),
            N_("system"), N_("server"), N_("bot"), N_("anonymous"), N_("nobody"), N_("deleted player"))


@functools.cache
def reserved_skeletons() -> tuple[frozenset[str], tuple[str, ...]]:
    """The skeletons (:func:`look_alike`) of the names no account may take, and the beginnings
    no name may have: every registered bot's id and its name for people in every language
    (``expert``, ``Master``, ``Experto``...), :data:`RESERVED` in every language, and what
    a spectator is called in the chat ("spectator 3f2a", any number)."""
    from conquian.bots import bot_names
    from conquian.i18n import languages, translator
    from conquian.present import bot_name

    words: set[str] = set()
    starts: list[str] = []
    for lang in languages():
        tr = translator(lang)
        for kind in bot_names():
            words.update((kind, tr.render(bot_name(kind))))
        words.update(tr.render(Msg(w)) for w in RESERVED)
        starts.append(look_alike(tr.render(Msg("spectator {number}", number=""))))
    return frozenset(look_alike(w) for w in words), tuple(s for s in starts if s)


def reserved(name: str) -> bool:
    """Whether ``name`` is, or looks like, a name kept for the server's bots and words.

    >>> [reserved(n) for n in ("expert", "MASTER", "Maestro", "rand0m", "deleted player", "Spectator 12", "Ann")]
    [True, True, True, True, True, True, False]
    """
    words, starts = reserved_skeletons()
    skeleton = look_alike(name)
    return skeleton in words or skeleton.startswith(starts)


def check_display_name(name: object) -> str:
    """A display name as kept (NFKC, trimmed), or :class:`AccountError` ``bad_name``: 2 to 24
    characters, letters, digits, spaces and ``-_.'`` only, of one script besides common ones;
    ``name_unavailable`` for a name kept for the bots and the server's words (:func:`reserved`)."""
    if not isinstance(name, str):
        raise AccountError("bad_name", Msg("a name is {low} to {high} letters or digits", low=NAME_MIN, high=NAME_MAX))
    name = " ".join(unicodedata.normalize("NFKC", name).split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise AccountError("bad_name", Msg("a name is {low} to {high} letters or digits", low=NAME_MIN, high=NAME_MAX))
    try:
        check_name(name)
    except ConquianError as e:
        raise AccountError("bad_name", e.message) from None
    if not all(ch.isalnum() or ch in " -_.'" for ch in name) or not any(ch.isalnum() for ch in name):
        raise AccountError("bad_name", Msg("a name holds letters, digits, spaces and - _ . ' only"))
    from confusable_homoglyphs import confusables

    if confusables.is_mixed_script(name, allowed_aliases=["COMMON"]):
        raise AccountError("bad_name", Msg("a name is written in one alphabet"))
    if reserved(name):
        raise AccountError("name_unavailable", NAME_UNAVAILABLE, 409)
    return name


def same_origin(origin: str | None, scheme: str, host: str | None, also: tuple[str, ...] = ()) -> bool:
    """Whether a request's ``Origin`` header (None: it sent none) is this server's: its scheme
    (a WebSocket's ``ws``/``wss`` is its page's ``http``/``https``) and its host, port included
    (``https://host`` and ``http://host`` are two origins), or one of ``also`` (``serve --origin``).

    >>> same_origin("https://cards.example", "https", "cards.example"), same_origin(None, "http", "x")
    (True, True)
    >>> same_origin("http://cards.example", "https", "cards.example")
    False
    """
    if origin is None or origin in also:
        return True
    web = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    return origin.strip().lower() == f"{web}://{host or ''}".lower()


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def csrf_of(token: str) -> str:
    """The CSRF token of the session ``token`` (derived: every server process agrees, nothing kept)."""
    return hashlib.sha256(b"conquian csrf\0" + token.encode("utf-8", "replace")).hexdigest()


@dataclass
class Account:
    """A signed-in player: the account and the session the request came with."""

    id: str
    name: str | None
    session_id: str
    token: str


class Window:
    """At most ``count`` events a ``seconds`` for each key (an address, an account)."""

    def __init__(self, count: int, seconds: float) -> None:
        self.count, self.seconds = count, seconds
        self.seen: dict[str, deque[float]] = {}

    def allow(self, key: str, now: float) -> bool:
        """Whether one more event for ``key`` is allowed now (and count it)."""
        times = self.seen.setdefault(key, deque())
        while times and times[0] <= now - self.seconds:
            times.popleft()
        if len(self.seen) > 10000:  # forget the quiet keys
            for k in [k for k, v in self.seen.items() if not v]:
                del self.seen[k]
        if len(times) >= self.count:
            return False
        times.append(now)
        return True


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
            conn.execute(insert(account_sessions).values(token_hash=_hash(token), id=sid, account_id=account_id,
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
                .where(account_sessions.c.token_hash == _hash(token))).first()
        if row is None:
            return None
        now = time.time()
        if not 0 <= now - row.seen_at < SEEN_EVERY:
            try:
                with self.engine.begin() as conn:
                    conn.execute(update(account_sessions).where(account_sessions.c.token_hash == _hash(token))
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
        return _keys(row.lessons), _keys(row.puzzles)

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
            for name in ("rating_history", "ratings"):  # its ratings (conquian.web.ratings), if that module is in use
                kept = metadata.tables.get(name)
                if kept is not None:
                    conn.execute(delete(kept).where(kept.c.subject == account_id))
            for name in ("passkeys", "passkey_challenges"):  # its passkeys (conquian.web.passkeys), if in use
                kept = metadata.tables.get(name)
                if kept is not None:
                    conn.execute(delete(kept).where(kept.c.account_id == account_id))
            for forget in FORGET_ACCOUNT:
                forget(conn, account_id)
            conn.execute(delete(account_sessions).where(account_sessions.c.account_id == account_id))
            conn.execute(delete(accounts).where(accounts.c.id == account_id))
        return taken


def _keys(text: str) -> list[str]:
    try:
        data = json.loads(text)
    except ValueError:
        return []
    return [k for k in data if isinstance(k, str)] if isinstance(data, list) else []


#: What else forgets a deleted account, in the deleting transaction (:mod:`conquian.web.friends` adds itself).
FORGET_ACCOUNT: list[Callable[[Any, str], None]] = []


#: The one refusal of a name that is taken or looks like one taken (no enumeration).
NAME_UNAVAILABLE = Msg("that name is not available (it, or a name that looks like it, is taken): choose another")
TOO_FAST = Msg("too many account requests; try again in a minute")


def _tr(request: Request) -> Translator:
    return reader(request.query_params.get("lang"), request.headers.get("accept-language"))


def _refuse(request: Request, code: str, message: Msg, status: int) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "rule": None, "message": _tr(request).render(message)[:300]}},
                        status_code=status)


def _storage(request: Request, e: BaseException) -> JSONResponse:
    """``503 storage``, as the tables' requests answer when the database fails them."""
    text = str(getattr(e, "orig", None) or e).strip()
    return _refuse(request, "storage", Msg("the server cannot keep your progress now: {reason}",
                                           reason=(text.splitlines()[0] if text else type(e).__name__)[:150]), 503)


class Accounts:
    """The accounts of one server process: the store, the rate limits and the routes."""

    def __init__(self, engine: Engine, new_per_hour: int = 10, per_minute: int = 20,
                 origins: tuple[str, ...] = ()) -> None:
        self.store = AccountStore(engine)
        self.origins = origins
        """Origins besides the server's own its pages may come from (``serve --origin``)."""
        self.per_address = Window(per_minute, 60.0)
        self.per_account = Window(max(1, per_minute // 2), 60.0)
        self.new_per_address = Window(new_per_hour, 3600.0)
        #: called with an account's id when this browser leaves it (signs out, or signs in to
        #: another account): what waited for the account on this browser's behalf lets go of it
        self.leaving: list[Callable[[str], Awaitable[None]]] = []

    async def current(self, request: Request) -> Account | None:
        """The request's account (its cookie's session), or None."""
        token = request.cookies.get(COOKIE)
        if not token or len(token) > 100:
            return None
        return await run_in_threadpool(self.store.session, token)

    async def viewer(self, request: Request) -> str | None:
        """The account id of the request's session, or None (reading only: no account is made)."""
        account = await self.current(request)
        return account.id if account is not None else None

    def csrf_ok(self, request: Request, account: Account) -> bool:
        """Whether a state-changing request with the account's cookie shows its CSRF token (and,
        if it says where it comes from, comes from this server)."""
        if not same_origin(request.headers.get("origin"), request.url.scheme, request.headers.get("host"),
                           self.origins):
            return False
        given = request.headers.get(CSRF_HEADER) or ""
        return hmac.compare_digest(given.encode(), csrf_of(account.token).encode())

    def limited(self, request: Request, account: Account | None) -> bool:
        """Whether the request goes past a rate limit (its address's or its account's)."""
        now = time.monotonic()
        ok = self.per_address.allow(client_address(request.client), now)
        if account is not None:
            ok = self.per_account.allow(account.id, now) and ok
        return not ok

    async def guarded(self, request: Request) -> Account | Response:
        """The signed-in account of a state-changing account request, or the refusal (not signed
        in, CSRF, rate limit)."""
        account = await self.current(request)
        if account is None:
            return _refuse(request, "signed_out", Msg("you are not signed in"), 401)
        if not self.csrf_ok(request, account):
            return _refuse(request, "csrf", Msg("this request did not come from this server's page"), 403)
        if self.limited(request, account):
            return _refuse(request, "too_fast", TOO_FAST, 429)
        return account

    def _cookie(self, request: Request, response: Response, token: str) -> None:
        """The session's cookie (HttpOnly) and its CSRF token's readable twin, which the page shows
        in :data:`CSRF_HEADER` (a page of another site can read neither)."""
        secure = request.url.scheme == "https"
        response.set_cookie(COOKIE, token, max_age=COOKIE_AGE, httponly=True, samesite="lax", path="/",
                            secure=secure)
        response.set_cookie(CSRF_COOKIE, csrf_of(token), max_age=COOKIE_AGE, httponly=False, samesite="strict",
                            path="/", secure=secure)

    @staticmethod
    def _forget(response: Response) -> None:
        response.delete_cookie(COOKIE, path="/")
        response.delete_cookie(CSRF_COOKIE, path="/")
        response.delete_cookie(PASSKEY_COOKIE, path=PASSKEY_PATH)  # an open passkey sign-in's

    async def me(self, request: Request) -> Response:
        """``GET /api/account``: the signed-in account, its CSRF token and seats (``401
        signed_out`` without one: a ``GET`` makes nothing); ``POST``: the same, the account made
        first if this browser has none (the first visit of the account's page, or the quick
        match's "Play now")."""
        account = await self.current(request)
        made = False
        if account is None:
            if request.method != "POST":
                return _refuse(request, "signed_out", Msg("you are not signed in"), 401)
            # made by this server's page only: a JSON body (a form of another site cannot send
            # one without asking first) and, when it says where it comes from, this server
            if not is_json(request.headers.get("content-type")) or not same_origin(
                    request.headers.get("origin"), request.url.scheme, request.headers.get("host"), self.origins):
                return _refuse(request, "csrf", Msg("this request did not come from this server's page"), 403)
            if self.limited(request, None) or not self.new_per_address.allow(client_address(request.client),
                                                                             time.monotonic()):
                return _refuse(request, "too_fast", TOO_FAST, 429)
            account_id, sid, token = await run_in_threadpool(self.store.create,
                                                             request.headers.get("user-agent") or "")
            account = Account(account_id, None, sid, token)
            made = True
        taken = await run_in_threadpool(self.store.seats_of, account.id)
        response = JSONResponse({"name": account.name, "csrf": csrf_of(account.token), "new": made,
                                 "session": account.session_id,
                                 "seats": [{"table": t, "seat": s} for t, s in taken]},
                                headers={"Cache-Control": "no-store"})
        if made or request.cookies.get(CSRF_COOKIE) != csrf_of(account.token):
            self._cookie(request, response, account.token)
        return response

    async def choose_name(self, request: Request) -> Response:
        """``POST /api/account/name`` ``{"name": ...}``: choose the display name (once)."""
        found = await self.guarded(request)
        if isinstance(found, Response):
            return found
        try:
            body = await request.json()
            name = check_display_name(body.get("name") if isinstance(body, dict) else None)
            await run_in_threadpool(self.store.set_name, found.id, name)
        except AccountError as e:
            return _refuse(request, e.code, e.message, e.status)
        except ValueError:
            return _refuse(request, "bad_request", Msg("the body must be JSON"), 400)
        return JSONResponse({"name": name})

    async def sign_out(self, request: Request) -> Response:
        """``POST /api/account/signout``: end this session (the cookie is dropped)."""
        found = await self.guarded(request)
        if isinstance(found, Response):
            return found
        await run_in_threadpool(self.store.revoke, found.id, found.session_id)
        await self.left(found.id)
        response = JSONResponse({"signed_out": True})
        self._forget(response)
        return response

    async def left(self, account_id: str) -> None:
        """This browser has left the account ``account_id``: tell whoever waits for it (the quick
        match's queue)."""
        for hook in self.leaving:
            await hook(account_id)

    async def sessions(self, request: Request) -> Response:
        """``GET /api/account/sessions``: the account's sessions; ``POST {"id": ...}``: revoke one."""
        if request.method == "GET":
            account = await self.current(request)
            if account is None:
                return _refuse(request, "signed_out", Msg("you are not signed in"), 401)
            rows = await run_in_threadpool(self.store.sessions, account.id)
            return JSONResponse({"sessions": [r | {"current": r["id"] == account.session_id} for r in rows]},
                                headers={"Cache-Control": "no-store"})
        found = await self.guarded(request)
        if isinstance(found, Response):
            return found
        try:
            body = await request.json()
        except ValueError:
            body = None
        sid = body.get("id") if isinstance(body, dict) else None
        if not isinstance(sid, str) or not await run_in_threadpool(self.store.revoke, found.id, sid):
            return _refuse(request, "no_session", Msg("you have no such session"), 404)
        return JSONResponse({"revoked": sid})

    async def learn(self, request: Request) -> Response:
        """``GET /api/account/learn``: the signed-in account's progress in the Learn section (the
        lessons done, the puzzles solved); ``PUT {"lessons": [...], "puzzles": [...]}``: keep it
        (the whole set: the page sends what the browser and the account have together).  Keys of
        no shipped lesson or puzzle are dropped (a puzzle may leave a later version)."""
        if request.method == "GET":
            account = await self.current(request)
            if account is None:
                return _refuse(request, "signed_out", Msg("you are not signed in"), 401)
            if self.limited(request, account):  # a database read: limited as the account's other requests
                return _refuse(request, "too_fast", TOO_FAST, 429)
            try:
                lessons, solved = await run_in_threadpool(self.store.progress, account.id)
            except Exception as e:  # a database gone away
                return _storage(request, e)
            return JSONResponse({"lessons": lessons, "puzzles": solved}, headers={"Cache-Control": "no-store"})
        found = await self.guarded(request)
        if isinstance(found, Response):
            return found
        try:
            body = await request.json()
        except ValueError:
            body = None
        from conquian.learn.lessons import LESSONS
        from conquian.learn.puzzles import puzzles

        given: list[list[str]] = []
        for k in ("lessons", "puzzles"):
            g = body.get(k) if isinstance(body, dict) else None
            if not (isinstance(g, list) and len(g) <= 1000 and all(isinstance(x, str) for x in g)):
                return _refuse(request, "bad_request",
                               Msg("the progress is two lists of texts, the lessons and the puzzles"), 400)
            given.append(g)
        known_lessons = {les.key for les in LESSONS}
        known_puzzles = {p.id for p in puzzles()}
        lessons = sorted({k for k in given[0] if k in known_lessons})
        solved = sorted({k for k in given[1] if k in known_puzzles})
        try:
            await run_in_threadpool(self.store.set_progress, found.id, lessons, solved)
        except Exception as e:  # a full disk, a database gone read-only or away
            return _storage(request, e)
        return JSONResponse({"lessons": lessons, "puzzles": solved})

    def deleter(self, rename: Callable[[list[tuple[str, int]]], Awaitable[None]]) -> Callable[
            [Request], Awaitable[Response]]:
        """``POST /api/account/delete``: delete the account; ``rename`` renames its seats in the
        tables held in memory."""

        async def delete_account(request: Request) -> Response:
            found = await self.guarded(request)
            if isinstance(found, Response):
                return found
            taken = await run_in_threadpool(self.store.delete, found.id)
            await rename(taken)
            response = JSONResponse({"deleted": True})
            self._forget(response)
            return response

        return delete_account

    def routes(self, rename: Callable[[list[tuple[str, int]]], Awaitable[None]]) -> list[BaseRoute]:
        """The account endpoints."""
        async def page(request: Request) -> Response:
            return shell_page(*ACCOUNT_SCRIPTS)

        return [
            Route("/account", page),
            Route("/api/account", self.me, methods=["GET", "POST"]),
            Route("/api/account/name", self.choose_name, methods=["POST"]),
            Route("/api/account/signout", self.sign_out, methods=["POST"]),
            Route("/api/account/sessions", self.sessions, methods=["GET", "POST"]),
            Route("/api/account/delete", self.deleter(rename), methods=["POST"]),
            Route("/api/account/learn", self.learn, methods=["GET", "PUT"]),
        ]


class CsrfCheck:
    """ASGI middleware: a state-changing HTTP request that carries the account cookie is refused
    (``403 csrf``) unless it presents the session's CSRF token and, if it sends an ``Origin``, that
    origin is this server's (scheme, host and port; or one of ``origins``, ``serve --origin``).
    The token is derived from the cookie, so the check needs no database."""

    def __init__(self, app: Any, origins: tuple[str, ...] = ()) -> None:
        self.app = app
        self.origins = origins

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope.get("method") in UNSAFE:
            request = Request(scope)
            token = request.cookies.get(COOKIE)
            if token:
                account = Account("", None, "", token)
                good = same_origin(request.headers.get("origin"), scope.get("scheme", "http"),
                                   request.headers.get("host"), self.origins) and hmac.compare_digest(
                    (request.headers.get(CSRF_HEADER) or "").encode(), csrf_of(account.token).encode())
                if not good:
                    response = _refuse(request, "csrf", Msg("this request did not come from this server's page"), 403)
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)
