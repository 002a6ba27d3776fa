"""The accounts' HTTP routes: the Starlette handlers that read a request, call the storage and the
rules beside this module, and answer in the web's JSON conventions."""

from __future__ import annotations

import hmac
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.i18n import Msg, Translator
from conquian.web.lang import reader
from conquian.web.limits import client_address
from conquian.web.pages import ACCOUNT_SCRIPTS, shell_page
from conquian.web.platform.accounts.service import (
    COOKIE,
    COOKIE_AGE,
    CSRF_COOKIE,
    CSRF_HEADER,
    PASSKEY_COOKIE,
    PASSKEY_PATH,
    TOO_FAST,
    UNSAFE,
    Account,
    AccountError,
    Window,
    check_display_name,
    csrf_of,
    same_origin,
)
from conquian.web.platform.accounts.storage import AccountStore
from conquian.web.security import is_json


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


async def json_or_none(request: Request) -> Any:
    """The request's body read as JSON, or None where it is not JSON (each route then refuses it in its words)."""
    try:
        return await request.json()
    except ValueError:
        return None


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
        body = await json_or_none(request)
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
        body = await json_or_none(request)
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
