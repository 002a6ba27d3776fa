"""The OpenSpiel games at a three-seat conquian table and their observers (issue 42): the dealer
drawn by chance so that every seat plays (R6.1, R6.3), the seat that sits out seeing only the
public table, and a public observer that leaves the seat's own cards out."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel")

import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation

import conquian.envs.openspiel  # noqa: F401 (registers the games)


def _play(game: object, seed: int, moves: int = 12) -> object:
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    for _ in range(rng.randint(0, moves)):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", ["python_conquian", "python_conquian_spanish"])
def test_three_seats_pass_openspiels_checks(name: str) -> None:
    """R6.3: OpenSpiel asks every seat's observation, the dealer's (who holds no cards) too."""
    game = pyspiel.load_game(name, {"players": 3})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_every_seat_deals_and_plays_at_three() -> None:
    """R6.1: the first chance node cuts for the deal, uniformly; the dealer sits out (R6.3)."""
    game = pyspiel.load_game("python_conquian", {"players": 3})
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, s) for s in range(3)] == ["dealer p1", "dealer p2",
                                                                                     "dealer p3"]
    players = set()
    for dealer in range(3):
        dealt = state.child(dealer)
        rng = random.Random(dealer)
        while dealt.is_chance_node():
            dealt.apply_action(rng.choice(dealt.chance_outcomes())[0])
        assert dealt.deal.dealer == dealer + 1 and set(dealt.deal.seats) == {1, 2, 3} - {dealer + 1}
        players.add(dealt.current_player())
    assert players == {0, 1, 2}
    fixed = pyspiel.load_game("python_conquian", {"players": 3, "dealer": 2})
    assert len(fixed.new_initial_state().chance_outcomes()) == 40  # no cut: seat 2 deals every game
    with pytest.raises(Exception, match="R6.1"):
        pyspiel.load_game("python_conquian", {"players": 3, "dealer": 4})


def test_the_seat_that_sits_out_sees_no_hand() -> None:
    """Its tensor and strings hold the public table only: re-dealing both hands changes nothing."""
    game = pyspiel.load_game("python_conquian", {"players": 3})
    checked = 0
    for seed in range(8):
        state = _play(game, seed)
        out = state.deal.dealer - 1
        tensor = np.asarray(state.observation_tensor(out))
        assert not tensor[:40].any() and tensor[-1] == 1.0 and tensor[-2] == 0.0
        text = state.observation_string(out)
        assert text.startswith(f"p{out + 1} hand sits out")
        for seat in state.deal.seats:
            hand = str(state.deal.view(seat).hand)
            assert hand not in text and hand not in state.information_state_string(out)
        player = state.current_player()
        if player < 0:
            continue
        for _ in range(3):  # the hands are what the sitting-out seat cannot know
            other = state.resample_from_infostate(out, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert np.array_equal(np.asarray(other.observation_tensor(out)), tensor)
            assert other.observation_string(out) == text
        checked += 1
    assert checked > 0


def test_a_three_seat_playthrough() -> None:
    from open_spiel.python.algorithms import generate_playthrough

    text = generate_playthrough.playthrough("python_conquian(players=3)", action_sequence=None, alsologtostdout=False)
    assert "ObservationTensor(2)" in text and "Returns()" in text


PUBLIC = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                    private_info=pyspiel.PrivateInfoType.NONE)


@pytest.mark.parametrize("name,params", [("python_conquian", {}), ("python_conquian_mexicano", {}),
                                         ("python_cooncan", {}), ("python_conquian", {"players": 3})])
def test_a_public_observer_leaves_the_hand_out(name: str, params: dict[str, int]) -> None:
    """``private_info=NONE``: the tensor is the default one with the private ranges zeroed, and it
    is the same whatever the hands (a re-deal of every card the seat has not seen)."""
    game = pyspiel.load_game(name, params)
    public = make_observation(game, PUBLIC)
    private = make_observation(game)
    ranges = game.new_initial_state().g.enc.private_ranges()
    for seed in range(6):
        state = _play(game, seed)
        for player in range(game.num_players()):
            public.set_from(state, player)
            private.set_from(state, player)
            expected = private.tensor.copy()
            for start, stop in ranges:
                expected[start:stop] = 0.0
            assert np.array_equal(public.tensor, expected)
            text = public.string_from(state, player)
            if state.deal is not None and player + 1 in getattr(state.deal, "seats", range(1, 9)):
                assert private.tensor[ranges[0][0]:ranges[0][1]].any()  # the default observer shows the hand
                assert " hand hidden " in text
    with pytest.raises(ValueError, match="private cards"):
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                                          private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def test_the_public_tensor_is_the_same_for_both_hands_dealt_again() -> None:
    game = pyspiel.load_game("python_conquian")
    public = make_observation(game, PUBLIC)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for seed in range(6):
        state = _play(game, seed)
        if state.is_terminal():
            continue
        public.set_from(state, 0)
        before = public.tensor.copy()
        other = state.resample_from_infostate(1, sampler)  # the other seat's hand re-dealt
        public.set_from(other, 0)
        assert np.array_equal(public.tensor, before)


@pytest.mark.parametrize("name", ["python_conquian", "python_conquian_mexicano"])
def test_the_cpp_ismcts_bot_is_refused_clearly(name: str) -> None:
    """OpenSpiel's C++ ISMCTSBot releases the interpreter lock during its search and then calls the
    game's Python methods: the process died (a segmentation fault) at 100 simulations.  It is now
    refused with a message naming the Python implementation, which plays (test_openspiel.py)."""
    from conquian.envs.openspiel import CPP_ISMCTS_REFUSED

    game = pyspiel.load_game(name)
    bot = pyspiel.ISMCTSBot(0, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 100)
    state = _play(game, 0, moves=0)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    for call in (bot.step, bot.get_policy, bot.step_with_policy):
        with pytest.raises(TypeError, match="open_spiel.python.algorithms.ismcts"):
            call(state)
    assert "segmentation fault" in CPP_ISMCTS_REFUSED
    kuhn = pyspiel.load_game("kuhn_poker")  # a C++ game: searched as before
    state = kuhn.new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    assert bot.step(state) in state.legal_actions()


@pytest.mark.parametrize("name", ["python_conquian", "python_conquian_tiny"])
def test_the_cpp_mcts_bot_is_refused_clearly(name: str) -> None:
    """OpenSpiel's C++ MCTSBot crashed the process (a segmentation fault) at its first step on these
    games, as on OpenSpiel's own Python games: it is refused with a message naming the Python bot."""
    from conquian.envs.openspiel import CPP_MCTS_REFUSED

    game = pyspiel.load_game(name)
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 50, 100, False, 0, False)
    state = _play(game, 0, moves=0)
    for call in (bot.step, bot.mcts_search, bot.step_with_policy):
        with pytest.raises(TypeError, match="open_spiel.python.algorithms.mcts.MCTSBot"):
            call(state)
    assert "segmentation fault" in CPP_MCTS_REFUSED
    tic = pyspiel.load_game("tic_tac_toe")  # a C++ game: searched as before
    cpp_bot = pyspiel.MCTSBot(tic, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 20, 100, False, 0, False)
    state = tic.new_initial_state()
    assert cpp_bot.step(state) in state.legal_actions()


