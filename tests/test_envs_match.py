"""Whole-match episodes in the single-agent Gymnasium environment: rewards are the match's scoring."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from conquian.engine.match import Match
from conquian.envs.gym import ConquianGymEnv
from conquian.envs.state import match_features


def _play_match(env: ConquianGymEnv, seed: int, rng: np.random.Generator) -> tuple[list[float], dict[str, object]]:
    """One match, the learner playing uniformly among its legal actions: its rewards and last info,
    every observation's match features checked against the match's own books."""
    obs, info = env.reset(seed=seed)
    rewards: list[float] = []
    while True:
        assert env.match is not None
        assert obs.shape == env.observation_space.shape
        np.testing.assert_array_equal(obs[-(2 * env.rules.players + 1):],
                                      np.asarray(match_features(env.match, env.seat), dtype=np.float32))
        legal = info["action_mask"].nonzero()[0]
        assert len(legal) and env.deal is not None and env.deal.to_act == env.seat
        obs, reward, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
        rewards.append(reward)
        assert not truncated
        if terminated:
            return rewards, info


@pytest.mark.parametrize(("variant", "players", "rounds"), [("conquian", 2, 3), ("conquian", 3, 2), ("cooncan", 3, 1),
                                                            ("conquian-mexicano", 2, 2)])
def test_gym_match_rewards_are_the_match_scoring(variant: str, players: int, rounds: int) -> None:
    """Every deal of the match is scored as the match keeps it (the conquian tableau pool
    applied): the rewards sum to the learner's match total, and each deal's reward is its row."""
    env = ConquianGymEnv(variant, opponents="random", players=players, episode="match", rounds=rounds, seat=2)
    rng = np.random.default_rng(1)
    for seed in range(3):
        rewards, info = _play_match(env, seed, rng)
        match = env.match
        assert match is not None and match.complete and len(match.results) == rounds * players
        assert info["scores"] == match.totals
        assert sum(rewards) == match.totals[env.seat - 1]
        # the deals' rows, recomputed from the deals themselves by a fresh match's books
        books = Match(env.rules, first_dealer=match.first_dealer, rounds=rounds)
        rows = [books.score_deal(deal) for deal in match.deals]
        assert rows == match.results
        paid = [r for r in rewards if r]
        assert paid == [row[env.seat - 1] for row in rows if row[env.seat - 1]]


def test_gym_match_pays_the_tableau_pool() -> None:
    """Conquian: a tableau pays nothing and leaves counters owed, which the next winner takes."""
    env = ConquianGymEnv("conquian", opponents="random", episode="match", rounds=4)
    rng = np.random.default_rng(0)
    seen_pool = paid_pool = False
    for seed in range(40):
        rewards, _ = _play_match(env, seed, rng)
        match = env.match
        assert match is not None
        owed = [0, 0]
        for deal, row in zip(match.deals, match.results, strict=True):
            if deal.over and deal.scores() == [0, 0]:  # a tableau
                assert row == [0, 0]
                owed = [x + 1 for x in owed]
                seen_pool = True
            else:
                assert abs(row[0]) == 1 + sum(owed) - owed[row.index(max(row))] or sum(owed) == 0
                paid_pool |= sum(owed) > 0 and max(abs(x) for x in row) > 1
                owed = [0, 0]
        assert sum(rewards) == match.totals[env.seat - 1]
        if seen_pool and paid_pool:
            break
    assert seen_pool and paid_pool


def test_gym_match_three_seats_sits_out_its_deals() -> None:
    """At a three-seat conquian table the learner sits out the deals it deals: it is never asked
    to act in them, and their scores reach it with its next step."""
    env = ConquianGymEnv("conquian", opponents="random", players=3, seat=1, episode="match", rounds=2)
    rewards, info = _play_match(env, 5, np.random.default_rng(3))
    match = env.match
    assert match is not None and match.deals[0].dealer == 1 and match.deals[-1].dealer != 1
    assert sum(rewards) == match.totals[0] == info["scores"][0]  # type: ignore[index]


def test_gym_match_options() -> None:
    with pytest.raises(ValueError, match="episode"):
        ConquianGymEnv("conquian", episode="season")
    with pytest.raises(ValueError, match="rounds"):
        ConquianGymEnv("conquian", episode="match", rounds=0)
    env = ConquianGymEnv("conquian", episode="match", max_steps=30)
    _obs, info = env.reset(seed=2, options={"dealer": 1})
    assert env.match is not None and env.match.first_dealer == 1
    truncated = False
    while not truncated:
        legal = info["action_mask"].nonzero()[0]
        _obs, _r, terminated, truncated, info = env.step(int(legal[0]))
        assert not terminated
    assert env.match.deals and sum(d.n_actions for d in env.match.deals) >= 30


@pytest.mark.parametrize("kind", ["gym", "aec", "vector"])
def test_every_env_refuses_the_same_episode_options(kind: str) -> None:
    """The single-agent, the AEC and the batched environments check their episode options alike."""
    make: Any
    if kind == "aec":
        pytest.importorskip("pettingzoo")
        from conquian.envs.aec import ConquianAEC

        make = ConquianAEC
    elif kind == "vector":
        from conquian.envs.vector import ConquianVectorEnv

        make = ConquianVectorEnv
    else:
        make = ConquianGymEnv
    cases: list[tuple[dict[str, Any], str]] = [
        ({"episode": "season"}, "episode must be 'deal' or 'match', not 'season'"),
        ({"episode": "match", "rounds": 0}, "rounds must be at least 1, not 0"),
        ({"max_steps": 0}, "max_steps must be at least 1, not 0")]
    for options, words in cases:
        with pytest.raises(ValueError, match=words):
            make("conquian", **options)
