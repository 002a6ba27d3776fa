"""A match of conquian deals: the deal in turn, totals and the tableau pool (R3.8, R5.1, R6.3).

>>> from conquian import Match, get_rules
>>> m = Match(get_rules("conquian"), ["Ann", "Bob"])
>>> deal = m.new_deal(seed=1)
>>> deal.dealer, deal.to_act
(2, 1)
>>> while not deal.over:
...     _ = deal.play(deal.legal_actions()[0])
>>> m.settle()
>>> sum(m.totals), len(m.results)
(0, 1)
>>> m.new_deal(seed=2).dealer   # the deal alternates (R3.8)
1
"""

from __future__ import annotations

from collections.abc import Sequence

from conquian.rules import Rules
from conquian.twohand import ConquianDeal


class Match:
    """Deals played in turn at one table, with running totals per seat.

    ``players`` names the seats ``p1..pN`` (two, or three with the dealer sitting
    out, R6.3).  ``first_dealer`` is the first dealer's seat (by default the last
    seat, so that ``p1`` is the first pone).
    """

    def __init__(self, rules: Rules, players: Sequence[str] | None = None, first_dealer: int | None = None) -> None:
        self.rules = rules
        n = rules.players
        self.players = list(players) if players is not None else [f"p{i + 1}" for i in range(n)]
        if len(self.players) != n:
            raise ValueError(f"{rules.name} with players={n} seats {n} players, not {len(self.players)}")
        self.first_dealer = first_dealer if first_dealer is not None else n
        if not 1 <= self.first_dealer <= n:
            raise ValueError(f"first_dealer must be a seat from 1 to {n}")
        self.deals: list[ConquianDeal] = []
        self.results: list[list[int]] = []
        self.pool = 0
        """Points of tableaux waiting for the next winner (R5.1)."""

    @property
    def next_dealer(self) -> int:
        """The dealer of the next deal: the deal passes to the left (R3.8)."""
        if not self.deals:
            return self.first_dealer
        return self.deals[-1].dealer % self.rules.players + 1

    def new_deal(
        self, deck: Sequence[int] | None = None, *, seed: int | None = None, dealer: int | None = None
    ) -> ConquianDeal:
        """Settle the current deal (it must be over) and start the next one."""
        if self.deals:
            self.settle()
        d = ConquianDeal(self.rules, deck, seed=seed, dealer=self.next_dealer if dealer is None else dealer)
        self.deals.append(d)
        return d

    def settle(self) -> None:
        """Record the scores of the last deal once it is over (idempotent)."""
        if len(self.results) == len(self.deals):
            return
        deal = self.deals[-1]
        if not deal.over:
            raise ValueError("the current deal is not over")
        self.results.append(self.score_deal(deal))

    def score_deal(self, deal: ConquianDeal) -> list[int]:
        """The scores of a finished deal with the pool applied, and update the pool (R5.1)."""
        scores = deal.scores(self.pool) or [0] * self.rules.players
        if self.rules.scoring == "games":
            if deal.tableau:
                self.pool += 1
            else:
                self.pool = 0
        return scores

    @property
    def totals(self) -> list[int]:
        """Per-seat sums of the settled deals' scores."""
        out = [0] * self.rules.players
        for r in self.results:
            for i, s in enumerate(r):
                out[i] += s
        return out
