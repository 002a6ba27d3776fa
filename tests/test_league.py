"""League tooling: policies as players, duplicate deals from the tournament's machinery, ratings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from conquian import get_rules
from conquian.envs.aec import ConquianAEC
from conquian.envs.gym import ConquianGymEnv
from conquian.envs.league import (
    PolicyBot,
    duplicate,
    elo_ratings,
    league,
    play_deal,
    rowwise,
)
from conquian.envs.vector import ConquianVectorEnv, first_legal, random_legal
from conquian.tournament import play_game, run_tournament

PRESETS = [("conquian", 2), ("conquian", 3), ("conquian-mexicano", 3), ("cooncan", 3), ("cooncan-double", 5)]


@pytest.mark.parametrize(("variant", "players"), PRESETS)
def test_a_policy_bot_sees_what_the_environment_shows(variant: str, players: int) -> None:
    """Handed views, a policy gets exactly the AEC environment's observation and mask."""
    seen: list[tuple[np.ndarray, np.ndarray, int]] = []
    pick = random_legal(np.random.default_rng(1))

    def policy(obs: np.ndarray, mask: np.ndarray) -> Any:
        chosen = pick(obs, mask)
        seen.append((obs[0].copy(), mask[0].copy(), int(chosen[0])))
        return chosen

    env = ConquianAEC(variant, players)
    env.reset(seed=9)
    bots = {s: PolicyBot(policy, env.rules) for s in range(1, players + 1)}
    steps = 0
    for agent in env.agent_iter(max_iter=300):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        assert env.deal is not None
        seat = env.seat(agent)
        bots[seat].choose(env.deal.view(seat))
        o, m, index = seen[-1]
        np.testing.assert_array_equal(o, obs["observation"])
        np.testing.assert_array_equal(m, obs["action_mask"])
        env.step(index)
        steps += 1
    assert steps > 0


def test_a_masked_choice_raises() -> None:
    rules = get_rules("conquian")
    bot = PolicyBot(lambda obs, mask: [int((mask[0] == 0).argmax())], rules)
    env = ConquianAEC("conquian")
    env.reset(seed=1)
    assert env.deal is not None and env.deal.to_act is not None
    with pytest.raises(ValueError, match="masked"):
        bot.choose(env.deal.view(env.deal.to_act))


def test_play_deal_is_the_tournament_game() -> None:
    for variant, players in [("conquian", 2), ("cooncan", 3)]:
        rules = get_rules(variant, players=players)
        bots = ["foster", "random", "foster"][:players]
        for deck_seed in (3, 4):
            ours = play_deal(rules, bots, deck_seed, bot_seed=7)
            theirs = [o.score for o in play_game(rules, bots, deck_seed, 7)]
            assert ours == theirs


def test_duplicate_decks_are_the_tournament_decks() -> None:
    rules = get_rules("conquian")
    res = run_tournament(rules, ["foster", "random"], deals=5, seed=4, workers=1)
    sums = list(duplicate(rules, ["foster", "random"], {"foster": "foster", "random": "random"}, 5, seed=4))
    assert len(sums) == 5
    by_bot = {r.bot: sum(r.scores) for r in res.results}
    assert sum(s[0] for s in sums) == by_bot["foster"]
    assert sum(s[1] for s in sums) == by_bot["random"]


def test_elo_ratings() -> None:
    names = ["a", "b", "c"]
    even = elo_ratings({("a", "b"): (5, 0, 5), ("b", "c"): (3, 4, 3)}, names)
    assert all(abs(v) < 1e-6 for v in even.values())
    r = elo_ratings({("a", "b"): (30, 0, 10), ("b", "c"): (30, 0, 10), ("a", "c"): (35, 0, 5)}, names, anchor="c")
    assert r["c"] == 0.0 and r["a"] > r["b"] > 0
    # one clean sweep stays finite
    sweep = elo_ratings({("a", "b"): (10, 0, 0)}, ["a", "b"])
    assert 0 < sweep["a"] < 1000 and sweep["a"] == -sweep["b"]


def test_league_rates_bots_and_policies() -> None:
    rules = get_rules("conquian")
    entrants = {"foster": "foster", "random": "random", "lowest": first_legal,
                "lowest, row by row": rowwise(lambda o, m: int(m.argmax()))}
    table = league(rules, entrants, deals=6, seed=3, anchor="random")
    assert {r.name for r in table.ratings} == set(entrants)
    assert table.ratings[0].name == "foster" and table.rating("random").elo == 0.0
    # the same policy twice: the same deals, the same play, so every deck is a draw
    assert table.pairs[("lowest", "lowest, row by row")] == (0, 6, 0)
    assert "foster" in table.text()
    again = league(rules, entrants, deals=6, seed=3, anchor="random")
    assert [(r.name, r.elo) for r in again.ratings] == [(r.name, r.elo) for r in table.ratings]
    three = league(get_rules("conquian-mexicano", players=3), {"foster": "foster", "lowest": first_legal},
                   deals=2, seed=1)
    assert three.rating("foster").games == three.rating("lowest").games == 18


def test_policies_as_opponents_in_the_environments() -> None:
    env = ConquianGymEnv("conquian", opponents=first_legal)
    obs, info = env.reset(seed=1)
    done = False
    while not done:
        obs, _reward, term, trunc, info = env.step(int(info["action_mask"].nonzero()[0][0]))
        done = term or trunc
    venv = ConquianVectorEnv("cooncan", 2, opponents=["foster", random_legal(np.random.default_rng(0))], seed=1)
    obs, info = venv.reset()
    for _ in range(20):
        obs, *_, info = venv.step(first_legal(obs, info["action_mask"]))
