"""The table: cutting for seats and deal (R6.1) and forming tables (R6.2).

```pycon
>>> from conquian import get_rules
>>> cut = cut_for_seats(get_rules("cooncan-double"), ["Ann", "Bob", "Cy", "Di", "Ed"], seed=7)
>>> len(cut.seating), cut.dealer
(5, 5)
>>> cut.seating == cut_for_seats(get_rules("cooncan-double"), ["Ann", "Bob", "Cy", "Di", "Ed"], seed=7).seating
True

```
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from conquian.engine.cards import JOKER, card_str
from conquian.engine.deck import seeded_deck
from conquian.engine.rules import CONQUIAN, Rules


def cut_rank(card: int) -> int:
    """The rank of a card in the cut (R6.1): king high down to ace, the joker lowest."""
    return 0 if card == JOKER else card & 15


@dataclass
class CutResult:
    """The outcome of cutting for seats and deal."""

    seating: list[str]
    """Names in seat order ``p1..pN``."""
    dealer: int
    """The seat that deals first."""
    cuts: list[list[tuple[str, str]]] = field(default_factory=list)
    """Each round of cutting: (name, card cut).  Later rounds break ties only."""


def cut_for_seats(rules: Rules, names: Sequence[str], seed: int) -> CutResult:
    """Cut for seats and deal (R6.1), reproducibly from ``seed``.

    Every player cuts a card (king high, ace low, joker lowest); players who tie
    cut again, and the second cut decides nothing but the tie.  Cooncan: the highest
    cut deals and chooses his seat, the next highest sits on his left, and so on, so
    ``p1`` is the second highest and the dealer sits last.  Conquian: the lowest cut
    deals; the others keep the order of the cut, highest first.
    """
    names = list(names)
    if len(set(names)) != len(names):
        raise ValueError("the players' names must differ")
    rounds: list[list[tuple[str, str]]] = []
    attempt = 0

    def order(group: list[str]) -> list[str]:
        """``group`` ranked from the highest cut down, ties broken by cutting again."""
        nonlocal attempt
        attempt += 1
        deck = seeded_deck(rules, seed * 1_000_003 + attempt)  # a fresh shuffle for each cut
        cut = dict(zip(group, deck, strict=False))
        rounds.append([(name, card_str(cut[name])) for name in group])
        ranks = sorted({cut_rank(cut[name]) for name in group}, reverse=True)
        out: list[str] = []
        for r in ranks:
            tied = [name for name in group if cut_rank(cut[name]) == r]
            out += tied if len(tied) == 1 else order(tied)
        return out

    ranked = order(names)
    n = len(names)
    if rules.family == CONQUIAN:
        dealer_name = ranked[-1]
        rest = ranked[:-1]
        seating = [*rest, dealer_name]
    else:
        seating = [*ranked[1:], ranked[0]]
    return CutResult(seating=seating, dealer=n, cuts=rounds)


@dataclass
class Roster:
    """Who plays at a table and who waits (R6.2).

    A table holds at most ``size`` players (five for the double pack).  Newcomers
    wait; at the end of a match, those who have played the most consecutive matches
    cut to make room for them (the lowest cuts leave).  A player may leave in the
    middle of a match by naming a substitute, whose seat ends with the match.
    """

    size: int
    playing: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    streak: dict[str, int] = field(default_factory=dict)
    """Consecutive matches played by each seated player."""
    substitutes: dict[str, str] = field(default_factory=dict)
    """Substitute name -> the player he replaces until the match ends."""

    def join(self, name: str) -> None:
        """A player arrives: he sits if there is room, else waits."""
        if name in self.playing or name in self.waiting:
            raise ValueError(f"{name} is already at the table")
        if len(self.playing) < self.size:
            self.playing.append(name)
            self.streak[name] = 0
        else:
            self.waiting.append(name)

    def substitute(self, leaving: str, substitute: str) -> None:
        """``leaving`` quits mid-match, naming ``substitute`` to finish it (R6.2)."""
        if leaving not in self.playing:
            raise ValueError(f"{leaving} is not playing")
        if substitute in self.playing:
            raise ValueError(f"{substitute} is already playing")
        self.playing[self.playing.index(leaving)] = substitute
        self.substitutes[substitute] = leaving
        self.streak.setdefault(substitute, self.streak.pop(leaving, 0))

    def end_match(self, rules: Rules, seed: int) -> list[str]:
        """Close a match: substitutes' seats end, streaks grow, and players with the longest
        streak cut to make room for those waiting.  Returns who left the table."""
        left: list[str] = []
        for sub, _original in list(self.substitutes.items()):
            self.playing.remove(sub)
            self.streak.pop(sub, None)
            left.append(sub)
        self.substitutes.clear()
        for name in self.playing:
            self.streak[name] = self.streak.get(name, 0) + 1
        room = self.size - len(self.playing)
        need = len(self.waiting) - room
        while need > 0 and self.playing:
            longest = max(self.streak[name] for name in self.playing)
            group = [name for name in self.playing if self.streak[name] == longest]
            out = group if len(group) <= need else cut_for_seats(rules, group, seed).seating
            if len(group) > need:
                # the lowest cuts retire: with a Cooncan cut the ranking is p1.. = 2nd..,
                # the dealer (last) the highest; take the ranking back from the seating
                ranked = [out[-1], *out[:-1]] if rules.family != CONQUIAN else out
                out = ranked[-need:]
            for name in out:
                self.playing.remove(name)
                self.streak.pop(name, None)
                left.append(name)
                need -= 1
        while self.waiting and len(self.playing) < self.size:
            name = self.waiting.pop(0)
            self.playing.append(name)
            self.streak[name] = 0
        return left
