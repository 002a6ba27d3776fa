"""The ``expert`` bot: determinized search (perfect-information Monte Carlo, PIMC).

For each decision the bot re-deals the cards it has not seen, consistently with
everything its view shows (:mod:`conquian.bots.determinize`; in conquian, with
``inference``, the adversary's hand drawn by how well it explains his every past
choice, :mod:`conquian.bots.inference`), plays every
candidate action on each re-dealt deal and finishes the deal with the ``foster``
policy for every seat, and picks the action with the best mean result.  The same
re-deals serve every candidate (common random numbers), so the comparison is
sharper than the sample size suggests.  In conquian and the conquián mexicano (R8: the
re-deal keeps the card the seat gave with the player who got it; the playouts use
:mod:`conquian.bots.foster_mexicano`, and score the deal's points, R8.7) the playouts are spent by
sequential halving (the worse half of the candidates dropped round after round);
in Cooncan evenly, and foster's own choice is kept unless an action beats it
clearly.  The budget is a number of playouts per
decision (``iterations``), or a time (``ms``) at the cost of reproducibility.
With ``iterations`` the bot is deterministic for a given seed.
"""

from __future__ import annotations

import math
import random
import time
import zlib
from collections.abc import Callable
from typing import Any, NamedTuple

import conquian.bots.foster_cooncan as fk
from conquian.bots.base import View, check_view, register
from conquian.bots.determinize import Reading, determinize, reading_pool
from conquian.bots.foster import cooncan_obs_from_view as fk_obs
from conquian.bots.foster import state_policy
from conquian.bots.inference import POOL, PRIOR, HandPosterior, mixture_posterior, posterior
from conquian.bots.random_bot import view_action
from conquian.bots.weights import shipped_weights
from conquian.engine.actions import Action
from conquian.engine.cards import JOKER
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.conquian.view import ConquianView
from conquian.engine.cooncan.deal import K_DISCARD, PLAY, CooncanDeal
from conquian.engine.cooncan.view import CooncanView
from conquian.engine.match import Deal
from conquian.engine.scoring import pip_value


def _cooncan_candidates(view: CooncanView, legal: list[Any], choice: Any) -> list[Any]:
    """Prune a Cooncan turn's choices: every lay-out, add and shift, foster's own choice, and the
    three discards foster likes best (discarding is most of the list and rarely close)."""
    obs = fk_obs(view)
    keep = [r for r in legal if r[0] != K_DISCARD]
    ranked = sorted(
        (r for r in legal if r[0] == K_DISCARD),
        key=lambda r: -(pip_value(r[1]) - 4.0 * fk.card_keep(obs, obs.h1, obs.h2, obs.hj, r[1]))
        if r[1] != JOKER else 99.0,
    )
    keep += ranked[:3]
    if choice not in keep:
        keep.append(choice)
    return keep


def playout_value(deal: Deal, seat: int, rng: random.Random, horizon: int) -> float:
    """Finish (or play ``horizon`` actions of) a deal with the foster policy; the value for ``seat``."""
    steps = 0
    over = deal.OVER_STAGE
    while deal.stage != over and steps < horizon:
        deal.apply_raw(*state_policy(deal, rng))
        steps += 1
    if isinstance(deal, ConquianDeal):
        if deal.stage == over:
            if deal.winner < 0:
                return 0.0
            return 1.0 if deal.seats[deal.winner] == seat else -1.0
        p = deal.player_of(seat)
        return 0.05 * (deal.downs[p].bit_count() - deal.downs[1 - p].bit_count())
    if isinstance(deal, MexicanoDeal):
        if deal.stage == over:
            # R8.7: the points of the deal (+1 or -1 with two; +2, -1 or 0 with three or four)
            return float((deal.scores() or [0] * deal.n)[seat - 1])
        # not over at the horizon: cards down against the others' mean
        p = deal.player_of(seat)
        rest = sum(deal.downs[q].bit_count() for q in range(deal.n) if q != p) / (deal.n - 1)
        return 0.05 * (deal.downs[p].bit_count() - rest)
    if deal.stage == over:
        scores = deal.scores() or [0] * deal.n
        return float(scores[seat - 1])
    # not over at the horizon: the pips each would pay if the deal ended now, shared out
    pips = [sum(pip_value(c) for c in deal.hand(s)) for s in range(1, deal.n + 1)]
    mine = pips[seat - 1]
    others = [x for i, x in enumerate(pips) if i != seat - 1]
    return (sum(others) / len(others) - mine) * 0.5


