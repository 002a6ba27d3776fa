"""Self-play and league tooling: learned policies beside the bots, duplicate deals, a rating table.

A *policy* is any callable ``policy(obs, mask) -> actions`` on stacked observations
``(B, obs_size)`` and masks ``(B, n_actions)`` of :mod:`conquian.envs.encoding`, returning one
legal index per row: a trained network plugs in as it is, with no bot class to register.
:class:`PolicyBot` makes one a bot (it is handed a seat's view like every bot, encodes it,
and asks the policy), so it plays wherever bots play; the batched environment
(:class:`~conquian.envs.vector.ConquianVectorEnv`) and the Gymnasium environment take policies
as opponents too.

:func:`league` plays every pair of entrants (registered bot names and policies alike) on the
same duplicate deals as ``conquian tournament``: each deck once per rotation of the pair over
the seats, the decks and rotations made by :mod:`conquian.tournament` itself.  A pair's result
on a deck is the sum of each one's scores over the rotations (the cards even out), and the
table rates every entrant on the Elo scale from those results (a Bradley-Terry fit, the same
whatever order the games were played in).

```pycon
>>> from conquian import get_rules
>>> from conquian.envs.vector import first_legal
>>> table = league(get_rules("conquian"), {"random": "random", "lowest": first_legal, "foster": "foster"},
...                deals=4, seed=1, anchor="random")
>>> [r.name for r in table.ratings][0], table.rating("random").elo
('foster', 0.0)
>>> table.rating("foster").games          # 2 opponents x 4 decks x 2 rotations
16

```
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from conquian.bots import make_bot
from conquian.bots.base import View
from conquian.engine.actions import Action
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.conquian.view import ConquianView
from conquian.engine.match import new_deal
from conquian.engine.rules import Rules
from conquian.envs.encoding import LATEST, Encoding, Mask, Obs, Public, encoding
from conquian.tournament import _jobs

#: A policy: stacked observations and masks in, one legal action index per row out.
Policy = Callable[[Obs, Mask], Any]
#: A league entrant: a registered bot's name, or a policy.
Entrant = str | Policy


def rowwise(fn: Callable[[Obs, Mask], int]) -> Policy:
    """A policy from a function of one observation and one mask (called row by row)."""

    def policy(obs: Obs, mask: Mask) -> list[int]:
        return [int(fn(o, m)) for o, m in zip(obs, mask, strict=True)]

    return policy


class PolicyBot:
    """A policy as a bot: handed the seat's view, it folds the view's public events, encodes the
    observation and the mask exactly as the environments do, and plays the index the policy
    chooses (a masked index raises ``ValueError``), in version ``version`` of the action space
    (``docs/encodings.md``).  One instance follows one deal at a time and starts again when it is
    handed a new deal's view."""

    name = "policy"

    def __init__(self, policy: Policy, rules: Rules, name: str = "policy", version: int = LATEST) -> None:
        self.policy = policy
        self.enc: Encoding = encoding(rules, version)
        self.name = name
        self.public = Public()
        self._node: Any = None

    def observe(self, view: View) -> tuple[Obs, Mask]:
        """The observation and the mask of ``view`` (the view's seat), public events folded."""
        public, enc = self.public, self.enc
        if view.n_events < public.n_events:
            public = self.public = Public()  # a new deal
        if isinstance(view, ConquianView | MexicanoView):
            enc.fold_conquian(public, view.event_node, view.seats, view.n_events - public.n_events)
        elif view.n_events > public.n_events:
            enc.update(public, view.events[public.n_events:])
        return enc.observe(view, public), enc.mask(view)

    def choose(self, view: View) -> Action:
        """The action the policy chooses for the view's seat."""
        obs, mask = self.observe(view)
        index = int(np.asarray(self.policy(obs[None], mask[None])).reshape(-1)[0])
        if not 0 <= index < len(mask) or not mask[index]:
            raise ValueError(f"{self.name} chose {index}, which is masked")
        return self.enc.action(index, view)


