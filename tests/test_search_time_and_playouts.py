"""The search's time as a resource (a deadline-driven loop, a processor-time clock) and playouts
that vary (the apprentice's moves drawn from its softmax at a temperature): legal, reproducible
from a seed, and pinned decisions."""

from __future__ import annotations

import math
import random
import time
from collections import Counter

import pytest

from conquian import ConquianDeal, get_rules
from conquian.bots import make_bot
from conquian.bots.apprentice import shipped_weights
from conquian.bots.apprentice_policy import action_scores, choose_raw, obs_features, sample_raw
from conquian.bots.expert import ANYTIME_BUDGET, CLOCKS
from conquian.bots.foster import conquian_obs_from_state
from conquian.engine.conquian.view import ConquianView


def foster_position(seed: int, steps: int) -> ConquianDeal:
    """A conquian deal (dealer p2) played ``steps`` actions by two seeded ``foster``s."""
    deal = ConquianDeal(get_rules("conquian"), seed=seed, dealer=2)
    bots = {1: make_bot("foster", seed=1), 2: make_bot("foster", seed=2)}
    for _ in range(steps):
        seat = deal.to_act
        assert seat is not None and not deal.over
        deal.play(bots[seat].choose(deal.view(seat)))
    return deal


def view_of(deal: ConquianDeal) -> ConquianView:
    seat = deal.to_act
    assert seat is not None
    v = deal.view(seat)
    assert isinstance(v, ConquianView)
    return v


def test_a_temperature_of_zero_is_the_apprentices_best_move_and_draws_nothing() -> None:
    deal = foster_position(2, 10)
    o = conquian_obs_from_state(deal)
    rng = random.Random(3)
    state = rng.getstate()
    assert sample_raw(o, shipped_weights(), 0.0, rng) == choose_raw(o, shipped_weights())
    assert rng.getstate() == state


def test_the_draws_follow_the_softmax_of_the_apprentices_scores() -> None:
    deal = foster_position(2, 10)
    o = conquian_obs_from_state(deal)
    legal = deal.legal_raw()
    assert len(legal) >= 3
    scores = action_scores(obs_features(o, legal), shipped_weights())
    for temperature in (1.0, 2.0):
        odds = [math.exp((s - max(scores)) / temperature) for s in scores]
        rng = random.Random(11)
        n = 4000
        counts = Counter(sample_raw(o, shipped_weights(), temperature, rng) for _ in range(n))
        assert set(counts) <= set(legal)
        for raw, e in zip(legal, odds, strict=True):
            p = e / sum(odds)
            # four standard errors of a share of 4,000 draws (the draws are seeded: no flakiness)
            assert abs(counts[raw] / n - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-9, (raw, temperature)
    # a temperature near 0 plays the best move
    rng = random.Random(5)
    assert all(sample_raw(o, shipped_weights(), 1e-6, rng) == choose_raw(o, shipped_weights()) for _ in range(50))


def test_exit_refuses_a_temperature_below_zero_or_not_a_number() -> None:
    for bad in (-0.5, math.inf, math.nan, "hot"):
        with pytest.raises(ValueError, match="temperature"):
            make_bot("exit", temperature=bad)


#: (deck seed, foster's actions before it, exit's choice at temperature 1 with seed 5 and 40
#: playouts, its choice with deterministic playouts): positions where the varying playouts choose
#: otherwise.  A change of the playouts' draws changes these (on purpose, saying why).
PINNED = [
    (2, 10, "p1 discard 6d", "p1 discard 8d"),
    (5, 6, "p2 use 4c 4h 4s | 5d 6d 7d", "p2 use 5d 6d 7d"),
]


@pytest.mark.parametrize(("seed", "steps", "varying", "deterministic"), PINNED)
def test_exit_with_varying_playouts_decides_as_pinned(seed: int, steps: int, varying: str,
                                                       deterministic: str) -> None:
    v = view_of(foster_position(seed, steps))
    hot = [str(make_bot("exit", seed=5, iterations=40, cap_ms=None, temperature=1.0).choose(v)) for _ in range(2)]
    assert hot == [varying, varying]  # reproducible from the seed
    assert str(make_bot("exit", seed=5, iterations=40, cap_ms=None).choose(v)) == deterministic


class FakeClock:
    """A clock that moves ``step`` seconds each time it is read: a deadline reached after a set
    number of readings, whatever the machine's speed (no timed assertion)."""

    def __init__(self, step: float) -> None:
        self.t = 0.0
        self.step = step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def test_anytime_spends_the_time_however_many_playouts_it_makes() -> None:
    v = view_of(foster_position(2, 10))
    counted = make_bot("expert", seed=5, ms=40.0, inference="choices")
    counted._now = FakeClock(1e-4)
    counted.choose(v)
    assert 0 < counted.last_playouts <= 240  # the count binds first
    runs = []
    for _ in range(2):
        bot = make_bot("expert", seed=5, ms=40.0, anytime=True, inference="choices")
        bot._now = FakeClock(1e-4)
        runs.append((str(bot.choose(v)), bot.last_playouts))
    assert runs[0] == runs[1]  # the same clock, the same decision
    assert runs[0][1] > 240  # the deadline, not the count, ended it
    assert runs[0][1] < ANYTIME_BUDGET


def test_anytime_needs_a_time_and_the_clock_is_one_of_two() -> None:
    with pytest.raises(ValueError, match="anytime needs ms"):
        make_bot("master", anytime=True)
    with pytest.raises(ValueError, match="clock must be one of"):
        make_bot("expert", clock="sundial")
    assert make_bot("master", clock="cpu")._now is time.thread_time
    assert make_bot("exit", ms=100.0, anytime=True, clock="cpu")._now is CLOCKS["cpu"]
    assert make_bot("expert")._now is time.perf_counter
