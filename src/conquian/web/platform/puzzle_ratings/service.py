"""Puzzle ratings: a signed-in player's first attempt at a puzzle is a rated result between him and
the puzzle, on the players' scale (openskill's Plackett-Luce, as :mod:`conquian.web.platform.ratings`).

The player's puzzle rating is his row of game :data:`GAME` in the ``ratings`` table (so the
leaderboard and his page show it beside his games); each puzzle's rating is kept in
``puzzle_ratings``, starting from its difficulty (:func:`conquian.learn.puzzles.start_rating`), and
moves with every first attempt too.  ``puzzle_attempts`` keeps each account's first attempt at each
puzzle: only the first counts (a retry, right or wrong, changes nothing).  The server judges the
answer itself: the page sends the chosen move and :func:`conquian.learn.api.puzzle_answer` compares
it with the puzzle's answer.  Guests (no account cookie) and the offline app are not rated.

The answer is shown only with the verdict of an attempt.  ``puzzle_seen`` keeps which puzzles'
answers were shown to a browser (by a digest of its ``conquian_puzzles`` cookie, which the
server gives it with its first verdict, a guest's or an account's) and to an account: an account's
attempt at a puzzle whose answer this browser, or the account, was shown before is not rated, nor
does it move the puzzle's rating (a guest's look-up does not make a later first attempt count).
The browser's marks are carried to every account that answers a puzzle from it.  A browser that
drops its cookie cannot be told from a new one: that much is beyond the server's sight.
"""

from __future__ import annotations

import hashlib

from conquian.learn.puzzles import puzzles, start_rating
from conquian.web.platform.ratings.service import PUZZLES

#: The game key of the players' puzzle ratings in the ``ratings`` table.
GAME = PUZZLES


#: Seconds a browser's marks are kept (the cookie lasts a year; a guest who comes back after
#: months has forgotten the answers, and guests' marks do not pile up for ever).
MARKS_KEPT = 90 * 24 * 3600.0


def browser_key(cookie: str) -> str:
    """What ``puzzle_seen`` keeps of a browser's cookie: a digest (the cookie itself is never kept)."""
    return "b:" + hashlib.sha256(b"conquian puzzles\0" + cookie.encode("utf-8", "replace")).hexdigest()


def puzzle_start(puzzle_id: str) -> tuple[float, float]:
    """A puzzle's first rating (mu, sigma), from its difficulty; ``KeyError`` for no shipped puzzle."""
    for p in puzzles():
        if p.id == puzzle_id:
            return start_rating(p.difficulty)
    raise KeyError(puzzle_id)
