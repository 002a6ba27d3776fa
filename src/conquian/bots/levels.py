"""The bots' levels: a ladder of real policies, each with a rating measured on the players' scale.

A level is a registered bot (made by :func:`conquian.bots.make_bot` under its name, seated at a
web table or named by ``conquian play --bot``), from the weakest:

- ``beginner``: ``foster`` with noise: at each decision, with probability :data:`BEGINNER_NOISE`,
  a legal action chosen at random instead of ``foster``'s;
- ``casual``: the same with probability :data:`CASUAL_NOISE`;
- ``foster``: Foster's suggestions for good play, as they are;
- ``skilled``: the ``expert`` search with few playouts (:attr:`SkilledBot.CONQUIAN_ITERATIONS`);
- ``expert``: the determinized search (240 playouts a decision in conquian);
- ``master``: the same search with 2,000 playouts.

The noise is drawn from the bot's own generator (seeded like every bot), so a seeded level plays
the same moves every time: replays and duplicate deals stay reproducible.

Each level's rating is not typed by hand: ``python -m benchmarks.bot_levels`` plays duplicate deals
among the levels (and the other cheap bots), fits openskill's Plackett-Luce model, the web's, and
writes :data:`RATINGS_FILE` (``levels.json`` beside this module) with each bot's mu, sigma, the
rating shown (the web's, :func:`conquian.web.platform.ratings.service.rating`: ``foster`` is 1,500 in every game),
its 95% interval, the deals played, the date and the command.  :func:`fixed_rating` reads it.

The ladder above is the policies' order, not a measurement: where levels are listed for people
(the web's menus, ``conquian bots``, the terminal game) they are ordered by their fitted rating
in the game (:func:`levels_by_rating`), and no text calls a level stronger than another that
measures above it (``master``'s eight times the playouts do not measure above ``expert`` in
three-hand Cooncan).

```pycon
>>> [level.bot for level in LEVELS]
['beginner', 'casual', 'foster', 'skilled', 'expert', 'master']
>>> from conquian.bots import make_bot
>>> make_bot("beginner", seed=3).noise == BEGINNER_NOISE
True

```
"""

from __future__ import annotations

import functools
import json
import math
import random
from dataclasses import dataclass
from importlib import resources
from typing import Any

from conquian.bots.base import View, check_view, register
from conquian.bots.expert import ExpertBot, MasterBot
from conquian.bots.foster import FosterBot
from conquian.bots.random_bot import random_action
from conquian.engine.actions import Action
from conquian.i18n import Msg

#: ``beginner``'s probability of a random legal action at a decision.
BEGINNER_NOISE = 0.5
#: ``casual``'s probability of a random legal action at a decision.
CASUAL_NOISE = 0.3


class NoisyFosterBot:
    """``foster`` that, with probability ``noise`` at each decision, plays a uniformly random legal
    action instead (drawn from its own seeded generator: the same seed, the same moves)."""

    name = "noisy-foster"

    def __init__(self, seed: int = 0, noise: float = 0.25) -> None:
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"noise must be between 0 and 1, not {noise!r}")
        self.noise = noise
        self.rng = random.Random(seed)
        self.foster = FosterBot(seed)
        self.foster.rng = self.rng  # one generator: the noise and foster's own draws in one stream

    def choose(self, view: View) -> Action:
        """A random legal action with probability ``noise``, else ``foster``'s."""
        view = check_view(view)
        if self.rng.random() >= self.noise:
            return self.foster.choose(view)
        return random_action(view, self.rng)


@register("beginner")
class BeginnerBot(NoisyFosterBot):
    """The ``beginner`` level: ``foster`` with a random legal action at :data:`BEGINNER_NOISE` of
    its decisions."""

    name = "beginner"

    def __init__(self, seed: int = 0, noise: float = BEGINNER_NOISE) -> None:
        super().__init__(seed, noise)


@register("casual")
class CasualBot(NoisyFosterBot):
    """The ``casual`` level: ``foster`` with a random legal action at :data:`CASUAL_NOISE` of its
    decisions."""

    name = "casual"

    def __init__(self, seed: int = 0, noise: float = CASUAL_NOISE) -> None:
        super().__init__(seed, noise)


@register("skilled")
class SkilledBot(ExpertBot):
    """The ``skilled`` level: the ``expert`` search with a tenth of its playouts in conquian and the
    conquián mexicano (24 a decision), a sixth in Cooncan (16): between ``foster`` (whose moves its
    playouts play) and ``expert`` on duplicate deals (``docs/bots.md``)."""

    name = "skilled"
    CONQUIAN_ITERATIONS = 24
    COONCAN_ITERATIONS = 16


@dataclass(frozen=True)
class Level:
    """A level of the ladder: the registered bot that plays it, and its policy in words
    (translatable; ``str()`` is English)."""

    bot: str
    policy: Msg
    #: the policy in the Cooncan games, where the searches' budgets are Cooncan's own (None: the same)
    cooncan_policy: Msg | None = None

    def policy_in(self, game: str) -> Msg:
        """The policy in words in ``game`` (a preset's name): a search's playouts are that game's.

        >>> str(level("expert").policy_in("cooncan-double"))
        "the expert's search with 96 playouts a decision"
        """
        return self.cooncan_policy if self.cooncan_policy and game.startswith("cooncan") else self.policy


