"""Tournaments between bots on duplicate deals (``conquian tournament``).

Every deck is played once for each rotation of the bots over the seats, so the
cards even out: with two bots at conquian each plays both hands of every deck; with three
(Cooncan, three at a conquian table, the conquián mexicano's tercerilla, R8) each bot holds
every seat of every deck once.
Games run in worker processes; results are gathered in game order, so the same
seed gives the same result whatever the number of workers.  Bots only ever see
views (:func:`play_game`).

```pycon
>>> from conquian import get_rules
>>> res = run_tournament(get_rules("conquian"), ["foster", "random"], deals=4, seed=1, workers=1)
>>> [r.bot for r in res.results], res.results[0].deals
(['foster', 'random'], 8)

```
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from conquian.bots import make_bot
from conquian.engine.deck import SplitMix64
from conquian.engine.errors import ConquianError
from conquian.engine.match import new_deal
from conquian.engine.rules import CONQUIAN, COONCAN, Rules
from conquian.i18n import Msg, _

#: How many decision times a bot's figures keep for the 95th percentile (a uniform sample beyond).
TIME_SAMPLE = 200_000


@dataclass
class SeatOutcome:
    """One bot's result in one game."""

    bot: str
    score: int
    won: bool
    lost: bool
    tie: bool  # a conquian tableau, a conquián mexicano draw (R8.6), or a void Cooncan deal
    times: list[float]


def play_game(rules: Rules, bots: list[str], deck_seed: int, bot_seed: int,
              bot_params: dict[str, dict[str, Any]] | None = None) -> list[SeatOutcome]:
    """Play one deal; ``bots[i]`` sits in seat ``p(i+1)``.  Each bot sees only its seat's view."""
    n = rules.players
    deal = new_deal(rules, seed=deck_seed, dealer=n)
    params = bot_params or {}
    players = [make_bot(name, seed=bot_seed * 31 + i, **params.get(name, {})) for i, name in enumerate(bots)]
    times: list[list[float]] = [[] for _ in range(n)]
    limit = 100_000
    while not deal.over and limit:
        seat = deal.to_act
        assert seat is not None
        t0 = time.perf_counter()  # the view is part of the decision's cost
        view = deal.view(seat)
        action = players[seat - 1].choose(view)
        times[seat - 1].append(time.perf_counter() - t0)
        deal.play(action)
        limit -= 1
    scores = deal.scores() or [0] * n
    winner = deal.winner_seat
    out = []
    for i, name in enumerate(bots):
        seat = i + 1
        holds = rules.family != CONQUIAN or seat in getattr(deal, "seats", ())
        out.append(SeatOutcome(
            bot=name, score=scores[i], won=winner == seat, lost=winner is not None and winner != seat and holds,
            tie=winner is None and holds, times=times[i],
        ))
    return out


