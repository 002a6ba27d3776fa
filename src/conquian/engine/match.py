"""A match: deals in turn, totals, the tableau pool and the washbook (R3.8, R5, R6.3).

Conquian matches go on deal after deal, the deal alternating (R3.8), a tableau's
point carried to the next winner (R5.1).  A Cooncan match is one round of deals,
every player dealing once, the deal passing to the left (R5.4).

```pycon
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

```
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Union

from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.errors import NotationError, SetupError, quote
from conquian.engine.rules import CONQUIAN, MEXICANO, Rules
from conquian.engine.scoring import Washbook
from conquian.i18n import Msg

Deal = Union[ConquianDeal, CooncanDeal, MexicanoDeal]  # noqa: UP007 (a runtime alias)
#: The deals of R3 and R4, which the sessions, environments and interfaces play so far; the conquián
#: mexicano (R8) is played by the engine (matches, records, replay, simulation), the bots and the
#: tournaments, and reaches the others later.
ClassicDeal = Union[ConquianDeal, CooncanDeal]  # noqa: UP007 (a runtime alias)

#: The longest player name.
MAX_NAME = 40
_BAD_NAME_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def check_name(name: object) -> str:
    """A player's name as a record holds it: 1 to 40 printable characters, no control or format
    characters (a name is shown on terminals and web pages: an escape sequence in it must never be)."""
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise NotationError(Msg("a player's name is 1 to {n} characters, not {value}", n=MAX_NAME, value=quote(name)))
    for ch in name:
        if unicodedata.category(ch) in _BAD_NAME_CATEGORIES:
            raise NotationError(Msg("the name {value} holds a control character ({code})", value=quote(name),
                                    code=f"U+{ord(ch):04X}"))
    return name




def classic(deal: Deal) -> ClassicDeal:
    """``deal`` for code that plays conquian (R3) and Cooncan (R4) only: a conquián mexicano deal
    (R8) is refused with :class:`~conquian.engine.errors.SetupError` there, rather than misread."""
    if isinstance(deal, MexicanoDeal):
        raise SetupError("R8.1", Msg("{variant} is played by the engine, not yet here", variant=deal.rules.name))
    return deal


def turns_played(deal: Deal) -> int:
    """Turns taken so far: cards turned from the pack in conquian (R3.2: the pack starts after
    the two hands dealt) and the conquián mexicano (R8.3), draws or takes from the stock in
    Cooncan (R4.2)."""
    if isinstance(deal, ConquianDeal):
        return deal.pos - 2 * deal.rules.hand_size
    return deal.n_turns


def hands_in_play(deal: Deal) -> int:
    """The hands that take turns: two in conquian (with three at the table one sits out, R6.3),
    every player in Cooncan and the conquián mexicano."""
    return 2 if isinstance(deal, ConquianDeal) else deal.n


def round_of(turns: int, hands: int) -> int:
    """The round that ``turns`` turns reach, each of ``hands`` hands taking one turn a round."""
    return (turns + hands - 1) // hands


def new_deal(rules: Rules, deck: Sequence[int] | None = None, *, seed: int | None = None, dealer: int = 1) -> Deal:
    """A deal of the rules' family: :class:`ConquianDeal`, :class:`CooncanDeal` or :class:`MexicanoDeal`."""
    if rules.family == CONQUIAN:
        return ConquianDeal(rules, deck, seed=seed, dealer=dealer)
    if rules.family == MEXICANO:
        return MexicanoDeal(rules, deck, seed=seed, dealer=dealer)
    return CooncanDeal(rules, deck, seed=seed, dealer=dealer)


