"""Playing deals and counting what happens in them: the raw material of ``conquian stats``.

Everything counted is a whole number, kept in a :class:`Tally` whose parts add up: a
run split into chunks (over processes, or over a Ray cluster) and merged gives exactly the
tally of the run played in one piece, so the same seed gives the same figures whichever
way it runs.  Deal ``i`` of a run is fixed by the seed and ``i`` alone: its deck seed is the
``i``-th output of ``SplitMix64(seed)``, its dealer seat ``1 + i mod players`` (the deal
passing round the table), and the bots' choices are seeded by ``(seed, i)``.

Bots: ``random`` and ``foster`` play through their fast paths (the uniform legal listing;
Foster's policy on the acting seat's own observation, exactly what the ``foster`` bot
computes from its view); any other registered bot is asked through its seat's view, as at
the table, and so is ``foster`` in the conquián mexicano (R8), which has no fast path here.

```pycon
>>> from conquian import get_rules
>>> t = play_chunk(get_rules("conquian"), ["foster", "foster"], seed=1, start=0, stop=50)
>>> t.deals, sum(t.rounds.values()), sum(t.wins_by_position) + t.no_winner
(50, 50, 50)

```
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from conquian.bots import make_bot
from conquian.bots.foster import state_policy
from conquian.engine.conquian.deal import FORCED, K_USE, SAY_DISCARD, SAY_PASSED, SAY_TURNED, ConquianDeal
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.conquian.mexicano_listing import FORCED as M_FORCED
from conquian.engine.cooncan.deal import (
    K_ADD,
    K_ADD1,
    K_DISCARD,
    K_MELD,
    K_MELD3,
    K_MELD3R,
    K_SHIFT,
    K_SHIFT1,
    CooncanDeal,
)
from conquian.engine.deck import SplitMix64
from conquian.engine.match import Deal, hands_in_play, new_deal, round_of, turns_played
from conquian.engine.rules import CONQUIAN, MEXICANO, Rules

#: Rounds past which duration histograms are not split further (a bucket "and more").
MAX_ROUND = 400

_GAMMA = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1

#: How a deal's winner won: conquian's winning use, Cooncan's going-out action.
WIN_KINDS_CONQUIAN = ("added to a combination", "a new combination", "a rearrangement")
WIN_SOURCES_CONQUIAN = ("his own turned card", "a card the adversary passed", "the adversary's discard",
                        "a card forced on him")
WIN_SOURCES_MEXICANO = ("his own turned card", "a card another player turned", "another player's discard",
                        "a card forced on him")
#: The conquián mexicano with ``exhausted = "fewest"``: a win with no winning use (R8.6).
FEWEST = ("the fewest cards in hand", "the pack exhausted")
WIN_KINDS_COONCAN = ("laying out", "adding", "moving a joker", "discarding")


def deck_seed(seed: int, i: int) -> int:
    """The ``i``-th output of ``SplitMix64(seed)`` (0-based), computed directly (the generator is a
    counter), so a chunk of a run needs no earlier deal."""
    g = SplitMix64(0)
    g.state = (seed + i * _GAMMA) & _MASK64
    return g.next64()


@dataclass
class Tally:
    """Whole-number counts over deals; ``+`` merges two tallies of disjoint deals."""

    deals: int = 0
    decisions: int = 0
    rounds: Counter[int] = field(default_factory=Counter)
    turns: Counter[int] = field(default_factory=Counter)
    wins_by_position: list[int] = field(default_factory=list)
    score_by_position: list[int] = field(default_factory=list)
    score_sq_by_position: list[int] = field(default_factory=list)
    no_winner: int = 0  # tableaux (conquian) or void deals (Cooncan)
    splashes: int = 0
    win_kinds: Counter[str] = field(default_factory=Counter)
    win_sources: Counter[str] = field(default_factory=Counter)
    # for Foster's table: at the start of round r, the cards the player to act has not seen
    unseen_sum: Counter[int] = field(default_factory=Counter)
    unseen_n: Counter[int] = field(default_factory=Counter)

    def __add__(self, other: Tally) -> Tally:
        n = max(len(self.wins_by_position), len(other.wins_by_position))

        def add(a: list[int], b: list[int]) -> list[int]:
            return [(a[i] if i < len(a) else 0) + (b[i] if i < len(b) else 0) for i in range(n)]

        return Tally(
            self.deals + other.deals, self.decisions + other.decisions, self.rounds + other.rounds,
            self.turns + other.turns, add(self.wins_by_position, other.wins_by_position),
            add(self.score_by_position, other.score_by_position),
            add(self.score_sq_by_position, other.score_sq_by_position), self.no_winner + other.no_winner,
            self.splashes + other.splashes, self.win_kinds + other.win_kinds, self.win_sources + other.win_sources,
            self.unseen_sum + other.unseen_sum, self.unseen_n + other.unseen_n,
        )

    def to_json(self) -> dict[str, Any]:
        """Plain JSON types, keys sorted (the run's raw data)."""
        return {
            "deals": self.deals, "decisions": self.decisions,
            "rounds": {str(k): v for k, v in sorted(self.rounds.items())},
            "turns": {str(k): v for k, v in sorted(self.turns.items())},
            "wins_by_position": self.wins_by_position, "score_by_position": self.score_by_position,
            "score_sq_by_position": self.score_sq_by_position, "no_winner": self.no_winner,
            "splashes": self.splashes, "win_kinds": dict(sorted(self.win_kinds.items())),
            "win_sources": dict(sorted(self.win_sources.items())),
            "unseen_sum": {str(k): v for k, v in sorted(self.unseen_sum.items())},
            "unseen_n": {str(k): v for k, v in sorted(self.unseen_n.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tally:
        """The inverse of :meth:`to_json`."""
        def counter(d: dict[str, int]) -> Counter[int]:
            return Counter({int(k): v for k, v in d.items()})

        return cls(data["deals"], data["decisions"], counter(data["rounds"]), counter(data["turns"]),
                   list(data["wins_by_position"]), list(data["score_by_position"]),
                   list(data["score_sq_by_position"]), data["no_winner"], data["splashes"],
                   Counter(data["win_kinds"]), Counter(data["win_sources"]), counter(data["unseen_sum"]),
                   counter(data["unseen_n"]))


def _position(deal: Deal, seat: int) -> int:
    """0 for the first to play, counting round the table to the dealer (conquian: the pone 0, the
    other hand 1)."""
    if isinstance(deal, ConquianDeal | MexicanoDeal):
        return deal.player_of(seat)
    return (seat - deal.dealer - 1) % deal.n


def _unseen(deal: Deal) -> int:
    """The cards the player to act has not seen: the pack and the other hands (in the conquián
    mexicano, but the card he gave while the next player still holds it, R8.2)."""
    if isinstance(deal, ConquianDeal):
        return deal.pack_count + deal.hands[1 - deal.actor].bit_count()
    if isinstance(deal, MexicanoDeal):
        p, n = deal.actor, deal.n
        hidden = sum(deal.hands[q].bit_count() for q in range(n) if q != p)
        gave = deal.gives[p]
        if deal.exchanged and deal.hands[(p + 1) % n] >> gave & 1:
            hidden -= 1
        return deal.pack_count + hidden
    p = deal.turn
    hidden = sum(deal.h1[q].bit_count() + deal.h2[q].bit_count() + deal.hj[q] for q in range(deal.n) if q != p)
    return deal.pack_count + hidden


def _conquian_win(deal: ConquianDeal | MexicanoDeal, raw: tuple[int, Any]) -> tuple[str, str] | None:
    """If this use wins, how (kind of use, where the card came from: R3.3, R8.3)."""
    if raw[0] != K_USE:
        return None
    p = deal.actor
    u = 0
    for m in raw[1]:
        u |= m
    if deal.hands[p] & ~u:
        return None
    melds: tuple[int, ...] = raw[1]
    cb = 1 << deal.card
    if len(melds) == 1 and melds[0] & ~cb in deal.sides[p]:
        kind = WIN_KINDS_CONQUIAN[0]
    elif all(m not in deal.sides[p] and not m & deal.downs[p] for m in melds):
        kind = WIN_KINDS_CONQUIAN[1]
    else:
        kind = WIN_KINDS_CONQUIAN[2]
    if isinstance(deal, MexicanoDeal):
        if deal.stage == M_FORCED:
            source = 3
        elif deal.first != deal.origin:  # a discard is offered first to the next player (R8.3)
            source = 2
        else:
            source = 0 if deal.origin == p else 1
        return kind, WIN_SOURCES_MEXICANO[source]
    source = {SAY_TURNED: 0, SAY_PASSED: 1, SAY_DISCARD: 2, FORCED: 3}.get(deal.stage, 0)
    return kind, WIN_SOURCES_CONQUIAN[source]


_COONCAN_KIND = {K_MELD: 0, K_MELD3: 0, K_MELD3R: 0, K_ADD: 1, K_ADD1: 1, K_SHIFT: 2, K_SHIFT1: 2, K_DISCARD: 3}


class _Seat:
    """One seat's player: a fast path for random and foster, else a bot asked through its view
    (``foster`` too in the conquián mexicano)."""

    def __init__(self, name: str, seed: int, rules: Rules) -> None:
        self.name = name
        self.rng = random.Random(seed)
        fast = ("random",) if rules.family == MEXICANO else ("random", "foster")
        self.bot = None if name in fast else make_bot(name, seed=seed)

    def raw(self, deal: Deal, seat: int) -> tuple[int, Any]:
        if self.name == "random":
            return deal.random_raw(self.rng.random)
        if self.bot is None:
            assert not isinstance(deal, MexicanoDeal)
            return state_policy(deal, self.rng)  # type: ignore[no-any-return]
        view: Any = deal.view(seat)  # a bot that does not play R8 yet refuses a mexicano view
        return deal.verify(self.bot.choose(view))


def check_bots(rules: Rules, bots: list[str]) -> None:
    """Raise :class:`RuntimeError` naming the first bot that does not play ``rules`` (asked for a
    move on a fresh deal): a bot that has not learnt the conquián mexicano refuses its view (R8.1)."""
    deal = new_deal(rules, seed=0, dealer=rules.players)
    seat = deal.to_act
    assert seat is not None
    for k, name in enumerate(dict.fromkeys(bots)):
        player = _Seat(name, k, rules)
        try:
            player.raw(deal, seat)
        except TypeError:
            raise RuntimeError(f"the {name} bot does not play {rules.name} yet: use --bots random") from None


def empty_tally(rules: Rules) -> Tally:
    """A tally of no deals, with a zero for each position: the hands in play, two in conquian
    (with three at the table one sits out, R6.3), every player in Cooncan."""
    k = 2 if rules.family == CONQUIAN else rules.players
    return Tally(wins_by_position=[0] * k, score_by_position=[0] * k, score_sq_by_position=[0] * k)


def play_chunk(rules: Rules, bots: list[str], seed: int, start: int, stop: int) -> Tally:
    """Play deals ``start`` to ``stop - 1`` of the run and count them."""
    n = rules.players
    if len(bots) != n:
        raise ValueError(f"give one bot per seat: {n}, not {len(bots)}")
    t = empty_tally(rules)
    for i in range(start, stop):
        dealer = 1 + i % n
        deal = new_deal(rules, seed=deck_seed(seed, i), dealer=dealer)
        players = [_Seat(name, (seed * 1_000_003 + i) * 16 + k, rules) for k, name in enumerate(bots)]
        over = deal.OVER_STAGE
        decisions = 0
        turns_seen = -1
        while deal.stage != over:
            seat = deal.to_act
            assert seat is not None
            turns = turns_played(deal)
            if turns != turns_seen:
                turns_seen = turns
                hands = hands_in_play(deal)
                if turns % hands == 1 or hands == 1:  # the first turn of a round
                    r = min(round_of(turns, hands), MAX_ROUND)
                    t.unseen_sum[r] += _unseen(deal)
                    t.unseen_n[r] += 1
            raw = players[seat - 1].raw(deal, seat)
            if isinstance(deal, ConquianDeal | MexicanoDeal):
                won = _conquian_win(deal, raw)
                deal.apply_raw(*raw)
                if won is None and deal.winner >= 0:  # R8.6 fewest: no winning use
                    won = FEWEST
                if won is not None:
                    t.win_kinds[won[0]] += 1
                    t.win_sources[won[1]] += 1
            else:
                deal.apply_raw(*raw)
                if deal.winner >= 0:
                    t.win_kinds[WIN_KINDS_COONCAN[_COONCAN_KIND.get(raw[0], 3)]] += 1
            decisions += 1
        _count_deal(t, deal, decisions)
    return t


def _count_deal(t: Tally, deal: Deal, decisions: int) -> None:
    t.deals += 1
    t.decisions += decisions
    if isinstance(deal, CooncanDeal) and deal.splash:
        t.splashes += 1
    turns, hands = turns_played(deal), hands_in_play(deal)
    t.turns[min(turns, MAX_ROUND * hands)] += 1
    t.rounds[min(round_of(turns, hands), MAX_ROUND)] += 1
    scores = deal.scores() or []
    seats = deal.seats if isinstance(deal, ConquianDeal) else range(1, deal.n + 1)
    for seat in seats:
        pos = _position(deal, seat)
        s = scores[seat - 1] if scores else 0
        t.score_by_position[pos] += s
        t.score_sq_by_position[pos] += s * s
    w = deal.winner_seat
    if w is None:
        t.no_winner += 1
    else:
        t.wins_by_position[_position(deal, w)] += 1
