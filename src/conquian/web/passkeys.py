"""Passkeys (WebAuthn, the ``webauthn`` package): a player adds a passkey to his account on the
account page, and later signs in with it on another device, or on this one when the cookie is
lost.

- Registration is for the signed-in account with a display name (its cookie, the CSRF token);
  the passkey is *discoverable* (``residentKey: required``): it carries the account, so signing
  in asks for no name, and no endpoint tells whether an account or a passkey exists.
- Every ceremony's challenge is 32 random bytes kept in the database (so any server process can
  finish what another began), used once (deleted as it is checked), for one purpose, and for
  :data:`CHALLENGE_AGE` seconds.  A registration's challenge belongs to its account; a sign-in's
  to the browser that asked (an HttpOnly cookie :data:`BROWSER_COOKIE`, its hash kept beside the
  challenge), so an answer cannot be carried to another browser.
- The relying party is the name the browser reached the server by: the RP id is the ``Host``
  header's name (checked by ``--allowed-host`` before any route), the origin the request's scheme
  and host.  Behind a proxy that ends TLS, the proxy passes the ``Host`` as the browser sent it and
  ``X-Forwarded-Proto``, which the server trusts from the proxies in ``FORWARDED_ALLOW_IPS``; the
  origins given with ``--origin`` are accepted too.  A passkey belongs to that name: one made at
  ``https://cards.example`` is offered there only.
- The sign-in's challenge is for a discoverable credential (no account named, no credential
  listed), so the page may ask for it as soon as it opens and offer the browser's passkeys in its
  name field (WebAuthn's conditional mediation, ``autocomplete="username webauthn"``) beside the
  "sign in with a passkey" button.  A browser keeps one :data:`BROWSER_COOKIE` for all its open
  sign-in challenges (the field's waiting request, the button's, another tab's): asking again
  does not spoil the challenge another request of that browser waits with.
- A sign-in that succeeds starts a new session of the passkey's account on that browser (its
  cookie replaces the one the browser had; that session ends, and the account it held is deleted
  if it had neither a name nor a passkey: nothing is lost).  The browser's other open sign-in
  challenges end with it.
- A browser signed in to a named account may sign in to another account with its passkey (to
  switch accounts) without signing out: the request needs the current session's CSRF token like
  any other, the current session is revoked and the new one set; the account left keeps its
  name, passkeys and other sessions.  If it is an account that could not be reached again (no
  passkey, no other session), the sign-in is refused (``409 would_lose_account``, before the
  answer is checked, so it tells nothing of the passkey) unless the request says
  ``"leave": true`` (the page asks the player first).
- Sign-ins are rate limited per address and per account, and every failure is told in the same
  words.  A passkey whose signature counter goes backwards (a cloned authenticator) is refused.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import secrets
import time
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Index,
    LargeBinary,
    String,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy import Table as SqlTable
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.i18n import Msg
from conquian.web.accounts import (
    COOKIE,
    PASSKEY_COOKIE,
    TOO_FAST,
    Accounts,
    Window,
    _refuse,
    account_sessions,
    accounts,
)
from conquian.web.limits import client_address
from conquian.web.store import metadata

#: Seconds a ceremony's challenge may be answered in.
CHALLENGE_AGE = 300.0
#: The cookie that ties a sign-in's challenge to the browser that asked for it.
BROWSER_COOKIE = PASSKEY_COOKIE
#: Passkeys one account may hold.
MAX_PASSKEYS = 20
#: The length of a passkey's label.
LABEL_MAX = 40
#: The bytes a passkey request's body may hold (an answer with an attestation's certificates fits).
MAX_BODY = 16384
#: The name people see for the relying party in their authenticator.
RP_NAME = "conquian"

passkeys = SqlTable(
    "passkeys", metadata,
    Column("id", String(16), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("credential_id", String(1400), nullable=False, unique=True),
    Column("public_key", LargeBinary, nullable=False),
    Column("sign_count", BigInteger, nullable=False),
    Column("transports", String(200), nullable=False),
    Column("label", String(60), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("used_at", Float, nullable=True),
    Index("ix_passkeys_account", "account_id"),
)

passkey_challenges = SqlTable(
    "passkey_challenges", metadata,
    Column("challenge", String(64), primary_key=True),
    Column("purpose", String(12), nullable=False),
    Column("account_id", String(32), nullable=True),
    Column("browser", String(64), nullable=True),
    Column("expires_at", Float, nullable=False),
    Index("ix_passkey_challenges_expires", "expires_at"),
)

#: The one refusal of a sign-in, whatever failed (no enumeration of passkeys or accounts).
NOT_ACCEPTED = Msg("this passkey was not accepted: try again, or use another passkey")
NOT_ADDED = Msg("the passkey was not added: try again")


def b64url(data: bytes) -> str:
    """``data`` in unpadded URL-safe base64 (WebAuthn's JSON encoding)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """The bytes of unpadded URL-safe base64, or ValueError."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64url") from None


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


def check_label(label: object) -> str:
    """A passkey's label as kept: trimmed, control characters dropped, at most :data:`LABEL_MAX`."""
    if not isinstance(label, str):
        return ""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in label).split())[:LABEL_MAX]


