"""The Learn section's words and helpers, no HTTP: the page in the reader's language, a player's
puzzle ratings in one trip, a database error in one line (the routes are in the module beside this one)."""

from __future__ import annotations

import logging
from typing import Any

from conquian.i18n import Translator
from conquian.learn.api import page_words
from conquian.learn.page import learn_html
from conquian.web.platform.puzzle_ratings.storage import PuzzleRatings

log = logging.getLogger("conquian.web")

#: The cookie that tells the server which browser was shown which puzzles' answers
#: (:mod:`conquian.web.platform.puzzle_ratings`), sent to the puzzles' requests only.
BROWSER_COOKIE = "conquian_puzzles"


def puzzle_player(board: PuzzleRatings, account_id: str) -> tuple[dict[str, Any], dict[str, int]]:
    """The account's puzzle rating and every puzzle's (one trip to a worker thread)."""
    return board.player(account_id), board.puzzle_ratings()


def first_line(e: BaseException) -> str:
    """A database error in one short line (its own message, without its SQL)."""
    text = str(getattr(e, "orig", None) or e).strip()
    return (text.splitlines()[0] if text else type(e).__name__)[:150]


def learn_page(tr: Translator) -> str:
    """The Learn page, its words in the reader's language (the lessons come from ``/api/learn``)."""
    return learn_html(page_words(tr), tr.lang)
