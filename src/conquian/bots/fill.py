"""Does a partial combination fill in time?  Foster's question, answered from measured play.

A hand known at round ``r`` that still needs ``k`` cards, any ``k`` of ``live`` unseen cards
filling the need, fills before the deal ends with chance

    sum over d >= 1 of  P(the deal lasts exactly d more rounds, round r included | it reached r)
                      * P(at least k of the live cards among the first c*d cards reaching the hand)

the cards reaching the hand drawn without replacement from the ``U(r)`` cards it has not
seen (hypergeometric), ``c`` cards a round: 2 in conquian (each turned card is offered to
both hands, R3.3), 1 in Cooncan (one draw a turn, R4.2).  The durations and ``U(r)`` are
measured by ``conquian stats``; the package ships them for every preset under ``foster``
play (``fill_tables.json``), which the terminal game's hint uses.

```pycon
>>> from conquian import get_rules
>>> c = chance(get_rules("conquian"), k=1, live=2, at_round=1)
>>> 0.5 < c < 1
True
>>> round(hypergeom_at_least(5, 2, 2, 1), 3)   # 2 live among 5 unseen, 2 cards come
0.7

```
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from conquian.engine.rules import Rules


def cards_per_round(family: str) -> int:
    """Cards reaching one hand per round: 2 in conquian (R3.3), 1 in Cooncan (R4.2)."""
    return 2 if family == "conquian" else 1


def hypergeom_at_least(population: int, live: int, draws: int, k: int) -> float:
    """P(at least ``k`` of ``live`` marked cards among ``draws`` cards drawn without replacement
    from ``population``)."""
    draws = min(draws, population)
    live = min(live, population)
    if k <= 0:
        return 1.0
    total = math.comb(population, draws)
    if total == 0:
        return 0.0
    miss = sum(math.comb(live, j) * math.comb(population - live, draws - j)
               for j in range(0, min(k, live + 1)) if draws - j >= 0)
    return 1.0 - miss / total


def unseen_at(means: Mapping[int, float], r: int) -> float:
    """The mean unseen count at round ``r``: measured there, else at the latest round before it
    that was measured, else at the first measured (``nan`` if none was)."""
    if r in means:
        return means[r]
    if not means:
        return math.nan
    earlier = [x for x in means if x <= r]
    return means[max(earlier)] if earlier else means[min(means)]


def fill_chance(rounds: Mapping[int, int], unseen: Mapping[int, float], family: str, k: int, live: int,
                at_round: int) -> float:
    """The chance of the module's formula, from a histogram of deal durations in rounds and the
    mean unseen counts by round (:func:`unseen_at`)."""
    reached = sum(v for d, v in rounds.items() if d >= at_round)
    if reached == 0:
        return math.nan
    population = round(unseen_at(unseen, at_round))
    c = cards_per_round(family)
    total = 0.0
    for d_end, v in rounds.items():
        if d_end >= at_round:
            total += v / reached * hypergeom_at_least(population, live, c * (d_end - at_round + 1), k)
    return total


@cache
def tables() -> dict[str, Any]:
    """The shipped measurements, by ``"variant/players"``."""
    text = resources.files("conquian.bots").joinpath("fill_tables.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def _measured(key: str) -> tuple[dict[int, int], dict[int, float]] | None:
    """The durations and unseen counts of one ``"variant/players"`` entry, parsed once."""
    entry = tables().get(key)
    if entry is None:
        return None
    return ({int(r): int(v) for r, v in entry["rounds"].items()},
            {int(r): float(x) for r, x in entry["unseen"].items()})


def chance(rules: Rules, k: int, live: int, at_round: int) -> float | None:
    """The chance for a preset from the shipped tables (``None`` if they hold no measurement for
    these rules: another player count, or options that change how long a deal lasts)."""
    measured = _measured(f"{rules.name}/{rules.players}")
    if measured is None or rules.options_diff().keys() - {"players"}:
        return None
    x = fill_chance(*measured, rules.family, k, live, max(1, at_round))
    return None if math.isnan(x) else x