def answered_challenge(credential: object) -> str | None:
    """The challenge an authenticator's answer says it signed (from its ``clientDataJSON``), or None."""
    try:
        client_data = json.loads(unb64url(credential["response"]["clientDataJSON"]))  # type: ignore[index, unused-ignore]
        challenge = client_data["challenge"]
    except (TypeError, KeyError, ValueError):
        return None
    return challenge if isinstance(challenge, str) and 0 < len(challenge) <= 100 else None


def relying_party(request: Request, origins: tuple[str, ...]) -> tuple[str, list[str]]:
    """The RP id (the name the browser reached the server by) and the origins an answer may come
    from: this request's own, and ``origins`` (``--origin``)."""
    host = (request.headers.get("host") or "").strip().lower()
    name = host[1:host.index("]")] if host.startswith("[") and "]" in host else host.rsplit(":", 1)[0] if (
        host.count(":") == 1) else host
    return name, [f"{request.url.scheme}://{host}", *origins]


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
                challenge=_sha(b64url(challenge)), purpose=purpose, account_id=account_id,
                browser=_sha(browser) if browser else None, expires_at=now + CHALLENGE_AGE))
        return challenge

    def take_challenge(self, challenge: str, purpose: str, account_id: str | None = None,
                       browser: str | None = None) -> bytes | None:
        """The challenge's bytes if it is open, for ``purpose``, of that account or browser, and
        not expired; it is deleted either way (used once)."""
        with self.engine.begin() as conn:
            row = conn.execute(select(passkey_challenges).where(
                passkey_challenges.c.challenge == _sha(challenge))).first()
            if row is None:
                return None
            gone = conn.execute(delete(passkey_challenges).where(passkey_challenges.c.challenge == _sha(challenge)))
        if gone.rowcount != 1 or row.purpose != purpose or row.expires_at < time.time():
            return None  # another process took it first, or it is not this ceremony's
        if row.account_id != account_id or row.browser != (_sha(browser) if browser else None):
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
            conn.execute(delete(passkey_challenges).where(passkey_challenges.c.browser == _sha(browser)))

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
                                   .where(account_sessions.c.token_hash == _sha(replaced))).scalar()
                conn.execute(delete(account_sessions).where(account_sessions.c.token_hash == _sha(replaced)))
                if old is not None and old != account_id:
                    nameless = conn.execute(select(accounts.c.name).where(accounts.c.id == old)).scalar() is None
                    keys = conn.execute(select(func.count()).select_from(passkeys)
                                        .where(passkeys.c.account_id == old)).scalar()
                    if nameless and not keys:
                        conn.execute(delete(account_sessions).where(account_sessions.c.account_id == old))
                        conn.execute(delete(accounts).where(accounts.c.id == old))
            conn.execute(insert(account_sessions).values(token_hash=_sha(token), id=sid, account_id=account_id,
                                                         created_at=now, seen_at=now, agent=agent[:120]))
        return sid, token