#: How the search weighs the adversary's possible hands in conquian: ``choices``, by
#: the cards he passed and discarded only (:mod:`conquian.bots.determinize`); ``apprentice``, by how
#: likely the fitted apprentice's probabilities, mixed with choices at random, make his every past
#: choice (:mod:`conquian.bots.inference`); ``policy``, the same with ``foster``'s policy and a slip
#: as the model.  The two models read a player who plays like them far better, and misread one who
#: does not (``docs/bots.md``).  ``mixture``: ``foster``'s policy, the apprentice, the apprentice
#: loosened and a player no model fits, each weighed by how well it has predicted his choices this
#: deal, the last reading his hand as ``choices`` does (:func:`~conquian.bots.inference.mixture_posterior`).
#: In the conquián mexicano and Cooncan the re-deal is uniform (but for what the view pins down)
#: except with ``policy``: there the re-deals are drawn by weight from a pool weighed by
#: ``foster``'s likelihood of the adversaries' choices (every choice since the exchange in the
#: mexicano, the discards and draws in Cooncan: :mod:`conquian.bots.inference_families`).
#: ``safe`` (the default since 2026-11-29): the mixture read safely (:data:`SAFE`): a larger pool of
#: hands, its weights tempered until they spread over a set share of it, and a share of the re-deals
#: read as ``choices`` reads.  It reads more of a player a model fits and, on the same decks, won no
#: less than ``choices`` against ``foster``, ``random``, ``expert`` and OpenSpiel's ISMCTS
#: (``docs/bots.md``, "Reading the adversary safely").
INFERENCES = ("choices", "apprentice", "policy", "mixture", "safe")


class PoolOptions(NamedTuple):
    """How a reading's pool of the adversary's hands is drawn and used (conquian, ``mixture`` and
    ``safe``): ``size``, the hands weighed a decision (``None``: an eighth of the playouts, 40 to
    :data:`~conquian.bots.inference.POOL`); ``least_ess``, the weights tempered until their
    effective sample size is at least that share of the pool
    (:func:`~conquian.bots.inference.tempered`; 0: as they are); ``defensive``, the share of the
    re-deals that read his hand by the passed and discarded cards instead (``choices``)."""

    size: int | None = None
    least_ess: float = 0.0
    defensive: float = 0.0


#: ``mixture``'s pool: an eighth of the playouts, the weights as they are, every re-deal from it.
MIXTURE_POOL = PoolOptions()
#: ``safe``'s pool (``docs/bots.md``, "Reading the adversary safely").
SAFE = PoolOptions(size=300, least_ess=0.2, defensive=0.25)


def reading_pool_options(inference: str) -> PoolOptions:
    """The pool a reading uses when nothing else is asked: :data:`SAFE` for ``safe``, else
    :data:`MIXTURE_POOL`."""
    return SAFE if inference == "safe" else MIXTURE_POOL


#: How a search's ``ms`` and ``cap_ms`` are counted (:class:`ExpertBot`'s ``clock``): the time a
#: person waits, or the processor time the searching thread got.
#: (A runtime without a thread's clock, as WebAssembly's may be, counts the process's.)
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter,
                                          "cpu": getattr(time, "thread_time", time.process_time)}
#: With ``anytime``, the playouts a decision may not reach before its deadline: the count that
#: stands for "no count" (sequential halving shares it out, the deadline ends every round).
ANYTIME_BUDGET = 10**9


#: With ``mixture``, the share of the models' prior at a new deal that is the base prior
#: (:data:`~conquian.bots.inference.PRIOR`), the rest being what the deals before taught
#: (:meth:`ExpertBot.choose`): however sure the past made it, the reading can change its mind.
CARRY_BASE = 0.2


