"""The HTTP endpoints of ``conquian serve``: the pages, the rule book, ``/health``, the lobby's
JSON API (the games, the tables, making one, taking a seat, seating a bot) and a match's record
and replay.  They ask the :class:`~conquian.web.server.Server` for the table; a refusal is
``{"error": {...}}`` with its status.

One module a concern: :mod:`~conquian.web.routes.pages`, :mod:`~conquian.web.routes.lobby`,
:mod:`~conquian.web.routes.seats` and :mod:`~conquian.web.routes.matches`, over the helpers of
:mod:`~conquian.web.routes.common`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from starlette.routing import BaseRoute

from conquian.web.routes import lobby, matches, pages, seats

if TYPE_CHECKING:
    from conquian.web.server import Server

STATIC = Path(__file__).parent.with_name("static")


def http_routes(server: Server) -> list[BaseRoute]:
    """The pages and the JSON API of ``server``'s tables."""
    return [*pages.routes(server), *lobby.routes(server), *seats.routes(server), *matches.routes(server)]