def _creation_options(rp_id: str, account_id: str, name: str, challenge: bytes,
                      exclude: list[tuple[bytes, list[str]]]) -> dict[str, Any]:
    import webauthn
    from webauthn.helpers.structs import (
        AuthenticatorSelectionCriteria,
        AuthenticatorTransport,
        PublicKeyCredentialDescriptor,
        ResidentKeyRequirement,
        UserVerificationRequirement,
    )

    known = {t.value for t in AuthenticatorTransport}
    options = webauthn.generate_registration_options(
        rp_id=rp_id, rp_name=RP_NAME, user_id=account_id.encode(), user_name=name, user_display_name=name,
        challenge=challenge, timeout=int(CHALLENGE_AGE * 1000),
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED, user_verification=UserVerificationRequirement.PREFERRED),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=cid, transports=[AuthenticatorTransport(t) for t in ts if t in known])
            for cid, ts in exclude])
    out: dict[str, Any] = json.loads(webauthn.options_to_json(options))
    return out


def _request_options(rp_id: str, challenge: bytes) -> dict[str, Any]:
    import webauthn
    from webauthn.helpers.structs import UserVerificationRequirement

    options = webauthn.generate_authentication_options(
        rp_id=rp_id, challenge=challenge, timeout=int(CHALLENGE_AGE * 1000), allow_credentials=[],
        user_verification=UserVerificationRequirement.PREFERRED)
    out: dict[str, Any] = json.loads(webauthn.options_to_json(options))
    return out


def _handle_ok(credential: dict[str, Any], row: Any) -> bool:
    """Whether the answer's user handle, if it gives one, is the passkey's account (a discoverable
    credential names its user; it must be the one the passkey was added to)."""
    response = credential.get("response")
    handle = response.get("userHandle") if isinstance(response, dict) else None
    if handle is None or handle == "":
        return True
    try:
        return isinstance(handle, str) and unb64url(handle) == str(row.account_id).encode()
    except ValueError:
        return False