class Match:
    """Deals played in turn at one table, with running totals per seat.

    ``players`` names the seats ``p1..pN``.  ``first_dealer`` is the first
    dealer's seat (by default the last seat, so that ``p1`` plays first).
    ``rounds``: how many rounds of deals make the match (Cooncan and the conquián mexicano:
    1, every player dealing once, R5.4, R8.7; conquian: ``None``, no limit).
    """

    def __init__(self, rules: Rules, players: Sequence[str] | None = None, first_dealer: int | None = None,
                 rounds: int | str | None = "default", keep_history: bool = True) -> None:
        self.rules = rules
        n = rules.players
        self.players = list(players) if players is not None else [f"p{i + 1}" for i in range(n)]
        if len(self.players) != n:
            raise SetupError("R1", Msg("{variant} with players={n} seats {n} named players, not {value}",
                                       variant=rules.name, n=n, value=quote(players)))
        for name in self.players:
            check_name(name)
        self.first_dealer = first_dealer if first_dealer is not None else n
        if type(self.first_dealer) is not int or not 1 <= self.first_dealer <= n:
            raise SetupError("R3.8", Msg("the first dealer must be a seat from 1 to {n}, not {value}", n=n,
                                         value=quote(first_dealer)))
        self.rounds: int | None = (None if rules.family == CONQUIAN else 1) if rounds == "default" else (
            rounds if isinstance(rounds, int) else None)
        self.keep_history = keep_history
        """Whether ``deals``, ``results`` and the washbook keep every deal; without it (long
        simulations) only the last is kept, and the totals, so memory does not grow with deals."""
        self.deals: list[Deal] = []
        self.results: list[list[int]] = []
        self.washbook = Washbook(self.players)
        self.owed = [0] * n
        """Conquian: the counters each seat owes to the pool of earlier tableaux (R5.1)."""

    @property
    def next_dealer(self) -> int:
        """The dealer of the next deal: the deal passes to the left (R3.8, R4.1; R8.7: after
        every deal, a draw included)."""
        if not self.deals:
            return self.first_dealer
        return self.deals[-1].dealer % self.rules.players + 1

    @property
    def complete(self) -> bool:
        """Whether the match is over (Cooncan: every player has dealt ``rounds`` times)."""
        if self.rounds is None:
            return False
        return len(self.results) >= self.rounds * self.rules.players

    def new_deal(self, deck: Sequence[int] | None = None, *, seed: int | None = None,
                 dealer: int | None = None) -> Deal:
        """Settle the current deal (it must be over) and start the next one.

        ``dealer`` may be given for the first deal only, or as the seat the rotation gives (R3.8):
        any other is refused with :class:`~conquian.engine.errors.SetupError` naming R3.8.
        """
        if self.deals:
            self.settle()
        if self.complete:
            raise SetupError("R5.4", Msg("the match is over: every player has dealt"))
        if dealer is None:
            dealer = self.next_dealer
        elif self.deals and dealer != self.next_dealer:
            raise SetupError("R3.8", Msg("this deal must be dealt by {seat} (the deal passes in turn), not by {value}",
                                         seat=f"p{self.next_dealer}", value=quote(dealer)))
        d = new_deal(self.rules, deck, seed=seed, dealer=dealer)
        self.deals.append(d)
        return d

    def settle(self) -> None:
        """Record the scores of the last deal once it is over (idempotent)."""
        if len(self.results) == len(self.deals):
            return
        deal = self.deals[-1]
        if not deal.over:
            raise SetupError("R3.8", Msg("the current deal is not over"))
        scores = self.score_deal(deal)
        self.results.append(scores)
        self.washbook.add(scores)
        if not self.keep_history:
            del self.deals[:-1], self.results[:-1], self.washbook.rows[:-1]

    @property
    def pool(self) -> int:
        """Counters in the conquian tableau pool, waiting for the next winner (R5.1)."""
        return sum(self.owed)

    def score_deal(self, deal: Deal) -> list[int]:
        """The scores of a finished deal with the pool applied; updates the pool (R5.1): at a
        tableau each player who held cards owes a counter; the next winner takes them all."""
        scores = deal.scores(self.owed) or [0] * self.rules.players
        if isinstance(deal, ConquianDeal) and self.rules.scoring == "games":
            if deal.tableau:
                for seat in deal.seats:
                    self.owed[seat - 1] += 1
            else:
                self.owed = [0] * self.rules.players
        return scores

    @property
    def totals(self) -> list[int]:
        """Per-seat sums of the settled deals' scores."""
        return self.washbook.totals
