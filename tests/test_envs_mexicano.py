"""The conquián mexicano (R8) in the research interfaces: PettingZoo's own tests, the exact mask,
observations that hold nothing the seat cannot know (R8.2's exchange included), the Gymnasium
environment and the OpenSpiel game."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np
from pettingzoo.test import api_test, seed_test

from conquian import get_rules
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.conquian.mexicano_listing import DISCARD, EXCHANGE, FORCED, SAY
from conquian.engine.redeal import redeal_unseen
from conquian.envs import conquian_mexicano_v1
from conquian.envs.aec import ConquianAEC
from conquian.envs.encoding import Public, encoding

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)  # the first action space, still importable
    from conquian.envs import conquian_mexicano_v0

OPTIONS = [{}, {"players": 3}, {"players": 4}, {"players": 3, "hand": 9, "exhausted": "fewest"},
           {"exchange": False}]


@pytest.mark.parametrize("module,kw", [(conquian_mexicano_v1, kw) for kw in OPTIONS] +
                         [(conquian_mexicano_v0, OPTIONS[0]), (conquian_mexicano_v0, OPTIONS[1])])
def test_pettingzoo_api_and_seed_tests(module: Any, kw: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations with masks are PettingZoo's own convention
        api_test(module.env(**kw), num_cycles=200)
        seed_test(lambda: module.env(**kw), num_cycles=100)


@pytest.mark.parametrize("version", [0, 1])
@pytest.mark.parametrize("players,sizes", [(2, (315, 698)), (3, (355, 944)), (4, (395, 1190))])
def test_sizes_and_layout(players: int, sizes: tuple[int, int], version: int) -> None:
    """docs/encodings.md: at two players the first 275 indices mean what they mean in conquian;
    a force names the player forced, counted from the actor (R8.4); the gives come next (R8.2),
    then (version 1) the further uses, 2 ** 9 of them whatever the hand."""
    enc = encoding(get_rules("conquian-mexicano", players=players), version)
    assert (enc.n_actions, enc.obs_size) == (sizes[0] + 512 * version, sizes[1])
    assert (0, 1, 1 + 40 * (players - 1)) == (enc.A_PASS, enc.A_FORCE, enc.A_DISCARD)
    assert enc.A_USE == enc.A_DISCARD + 40 and enc.A_GIVE == enc.A_USE + 194 and enc.A_LAY == enc.A_GIVE + 40
    assert encoding(get_rules("conquian-mexicano", players=3, hand=9), version).n_actions == \
        encoding(get_rules("conquian-mexicano", players=3), version).n_actions
    assert enc.action_text(enc.A_GIVE, 1) == "p1 give Ac"
    if players == 2:
        spanish = encoding(get_rules("conquian-spanish"), version)
        assert [enc.action_text(i, 1) for i in range(275)] == [spanish.action_text(i, 1) for i in range(275)]
    else:
        # the second player after p3 at three is p2; at four, p1
        assert enc.action_text(enc.A_FORCE + 40 + 2, 3) == f"p3 force 3c p{(3 + 1) % players + 1}"


@pytest.mark.parametrize("kw", OPTIONS)
def test_the_mask_is_exact(kw: dict[str, Any]) -> None:
    """Every listed legal action (give, pass, use, force on each player, discard) has its own
    index; every masked index is accepted by the engine (R7)."""
    rules = get_rules("conquian-mexicano", **kw)
    enc = encoding(rules)
    rng = random.Random(1)
    kinds: set[str] = set()
    for seed in range(25):
        deal = MexicanoDeal(rules, seed=seed, dealer=rng.randint(1, rules.players))
        while not deal.over:
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            listed = {str(a) for a in deal.legal_actions()}
            mask = enc.mask(view)
            chosen = {int(i): str(enc.action(int(i), view)) for i in mask.nonzero()[0]}
            assert set(chosen.values()) == listed  # no listed action is masked, none collides
            assert len(chosen) == len(listed)
            for i, text in chosen.items():
                kinds.add(text.split()[1])
                assert deal.is_legal(text)
                if " use " not in text:  # a use's text names the combination holding the card only
                    assert enc.action_text(i, seat) == text
                if i >= enc.A_LAY:  # a further use: named in full from the view
                    assert enc.action_text(i, seat, view) == text
            deal.play(enc.action(rng.choice(sorted(chosen)), view))
    assert kinds >= {"pass", "use", "discard", "force"} | ({"give"} if rules.exchange else set())


def _observation(deal: MexicanoDeal, seat: int) -> np.ndarray:
    """The observation and mask built from the deal's public events, as an environment does."""
    enc = encoding(deal.rules)
    public = Public()
    enc.update(public, deal.recent_events(deal.n_events))  # type: ignore[arg-type]
    folded = Public()
    enc.fold(folded, deal)
    assert folded == public  # the fast path reads the same history
    view = deal.view(seat)
    return np.concatenate([enc.observe(view, public), enc.mask(view).astype(np.float32)])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observations_and_masks_hold_nothing_the_seat_cannot_know(players: int) -> None:
    """R8.2 and R8.3: re-dealing every card a seat has not seen (the others' hands, the cards they
    gave, the pack) leaves its observation and mask unchanged, at every phase of the deal."""
    rules = get_rules("conquian-mexicano", players=players)
    phases: set[int] = set()
    changed = 0
    for seed in range(40):
        rng = random.Random(seed)
        deal = MexicanoDeal(rules, seed=seed, dealer=rng.randint(1, players))
        target = (EXCHANGE, SAY, DISCARD, FORCED)[seed % 4]
        steps = rng.choice([0, 1, players - 1, rng.randint(0, 60)])
        while not deal.over and (steps > 0 or deal.stage != target):
            deal.play(rng.choice(deal.legal_actions()))
            steps -= 1
        phases.add(deal.stage)
        for seat in range(1, players + 1):
            other = redeal_unseen(deal, seat, random.Random(seed * 7 + seat))
            changed += other.deck != deal.deck
            assert np.array_equal(_observation(other, seat), _observation(deal, seat))
    assert {EXCHANGE, SAY, DISCARD, FORCED} <= phases and changed > 0


