"""The ``apprentice``: a policy fitted on the search's own decisions; and ``exit``, the search playing it out.

Expert iteration (Anthony, Tian and Barber 2017): the search (``expert``, ``master``) is the
expert, and a fast policy, the apprentice, is fitted to choose what the search chose over many
simulated deals; the search then plays its candidates out with the apprentice instead of
``foster``.  Here the apprentice is a linear scorer: each legal action gets the numbers of
:mod:`conquian.bots.apprentice_policy` (``foster``'s choice among them), and the action with the
largest weighted sum is played.  The weights are a small data file shipped with the package
(``apprentice_weights.json``), reproduced from a seed by ``python -m benchmarks.train_apprentice``
(``docs/bots.md``); inference is pure Python.

Conquian (two hands) only: in Cooncan and the conquián mexicano the ``apprentice`` plays ``foster``
and ``exit`` is ``master``.

```pycon
>>> from conquian import ConquianDeal, get_rules
>>> from conquian.bots import make_bot
>>> deal = ConquianDeal(get_rules("conquian"), seed=1, dealer=2)
>>> bots = {1: make_bot("apprentice"), 2: make_bot("foster")}
>>> while not deal.over:
...     _ = deal.play(bots[deal.to_act].choose(deal.view(deal.to_act)))
>>> deal.over
True

```
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from conquian.bots.apprentice_policy import N_FEATURES, choose_raw, playout
from conquian.bots.base import View, check_view, register
from conquian.bots.determinize import determinize
from conquian.bots.expert import MasterBot
from conquian.bots.foster import FosterBot, conquian_obs_from_view
from conquian.bots.weights import WEIGHTS_FILE, check_weights, shipped_weights
from conquian.engine.actions import Action
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.deal import raw_to_action as conquian_action
from conquian.engine.conquian.view import ConquianView


def _weights(weights: Sequence[float] | None) -> tuple[float, ...]:
    """The weights a bot plays: the shipped ones, or those given (a list from JSON parameters
    too); ValueError unless there is one number a feature."""
    if weights is None:
        return shipped_weights()
    if isinstance(weights, (str, bytes)) or len(weights) != N_FEATURES:
        raise ValueError(f"the apprentice's weights are {N_FEATURES} numbers, one a feature "
                         "(conquian.bots.apprentice_policy.FEATURES)")
    return tuple(float(w) for w in weights)


@register("apprentice")
class ApprenticeBot:
    """The fitted policy alone (about as fast as ``foster``); ``foster`` outside two-hand conquian."""

    name = "apprentice"

    def __init__(self, seed: int = 0, weights: Sequence[float] | None = None) -> None:
        self.foster = FosterBot(seed)
        self.weights = _weights(weights)

    def choose(self, view: View) -> Action:
        """The apprentice's choice for the view's seat."""
        view = check_view(view)
        if not isinstance(view, ConquianView):
            return self.foster.choose(view)
        return conquian_action(view.seat, choose_raw(conquian_obs_from_view(view), self.weights))


@register("exit")
class ExitBot(MasterBot):
    """``master``'s search (the same playouts a decision, sequential halving, the same cap) with the
    apprentice playing the searching seat's moves in the playouts of conquian; the adversary plays
    ``foster`` there, as in ``master``'s (``foster_adversary=False``: the apprentice plays him too).
    ``temperature``: the apprentice's playout moves drawn from the softmax of its scores at that
    temperature (:func:`~conquian.bots.apprentice_policy.sample_raw`; 0, the default, its best move:
    deterministic playouts); each re-deal's playouts share one generator's stream, as before, so
    the candidates are still compared on common random numbers and a seed still fixes the decision
    (with ``iterations``)."""

    name = "exit"

    def __init__(self, seed: int = 0, iterations: int | None = None, ms: float | None = None,
                 horizon: int = 120, margin: float = 1.0, cap_ms: float | None = 900.0,
                 weights: Sequence[float] | None = None, foster_adversary: bool = True,
                 inference: str | None = None, *, pool: int | None = None, least_ess: float | None = None,
                 defensive: float | None = None, temperature: float = 0.0, anytime: bool = False,
                 clock: str = "wall") -> None:
        super().__init__(seed, iterations, ms, horizon, margin, cap_ms, inference, pool=pool, least_ess=least_ess,
                         defensive=defensive, anytime=anytime, clock=clock)
        if not (isinstance(temperature, (int, float)) and 0.0 <= temperature < float("inf")):
            raise ValueError(f"temperature must be a number at least 0, not {temperature!r}")
        self.weights = _weights(weights)
        self.foster_adversary = foster_adversary
        self.temperature = float(temperature)

    def _sample(self, view: View, rng: random.Random, legal: list[Any], alive: list[int], n_samples: int,
                values: list[list[float]], deadline: float | None) -> None:
        if not isinstance(view, ConquianView):
            super()._sample(view, rng, legal, alive, n_samples, values, deadline)
            return
        for _ in range(n_samples):
            base = determinize(view, rng, self._pool)
            assert isinstance(base, ConquianDeal)
            sub_seed = rng.getrandbits(32)
            for i in alive:
                d = base.copy()
                d.apply_raw(*legal[i])
                values[i].append(playout(d, view.seat, self.weights, random.Random(sub_seed), self.foster_adversary,
                                         self.temperature))
            self.playouts += len(alive)
            self.last_playouts += len(alive)
            if self._out_of_time(deadline):
                return


__all__ = ["WEIGHTS_FILE", "ApprenticeBot", "ExitBot", "check_weights", "choose_raw", "playout", "shipped_weights"]