#: The levels, from the weakest.
LEVELS: tuple[Level, ...] = (
    Level("beginner", Msg("Foster's play, with a random legal move at {share} of its decisions",
                          share=f"{BEGINNER_NOISE:.0%}")),
    Level("casual", Msg("Foster's play, with a random legal move at {share} of its decisions",
                        share=f"{CASUAL_NOISE:.0%}")),
    Level("foster", Msg("Foster's suggestions for good play, as rules")),
    Level("skilled", Msg("the expert's search with {playouts} playouts a decision",
                         playouts=SkilledBot.CONQUIAN_ITERATIONS),
          Msg("the expert's search with {playouts} playouts a decision", playouts=SkilledBot.COONCAN_ITERATIONS)),
    Level("expert", Msg("the expert's search with {playouts} playouts a decision",
                        playouts=ExpertBot.CONQUIAN_ITERATIONS),
          Msg("the expert's search with {playouts} playouts a decision", playouts=ExpertBot.COONCAN_ITERATIONS)),
    Level("master", Msg("the expert's search with {playouts} playouts a decision (at most 0.9 s)",
                        playouts="2,000"),
          Msg("the expert's search with {playouts} playouts a decision (at most 0.9 s)",
              playouts=MasterBot.COONCAN_ITERATIONS)),
)


def level(bot: str) -> Level | None:
    """The level played by ``bot``, None if it is not a level."""
    return next((lv for lv in LEVELS if lv.bot == bot), None)


#: The rating scale's anchor: openskill's mean of a new player's prior, and ``foster``'s fitted mu
#: in every game (the fit moves every mu so that it is).
ANCHOR_MU = 25.0
#: The rating shown at :data:`ANCHOR_MU`: a new player's, and ``foster``'s in every game.
ANCHOR_RATING = 1500
#: Points a unit of mu: 400 points are odds of 10 to 1 between two sure ratings, as in Elo
#: (openskill's beta is 25/6, its odds ``exp(d / c)`` with ``c = sqrt(2) * beta``).
POINTS_PER_MU = 400 / (math.log(10) * math.sqrt(2) * 25 / 6)


def scale_rating(mu: float) -> float:
    """The rating shown for a mean ``mu``, unrounded: ``1500 + POINTS_PER_MU * (mu - 25)`` (the
    web's scale, :mod:`conquian.web.platform.ratings`).

    >>> round(scale_rating(ANCHOR_MU + 400 / POINTS_PER_MU))
    1900
    """
    return ANCHOR_RATING + POINTS_PER_MU * (mu - ANCHOR_MU)


#: The shipped ratings file, written by ``python -m benchmarks.bot_levels``.
RATINGS_FILE = "levels.json"


@functools.cache
def fitted() -> dict[str, Any]:
    """The shipped ratings file's contents (``{"games": {}}`` when it is missing)."""
    try:
        text = resources.files("conquian.bots").joinpath(RATINGS_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {"games": {}}
    data: dict[str, Any] = json.loads(text)
    return data


def fixed_rating(game: str, bot: str) -> dict[str, Any] | None:
    """``bot``'s fitted rating in ``game`` (a preset's name): ``mu``, ``sigma``, ``rating`` (as the
    web shows it), ``interval`` (the rating's 95% interval), ``deals``; None if it was not fitted."""
    entry: dict[str, Any] | None = fitted().get("games", {}).get(game, {}).get("bots", {}).get(bot)
    return entry


def rated_bots(game: str) -> list[tuple[str, int]]:
    """The bots with a fitted rating in ``game`` and their ratings, weakest first."""
    bots = fitted().get("games", {}).get(game, {}).get("bots", {})
    return sorted(((b, int(e["rating"])) for b, e in bots.items()), key=lambda x: (x[1], x[0]))


def levels_by_rating(game: str) -> list[str]:
    """The levels' bots as people see them listed for ``game``: by their fitted rating there,
    weakest first (equal ratings in the ladder's order), then any level not fitted there in the
    ladder's order.

    >>> levels_by_rating("no-such-game") == [lv.bot for lv in LEVELS]
    True
    """
    bots = fitted().get("games", {}).get(game, {}).get("bots", {})
    fitted_levels = sorted((int(bots[lv.bot]["rating"]), i, lv.bot) for i, lv in enumerate(LEVELS) if lv.bot in bots)
    return [b for _r, _i, b in fitted_levels] + [lv.bot for lv in LEVELS if lv.bot not in bots]


def level_for(game: str, rating: float) -> str | None:
    """The level whose fitted rating in ``game`` is the closest to ``rating`` (a player's, as the
    web shows it): the bot a quick match seats beside him; None if no level was fitted there.

    >>> level_for("conquian", 0) == LEVELS[0].bot
    True
    >>> level_for("no-such-game", 1500) is None
    True
    """
    bots = fitted().get("games", {}).get(game, {}).get("bots", {})
    fitted_levels = [(abs(float(bots[lv.bot]["rating"]) - rating), i, lv.bot)
                     for i, lv in enumerate(LEVELS) if lv.bot in bots]
    return min(fitted_levels)[2] if fitted_levels else None


def bot_ratings() -> dict[str, dict[str, dict[str, Any]]]:
    """Per game, the fitted bots' ``rating`` and its 95% ``interval`` (what the web's menus show)."""
    return {game: {b: {"rating": int(e["rating"]), "interval": list(e["interval"])}
                   for b, e in g.get("bots", {}).items()}
            for game, g in fitted().get("games", {}).items()}


__all__ = [
    "ANCHOR_MU",
    "ANCHOR_RATING",
    "BEGINNER_NOISE",
    "CASUAL_NOISE",
    "LEVELS",
    "POINTS_PER_MU",
    "RATINGS_FILE",
    "BeginnerBot",
    "CasualBot",
    "Level",
    "NoisyFosterBot",
    "SkilledBot",
    "bot_ratings",
    "fitted",
    "fixed_rating",
    "level",
    "level_for",
    "levels_by_rating",
    "rated_bots",
    "scale_rating",
]
