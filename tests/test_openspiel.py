"""The presets as OpenSpiel games (issue 11): OpenSpiel's own consistency checks and its
information-set MCTS bot playing whole deals through the adapter."""

from __future__ import annotations

import pickle
import random

import pytest

pytest.importorskip("pyspiel")

import numpy as np
import pyspiel

import conquian.envs.openspiel  # noqa: F401 (registers the games)


@pytest.mark.parametrize("name,sims,version", [("python_conquian", 20, 1), ("python_conquian_spanish", 10, 1),
                                               ("python_cooncan", 2, 1), ("python_cooncan_double", 1, 1),
                                               ("python_conquian", 10, 0), ("python_cooncan", 1, 0)])
def test_openspiel_random_simulation_checks(name: str, sims: int, version: int) -> None:
    if version == 0:
        with pytest.deprecated_call():
            game = pyspiel.load_game(name, {"version": 0})
    else:
        game = pyspiel.load_game(name)
    assert game.get_parameters()["version"] == version
    assert game.num_distinct_actions() == game.new_initial_state().g.enc.n_actions
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_the_versions_sizes_and_the_further_uses_named_in_full() -> None:
    """docs/encodings.md: version 1 adds 2 ** 10 further uses to conquian's 275 actions; a legal one
    is named by the cards it lays, in notation, when the state can see the hand that lays them."""
    with pytest.deprecated_call():
        assert pyspiel.load_game("python_conquian", {"version": 0}).num_distinct_actions() == 275
    game = pyspiel.load_game("python_conquian")
    assert game.num_distinct_actions() == 275 + 1024
    named = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            player = state.current_player()
            for a in state.legal_actions():
                text = state.action_to_string(player, a)
                if a >= 275:
                    assert text == str(state.g.enc.action(a, state.deal.view(player + 1)))
                    assert text.startswith(f"p{player + 1} use ") and "laying" not in text
                    named += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert named > 0


def test_parameters_reach_the_rules() -> None:
    game = pyspiel.load_game("python_cooncan", {"players": 2, "jokers": 1, "stock": "open"})
    assert game.num_players() == 2
    state = game.new_initial_state()
    assert [p for _, p in state.chance_outcomes()] == [0.5, 0.5]  # the cut for the deal (R6.1)
    state.apply_action(0)
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


@pytest.mark.parametrize("name,params", [("python_conquian", {}), ("python_cooncan", {}),
                                         ("python_conquian", {"version": 0})])
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_resampling_keeps_the_information_state(name: str, params: dict[str, int]) -> None:
    game = pyspiel.load_game(name, params)
    for seed in range(10):
        state = _dealt(game, seed)
        if state.is_terminal():
            continue
        player = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert np.array_equal(other.observation_tensor(player), state.observation_tensor(player))
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


ALL = ["python_conquian", "python_conquian_spanish", "python_cooncan", "python_cooncan_double",
       "python_conquian_mexicano"]


@pytest.mark.parametrize("name", ALL)
def test_a_clone_keeps_the_history_and_the_move_number(name: str) -> None:
    game = pyspiel.load_game(name)
    for seed in range(3):
        state = _dealt(game, seed)
        clone = state.clone()
        assert clone.history() == state.history() and len(state.history()) > 0
        assert clone.move_number() == state.move_number() == len(state.history())
        assert str(clone) == str(state)
        if not clone.is_terminal():  # the clone goes its own way
            clone.apply_action(clone.legal_actions()[0])
            assert len(clone.history()) == len(state.history()) + 1


@pytest.mark.parametrize("name", ALL)
def test_a_resampled_state_has_the_history_of_its_own_deal(name: str) -> None:
    """Its history is the new deal's chance outcomes and the same players' actions, every one
    listed at its turn (replaying the history gives the state again)."""
    game = pyspiel.load_game(name)
    chance = int(pyspiel.PlayerId.CHANCE)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    moved = 0
    for seed in range(6):
        state = _dealt(game, seed)
        if state.is_terminal():
            continue
        player = state.current_player()
        for _ in range(4):
            other = state.resample_from_infostate(player, sampler)
            moved += other.deal != state.deal
            assert other.move_number() == state.move_number() == len(other.history())
            pairs = [(h.player, h.action) for h in other.full_history()]
            dealt = [a for p, a in pairs if p == chance]
            assert dealt[0] == other.deal.dealer - 1 == state.deal.dealer - 1  # the cut for the deal
            assert [other.g.outcomes[a] for a in dealt[1:]] == list(other.deal.deck)
            assert [p for p, _ in pairs] == [h.player for h in state.full_history()]
            replay = game.new_initial_state()
            for action in other.history():
                replay.apply_action(action)
            assert str(replay) == str(other)
            assert replay.information_state_string(player) == state.information_state_string(player)
    assert moved > 0  # the unseen cards are dealt again


