"""Research interfaces (issue 11): PettingZoo's own tests, exact masks, hidden information."""

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
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.match import new_deal
from conquian.envs import conquian_spanish_v1, conquian_v1, cooncan_double_v1, cooncan_v1
from conquian.envs.aec import ConquianAEC
from conquian.envs.encoding import Public, encoding
from test_cooncan_properties import public_rearrangement
from test_view import rearrange_hidden

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)  # the first action space, still importable
    from conquian.envs import conquian_spanish_v0, conquian_v0, cooncan_double_v0, cooncan_v0

ENVS = [
    (conquian_v1, {}), (conquian_v1, {"players": 3}), (conquian_v1, {"scoring": "pips"}),
    (conquian_spanish_v1, {}),
    (cooncan_v1, {}), (cooncan_v1, {"players": 2, "stock": "open", "jokers": 1}),
    (cooncan_double_v1, {"players": 4}), (cooncan_double_v1, {"players": 7, "discard_taken": False}),
    (conquian_v0, {}), (conquian_v0, {"players": 3}), (conquian_spanish_v0, {}), (cooncan_v0, {}),
    (cooncan_double_v0, {"players": 4}),
]
PRESETS = [("conquian", {}), ("conquian-spanish", {}), ("cooncan", {"jokers": 1}),
           ("cooncan", {"stock": "open", "jokers": 1}), ("cooncan-double", {"players": 5})]


@pytest.mark.parametrize("module,kw", ENVS)
def test_pettingzoo_api_and_seed_tests(module: Any, kw: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations with masks are PettingZoo's own convention
        api_test(module.env(**kw), num_cycles=200)
        seed_test(lambda: module.env(**kw), num_cycles=100)


@pytest.mark.parametrize("variant,options", PRESETS)
def test_the_mask_is_exact(variant: str, options: dict[str, Any]) -> None:
    """Every listed legal action has its own index; every masked index is accepted by the engine."""
    rules = get_rules(variant, **options)
    enc = encoding(rules)
    rng = random.Random(1)
    for seed in range(25):
        deal = new_deal(rules, seed=seed, dealer=rules.players)
        steps = 0
        while not deal.over and steps < 400:
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            listed = {str(a) for a in deal.legal_actions()}
            mask = enc.mask(view)
            chosen = {int(i): str(enc.action(int(i), view)) for i in mask.nonzero()[0]}
            assert set(chosen.values()) == listed  # no listed action is masked, none collides
            assert len(chosen) == len(listed)
            for i in rng.sample(sorted(chosen), min(3, len(chosen))):
                assert deal.is_legal(enc.action(i, view))
            deal.play(enc.action(rng.choice(sorted(chosen)), view))
            steps += 1


def _observation(deal: ConquianDeal | CooncanDeal, seat: int) -> np.ndarray:
    enc = encoding(deal.rules)
    public = Public()
    events = deal.recent_events(deal.n_events, 1) if isinstance(deal, CooncanDeal) else \
        deal.recent_events(deal.n_events)
    enc.update(public, events)  # type: ignore[arg-type]
    return np.concatenate([enc.observe(deal.view(seat), public), enc.mask(deal.view(seat)).astype(np.float32)])


@pytest.mark.parametrize("variant,options", PRESETS)
def test_observations_and_masks_hold_nothing_the_seat_cannot_know(variant: str, options: dict[str, Any]) -> None:
    rules = get_rules(variant, **options)
    for seed in range(30):
        rng = random.Random(seed)
        deal = new_deal(rules, seed=seed, dealer=rng.randint(1, rules.players))
        for _ in range(rng.randint(0, 120)):
            if deal.over:
                break
            deal.play(rng.choice(deal.legal_actions()))
        if deal.over:
            continue
        seats = list(deal.seats) if isinstance(deal, ConquianDeal) else list(range(1, rules.players + 1))
        for seat in seats:
            if isinstance(deal, ConquianDeal):
                other: ConquianDeal | CooncanDeal = rearrange_hidden(deal, seat, random.Random(seed * 7 + seat))
            else:
                other = public_rearrangement(deal, seat, random.Random(seed * 7 + seat))
            assert np.array_equal(_observation(other, seat), _observation(deal, seat))


@pytest.mark.parametrize("module,kw", ENVS)
def test_random_episodes_end_with_the_engines_scores(module: Any, kw: dict[str, Any]) -> None:
    env = module.env(**kw)
    raw: ConquianAEC = env.unwrapped
    for seed in range(5):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        totals = {a: 0.0 for a in env.agents}
        for agent in env.agent_iter():
            obs, reward, term, trunc, _info = env.last()
            totals[agent] += reward
            env.step(None if term or trunc else int(rng.choice(obs["action_mask"].nonzero()[0])))
        deal = raw.deal
        assert deal is not None and deal.over
        scores = deal.scores() or [0] * raw.rules.players
        assert totals == {a: float(scores[raw.seat(a) - 1]) for a in totals}
        # the same seed deals the same deck
        env.reset(seed=seed)
        assert env.unwrapped.deal.deck == deal.deck


def test_reset_seed_reproduces_the_deck_and_differs_between_seeds() -> None:
    env = cooncan_v1.env()
    env.reset(seed=11)
    a = env.unwrapped.deal.deck
    env.reset(seed=11)
    assert env.unwrapped.deal.deck == a
    env.reset(seed=12)
    assert env.unwrapped.deal.deck != a


def test_render_ansi_and_bad_arguments() -> None:
    env = conquian_v1.env(render_mode="ansi")
    env.reset(seed=1)
    assert "p1" in env.render()
    with pytest.raises(ValueError):
        conquian_v1.env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="R1"):
        cooncan_v1.env(jokers=True)
    with pytest.raises(ValueError, match="R1"):
        conquian_v1.env(players=9)
    with pytest.raises(ValueError, match="version"):
        ConquianAEC("conquian", version=2)