@dataclass
class BotResult:
    """A bot's figures over a tournament (aggregated over every seat it held)."""

    bot: str
    deals: int = 0
    wins: int = 0
    losses: int = 0
    tableaux: int = 0
    voids: int = 0
    scores: list[int] = field(default_factory=list, repr=False)
    times: list[float] = field(default_factory=list, repr=False)
    """Seconds per decision: every one, or a uniform sample of ``TIME_SAMPLE`` of them in a long run."""
    decisions: int = 0
    total_seconds: float = 0.0

    def add_times(self, times: list[float], rng: random.Random) -> None:
        """Count some decisions' times, keeping a bounded uniform sample for the percentile."""
        for t in times:
            self.decisions += 1
            self.total_seconds += t
            if len(self.times) < TIME_SAMPLE:
                self.times.append(t)
            else:
                k = rng.randrange(self.decisions)
                if k < TIME_SAMPLE:
                    self.times[k] = t

    @property
    def points_per_deal(self) -> float:
        """Mean score per deal."""
        return sum(self.scores) / len(self.scores) if self.scores else 0.0

    @property
    def points_ci95(self) -> tuple[float, float]:
        """A 95% confidence interval of the mean score (normal approximation)."""
        n = len(self.scores)
        if n < 2:
            return (self.points_per_deal, self.points_per_deal)
        m = self.points_per_deal
        var = sum((x - m) ** 2 for x in self.scores) / (n - 1)
        h = 1.96 * math.sqrt(var / n)
        return (m - h, m + h)

    @property
    def win_rate(self) -> float | None:
        """Wins over decided deals (wins + losses); None when no deal was decided."""
        decided = self.wins + self.losses
        return self.wins / decided if decided else None

    @property
    def win_rate_ci95(self) -> tuple[float, float]:
        """Wilson's 95% interval of the win rate of decided deals."""
        n = self.wins + self.losses
        if n == 0:
            return (0.0, 1.0)
        z = 1.96
        p = self.wins / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (centre - half, centre + half)

    @property
    def seconds_per_decision(self) -> float:
        """Mean seconds per decision (the view included)."""
        return self.total_seconds / self.decisions if self.decisions else 0.0

    @property
    def p95_seconds_per_decision(self) -> float:
        """The 95th percentile of seconds per decision."""
        if not self.times:
            return 0.0
        s = sorted(self.times)
        return s[min(len(s) - 1, math.ceil(0.95 * len(s)) - 1)]

    def to_json(self) -> dict[str, Any]:
        """The object of one bot in ``--json`` output."""
        return {
            "bot": self.bot, "deals": self.deals, "wins": self.wins, "losses": self.losses,
            "tableaux": self.tableaux, "voids": self.voids,
            "points_per_deal": round(self.points_per_deal, 4),
            "points_ci95": [round(x, 4) for x in self.points_ci95],
            "win_rate": None if self.win_rate is None else round(self.win_rate, 4),
            "win_rate_ci95": [round(x, 4) for x in self.win_rate_ci95],
            "seconds_per_decision": round(self.seconds_per_decision, 6),
            "p95_seconds_per_decision": round(self.p95_seconds_per_decision, 6),
        }


@dataclass
class TournamentResult:
    """The figures of every bot."""

    variant: str
    players: int
    bots: list[str]
    deals: int
    games: int
    seconds: float
    results: list[BotResult]
    slots: list[BotResult] = field(default_factory=list)
    """The same figures for each entry of ``bots`` (a bot listed twice is two slots), e.g. to
    compare one foster among fosters with one expert among fosters."""
    outcomes: list[list[SeatOutcome]] = field(default_factory=list, repr=False)
    """Every game's outcome per seat, in game order (deck by deck, rotation by rotation)."""

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object."""
        return {"variant": self.variant, "players": self.players, "bots": self.bots, "deals": self.deals,
                "games": self.games, "seconds": round(self.seconds, 3),
                "results": [r.to_json() for r in self.results],
                "slots": [r.to_json() for r in self.slots]}

    def text(self) -> str:
        """A table for people, in the program's language (:func:`conquian.i18n.set_language`)."""
        conq = self.variant.startswith("conquian")
        head = _("{variant}, {players} players, {deals} decks x {players} rotations = {games} games in "
                 "{seconds:.1f} s").format(variant=self.variant, players=self.players, deals=self.deals,
                                           games=self.games, seconds=self.seconds)
        tie = _("tableaux") if conq else _("voids")
        bot, deals, wins, losses, per_deal, rate, per_decision = (
            _("bot"), _("deals"), _("wins"), _("losses"), _("points/deal ({ci} CI)").format(ci="95%"),
            _("win rate ({ci} CI)").format(ci="95%"), _("s/decision"))
        lines = [head, f"{bot:10} {deals:>6} {wins:>6} {losses:>6} {tie:>8} {per_deal:>28} {rate:>24} "
                       f"{per_decision:>11} {'p95':>9}"]
        na = _("n/a")
        for r in self.results:
            lo, hi = r.points_ci95
            wl, wh = r.win_rate_ci95
            ties = r.tableaux if conq else r.voids
            rate = f"{r.win_rate:>7.3f} ({wl:.3f}, {wh:.3f})" if r.win_rate is not None else f"{na:>22}"
            lines.append(
                f"{r.bot:10} {r.deals:>6} {r.wins:>6} {r.losses:>6} {ties:>8} "
                f"{r.points_per_deal:>+9.3f} ({lo:+8.3f}, {hi:+8.3f}) {rate} "
                f"{r.seconds_per_decision:>11.5f} {r.p95_seconds_per_decision:>9.5f}"
            )
        return "\n".join(lines)