def adversary_pool(view: View, rng: random.Random, inference: str, budget: int,
                   prior: tuple[float, float, float, float] = PRIOR,
                   options: PoolOptions | None = None) -> Reading | None:
    """The adversary's hands weighed by his past choices (:data:`INFERENCES`; ``None`` with
    ``choices``).  Conquian: a pool an eighth of the ``budget`` of playouts, from 40 to
    :data:`~conquian.bots.inference.POOL` hands; ``prior``: with ``mixture`` and ``safe``, the models';
    ``options``: with those two, how the pool is drawn and used (by default :data:`MIXTURE_POOL` and
    :data:`SAFE`).  The
    conquián mexicano and Cooncan: with ``policy``, as many re-deals of the other hands weighed by
    the family's reading (:func:`~conquian.bots.determinize.reading_pool`); ``None`` with the other
    models (they are conquian's)."""
    size = min(POOL, max(40, budget // 8))
    if isinstance(view, (MexicanoView, CooncanView)):
        return reading_pool(view, rng, size) if inference == "policy" else None
    if not isinstance(view, ConquianView) or inference == "choices":
        return None
    if inference in ("mixture", "safe"):
        opts = options or reading_pool_options(inference)
        return mixture_posterior(view, rng, shipped_weights(), size=opts.size or size, prior=prior,
                                 least_ess=opts.least_ess, defensive=opts.defensive)
    weights = shipped_weights() if inference == "apprentice" else None
    return posterior(view, rng, size=size, weights=weights)


@register("expert")
class ExpertBot:
    """PIMC search over re-dealt unseen cards with foster playouts.

    ``iterations``: playouts per decision, shared among the candidate actions
    (default 240 for conquian and the conquián mexicano, 96 for Cooncan); ``ms``: a time budget (the playouts stop at
    it, or at ``iterations`` if sooner);
    ``horizon``: actions per Cooncan playout before it is scored (default 120); ``margin``:
    in Cooncan, how many standard errors better than foster's choice an action must be;
    ``cap_ms``: a time after which a decision stops whatever its budget (default none);
    ``anytime``: with ``ms``, the playouts go on until ``ms`` is spent, however many that makes
    (the reading's pool sized as for the default budget): time, not a count, is the budget;
    ``clock``: how ``ms`` and ``cap_ms`` are counted, ``"wall"`` (the default: the time a person
    waits) or ``"cpu"`` (the processor time this thread got, :func:`time.thread_time`: on a loaded
    machine, whose other work takes turns with the search, the search still gets its time, and
    a person waits longer);
    ``inference``: how the adversary's hand is read (:data:`INFERENCES`; default
    :attr:`INFERENCE`; in the mexicano and Cooncan only ``policy`` reads); ``pool``, ``least_ess`` and
    ``defensive``: with ``mixture`` and ``safe``, :class:`PoolOptions` in place of the reading's own
    (each ``None``: the reading's).  With ``mixture`` or ``safe`` the
    bot learns from deal to deal: the models' posterior
    at its last decision of a deal, mixed with the base prior (:data:`CARRY_BASE`), is the prior of
    the next deal against the same adversary's seat (a new deal is a view of fewer events than
    the last; a bot made for one decision, as a server makes them, starts from the base prior).
    ``playouts`` counts the playouts of every decision so far and ``last_playouts`` those of the
    last (fewer than the budget when a deadline or the cap stopped it).
    """

    name = "expert"
    #: playouts per decision when ``iterations`` is not given
    CONQUIAN_ITERATIONS = 240
    COONCAN_ITERATIONS = 96
    #: how the adversary's hand is read in conquian when ``inference`` is not given (``choices``
    #: until 2026-11-29)
    INFERENCE = "safe"
    #: asked between re-deals: true ends the search at once, and the best candidate so far is
    #: played (how a server makes a search that nobody waits for give its worker up to one that
    #: a person waits for); None: never asked
    stop: Callable[[], bool] | None = None

    def __init__(self, seed: int = 0, iterations: int | None = None, ms: float | None = None,
                 horizon: int = 120, margin: float = 1.0, cap_ms: float | None = None,
                 inference: str | None = None, *, pool: int | None = None, least_ess: float | None = None,
                 defensive: float | None = None, anytime: bool = False, clock: str = "wall") -> None:
        inference = inference or self.INFERENCE
        if clock not in CLOCKS:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, not {clock!r}")
        if anytime and not ms:
            raise ValueError("anytime needs ms, the time a decision spends")
        if inference not in INFERENCES:
            raise ValueError(f"inference must be one of {', '.join(INFERENCES)}, not {inference!r}")
        if pool is not None and pool < 1:
            raise ValueError(f"pool must be at least 1, not {pool!r}")
        if least_ess is not None and not 0.0 <= least_ess <= 1.0:
            raise ValueError(f"least_ess must be between 0 and 1, not {least_ess!r}")
        if defensive is not None and not 0.0 <= defensive <= 1.0:
            raise ValueError(f"defensive must be between 0 and 1, not {defensive!r}")
        self.inference = inference
        base = reading_pool_options(inference)
        #: how the pool of the adversary's hands is drawn and used (``mixture`` and ``safe``)
        self.pool_options = PoolOptions(base.size if pool is None else pool,
                                        base.least_ess if least_ess is None else least_ess,
                                        base.defensive if defensive is None else defensive)
        self._pool: Reading | None = None
        #: with ``mixture``: per adversary's seat, the models' prior for the deal under way
        self.priors: dict[int, tuple[float, float, float, float]] = {}
        # the events and the models' posterior at the last decision, per adversary's seat
        self._read: dict[int, tuple[int, tuple[float, ...]]] = {}
        self.seed = seed
        self.margin = margin
        self.iterations = iterations
        self.ms = ms
        self.horizon = horizon
        self.decisions = 0
        self.cap_ms = cap_ms
        self.anytime = anytime
        self.clock = clock
        self._now: Callable[[], float] = CLOCKS[clock]
        self.playouts = 0
        self.last_playouts = 0

    def _rng(self, view: View) -> random.Random:
        # deterministic for a seed: the stream depends on the seed and on the position only
        key = f"{self.seed}|{view.seat}|{view.n_events}|{view.stage}".encode()
        self.decisions += 1
        return random.Random(zlib.crc32(key) ^ (self.seed * 0x9E3779B1))

    def choose(self, view: View) -> Action:
        """The candidate with the best mean playout value."""
        view = check_view(view)
        legal: list[Any] = view.legal_raw()
        self.last_playouts = 0
        if len(legal) == 1:
            return view_action(view, legal[0])
        rng = self._rng(view)
        cooncan = isinstance(view, CooncanView)
        budget = self.iterations or (self.COONCAN_ITERATIONS if cooncan else self.CONQUIAN_ITERATIONS)
        self._pool = self.reading(view, rng, budget)
        if self.anytime:
            budget = ANYTIME_BUDGET  # the deadline ends the search
        if isinstance(self._pool, HandPosterior) and self._pool.models is not None and isinstance(view, ConquianView):
            self._read[view.adversary] = (view.n_events, self._pool.models)
        default = None
        if isinstance(view, CooncanView):
            default = fk.policy(fk_obs(view), random.Random(rng.getrandbits(32)))
            if view.stage == PLAY:
                legal = _cooncan_candidates(view, legal, default)
        deadline = self._now() + self.ms / 1000 if self.ms else None
        if self.cap_ms is not None:
            cap = self._now() + self.cap_ms / 1000
            deadline = cap if deadline is None else min(deadline, cap)
        values: list[list[float]] = [[] for _ in legal]
        alive = list(range(len(legal)))
        if cooncan:
            self._sample(view, rng, legal, alive, max(2, budget // len(legal)), values, deadline)
        else:
            alive = self._halve(view, rng, legal, budget, values, deadline)
        best = max(alive, key=lambda i: (sum(values[i]) / len(values[i]), -i))
        if default is not None and default in legal:
            # Cooncan's outcomes are noisy (pips of five hands): leave foster's choice only for an
            # action that beats it on the same re-deals by more than the standard error of the gain
            j = legal.index(default)
            gains = [a - b for a, b in zip(values[best], values[j], strict=True)]
            k = len(gains)
            mean_gain = sum(gains) / k
            sd = (sum((g - mean_gain) ** 2 for g in gains) / max(1, k - 1)) ** 0.5
            if best != j and mean_gain <= self.margin * sd / k**0.5:
                best = j
        return view_action(view, legal[best])

    def reading(self, view: View, rng: random.Random, budget: int) -> Reading | None:
        """The re-deals' source for a decision with ``budget`` playouts: the adversary's hands
        weighed by :attr:`inference` (:func:`adversary_pool`; ``None``: the ``choices`` re-deal)."""
        return adversary_pool(view, rng, self.inference, budget, self._prior_for(view), self.pool_options)

    def _prior_for(self, view: View) -> tuple[float, float, float, float]:
        """The models' prior for this deal's adversary (``mixture``): at a new deal, the posterior of
        the last deal against his seat mixed with the base prior."""
        if self.inference not in ("mixture", "safe") or not isinstance(view, ConquianView):
            return PRIOR
        adv = view.adversary
        last = self._read.get(adv)
        if last is not None and view.n_events < last[0]:  # a new deal: what the last one taught
            post = last[1]
            self.priors[adv] = (CARRY_BASE * PRIOR[0] + (1 - CARRY_BASE) * post[0],
                                CARRY_BASE * PRIOR[1] + (1 - CARRY_BASE) * post[1],
                                CARRY_BASE * PRIOR[2] + (1 - CARRY_BASE) * post[2],
                                CARRY_BASE * PRIOR[3] + (1 - CARRY_BASE) * post[3])
            del self._read[adv]
        return self.priors.get(adv, PRIOR)

    def _sample(self, view: View, rng: random.Random, legal: list[Any], alive: list[int], n_samples: int,
                values: list[list[float]], deadline: float | None) -> None:
        """Play ``n_samples`` re-deals for each of the ``alive`` candidates, every candidate on the
        same re-deals, or fewer if the deadline passes."""
        for _ in range(n_samples):
            base = determinize(view, rng, self._pool)
            sub_seed = rng.getrandbits(32)
            for i in alive:
                d = base.copy()
                d.apply_raw(*legal[i])
                values[i].append(playout_value(d, view.seat, random.Random(sub_seed), self.horizon))
            self.playouts += len(alive)
            self.last_playouts += len(alive)
            if self._out_of_time(deadline):
                return

    def _out_of_time(self, deadline: float | None) -> bool:
        """Whether the search must end: its deadline passed, or :attr:`stop` says so."""
        return (deadline is not None and self._now() > deadline) or (self.stop is not None and self.stop())

    def _halve(self, view: View, rng: random.Random, legal: list[Any], budget: int,
               values: list[list[float]], deadline: float | None) -> list[int]:
        """Sequential halving (Karnin, Koren and Somekh 2013): the budget in equal rounds, each
        shared by the candidates still in and ending with the worse half dropped, so the close
        candidates get most of the playouts.  Survivors always share the same re-deals.  With a
        deadline each round also stops at its share of the time left.  The candidates still in
        when the budget or the deadline runs out."""
        alive = list(range(len(legal)))
        rounds = max(1, math.ceil(math.log2(len(alive))))
        for r in range(rounds):
            n_samples = max(2, budget // (rounds * len(alive)))
            # with a deadline, each round also gets an equal share of the time left
            now = self._now()
            round_deadline = None if deadline is None else now + (deadline - now) / (rounds - r)
            self._sample(view, rng, legal, alive, n_samples, values, round_deadline)
            if r == rounds - 1 or self._out_of_time(deadline):
                break
            alive.sort(key=lambda i: (-sum(values[i]) / len(values[i]), i))
            alive = sorted(alive[: max(2, (len(alive) + 1) // 2)])
        return alive


@register("master")
class MasterBot(ExpertBot):
    """The ``expert`` search with eight times the playouts (2,000 a decision in conquian, 768 in
    Cooncan), for the compiled hot path (``conquian speedups build``): about 0.3 s a decision
    on average in conquian there.  A decision stops at 0.9 s whatever its playouts
    (``cap_ms``), so that nobody waits; only such rare decisions depend on the machine's speed.
    """

    name = "master"
    CONQUIAN_ITERATIONS = 2000
    COONCAN_ITERATIONS = 768

    def __init__(self, seed: int = 0, iterations: int | None = None, ms: float | None = None,
                 horizon: int = 120, margin: float = 1.0, cap_ms: float | None = 900.0,
                 inference: str | None = None, *, pool: int | None = None, least_ess: float | None = None,
                 defensive: float | None = None, anytime: bool = False, clock: str = "wall") -> None:
        super().__init__(seed, iterations, ms, horizon, margin, cap_ms, inference, pool=pool, least_ess=least_ess,
                         defensive=defensive, anytime=anytime, clock=clock)


def strongest_quick_bot() -> str:
    """The search with the most playouts that answers at a pace a person does not notice on this
    installation: ``master`` with the compiled hot path, ``expert`` in pure Python.  (More
    playouts do not measure stronger everywhere: ``master`` is level with ``expert`` in conquian
    and below it in three-hand Cooncan, :mod:`conquian.bots.levels`.)"""
    from conquian import speedups

    return "master" if all(speedups.status().values()) else "expert"


__all__ = [
    "ANYTIME_BUDGET",
    "CARRY_BASE",
    "CLOCKS",
    "INFERENCES",
    "MIXTURE_POOL",
    "SAFE",
    "CooncanDeal",
    "ExpertBot",
    "MasterBot",
    "PoolOptions",
    "adversary_pool",
    "playout_value",
    "reading_pool_options",
    "strongest_quick_bot",
]
