"""Figures from a :class:`~conquian.analysis.collect.Tally`: the answers of ``conquian stats``.

Pure arithmetic on whole-number counts (no numpy), so that the same counts always give the
same figures, to the last digit, on any machine and from any way of running.

Duration: the mean with its 95% interval (normal, from the histogram's variance), the
median and other quantiles (the smallest value whose cumulative share reaches the level),
and the survival curve ``S(r)``: the share of deals still running after ``r`` rounds.

Foster's table.  Foster (1913) asked for "a correct estimate of the average duration of a
hand in rounds, which will enable us to judge more closely the probability of a given hand,
requiring a known number of draws to fill it, surviving long enough to win".  With the
measured durations that judgement is a sum: a hand known at round ``r`` that still needs
``k`` cards, any ``k`` of ``live`` cards it has not seen filling the need, fills in time with
chance

    sum over d >= 1 of  P(the deal lasts exactly d more rounds, counting round r | it reached r)
                      * P(at least k of the live cards are among the first c*d cards it gets)

where the cards it gets come from the ``U(r)`` cards it has not seen (the measured mean at
round ``r``: the pack and the other hands), drawn without replacement (hypergeometric), and
``c`` is the cards reaching a hand per round: 2 in conquian (each player's turned card is
offered to both, R3.3), 1 in Cooncan (one draw a turn, R4.2), the number of players in the
conquián mexicano (every card turned is offered round the table, R8.3).

```pycon
>>> from collections import Counter
>>> dur = Counter({1: 1, 2: 1})        # half the deals last 1 round, half 2
>>> survival(dur)
[1.0, 0.5, 0.0]
>>> from conquian.bots.fill import hypergeom_at_least
>>> round(hypergeom_at_least(4, 2, 2, 1), 4)   # 1 of 2 live among 4 unseen in 2 cards
0.8333

```
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from conquian.analysis.collect import Tally
from conquian.bots import fill
from conquian.bots.fill import cards_per_round, hypergeom_at_least
from conquian.engine.rules import MEXICANO

#: Levels of the quantiles reported.
QUANTILES = (0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99)


def mean_ci(hist: Counter[int]) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation) of a histogram of whole numbers."""
    n = sum(hist.values())
    if n == 0:
        return (math.nan, math.nan, math.nan)
    s = sum(k * v for k, v in hist.items())
    s2 = sum(k * k * v for k, v in hist.items())
    m = s / n
    var = (s2 - s * s / n) / (n - 1) if n > 1 else 0.0
    h = 1.96 * math.sqrt(max(var, 0.0) / n)
    return (m, m - h, m + h)


def quantile(hist: Counter[int], level: float) -> int:
    """The smallest value whose cumulative share reaches ``level``."""
    n = sum(hist.values())
    if n == 0:
        raise ValueError("an empty histogram has no quantiles")
    need = level * n
    run = 0
    for k in sorted(hist):
        run += hist[k]
        if run >= need - 1e-9:
            return k
    return max(hist)


def survival(hist: Counter[int]) -> list[float]:
    """``S[r]`` for ``r = 0 .. max``: the share of deals lasting more than ``r`` rounds."""
    n = sum(hist.values())
    top = max(hist) if hist else 0
    out = []
    left = n
    for r in range(top + 1):
        left -= hist.get(r, 0)
        out.append(left / n if n else 0.0)
    return out


def wilson(wins: int, n: int) -> tuple[float, float, float]:
    """A share and its 95% Wilson interval."""
    if n == 0:
        return (math.nan, math.nan, math.nan)
    z = 1.96
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (p, c - h, c + h)


def unseen_means(t: Tally) -> dict[int, float]:
    """The mean number of cards the player to act has not seen at the start of each round measured."""
    return {r: t.unseen_sum[r] / n for r, n in t.unseen_n.items() if n}


def mean_unseen(t: Tally, r: int) -> float:
    """The mean unseen count at the start of round ``r`` (:func:`conquian.bots.fill.unseen_at`)."""
    return fill.unseen_at(unseen_means(t), r)