@pytest.mark.parametrize("name", ALL)
def test_games_and_states_pickle(name: str) -> None:
    game = pyspiel.load_game(name)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.num_players() == game.num_players()
    state = _dealt(game, 5)
    assert not state.is_terminal()
    loaded = pickle.loads(pickle.dumps(state))
    assert loaded.history() == state.history() and loaded.move_number() == state.move_number()
    player = state.current_player()
    assert np.array_equal(loaded.observation_tensor(player), state.observation_tensor(player))
    assert loaded.information_state_string(player) == state.information_state_string(player)
    assert loaded.legal_actions() == state.legal_actions()
    # the shared tables are not in the state (they were 2.6 MB of every pickled state)
    assert len(pickle.dumps(state)) < 20_000
    assert loaded.g is state.g


def test_python_cooncan_deals_the_joker_as_cooncan_v1_does() -> None:
    from conquian import get_rules

    game = pyspiel.load_game("python_cooncan")
    assert game.get_parameters()["jokers"] == 1
    assert game.new_initial_state().g.rules == get_rules("cooncan")
    assert len(game.new_initial_state().child(0).chance_outcomes()) == 53  # after the cut for the deal
    assert len(pyspiel.load_game("python_cooncan", {"jokers": 0}).new_initial_state().child(0).chance_outcomes()) == 52


@pytest.mark.parametrize("name", ALL)
def test_no_information_state_tensor_is_claimed(name: str) -> None:
    """The observation tensor is not perfect recall (different histories of one seat give one
    tensor), so the games claim no information-state tensor; the strings are perfect recall."""
    game = pyspiel.load_game(name)
    kind = game.get_type()
    assert not kind.provides_information_state_tensor
    assert kind.provides_observation_tensor and kind.provides_information_state_string
    state = _dealt(game, 2)
    player = max(state.current_player(), 0)
    assert len(state.observation_tensor(player)) == game.observation_tensor_size()
    with pytest.raises(Exception, match="information-state tensor"):
        state.information_state_tensor(player)


def test_a_long_deal_pickles_whatever_the_recursion_limit() -> None:
    """A deal's events are a linked list as deep as the deal is long: they are pickled flat."""
    import inspect
    import sys

    game = pyspiel.load_game("python_cooncan")
    rng = random.Random(4)
    state = game.new_initial_state()
    while not state.is_terminal() and state.move_number() < 400:
        state.apply_action(rng.choice(state.chance_outcomes())[0] if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 150)  # far fewer frames than the deal has events
    try:
        data = pickle.dumps(state)
        text = state.serialize()
    finally:
        sys.setrecursionlimit(limit)
    for loaded in (pickle.loads(data), game.deserialize_state(text)):
        assert loaded.history() == state.history() and str(loaded) == str(state)
        assert loaded.deal == state.deal and loaded.legal_actions() == state.legal_actions()


def test_the_observation_tensor_is_not_perfect_recall() -> None:
    """Why no information-state tensor is claimed: different histories of one seat (different
    information-state strings) give the same observation tensor."""
    game = pyspiel.load_game("python_conquian")
    collisions = 0
    for deal_seed in range(5):
        rng = random.Random(deal_seed)
        dealt = game.new_initial_state()
        while dealt.is_chance_node():
            dealt.apply_action(rng.choice(dealt.chance_outcomes())[0])
        seen: dict[bytes, str] = {}
        for play in range(30):
            state, r = dealt.clone(), random.Random(100 * play + deal_seed)
            while not state.is_terminal():
                p = state.current_player()
                key = np.asarray(state.observation_tensor(p)).tobytes() + bytes([p])
                collisions += seen.setdefault(key, state.information_state_string(p)) != \
                    state.information_state_string(p)
                state.apply_action(r.choice(state.legal_actions()))
    assert collisions > 0
