"""The passkeys' HTTP routes: the Starlette handlers that read a request, call the storage and the
rules beside this module, and answer in the web's JSON conventions."""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from sqlalchemy import select
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.i18n import Msg
from conquian.web.limits import client_address
from conquian.web.platform.accounts.routes import Accounts, _refuse
from conquian.web.platform.accounts.service import COOKIE, TOO_FAST, Window
from conquian.web.platform.accounts.storage import accounts
from conquian.web.platform.passkeys.service import (
    BROWSER_COOKIE,
    CHALLENGE_AGE,
    MAX_BODY,
    MAX_PASSKEYS,
    NOT_ACCEPTED,
    NOT_ADDED,
    answered_challenge,
    check_label,
    creation_options,
    handle_ok,
    request_options,
)
from conquian.web.platform.passkeys.storage import PasskeyStore


def relying_party(request: Request, origins: tuple[str, ...]) -> tuple[str, list[str]]:
    """The RP id (the name the browser reached the server by) and the origins an answer may come
    from: this request's own, and ``origins`` (``--origin``)."""
    host = (request.headers.get("host") or "").strip().lower()
    name = host[1:host.index("]")] if host.startswith("[") and "]" in host else host.rsplit(":", 1)[0] if (
        host.count(":") == 1) else host
    return name, [f"{request.url.scheme}://{host}", *origins]


class Passkeys:
    """The passkey endpoints of one server process, over its :class:`~conquian.web.platform.accounts.routes.Accounts`
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
        options = creation_options(rp_id, found.id, found.name, challenge, exclude)
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
        response = JSONResponse({"publicKey": request_options(rp_id, challenge)},
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
        if expected is None or row is None or not isinstance(credential, dict) or not handle_ok(credential, row):
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
