"""Ratings per game for rated tables, with openskill's Plackett-Luce model (it rates 2 to 7
players in one result).

A rated table is made with ``"rated": true``; only signed-in players with a name may sit there
(their seats are tied to their accounts), and bots.  When its match is over, the match is rated
once (whichever server process sees it first claims it in the database): the seats ranked by
their totals, equal totals a draw (a match of tableaux only is a draw for all), and a person
who left (away past the table's away rule, :data:`RATED_AWAY` when the host set none) after all
who stayed.  Bots are on the same scale, marked as bots on the leaderboard: a bot whose
rating in the game was fitted on duplicate deals among the bots (:mod:`conquian.bots.levels`,
shipped in ``levels.json``) keeps that rating, the games do not move it, and the people it meets
are rated against it; every fitted bot is listed, whether it has played a rated match or not.  A
bot with no fitted rating in a game never sits at a rated table of that game (the table refuses
it: :func:`check_rated_bot`), a match that holds one anyway is not rated, and no rated match
moves any bot's rating: the leaderboard lists the fitted bots only.

The scale (:func:`rating`), chosen to read like the ratings people know (Elo's, lichess's):

- **The anchor**: 1,500 is openskill's mean of a new player's prior (mu 25), and ``foster`` (the
  book's play, the middle level) is fitted at mu 25 in every game (:mod:`conquian.bots.levels`):
  ``foster`` is 1,500 in each game, and a new player starts there, as strong as the book until his
  games say otherwise.
- **The unit**: :data:`POINTS_PER_MU` points for one unit of mu, so that 400 points are odds of
  10 to 1 between two sure ratings, as in Elo (openskill's Plackett-Luce gives the odds
  ``exp(d / c)`` for a difference ``d`` of mu, ``c = sqrt(2) * beta`` for sure ratings).
- **The number shown is the mean**, not ``mu - 3 sigma``: a new player shows 1,500 (not a figure
  below every bot), and a win or a loss moves him by what the model learnt.
- **A new player's uncertainty** is :data:`NEW_SIGMA` (about 177 points, a 95% interval of
  about +-350 points): large, but not so large that one game throws him far: one loss to the
  weakest bot costs him less than 100 points (86 in conquian), a win over ``foster`` gains 62.
- **Provisional**: a rating of fewer than :data:`PROVISIONAL_GAMES` rated games is marked
  provisional (shown with a "?" after it, like lichess's) on the leaderboard, the player's page
  and the quick match.

```pycon
>>> rating(25.0), rating(25.0 + 400 / POINTS_PER_MU)
(1500, 1900)
>>> provisional(3), provisional(PROVISIONAL_GAMES)
(True, False)
>>> match_ranks([3, -1, -2]), match_ranks([0, 0])
([1, 2, 3], [1, 1])

```
"""

from __future__ import annotations

from typing import Any

from conquian.bots.levels import POINTS_PER_MU as POINTS_PER_MU  # the scale's unit, said here too
from conquian.bots.levels import fixed_rating, rated_bots, scale_rating
from conquian.engine.rules import PRESETS
from conquian.i18n import Msg
from conquian.web.table import Table, TableError

#: The subject of a bot's rating: ``bot:`` and its name.
BOT = "bot:"
"""The accuracy of an account's seat in a deal of a finished match, from the review made on the
server (the one with the most playouts when several were made)."""


def match_accuracy(rows: list[Any]) -> float:
    """A seat's accuracy in a match from its reviewed deals: the mean over their decisions."""
    decisions = sum(r.decisions for r in rows)
    return float(sum(r.accuracy * r.decisions for r in rows) / decisions)


#: A new player's uncertainty (openskill's sigma): large (about 177 points), yet one loss to the
#: weakest bot costs him less than 100 points.
NEW_SIGMA = 6.0
#: Rated games in a game before a player's rating there is no longer provisional.
PROVISIONAL_GAMES = 10


def rating(mu: float) -> int:
    """The rating shown for a mean ``mu``: ``1500 + POINTS_PER_MU * (mu - 25)`` (the scale of the
    module's docstring); the uncertainty is told apart (:func:`provisional`, a bot's interval)."""
    return round(scale_rating(mu))


def provisional(games: int) -> bool:
    """Whether a rating after ``games`` rated games is provisional (shown with a "?")."""
    return games < PROVISIONAL_GAMES


def shown(mu: float, sigma: float) -> int:
    """The rating shown for openskill's ``mu`` and ``sigma`` (the puzzles' ratings,
    :mod:`conquian.web.platform.puzzle_ratings`, are on the same scale): :func:`rating` of the mean."""
    return rating(mu)


def check_rated_bot(game: str, bot: str) -> None:
    """Refuse (:class:`~conquian.web.table.TableError` ``unrated_bot``) ``bot`` at a rated table of
    ``game`` (a preset's name) unless it has a fitted rating there: a bot's rating is never learnt
    from rated games, so an unfitted bot would rate its opponents against a guess."""
    if fixed_rating(game, bot) is None:
        raise TableError("unrated_bot", Msg("a rated table of {game} seats only bots with a measured rating "
                                            "there ({bots}); {bot} has none: seat it at a casual table",
                                            game=game, bot=bot[:40],
                                            bots=", ".join(b for b, _r in rated_bots(game)) or "-"))


def match_ranks(totals: list[int], left: list[bool] | None = None) -> list[int]:
    """Each seat's place by its total (higher is better), equal totals sharing a place; a seat that
    ``left`` (its person away past the away rule when the match ended) is placed after every seat
    that stayed, whatever its total (an abandoned match is a loss for the one who left).

    >>> match_ranks([5, -2, -3], left=[True, False, False])
    [3, 1, 2]
    """
    left = left or [False] * len(totals)
    return [1 + sum(1 for o, lo in zip(totals, left, strict=True) if (lo, -o) < (lt, -t))
            for t, lt in zip(totals, left, strict=True)]


#: Seconds a person may be away at a rated table before a bot plays for him (the away rule), when
#: its host set none: the match goes on, and is a loss for the one who left.
RATED_AWAY = 120.0


def has_left(table: Table, number: int, now: float) -> bool:
    """Whether seat ``number``'s person left: away (no connection in any process, or his move clock
    ran out and he has not moved since: :meth:`~conquian.web.table.Table.away_from`) longer than
    the table's away rule, a bot playing for him."""
    since = table.away_from(number)
    return since is not None and table.away_after is not None and now - since >= table.away_after


def rating_model() -> Any:
    """The rating model (openskill's Plackett-Luce), imported when first needed."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


#: The matches listed on a player's page (the newest).
RECENT = 20


#: The game key of the players' puzzle ratings (:mod:`conquian.web.platform.puzzle_ratings`): one
#: attempt a puzzle is one of its "games", a solve one of its "wins".
PUZZLES = "puzzles"


def check_game(game: str | None) -> str | None:
    """``game`` if it is a preset's name or :data:`PUZZLES`, else None."""
    return game if game in PRESETS or game == PUZZLES else None