def round_cards(family: str, players: int) -> int:
    """Cards reaching one hand per round (``c`` above)."""
    return players if family == MEXICANO else cards_per_round(family)


def fill_chance(t: Tally, family: str, k: int, live: int, r: int, players: int = 2) -> float:
    """Foster's chance: a hand known at round ``r`` needing ``k`` cards, ``live`` of the unseen
    cards filling the need, fills before the deal ends (the formula of :mod:`conquian.bots.fill`;
    in the conquián mexicano with ``players`` cards a round)."""
    if family != MEXICANO:
        return fill.fill_chance(t.rounds, unseen_means(t), family, k, live, r)
    reached = sum(v for d, v in t.rounds.items() if d >= r)
    if reached == 0:
        return math.nan
    population = round(mean_unseen(t, r))
    return sum(v / reached * hypergeom_at_least(population, live, players * (d - r + 1), k)
               for d, v in t.rounds.items() if d >= r)


def figures(t: Tally, family: str, rounds_for_table: tuple[int, ...] = (1, 3, 5, 8),
            lives: tuple[int, ...] = (1, 2, 3, 4, 6, 8), players: int = 2) -> dict[str, Any]:
    """Every figure of the report, as plain JSON types (floats rounded to 6 places); ``players``
    counts in the conquián mexicano only (the cards a round)."""

    def r6(x: float) -> float | None:
        return None if math.isnan(x) else round(x, 6)

    out: dict[str, Any] = {"deals": t.deals, "decisions": t.decisions}
    for name, hist in (("rounds", t.rounds), ("turns", t.turns)):
        m, lo, hi = mean_ci(hist)
        out[name] = {
            "mean": r6(m), "ci95": [r6(lo), r6(hi)], "median": quantile(hist, 0.5) if hist else None,
            "quantiles": {str(q): quantile(hist, q) for q in QUANTILES} if hist else {},
            "histogram": {str(k): v for k, v in sorted(hist.items())},
        }
    out["survival"] = [r6(x) for x in survival(t.rounds)]
    decided = t.deals - t.no_winner
    out["no_winner"] = {"deals": t.no_winner, "share": [r6(x) for x in wilson(t.no_winner, t.deals)]}
    seats = []
    for pos, wins in enumerate(t.wins_by_position):
        s, s2 = t.score_by_position[pos], t.score_sq_by_position[pos]
        n = t.deals
        m = s / n if n else math.nan
        var = (s2 - s * s / n) / (n - 1) if n > 1 else 0.0
        h = 1.96 * math.sqrt(max(var, 0.0) / n) if n else math.nan
        seats.append({"position": pos, "wins": wins, "win_share": [r6(x) for x in wilson(wins, t.deals)],
                      "points_per_deal": [r6(m), r6(m - h), r6(m + h)]})
    out["positions"] = seats
    out["splash"] = {"deals": t.splashes, "share_of_wins": [r6(x) for x in wilson(t.splashes, decided)]}
    out["win_kinds"] = {k: {"deals": v, "share": r6(v / decided) if decided else None}
                        for k, v in sorted(t.win_kinds.items())}
    out["win_sources"] = {k: {"deals": v, "share": r6(v / decided) if decided else None}
                          for k, v in sorted(t.win_sources.items())}
    table: dict[str, Any] = {}
    for r in rounds_for_table:
        if not any(d >= r for d in t.rounds):
            continue
        unseen = mean_unseen(t, r)
        table[str(r)] = {
            "unseen": r6(unseen),
            # no more live cards than cards unseen; fewer live cards than needed never fill
            "chances": {str(k): {str(live): r6(fill_chance(t, family, k, live, r, players)) for live in lives
                                 if k <= live <= unseen} for k in range(1, 6)},
        }
    out["foster_table"] = {"cards_per_round": round_cards(family, players), "by_round": table}
    return out