def make_player(entrant: Entrant, rules: Rules, seed: int = 0, name: str | None = None,
                version: int = LATEST) -> Any:
    """A bot for an entrant: a registered bot made by name, or a policy wrapped in :class:`PolicyBot`
    (its indices in version ``version`` of the action space)."""
    if isinstance(entrant, str):
        return make_bot(entrant, seed=seed)
    return PolicyBot(entrant, rules, name or str(getattr(entrant, "__name__", "policy")), version)


def play_deal(rules: Rules, players: Sequence[Entrant], deck_seed: int, bot_seed: int = 0,
              version: int = LATEST) -> list[int]:
    """Play one deal, ``players[i]`` in seat ``p(i+1)``, as :func:`conquian.tournament.play_game`
    deals and seeds it (the same deal, the same bots; policies choose in version ``version`` of the
    action space); returns every seat's score."""
    n = rules.players
    if len(players) != n:
        raise ValueError(f"give one player per seat: {n}, not {len(players)}")
    deal = new_deal(rules, seed=deck_seed, dealer=n)
    bots = [make_player(e, rules, seed=bot_seed * 31 + i, version=version) for i, e in enumerate(players)]
    limit = 100_000
    while not deal.over and limit:
        seat = deal.to_act
        assert seat is not None
        deal.play(bots[seat - 1].choose(deal.view(seat)))
        limit -= 1
    return list(deal.scores() or [0] * n)


def duplicate(rules: Rules, lineup: Sequence[str], entrants: Mapping[str, Entrant], deals: int,
              seed: int = 0, version: int = LATEST) -> Iterator[list[int]]:
    """The results of ``lineup`` (names of ``entrants``, one per seat) on ``deals`` duplicate decks:
    for each deck, the sum of every lineup entry's scores over the rotations of the lineup over the
    seats (the decks and rotations of :mod:`conquian.tournament`)."""
    n = rules.players
    if len(lineup) != n:
        raise ValueError(f"give one entrant per seat: {n}, not {len(lineup)}")
    sums = [0] * n
    for k, (_rules, seated, deck_seed, bot_seed, _params) in enumerate(_jobs(rules, list(lineup), deals, seed, {})):
        r = k % n  # seat s holds the lineup entry (s + r) % n
        scores = play_deal(rules, [entrants[name] for name in seated], deck_seed, bot_seed, version)
        for s, score in enumerate(scores):
            sums[(s + r) % n] += score
        if r == n - 1:
            yield sums
            sums = [0] * n


@dataclass
class Rating:
    """One entrant's line of the table."""

    name: str
    elo: float
    games: int = 0
    """Deals played (every rotation of every deck against every opponent)."""
    points: int = 0
    """The sum of its scores."""
    wins: int = 0
    """Duplicate decks won against an opponent (its sum over the rotations above the other's)."""
    draws: int = 0
    losses: int = 0

    @property
    def points_per_deal(self) -> float:
        """Mean score per deal."""
        return self.points / self.games if self.games else 0.0


@dataclass
class LeagueResult:
    """The rating table of a league, best first, and the duplicate results of every pair."""

    variant: str
    players: int
    deals: int
    ratings: list[Rating]
    pairs: dict[tuple[str, str], tuple[int, int, int]] = field(default_factory=dict)
    """``(a, b)`` to a's duplicate wins, draws and losses against b."""

    def rating(self, name: str) -> Rating:
        """The line of one entrant."""
        return next(r for r in self.ratings if r.name == name)

    def text(self) -> str:
        """The table for people."""
        lines = [f"{self.variant}, {self.players} players, {self.deals} duplicate decks per pair",
                 f"{'entrant':16} {'Elo':>7} {'deals':>6} {'points/deal':>12} {'won':>5} {'drawn':>6} {'lost':>5}"]
        for r in self.ratings:
            lines.append(f"{r.name:16} {r.elo:>+7.0f} {r.games:>6} {r.points_per_deal:>+12.3f} "
                         f"{r.wins:>5} {r.draws:>6} {r.losses:>5}")
        return "\n".join(lines)


