"""The presets as OpenSpiel games (issue 11): OpenSpiel's own consistency checks and its
information-set MCTS bot playing whole deals through the adapter."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel")

import numpy as np
import pyspiel

import conquian.envs.openspiel  # noqa: F401 (registers the games)


@pytest.mark.parametrize("name,sims", [("python_conquian", 20), ("python_conquian_spanish", 10),
                                       ("python_cooncan", 2), ("python_cooncan_double", 1)])
def test_openspiel_random_simulation_checks(name: str, sims: int) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_parameters_reach_the_rules() -> None:
    game = pyspiel.load_game("python_cooncan", {"players": 2, "jokers": 1, "stock": "open"})
    assert game.num_players() == 2
    state = game.new_initial_state()
    assert len(state.chance_outcomes()) == 53  # the joker is in the pack
    with pytest.raises(Exception, match="R1"):
        pyspiel.load_game("python_conquian", {"players": 9})


def _dealt(game: object, seed: int) -> object:
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choice(outcomes)[0])
    for _ in range(rng.randint(0, 30)):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", ["python_conquian", "python_cooncan"])
def test_resampling_keeps_the_information_state(name: str) -> None:
    game = pyspiel.load_game(name)
    for seed in range(10):
        state = _dealt(game, seed)
        if state.is_terminal():
            continue
        player = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert np.array_equal(other.observation_tensor(player), state.observation_tensor(player))
        assert np.array_equal(other.information_state_tensor(player), state.information_state_tensor(player))
        assert other.legal_actions() == state.legal_actions()


def test_ismcts_plays_whole_deals_of_conquian() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_conquian")
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 20, random_state=rng)
    for _ in range(2):
        state = game.new_initial_state()
        bot.reset()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            elif state.current_player() == 0:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randint(len(legal))])
        assert sum(state.returns()) == 0