class Passkeys:
    """The passkey endpoints of one server process, over its :class:`~conquian.web.accounts.Accounts`
    (``origins``: the ``--origin`` values, also accepted as where an answer comes from)."""

    def __init__(self, accounts_: Accounts, origins: tuple[str, ...] = (), per_minute: int = 20) -> None:
        self.accounts = accounts_
        self.store = PasskeyStore(accounts_.store.engine)
        self.origins = origins
        self.signins_per_address = Window(per_minute, 60.0)
        self.signins_per_account = Window(max(1, per_minute // 2), 60.0)

    async def _body(self, request: Request) -> dict[str, Any] | None:
        """The request's JSON object, or None (not JSON, not an object, past :data:`MAX_BODY` bytes)."""
        data = b""
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BODY:
                return None
        try:
            body = json.loads(data)
        except ValueError:
            return None
        return body if isinstance(body, dict) else None

    async def register_options(self, request: Request) -> Response:
        """``POST /api/account/passkeys/options``: the options of ``navigator.credentials.create``
        for the signed-in account (which has chosen its name)."""
        found = await self.accounts.guarded(request)
        if isinstance(found, Response):
            return found
        if found.name is None:
            return _refuse(request, "no_name", Msg("choose your name before adding a passkey"), 409)
        rp_id, _ = relying_party(request, self.origins)
        challenge = await run_in_threadpool(self.store.new_challenge, "register", found.id)
        exclude = await run_in_threadpool(self.store.credential_ids, found.id)
        options = _creation_options(rp_id, found.id, found.name, challenge, exclude)
        return JSONResponse({"publicKey": options}, headers={"Cache-Control": "no-store"})

    async def register(self, request: Request) -> Response:
        """``POST /api/account/passkeys`` ``{"credential": ..., "label": ...}``: keep the passkey
        the authenticator made for the options' challenge."""
        import webauthn
        from webauthn.helpers.exceptions import WebAuthnException

        found = await self.accounts.guarded(request)
        if isinstance(found, Response):
            return found
        body = await self._body(request) or {}
        credential = body.get("credential")
        challenge = answered_challenge(credential)
        expected = None
        if challenge is not None:
            expected = await run_in_threadpool(self.store.take_challenge, challenge, "register", found.id)
        if expected is None or not isinstance(credential, dict) or not isinstance(credential["response"], dict):
            return _refuse(request, "bad_passkey", NOT_ADDED, 400)
        rp_id, origins = relying_party(request, self.origins)
        try:
            verified = webauthn.verify_registration_response(
                credential=credential, expected_challenge=expected, expected_rp_id=rp_id, expected_origin=origins)
        except (WebAuthnException, ValueError, TypeError, KeyError):
            return _refuse(request, "bad_passkey", NOT_ADDED, 400)
        transports = credential["response"].get("transports")
        transports = [t for t in transports if isinstance(t, str)][:8] if isinstance(transports, list) else []
        pid = await run_in_threadpool(self.store.add, found.id, verified.credential_id,
                                      verified.credential_public_key, verified.sign_count, transports,
                                      check_label(body.get("label")))
        if pid is None:
            return _refuse(request, "passkey_refused",
                           Msg("this passkey is added already, or the account holds {count} passkeys",
                               count=MAX_PASSKEYS), 409)
        return JSONResponse({"id": pid})

    async def listing(self, request: Request) -> Response:
        """``GET /api/account/passkeys``: the signed-in account's passkeys."""
        account = await self.accounts.current(request)
        if account is None:
            return _refuse(request, "signed_out", Msg("you are not signed in"), 401)
        rows = await run_in_threadpool(self.store.listing, account.id)
        return JSONResponse({"passkeys": rows}, headers={"Cache-Control": "no-store"})

    async def remove(self, request: Request) -> Response:
        """``POST /api/account/passkeys/delete`` ``{"id": ...}``: remove one of the account's passkeys."""
        found = await self.accounts.guarded(request)
        if isinstance(found, Response):
            return found
        body = await self._body(request)
        pid = body.get("id") if body else None
        if not isinstance(pid, str) or not await run_in_threadpool(self.store.remove, found.id, pid):
            return _refuse(request, "no_passkey", Msg("you have no such passkey"), 404)
        return JSONResponse({"removed": pid})

    def _too_fast(self, request: Request) -> bool:
        return not self.signins_per_address.allow(client_address(request.client), time.monotonic())

    async def signin_options(self, request: Request) -> Response:
        """``POST /api/account/passkeys/signin/options``: the options of ``navigator.credentials.get``
        (no account named: the passkey says whose it is), and the cookie that ties them to this browser."""
        if self._too_fast(request):
            return _refuse(request, "too_fast", TOO_FAST, 429)
        rp_id, _ = relying_party(request, self.origins)
        # the browser's cookie, if it holds a good one, ties this challenge too: the challenges its
        # other requests wait with (the name field's, another tab's) stay good
        held = request.cookies.get(BROWSER_COOKIE) or ""
        browser = held if len(held) == 32 and held.replace("-", "").replace("_", "").isalnum() else (
            secrets.token_urlsafe(24))
        challenge = await run_in_threadpool(self.store.new_challenge, "signin", None, browser)
        response = JSONResponse({"publicKey": _request_options(rp_id, challenge)},
                                headers={"Cache-Control": "no-store"})
        response.set_cookie(BROWSER_COOKIE, browser, max_age=int(CHALLENGE_AGE), httponly=True, samesite="strict",
                            path="/api/account/passkeys", secure=request.url.scheme == "https")
        return response

    async def signin(self, request: Request) -> Response:
        """``POST /api/account/passkeys/signin`` ``{"credential": ...}``: sign this browser in to the
        passkey's account (a new session; its cookie)."""
        import webauthn
        from webauthn.helpers.exceptions import WebAuthnException

        if self._too_fast(request):
            return _refuse(request, "too_fast", TOO_FAST, 429)
        body = await self._body(request) or {}
        current = await self.accounts.current(request)
        if (current is not None and current.name is not None and body.get("leave") is not True
                and not await run_in_threadpool(self.store.reachable_otherwise, current.id)):
            # signing in elsewhere would strand this account (the passkey is not looked at: no
            # passkey of this account exists, so it is another account's, or none)
            return _refuse(request, "would_lose_account", Msg(
                "your account {name} has no passkey: signing in to another account would lose it for good; "
                "add a passkey to it first, or confirm that you leave it", name=current.name), 409)
        credential = body.get("credential")
        challenge = answered_challenge(credential)
        browser = request.cookies.get(BROWSER_COOKIE) or ""
        expected = None
        if challenge is not None and browser:
            expected = await run_in_threadpool(self.store.take_challenge, challenge, "signin", None, browser)
        raw_id = credential.get("rawId") if isinstance(credential, dict) else None
        row = None
        if expected is not None and isinstance(raw_id, str) and len(raw_id) <= 1400:
            row = await run_in_threadpool(self.store.find, raw_id)
        if expected is None or row is None or not isinstance(credential, dict) or not _handle_ok(credential, row):
            return self._not_accepted(request)
        if not self.signins_per_account.allow(row.account_id, time.monotonic()):
            return _refuse(request, "too_fast", TOO_FAST, 429)
        rp_id, origins = relying_party(request, self.origins)
        try:
            verified = webauthn.verify_authentication_response(
                credential=credential, expected_challenge=expected, expected_rp_id=rp_id, expected_origin=origins,
                credential_public_key=row.public_key, credential_current_sign_count=row.sign_count)
        except (WebAuthnException, ValueError, TypeError, KeyError):
            return self._not_accepted(request)
        if not await run_in_threadpool(self.store.used, row.id, row.sign_count, verified.new_sign_count):
            return self._not_accepted(request)
        replaced = request.cookies.get(COOKIE)
        opened = await run_in_threadpool(self.store.open_session, row.account_id,
                                         request.headers.get("user-agent") or "",
                                         replaced if replaced and len(replaced) <= 100 else None)
        if opened is None:
            return self._not_accepted(request)
        sid, token = opened
        name = await run_in_threadpool(self._name, row.account_id)
        response = JSONResponse({"name": name, "session": sid}, headers={"Cache-Control": "no-store"})
        self.accounts._cookie(request, response, token)
        response.delete_cookie(BROWSER_COOKIE, path="/api/account/passkeys")
        await run_in_threadpool(self.store.end_challenges, browser)
        if current is not None and current.id != row.account_id:
            await self.accounts.left(current.id)
        return response

    def _name(self, account_id: str) -> str | None:
        with self.store.engine.begin() as conn:
            name: str | None = conn.execute(select(accounts.c.name).where(accounts.c.id == account_id)).scalar()
        return name

    def _not_accepted(self, request: Request) -> Response:
        # the browser keeps its cookie: a challenge another of its requests waits with stays good
        return _refuse(request, "passkey_not_accepted", NOT_ACCEPTED, 400)

    def routes(self) -> list[BaseRoute]:
        """The passkey endpoints."""
        return [
            Route("/api/account/passkeys", self.listing, methods=["GET"]),
            Route("/api/account/passkeys", self.register, methods=["POST"]),
            Route("/api/account/passkeys/options", self.register_options, methods=["POST"]),
            Route("/api/account/passkeys/delete", self.remove, methods=["POST"]),
            Route("/api/account/passkeys/signin/options", self.signin_options, methods=["POST"]),
            Route("/api/account/passkeys/signin", self.signin, methods=["POST"]),
        ]