# ------------------------------------------------------------------ Gymnasium
@pytest.mark.parametrize("variant,kw", [("conquian", {}), ("conquian", {"players": 3, "seat": 2}),
                                        ("cooncan", {"opponents": ["foster", "random"]}),
                                        ("cooncan-double", {"players": 4, "opponents": "foster"})])
def test_gymnasium_env_checker_and_vector_env(variant: str, kw: dict[str, Any]) -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    from conquian.envs.gym import ConquianGymEnv

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(ConquianGymEnv(variant, **kw), skip_render_check=True)
    vec = gymnasium.vector.SyncVectorEnv([lambda: ConquianGymEnv(variant, **kw) for _ in range(3)])
    obs, info = vec.reset(seed=7)
    assert obs.shape == (3, vec.single_observation_space.shape[0])
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(300):
        masks = info["action_mask"]
        # a sub-env that has just ended has an empty mask: its next step resets it (NEXT_STEP autoreset)
        actions = np.array([rng.choice(m.nonzero()[0]) if m.any() else 0 for m in masks])
        obs, _reward, term, _trunc, info = vec.step(actions)
        finished += int(term.sum())
        if finished >= 3:
            break
    assert finished >= 3
    vec.close()


def test_gymnasium_rewards_are_the_learners_scores() -> None:
    from conquian.envs.gym import ConquianGymEnv

    env = ConquianGymEnv("conquian", opponents="foster", scoring="pips")
    for seed in range(5):
        _obs, info = env.reset(seed=seed)
        done, total = False, 0.0
        while not done:
            _obs, reward, term, trunc, info = env.step(int(info["action_mask"].nonzero()[0][-1]))
            total += reward
            done = term or trunc
        assert env.deal is not None and total == float((env.deal.scores() or [0, 0])[0])
    _obs, info = env.reset(seed=1)
    bad = int((info["action_mask"] == 0).nonzero()[0][0])
    assert env.step(bad)[2] is True and env.step(bad)[1] == -1.0


@pytest.mark.parametrize("module,kw", [ENVS[0], ENVS[4], ENVS[6]])
def test_pettingzoo_render_test_with_the_human_mode(module: Any, kw: dict[str, Any],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: module.env(render_mode=render_mode, **kw))
    assert "hand" in capsys.readouterr().out  # the human mode prints the deal to the terminal
    env = module.env(render_mode="human", **kw)
    env.reset(seed=1)
    assert env.render() is None
    assert "hand" in capsys.readouterr().out


def _illegal(module: Any, **kw: Any) -> dict[str, float]:
    env = module.env(**kw)
    env.reset(seed=2)
    obs, *_ = env.last()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns of the illegal move
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    return dict(env.rewards)


@pytest.mark.parametrize("module,kw", [(conquian_v1, {"scoring": "pips"}), (cooncan_v1, {}), (conquian_v0, {})])
def test_the_illegal_move_reward_is_an_option(module: Any, kw: dict[str, Any]) -> None:
    assert min(_illegal(module, **kw).values()) == -1.0  # PettingZoo's convention by default
    rewards = _illegal(module, illegal_reward=-250.0, **kw)
    assert sorted(rewards.values()) == [-250.0] + [0.0] * (len(rewards) - 1)


def test_conquian_spanish_is_conquian_under_the_default_scoring() -> None:
    """docs/research.md: the same seed and actions give the same observations, masks and rewards
    (only the ranks' names differ)."""
    for seed, (ma, mb) in enumerate([(conquian_v1, conquian_spanish_v1)] * 5 + [(conquian_v0, conquian_spanish_v0)]):
        a, b = ma.env(), mb.env()
        a.reset(seed=seed)
        b.reset(seed=seed)
        rng = np.random.RandomState(seed)
        while a.agents:
            oa, ra, ta, tra, _ = a.last()
            ob, rb, *_ = b.last()
            assert a.agent_selection == b.agent_selection and ra == rb
            assert np.array_equal(oa["observation"], ob["observation"])
            assert np.array_equal(oa["action_mask"], ob["action_mask"])
            action = None if ta or tra else int(rng.choice(np.flatnonzero(oa["action_mask"])))
            a.step(action)
            b.step(action)
        assert b.agents == []
