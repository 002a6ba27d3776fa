"""The ``apprentice`` (a policy fitted on the search's decisions) and ``exit`` (the search playing it out):
features from the view only, legal play, the shipped weights, and the training's smoke run."""

from __future__ import annotations

import json
import random

import pytest

import conquian.bots.foster_conquian as fc
from conquian import ConquianDeal, get_rules
from conquian.bots import make_bot
from conquian.bots.apprentice import WEIGHTS_FILE, check_weights, shipped_weights
from conquian.bots.apprentice_policy import FEATURES, N_FEATURES, obs_features, view_features
from conquian.bots.determinize import determinize
from conquian.bots.foster import conquian_obs_from_state
from conquian.engine.match import new_deal

#: the conquian presets the apprentice plays (two hands; three at the table, the dealer sitting out)
CONQUIAN = [("conquian", 2), ("conquian", 3), ("conquian-spanish", 2)]
#: every preset the bots play, for the legal-play test
ALL = [*CONQUIAN, ("cooncan", 3), ("cooncan-double", 5), ("conquian-mexicano", 2), ("conquian-mexicano", 3)]


def positions(variant: str, n: int, seeds: range) -> list[ConquianDeal]:
    """Conquian deals played at random to a random point, one per seed, not over."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        deal = ConquianDeal(get_rules(variant, players=n), seed=seed, dealer=n)
        for _ in range(rng.randint(0, 60)):
            if deal.over:
                break
            deal.apply_raw(*deal.random_raw(rng.random))
        if not deal.over:
            out.append(deal)
    return out


@pytest.mark.parametrize(("variant", "n"), CONQUIAN)
def test_features_read_nothing_hidden(variant: str, n: int) -> None:
    """Re-dealing the cards the seat has not seen (the adversary's hand, the pack) under the same
    public history leaves every feature of every legal action as it was."""
    checked = 0
    for deal in positions(variant, n, range(40)):
        seat = deal.to_act
        assert seat is not None
        rows = view_features(deal.view(seat))
        assert len(rows) == len(deal.legal_raw()) and all(len(r) == N_FEATURES for r in rows)
        for k in range(3):
            other = determinize(deal.view(seat), random.Random(k))
            assert isinstance(other, ConquianDeal)
            # the same public history (every conquian event is shown to both seats), other hidden cards
            other.events, other.n_events = deal.events, deal.n_events
            assert view_features(other.view(seat)) == rows
            checked += 1
    assert checked > 60


@pytest.mark.parametrize(("variant", "n"), CONQUIAN)
def test_first_feature_is_fosters_choice(variant: str, n: int) -> None:
    """The features work foster's choice out from the values they read: it is his policy's."""
    checked = 0
    for deal in positions(variant, n, range(120)):
        o = conquian_obs_from_state(deal)
        legal = deal.legal_raw()
        rows = obs_features(o, legal)
        assert [r[0] for r in rows] == [1.0 if raw == fc.policy(o, random.Random(0)) else 0.0 for raw in legal]
        checked += 1
    assert checked > 80


def test_features_follow_what_the_seat_sees() -> None:
    """The features are not constant: other hands and tables give other rows."""
    seen = set()
    for deal in positions("conquian", 2, range(40)):
        seat = deal.to_act
        assert seat is not None
        seen.add(tuple(tuple(r) for r in view_features(deal.view(seat))))
    assert len(seen) > 10


@pytest.mark.parametrize(("variant", "n"), ALL)
@pytest.mark.parametrize("name", ["apprentice", "exit"])
def test_plays_only_legal_actions(variant: str, n: int, name: str) -> None:
    params = {"iterations": 8, "horizon": 30} if name == "exit" else {}
    for seed in range(3 if name == "apprentice" else 1):
        deal = new_deal(get_rules(variant, players=n), seed=seed, dealer=n)
        bots = [make_bot(name if s == 0 else "foster", seed=seed + s, **(params if s == 0 else {})) for s in range(n)]
        steps = 0
        while not deal.over and steps < (5000 if name == "apprentice" else 40):
            seat = deal.to_act
            assert seat is not None
            action = bots[seat - 1].choose(deal.view(seat))
            assert deal.is_legal(action), (name, str(action))
            deal.play(action)
            steps += 1


def test_the_shipped_weights_are_for_these_features() -> None:
    from importlib import resources

    data = json.loads(resources.files("conquian.bots").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8"))
    assert tuple(data["features"]) == FEATURES
    assert shipped_weights() == check_weights(data)
    assert len(shipped_weights()) == N_FEATURES
    with pytest.raises(ValueError, match="other features"):
        check_weights({"features": ["something else"], "weights": [1.0]})


def test_weights_given_as_a_list_play_as_the_tuple_and_a_wrong_count_is_refused() -> None:
    """Weights from JSON parameters (``--params '{"weights": [...]}'``) are a list: the bots take
    any sequence of one number a feature, and refuse another count with a clear error."""
    listed = list(shipped_weights())
    for name in ("apprentice", "exit"):
        assert make_bot(name, weights=listed).weights == shipped_weights()
        with pytest.raises(ValueError, match=f"{N_FEATURES} numbers"):
            make_bot(name, weights=listed[:-1])
    deal = positions("conquian", 2, range(10))[0]
    seat = deal.to_act
    assert seat is not None
    view = deal.view(seat)
    played = make_bot("exit", weights=listed, iterations=20, cap_ms=None).choose(view)
    assert str(played) == str(make_bot("exit", iterations=20, cap_ms=None).choose(view))


def test_the_apprentice_is_deterministic() -> None:
    for deal in positions("conquian", 2, range(10)):
        seat = deal.to_act
        assert seat is not None
        v = deal.view(seat)
        assert str(make_bot("apprentice", seed=1).choose(v)) == str(make_bot("apprentice", seed=2).choose(v))


def test_training_smoke_run(capsys: pytest.CaptureFixture[str]) -> None:
    """The training entry point's tiny configuration: a few deals, a fit, a short match."""
    from benchmarks.train_apprentice import main

    assert main(["--smoke"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["round 1"]["decisions"] > 0


def test_soft_targets_are_a_distribution_per_decision() -> None:
    """Each decision's targets sum to one; the hard ones mark the search's choice only, the soft
    ones favour the actions with the better playout values."""
    import numpy as np
    from benchmarks.train_apprentice import targets

    group = np.array([0, 0, 0, 1, 1])
    label = np.array([1, 3])
    value = np.array([-1.0, 0.5, 0.2, 0.0, -0.4])
    hard = targets(group, label, 2, value, 0.0, 0.5)
    assert hard.tolist() == [0.0, 1.0, 0.0, 1.0, 0.0]
    soft = targets(group, label, 2, value, 0.1, 0.5)
    assert np.allclose(np.bincount(group, weights=soft), 1.0)
    assert soft[1] > soft[2] > soft[0] and soft[3] > soft[4] > 0.0


#: deals the shipped apprentice plays against itself (conquian, dealer p2): seed, actions, winner,
#: and the CRC-32 of the actions' notation joined by spaces (retrained weights change these)
PINNED = [(1, 49, 2, 1373362738), (2, 40, 1, 1973467637), (3, 31, 1, 1783253789)]


@pytest.mark.parametrize(("seed", "n_actions", "winner", "crc"), PINNED)
def test_the_shipped_weights_reproduce_fixed_deals(seed: int, n_actions: int, winner: int, crc: int) -> None:
    """The shipped weights play these deals action for action (compiled or not)."""
    import zlib

    deal = ConquianDeal(get_rules("conquian"), seed=seed, dealer=2)
    bots = {1: make_bot("apprentice"), 2: make_bot("apprentice")}
    moves = []
    while not deal.over:
        seat = deal.to_act
        assert seat is not None
        action = bots[seat].choose(deal.view(seat))
        moves.append(str(action))
        deal.play(action)
    assert (len(moves), deal.winner_seat, zlib.crc32(" ".join(moves).encode())) == (n_actions, winner, crc)
