"""What the table's route modules share: the error answer, the reader's language, a request's
bearer token and its JSON body."""

from __future__ import annotations

import logging
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from conquian.engine.errors import ConquianError
from conquian.i18n import ENGLISH, Msg, Translator
from conquian.web import protocol, security
from conquian.web.lang import reader
from conquian.web.protocol import ProtocolError

log = logging.getLogger("conquian.web")


def refuse(status: int, code: str, message: str | Msg, rule: str | None = None, tr: Translator = ENGLISH,
           ) -> JSONResponse:
    """A refusal in the API's words: ``{"error": {"code", "rule", "message"}}`` with its status."""
    return JSONResponse({"error": {"code": code, "rule": rule, "message": tr.render(message)[:300]}},
                        status_code=status)


def lang_of(request: Request) -> Translator:
    """The language a request is answered in: ``?lang=``, else its ``Accept-Language``."""
    return reader(request.query_params.get("lang"), request.headers.get("accept-language"))


def bearer(request: Request) -> str | None:
    """The token a request presents (``Authorization: Bearer TOKEN``: a seat's or the host's), or None."""
    scheme, _, token = (request.headers.get("authorization") or "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


#: The refusal of a private table's finished match to a request without one of its tokens.
PRIVATE = Msg("this match is kept to its players: open it in the browser you played it in, or from your seat's "
              "link")


def first_line(e: BaseException) -> str:
    """An exception in one short line (a database error's own message, without its SQL)."""
    text = str(getattr(e, "orig", None) or e).strip()
    return (text.splitlines()[0] if text else type(e).__name__)[:150]


def conquian_error(e: ConquianError, tr: Translator, status: int = 400) -> JSONResponse:
    """The refusal of a rule or protocol error (415 for a body that is not JSON)."""
    code = getattr(e, "code", None) or ("illegal" if getattr(e, "rule", None) else "bad_request")
    return refuse(415 if code == "not_json" else status, code, e.message, getattr(e, "rule", None), tr)


async def read_body(request: Request, kind: type[Any]) -> Any:
    """A request's JSON body decoded as ``kind`` (at most the protocol's size, sent as JSON)."""
    if not security.is_json(request.headers.get("content-type")):
        raise ProtocolError("not_json", Msg("the body must be JSON, sent as Content-Type: application/json"))
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > protocol.MAX_MESSAGE_BYTES:
            raise ProtocolError("too_large", Msg("a request body is at most {limit} bytes",
                                                 limit=protocol.MAX_MESSAGE_BYTES))
    return protocol.decode_body(data, kind)


def no_table(tr: Translator) -> Response:
    """The answer to a request for a table the server does not have."""
    return refuse(404, "no_table", Msg("there is no such table"), tr=tr)