GUARD_PROBE = """
from pyspiel import ISMCTSBot, MCTSBot, RandomRolloutEvaluator, load_game  # before conquian's import
import conquian.envs.openspiel
game = load_game("python_conquian_tiny")
state = game.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.legal_actions()[0])
for bot in (MCTSBot(game, RandomRolloutEvaluator(1, 0), 2.0, 50, 100, False, 0, False),
            ISMCTSBot(0, RandomRolloutEvaluator(1, 0), 2.0, 50)):
    try:
        bot.step(state)
    except TypeError as e:
        print("refused:", type(bot).__name__, "open_spiel.python.algorithms" in str(e))
"""


def test_the_cpp_bots_are_refused_when_pyspiel_was_imported_first() -> None:
    """``from pyspiel import MCTSBot`` before conquian's import holds the very class guarded (a crash
    kills the probe, so it runs in a process of its own)."""
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-c", GUARD_PROBE], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, (p.returncode, p.stderr[-2000:])
    assert p.stdout.split("\n")[:2] == ["refused: MCTSBot True", "refused: ISMCTSBot True"]


def test_a_public_perfect_recall_observer_names_no_private_card() -> None:
    """The mexicano's exchange (R8.2): the public history says who gave, never which card."""
    game = pyspiel.load_game("python_conquian_mexicano", {"players": 3, "dealer": 3})
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True, public_info=True,
                                                                 private_info=pyspiel.PrivateInfoType.NONE))
    state = _play(game, 0, moves=0)
    for _ in range(5):
        state.apply_action(random.Random(0).choice(state.legal_actions()))
    for player in range(3):
        text = observer.string_from(state, player)
        assert "dealt hidden" in text and "hand hidden" in text and " gave " in text and " got " not in text
        assert str(state.deal.view(player + 1).hand) not in text
        assert "got" in state.information_state_string(player)  # the seat's own string names its cards