def elo_ratings(pairs: Mapping[tuple[str, str], tuple[int, int, int]], names: Sequence[str],
                anchor: str | None = None, prior: float = 0.5, iterations: int = 2000) -> dict[str, float]:
    """Elo-scale ratings from pairwise wins, draws and losses: the Bradley-Terry fit (a draw half a
    win each), with ``prior`` virtual draws in every pair that met so that a clean sweep stays
    finite; the ratings average 0, or ``anchor``'s is 0."""
    idx = {n: i for i, n in enumerate(names)}
    k = len(names)
    won = np.zeros((k, k))
    for (a, b), (w, d, lo) in pairs.items():
        i, j = idx[a], idx[b]
        won[i, j] += w + 0.5 * d + prior
        won[j, i] += lo + 0.5 * d + prior
    games = won + won.T
    strength = np.ones(k)
    total = won.sum(axis=1)
    for _ in range(iterations):
        denom = (games / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1.0), 1.0)
        new /= math.exp(float(np.log(new).mean()))
        if np.allclose(new, strength, rtol=1e-10, atol=0):
            strength = new
            break
        strength = new
    elo = 400.0 * np.log10(strength)
    elo -= elo[idx[anchor]] if anchor is not None else elo.mean()
    return {n: float(round(elo[idx[n]], 6)) + 0.0 for n in names}


def league(rules: Rules, entrants: Mapping[str, Entrant], deals: int = 50, seed: int = 0,
           anchor: str | None = None, version: int = LATEST) -> LeagueResult:
    """Play every pair of ``entrants`` (name to a bot name or a policy) on ``deals`` duplicate decks
    and rate them (see the module's documentation).  With more than two seats, a pair fills the
    seats alternately (``a, b, a, ...``) and every rotation is played; at an odd table the pair
    plays the decks a second time, ``b, a, b, ...``, so that neither holds more seats.  Policies
    choose in version ``version`` of the action space (``docs/encodings.md``)."""
    names = list(entrants)
    if len(names) < 2:
        raise ValueError("a league needs two entrants at least")
    if anchor is not None and anchor not in entrants:
        raise ValueError(f"the anchor {anchor!r} is not an entrant")
    n = rules.players
    lines = {name: Rating(name, 0.0) for name in names}
    pairs: dict[tuple[str, str], tuple[int, int, int]] = {}
    for a, b in combinations(names, 2):
        w = d = lo = 0
        lineups = [[a if s % 2 == 0 else b for s in range(n)]]
        if n % 2:  # an odd table: each of the pair holds the extra seat in turn
            lineups.append([b if s % 2 == 0 else a for s in range(n)])
        for lineup in lineups:
            for sums in duplicate(rules, lineup, entrants, deals, seed, version):
                pa = sum(x for x, who in zip(sums, lineup, strict=True) if who == a)
                pb = sum(x for x, who in zip(sums, lineup, strict=True) if who == b)
                for who, pts in ((a, pa), (b, pb)):
                    lines[who].points += pts
                    lines[who].games += sum(1 for x in lineup if x == who) * n
                if pa > pb:
                    w += 1
                elif pa < pb:
                    lo += 1
                else:
                    d += 1
        pairs[(a, b)] = (w, d, lo)
        lines[a].wins += w
        lines[a].draws += d
        lines[a].losses += lo
        lines[b].wins += lo
        lines[b].draws += d
        lines[b].losses += w
    for name, elo in elo_ratings(pairs, names, anchor).items():
        lines[name].elo = elo
    ratings = sorted(lines.values(), key=lambda r: (-r.elo, r.name))
    return LeagueResult(rules.name, n, deals, ratings, pairs)