def test_the_exchange_shows_the_card_given_and_got_only_to_their_seats() -> None:
    """R8.2: a seat sees the card it gave at once and the card it got once every seat has given;
    another seat's observation does not change with either."""
    rules = get_rules("conquian-mexicano", players=3)
    enc = encoding(rules)
    deal = MexicanoDeal(rules, seed=9, dealer=3)
    gave = enc.observe(deal.view(1), Public())
    deal.play(deal.legal_actions()[0])  # p1 gives
    public = Public()
    enc.fold(public, deal)
    o1, o2 = enc.observe(deal.view(1), public), enc.observe(deal.view(2), public)
    assert not np.array_equal(o1, gave)
    c = 40 * (1 + 3 * 3 + 2)  # the offset of the plane "the card the seat gave"
    assert o1[c: c + 40].sum() == 1 and o2[c: c + 40].sum() == 0
    for _ in range(2):
        deal.play(deal.legal_actions()[0])
    enc.fold(public, deal)
    o2 = enc.observe(deal.view(2), public)
    assert o2[c + 40: c + 80].sum() == 1  # p2 got p1's card


@pytest.mark.parametrize("kw", OPTIONS)
def test_random_episodes_end_with_the_engines_scores(kw: dict[str, Any]) -> None:
    """R8.7: the rewards are the deal's scores (the winner +1 from every other player), and they balance."""
    env = conquian_mexicano_v1.env(**kw)
    raw: ConquianAEC = env.unwrapped
    for seed in range(8):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        totals = {a: 0.0 for a in env.agents}
        for agent in env.agent_iter():
            obs, reward, term, trunc, _info = env.last()
            totals[agent] += reward
            if not (term or trunc):
                assert env.unwrapped.deal.to_act == raw.seat(agent)
            env.step(None if term or trunc else int(rng.choice(obs["action_mask"].nonzero()[0])))
        deal = raw.deal
        assert isinstance(deal, MexicanoDeal) and deal.over
        scores = deal.scores() or []
        assert totals == {a: float(scores[raw.seat(a) - 1]) for a in totals} and sum(totals.values()) == 0
        env.reset(seed=seed)
        assert env.unwrapped.deal.deck == deal.deck  # the same seed deals the same deck


