"""Random legal play, for measurement and for finding bugs (``conquian simulate``).

Every decision picks uniformly among the listed legal actions
(:meth:`~conquian.engine.conquian.deal.ConquianDeal.legal_raw`).  The run is reproducible:
deal ``i`` uses a deck seed drawn from ``SplitMix64(seed)`` and the choices a
``random.Random(seed)``.

```pycon
>>> from conquian import get_rules
>>> s = simulate(get_rules("conquian"), deals=20, seed=1)
>>> s.deals, sum(s.wins) + s.tableaux
(20, 20)

```
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from conquian.engine.deck import SplitMix64
from conquian.engine.match import Deal, Match
from conquian.engine.rules import COONCAN, Rules
from conquian.i18n import _


@dataclass
class SimulationResult:
    """Figures of a simulation run."""

    variant: str
    deals: int
    seconds: float
    decisions: int
    wins: list[int]
    tableaux: int
    voids: int = 0
    match: Match | None = field(default=None, repr=False)

    @property
    def deals_per_second(self) -> float:
        """Deals played per second."""
        return self.deals / self.seconds if self.seconds else 0.0

    @property
    def decisions_per_second(self) -> float:
        """Decisions (actions) per second."""
        return self.decisions / self.seconds if self.seconds else 0.0

    @property
    def mean_decisions_per_deal(self) -> float:
        """Mean number of decisions in a deal."""
        return self.decisions / self.deals if self.deals else 0.0

    def to_json(self) -> dict[str, Any]:
        """The object printed by ``conquian simulate --json``."""
        return {
            "variant": self.variant,
            "deals": self.deals,
            "seconds": round(self.seconds, 6),
            "deals_per_second": round(self.deals_per_second, 2),
            "decisions_per_second": round(self.decisions_per_second, 2),
            "mean_decisions_per_deal": round(self.mean_decisions_per_deal, 3),
            "wins": self.wins,
            "tableaux": self.tableaux,
            "voids": self.voids,
        }

    def text(self) -> str:
        """The report for people, in the program's language (:func:`conquian.i18n.set_language`)."""
        wins = ", ".join(f"p{i + 1} {w}" for i, w in enumerate(self.wins))
        last = ((_("tableaux:"), str(self.tableaux)) if self.variant.startswith("conquian")
                else (_("void deals:"), str(self.voids)))
        rows = [
            (_("variant:"), self.variant),
            (_("deals:"), _("{deals} in {seconds:.3f} s").format(deals=self.deals, seconds=self.seconds)),
            (_("deals/s:"), f"{self.deals_per_second:,.0f}"),
            (_("decisions/s:"), f"{self.decisions_per_second:,.0f}"),
            (_("decisions per deal:"), f"{self.mean_decisions_per_deal:.2f}"),
            (_("wins:"), wins),
            last,
        ]
        width = max(19, *(len(label) for label, _value in rows)) + 1
        return "\n".join(f"{label:<{width}}{value}" for label, value in rows)


def simulate(rules: Rules, deals: int, seed: int = 0, keep: bool = False,
             on_deal: Callable[[Deal, list[int]], None] | None = None) -> SimulationResult:
    """Play ``deals`` deals of random legal play, the deal passing round the table.

    ``keep`` keeps the match (every deal) for a record; without it memory does not grow with the
    number of deals.  ``on_deal(deal, scores)`` is called as each deal ends (to stream a record).
    """
    seeds = SplitMix64(seed)
    rnd = random.Random(seed).random
    match = Match(rules, rounds=None, keep_history=keep)
    decisions = 0
    wins = [0] * rules.players
    tableaux = voids = 0
    start = time.perf_counter()
    for _deal in range(deals):
        deal = match.new_deal(seed=seeds.next64())
        step = deal.random_raw
        apply = deal.apply_raw
        over = deal.OVER_STAGE
        n = 0
        while deal.stage != over:
            kind, arg = step(rnd)
            apply(kind, arg)
            n += 1
        decisions += n
        w = deal.winner_seat
        if w is not None:
            wins[w - 1] += 1
        elif rules.family != COONCAN:  # conquian tableaux and the mexicano draws (R8.6)
            tableaux += 1
        else:
            voids += 1
        match.settle()
        if on_deal is not None:
            on_deal(deal, match.results[-1])
    seconds = time.perf_counter() - start
    return SimulationResult(rules.name, deals, seconds, decisions, wins, tableaux, voids, match if keep else None)