def _game(args: Job) -> list[SeatOutcome]:
    return play_game(*args)


def max_workers() -> int:
    """The most worker processes a tournament starts: the machine's cores."""
    return os.cpu_count() or 1


Job = tuple[Rules, list[str], int, int, dict[str, dict[str, Any]]]


def _jobs(rules: Rules, bots: list[str], deals: int, seed: int, bot_params: dict[str, dict[str, Any]]) -> Iterator[Job]:
    """The games, deck by deck and rotation by rotation, made as they are needed (never a list up front)."""
    n = rules.players
    seeds = SplitMix64(seed)
    for i in range(deals):
        deck_seed = seeds.next64()
        for r in range(n):
            yield (rules, [bots[(s + r) % n] for s in range(n)], deck_seed, (seed * 1_000_003 + i) * 16 + r, bot_params)


def run_tournament(rules: Rules, bots: list[str], deals: int, seed: int = 0, workers: int | None = None,
                   bot_params: dict[str, dict[str, Any]] | None = None, progress: bool = False,
                   keep_outcomes: bool = True) -> TournamentResult:
    """Play ``deals`` decks, each once per rotation of ``bots`` (one per seat) over the seats.

    Games are made and their figures gathered as they go, so memory does not grow with ``deals``
    beyond one score per bot and game (and every game's outcome with ``keep_outcomes``).
    ``workers`` is capped at the machine's cores.
    """
    n = rules.players
    if len(bots) != n:
        raise ConquianError(Msg("give one bot per seat: {n} for {variant} with {n} players, not {given}", n=n,
                                variant=rules.name, given=len(bots)))
    for name in set(bots):
        make_bot(name)  # unknown names fail here, before any process starts
    total = deals * n
    workers = max(1, min(workers or max_workers(), max_workers()))
    by_bot: dict[str, BotResult] = {}
    for name in bots:
        by_bot.setdefault(name, BotResult(name))
    slots = [BotResult(name) for name in bots]
    conq = rules.family != COONCAN  # conquian's tableaux and the conquián mexicano's draws (R8.6)
    sample_rng = random.Random(seed)
    outcomes: list[list[SeatOutcome]] = []

    def gather(g: int, game: list[SeatOutcome]) -> None:
        r = g % n  # the rotation: seat s holds the entry (s + r) % n of bots
        for seat_index, o in enumerate(game):
            for br in (by_bot[o.bot], slots[(seat_index + r) % n]):
                br.deals += 1
                br.wins += o.won
                br.losses += o.lost
                if o.tie:
                    if conq:
                        br.tableaux += 1
                    else:
                        br.voids += 1
                br.scores.append(o.score)
                br.add_times(o.times, sample_rng)
            o.times = []
        if keep_outcomes:
            outcomes.append(game)

    start = time.perf_counter()
    show = progress and sys.stderr.isatty()
    jobs = _jobs(rules, bots, deals, seed, bot_params or {})
    if workers == 1:
        for k, job in enumerate(jobs):
            gather(k, _game(job))
            if show:
                _progress(k + 1, total, start)
    else:
        ctx = multiprocessing.get_context("spawn" if sys.platform == "darwin" else "fork")
        with ctx.Pool(workers) as pool:
            chunk = max(1, min(64, total // (workers * 20)))
            for k, res in enumerate(pool.imap(_game, jobs, chunksize=chunk)):
                gather(k, res)
                if show:
                    _progress(k + 1, total, start)
    if show:
        sys.stderr.write("\n")
    seconds = time.perf_counter() - start
    return TournamentResult(rules.name, n, bots, deals, total, seconds, list(by_bot.values()), slots, outcomes)


def _progress(done: int, total: int, start: float) -> None:
    width = 30
    filled = int(width * done / total)
    el = time.perf_counter() - start
    eta = el / done * (total - done)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] "
                     + _("{done}/{total} games, {elapsed:.0f} s, about {left:.0f} s left").format(
                         done=done, total=total, elapsed=el, left=eta) + " ")
    sys.stderr.flush()