def test_render_and_bad_options() -> None:
    env = conquian_mexicano_v1.env(players=3, render_mode="ansi")
    env.reset(seed=1, options={"dealer": 3})
    assert "p3 (dealer)" in env.render()
    with pytest.raises(ValueError, match="R8.1"):
        conquian_mexicano_v1.env(players=4, hand=9)
    with pytest.raises(ValueError, match="R8.1"):
        conquian_mexicano_v1.env(exhausted="longest")


# ------------------------------------------------------------------ Gymnasium
@pytest.mark.parametrize("kw", [{}, {"players": 3, "seat": 2}])
def test_gymnasium_env_checker_and_episodes(kw: dict[str, Any]) -> None:
    from gymnasium.utils.env_checker import check_env

    from conquian.envs.gym import ConquianGymEnv

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(ConquianGymEnv("conquian-mexicano", **kw), skip_render_check=True)
    env = ConquianGymEnv("conquian-mexicano", **kw)
    for seed in range(6):
        _obs, info = env.reset(seed=seed)
        done, total = False, 0.0
        while not done:
            mask = info["action_mask"]
            assert mask.any()
            _obs, reward, term, trunc, info = env.step(int(mask.nonzero()[0][-1]))
            total += reward
            done = term or trunc
        assert env.deal is not None and total == float((env.deal.scores() or [])[env.seat - 1])


# ------------------------------------------------------------------ OpenSpiel
@pytest.mark.parametrize("params", [{}, {"players": 3}, {"players": 4}, {"players": 3, "hand": 9, "exchange": False},
                                    {"players": 3, "version": 0}])
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_openspiel_random_simulation_checks(params: dict[str, Any]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import conquian.envs.openspiel  # noqa: F401 (registers the games)

    game = pyspiel.load_game("python_conquian_mexicano", params)
    assert game.num_players() == params.get("players", 2)
    pyspiel.random_sim_test(game, num_sims=8, serialize=False, verbose=False)


def _openspiel_play(game: Any, seed: int, steps: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_openspiel_same_seed_same_trajectory_and_returns() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import conquian.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("python_conquian_mexicano", {"players": 3})
    for seed in range(4):
        a, b = _openspiel_play(game, seed, 500), _openspiel_play(game, seed, 500)
        assert a.is_terminal() and a.history() == b.history() and a.returns() == b.returns()
        assert sum(a.returns()) == 0 and sorted(a.returns()) in ([-1, -1, 2], [0, 0, 0])  # R8.7


def test_openspiel_information_states_are_the_seats_own() -> None:
    """Observation tensors and strings and information-state strings depend only on what the seat
    knows (R8.2, R8.3): a state resampled from a player's information set gives the same ones."""
    pyspiel = pytest.importorskip("pyspiel")
    import conquian.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("python_conquian_mexicano", {"players": 3})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for seed in range(12):
        state = _openspiel_play(game, seed, random.Random(seed).choice([1, 2, 3, 10, 30]))
        if state.is_terminal():
            continue
        for player in range(3):
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_string(player) == state.observation_string(player)
            assert np.array_equal(other.observation_tensor(player), state.observation_tensor(player))
        player = state.current_player()
        assert state.resample_from_infostate(player, sampler).legal_actions() == state.legal_actions()
    fixed = pyspiel.load_game("python_conquian_mexicano", {"players": 3, "dealer": 3})  # p1 plays first
    first = _openspiel_play(fixed, 0, 1)  # p1 gave a card: his string says which, p2's does not
    assert "gave" in first.information_state_string(0) and "gave -" not in first.information_state_string(0)
    assert "gave -" in first.information_state_string(1)


def test_ismcts_plays_whole_deals_of_the_tercerilla() -> None:
    """OpenSpiel's information-set MCTS resamples the hidden cards (the others' hands, the cards
    they gave, R8.2) and plays legal moves to the end; the returns balance (R8.7)."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import ismcts, mcts

    import conquian.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("python_conquian_mexicano", {"players": 3, "exhausted": "fewest"})
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 10, random_state=rng)
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
