"""The batched environment against the single ones: same seeds and actions, same arrays."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium

from conquian.envs.aec import ConquianAEC
from conquian.envs.gym import ConquianGymEnv
from conquian.envs.gym_vector import ConquianGymVectorEnv
from conquian.envs.vector import ConquianVectorEnv, first_legal, random_legal

PRESETS = [("conquian", 2), ("conquian-spanish", 2), ("conquian", 3), ("conquian-mexicano", 2),
           ("conquian-mexicano", 3), ("cooncan", 3), ("cooncan-double", 5)]


def _aec(variant: str, players: int, seed: int, dealer: int, version: int = 1) -> ConquianAEC:
    env = ConquianAEC(variant, players, version=version)
    env.reset(seed=seed, options={"dealer": dealer})
    return env


def _aec_obs(env: ConquianAEC, agent: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    o = env.observe(agent or env.agent_selection)
    return o["observation"], o["action_mask"]


@pytest.mark.parametrize(("variant", "players", "version"), [(v, n, 1) for v, n in PRESETS] +
                         [("conquian", 2, 0), ("conquian-mexicano", 3, 0)])
def test_self_play_matches_the_aec_env(variant: str, players: int, version: int) -> None:
    """Self-play: every seat's observation and mask, the rewards and the next deals are the AEC env's
    (in both versions of the action space; version 1's further uses played too)."""
    n_envs, seed, dealer = 3, 11, 2
    steps = 160 if variant.startswith("cooncan") else 400
    venv = ConquianVectorEnv(variant, n_envs, opponents=None, players=players, dealer=dealer, version=version)
    obs, info = venv.reset(seed=seed)
    refs = [_aec(variant, players, seed + i, dealer, version) for i in range(n_envs)]
    pick = random_legal(np.random.default_rng(5))
    ended = further = 0
    lay = venv.enc.A_LAY
    coin = np.random.default_rng(9)
    for _ in range(steps):
        for i, ref in enumerate(refs):
            o, m = _aec_obs(ref)
            np.testing.assert_array_equal(obs[i], o)
            np.testing.assert_array_equal(info["action_mask"][i], m)
            assert info["to_act"][i] == ref.seat(ref.agent_selection)
        actions = pick(obs, info["action_mask"])
        masked_lay = np.flatnonzero(info["action_mask"][:, lay:].any(axis=1))
        if len(masked_lay):  # a further use where there is one: play it, half the time
            i = int(masked_lay[0])
            if coin.random() < 0.5:
                actions[i] = lay + int(np.flatnonzero(info["action_mask"][i, lay:])[0])
        further += int((actions >= lay).sum())
        last_agents = [ref.agent_selection for ref in refs]
        obs, rewards, term, trunc, info = venv.step(actions)
        assert rewards.shape == (n_envs, players) and not trunc.any()
        for i, ref in enumerate(refs):
            ref.step(int(actions[i]))
            if term[i]:
                ended += 1
                assert ref.deal is not None and ref.deal.over
                fo, _ = _aec_obs(ref, last_agents[i])
                np.testing.assert_array_equal(info["final_obs"][i], fo)
                scores = ref.deal.scores() or [0] * players
                np.testing.assert_array_equal(rewards[i], np.array(scores, dtype=np.float32))
                np.testing.assert_array_equal(info["final_info"]["scores"][i], scores)
                ref.reset(options={"dealer": dealer})  # the seed stream goes on, as the vector env's
            else:
                assert not rewards[i].any()
                assert ref.deal is not None and not ref.deal.over
    if not variant.startswith("cooncan"):
        assert ended > 0
    if version == 1 and variant.startswith("conquian") and variant != "conquian-mexicano":
        assert further > 0


def _opponent_reference(variant: str, players: int, seed: int, dealer: int, seat: int,
                        learner_actions: list[int]) -> list[tuple[np.ndarray, np.ndarray, float, bool]]:
    """The learner's observations through the AEC env, the other seats playing their lowest legal index."""
    env = _aec(variant, players, seed, dealer)
    out = []
    acts = iter(learner_actions)
    reward, done = 0.0, False
    while True:
        assert env.deal is not None
        while not env.deal.over and env.deal.to_act != seat:
            _, m = _aec_obs(env)
            env.step(int(m.argmax()))
        o, m = _aec_obs(env, f"player_{seat}")
        if env.deal.over:
            reward, done = float((env.deal.scores() or [0] * players)[seat - 1]), True
        out.append((o, m, reward, done))
        if done:
            return out
        a = next(acts, None)
        if a is None:
            return out
        env.step(a)


@pytest.mark.parametrize(("variant", "players"), PRESETS)
@pytest.mark.parametrize("seat", [1, 2])
def test_opponent_policies_match_the_aec_env(variant: str, players: int, seat: int) -> None:
    """One seat learns, a policy plays the others: the learner sees what the AEC env shows it."""
    n_envs, seed = 2, 3
    dealer = 3 if (variant == "conquian" and players == 3) else 1
    if dealer == seat:
        return
    venv = ConquianVectorEnv(variant, n_envs, opponents=first_legal, seat=seat, players=players, dealer=dealer)
    obs, info = venv.reset(seed=seed)
    pick = random_legal(np.random.default_rng(seat))
    history: list[list[tuple[Any, ...]]] = [[(obs[i].copy(), info["action_mask"][i].copy())] for i in range(n_envs)]
    actions_of: list[list[int]] = [[] for _ in range(n_envs)]
    finished: list[Any] = [None] * n_envs
    for _ in range(60 if variant.startswith("cooncan") else 120):
        actions = pick(obs, info["action_mask"])
        obs, rewards, term, _trunc, info = venv.step(actions)
        for i in range(n_envs):
            if finished[i] is not None:
                continue
            actions_of[i].append(int(actions[i]))
            if term[i]:
                finished[i] = (info["final_obs"][i], float(rewards[i]))
            else:
                history[i].append((obs[i].copy(), info["action_mask"][i].copy()))
    for i in range(n_envs):
        ref = _opponent_reference(variant, players, seed + i, dealer, seat, actions_of[i])
        for k, (o, m) in enumerate(history[i]):
            np.testing.assert_array_equal(o, ref[k][0])
            np.testing.assert_array_equal(m, ref[k][1])
        if finished[i] is not None:
            o, _, r, done = ref[len(history[i])]
            assert done
            np.testing.assert_array_equal(finished[i][0], o)
            assert finished[i][1] == r


def test_bots_and_random_opponents_play_whole_deals() -> None:
    for variant, players in [("conquian", 2), ("cooncan", 3), ("conquian-mexicano", 3)]:
        for opp in ("random", "foster"):
            env = ConquianVectorEnv(variant, 4, opponents=opp, players=players, seed=2)
            obs, info = env.reset()
            ends = 0
            for _ in range(150):
                assert info["action_mask"].any(axis=1).all()
                assert (info["to_act"] == 1).all()
                obs, _r, term, _trunc, info = env.step(first_legal(obs, info["action_mask"]))
                ends += int(term.sum())
            assert ends > 0


def test_seeds_reproduce_and_the_constructor_seed_serves_reset() -> None:
    def run(env: ConquianVectorEnv, seed: int | None) -> list[np.ndarray]:
        obs, info = env.reset(seed=seed)
        out = [obs.copy()]
        pick = random_legal(np.random.default_rng(0))
        for _ in range(80):
            obs, *_, info = env.step(pick(obs, info["action_mask"]))
            out.append(obs.copy())
        return out

    a = run(ConquianVectorEnv("conquian", 3), 7)
    b = run(ConquianVectorEnv("conquian", 3, seed=7), None)
    c = run(ConquianVectorEnv("conquian", 3), 8)
    assert all((x == y).all() for x, y in zip(a, b, strict=True))
    assert not all((x == y).all() for x, y in zip(a, c, strict=True))


def test_truncation_after_max_steps() -> None:
    for variant in ("conquian", "cooncan"):
        env = ConquianVectorEnv(variant, 3, opponents=None, max_steps=5, seed=1)
        obs, info = env.reset()
        for k in range(1, 11):
            obs, r, term, trunc, info = env.step(first_legal(obs, info["action_mask"]))
            assert not term.any()
            assert trunc.all() == (k % 5 == 0) and trunc.any() == (k % 5 == 0)
            if trunc.any():
                assert info["_final_obs"].all() and not r.any()
        single = ConquianVectorEnv(variant, 2, opponents="random", max_steps=4, seed=1)
        obs, info = single.reset()
        truncated = 0
        for _ in range(20):
            obs, r, term, trunc, info = single.step(first_legal(obs, info["action_mask"]))
            truncated += int(trunc.sum())
            assert max(single._steps) < 4  # the learner's actions and the opponents' count alike
        assert truncated > 0


def test_illegal_actions() -> None:
    env = ConquianVectorEnv("conquian", 2, seed=1)
    obs, info = env.reset()
    bad = np.array([int((info["action_mask"][i] == 0).argmax()) for i in range(2)])
    with pytest.raises(ValueError, match="not legal"):
        env.step(bad)
    env = ConquianVectorEnv("conquian", 2, seed=1, illegal_reward=-5.0)
    obs, info = env.reset()
    actions = first_legal(obs, info["action_mask"])
    actions[1] = int((info["action_mask"][1] == 0).argmax())
    obs, r, term, _trunc, info = env.step(actions)
    assert term[1] and r[1] == -5.0 and info["final_info"]["illegal"][1]
    assert not info["final_info"]["illegal"][0]


def test_state_is_every_seat_and_the_pack() -> None:
    env = ConquianVectorEnv("conquian", 2, opponents=None, seed=4)
    obs, _info = env.reset()
    state = env.state()
    assert state.shape == (2, env.state_size)
    d = env.obs_size
    for i, deal in enumerate(env.deals):
        seat = deal.to_act
        assert seat is not None
        np.testing.assert_array_equal(state[i, (seat - 1) * d: seat * d], obs[i])
        # both hands are in it, though each seat sees only its own
        assert state[i, 0:40].sum() + state[i, d:d + 40].sum() == 20


def test_gymnasium_vector_env() -> None:
    env = ConquianGymVectorEnv("conquian", 4, opponents="random", seed=3)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    wrapped = gymnasium.wrappers.vector.RecordEpisodeStatistics(env)
    obs, info = wrapped.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert env.action_space.sample().shape == (4,)
    episodes = 0
    for _ in range(200):
        obs, r, term, trunc, info = wrapped.step(first_legal(obs, env.action_masks()))
        assert env.observation_space.contains(obs)
        assert r.shape == (4,) and term.shape == (4,) and trunc.dtype == np.bool_
        if "episode" in info:
            episodes += int(info["_episode"].sum())
    assert episodes > 0
    with pytest.raises(ValueError):
        ConquianGymVectorEnv("conquian", 2, opponents=None)


def test_one_environment_is_the_gym_env_shape() -> None:
    single = ConquianGymEnv("conquian")
    env = ConquianVectorEnv("conquian", 1, seed=0)
    obs, info = env.reset()
    assert obs.shape[1:] == single.observation_space.shape
    assert info["action_mask"].shape[1] == single.action_space.n


@pytest.mark.parametrize(("variant", "players"), PRESETS)
def test_aec_state_and_truncation(variant: str, players: int) -> None:
    env = ConquianAEC(variant, players, max_steps=7)
    env.reset(seed=5)
    assert env.deal is not None
    s = env.state()
    assert env.state_space.contains(s)
    d = env.enc.obs_size
    for agent in env.agents:  # every seat's own observation is in the global state
        k = env.seat(agent)
        np.testing.assert_array_equal(s[(k - 1) * d: k * d], env.observe(agent)["observation"])
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and not term and reward == 0.0
            env.step(None)
            continue
        env.step(int(obs["action_mask"].nonzero()[0][0]))
        steps += 1
    assert steps == 7


def test_gym_state_and_truncation() -> None:
    env = ConquianGymEnv("conquian", opponents="random", max_steps=6)
    _obs, info = env.reset(seed=2)
    assert env.state().shape == (2 * 609 + 82,)
    for _ in range(10):
        _, reward, term, trunc, info = env.step(int(info["action_mask"].nonzero()[0][0]))
        assert env.deal is not None
        if term or trunc:
            break
    assert trunc and env.deal.n_actions >= 6 and reward == 0.0


@pytest.mark.parametrize(("variant", "players"), [("conquian", 2), ("conquian", 3), ("cooncan", 3),
                                                   ("conquian-mexicano", 3)])
def test_whole_match_episodes(variant: str, players: int) -> None:
    """Episodes of a whole match: each deal's observation as the AEC env's, the match's totals and
    tableau pool after it, rewards with the pool applied, the episode over when every seat dealt."""
    from conquian.engine.match import Match

    n_envs, seed, first, rounds = 2, 5, 2, 2
    venv = ConquianVectorEnv(variant, n_envs, opponents=None, players=players, dealer=first, episode="match",
                             rounds=rounds)
    obs, info = venv.reset(seed=seed)
    assert obs.shape == (n_envs, venv.deal_obs_size + 2 * players + 1)
    refs = [_aec(variant, players, seed + i, first) for i in range(n_envs)]
    books = [Match(refs[0].rules, first_dealer=first, rounds=rounds) for _ in range(n_envs)]
    played = [0] * n_envs
    pick = random_legal(np.random.default_rng(2))
    d0, matches = venv.deal_obs_size, 0
    for _ in range(150 if variant == "cooncan" else 600):
        for i, ref in enumerate(refs):
            o, m = _aec_obs(ref)
            np.testing.assert_array_equal(obs[i, :d0], o)
            np.testing.assert_array_equal(info["action_mask"][i], m)
            seat = ref.seat(ref.agent_selection)
            order = [(seat - 1 + j) % players for j in range(players)]
            totals = [sum(r[s] for r in books[i].results) for s in range(players)]
            np.testing.assert_array_equal(obs[i, d0:d0 + players], [totals[s] for s in order])
            np.testing.assert_array_equal(obs[i, d0 + players:d0 + 2 * players], [books[i].owed[s] for s in order])
            assert obs[i, -1] == np.float32(played[i] / (rounds * players))
        actions = pick(obs, info["action_mask"])
        obs, rewards, term, _trunc, info = venv.step(actions)
        for i, ref in enumerate(refs):
            ref.step(int(actions[i]))
            assert ref.deal is not None
            if not ref.deal.over:
                assert not rewards[i].any() and not term[i]
                continue
            scores = books[i].score_deal(ref.deal)
            books[i].results.append(scores)
            played[i] += 1
            np.testing.assert_array_equal(rewards[i], np.array(scores, dtype=np.float32))
            if played[i] == rounds * players:
                assert term[i]
                np.testing.assert_array_equal(info["final_info"]["scores"][i],
                                              [sum(r[s] for r in books[i].results) for s in range(players)])
                matches += 1
                books[i] = Match(ref.rules, first_dealer=first, rounds=rounds)
                played[i] = 0
                ref.reset(options={"dealer": first})
            else:
                assert not term[i]
                ref.reset(options={"dealer": ref.deal.dealer % players + 1})
    if variant != "cooncan":
        assert matches > 0


def test_whole_match_with_a_learner() -> None:
    env = ConquianGymVectorEnv("conquian", 3, opponents="random", players=3, episode="match", seed=1)
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    total, ends = np.zeros(3), 0
    for _ in range(400):
        obs, r, term, _trunc, info = env.step(first_legal(obs, env.action_masks()))
        total += r
        for i in np.flatnonzero(term):
            assert total[i] == info["final_info"]["scores"][i][0]
            total[i], ends = 0, ends + 1
    assert ends > 0


def test_decks_shuffled_at_once_are_the_engines() -> None:
    from conquian import get_rules
    from conquian.engine.deck import seeded_deck
    from conquian.envs.vector import shuffled_decks

    rng = np.random.default_rng(3)
    seeds = [0, 1, 2**64 - 1, *(int(x) for x in rng.integers(0, 2**63, 200))]
    for variant, players in PRESETS:
        rules = get_rules(variant, players=players)
        assert shuffled_decks(rules, seeds) == [seeded_deck(rules, s) for s in seeds]


@pytest.mark.parametrize(("variant", "players"), [("conquian", 2), ("conquian", 3), ("conquian-mexicano", 2)])
def test_aec_whole_match_is_the_vector_envs(variant: str, players: int) -> None:
    """The AEC environment's whole-match episodes: the batched environment's arrays, rewards and ends."""
    seed, first = 4, 1
    venv = ConquianVectorEnv(variant, 1, opponents=None, players=players, dealer=first, episode="match")
    obs, info = venv.reset(seed=seed)
    env = ConquianAEC(variant, players, episode="match")
    env.reset(seed=seed, options={"dealer": first})
    assert env.observation_space("player_1")["observation"].shape == obs.shape[1:]
    pick = random_legal(np.random.default_rng(1))
    matches = 0
    for _ in range(500):
        o = env.observe(env.agent_selection)
        np.testing.assert_array_equal(o["observation"], obs[0])
        np.testing.assert_array_equal(o["action_mask"], info["action_mask"][0])
        action = pick(obs, info["action_mask"])
        obs, rewards, term, _, info = venv.step(action)
        env.step(int(action[0]))
        for agent in env.possible_agents:
            assert env.rewards[agent] == rewards[0][env.seat(agent) - 1]
        if term[0]:
            assert all(env.terminations.values())
            matches += 1
            env.reset(options={"dealer": first})
        else:
            assert not any(env.terminations.values())
    assert matches > 0


@pytest.mark.parametrize("kw", [{"max_steps": 12}, {"episode": "match"}, {"episode": "match", "players": 3}])
def test_pettingzoo_api_with_the_new_options(kw: dict[str, Any]) -> None:
    import warnings

    from pettingzoo.test import api_test, seed_test

    from conquian.envs import conquian_v1

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(conquian_v1.env(**kw), num_cycles=300)
        seed_test(lambda: conquian_v1.env(**kw), num_cycles=100)


def test_a_seed_per_environment() -> None:
    env = ConquianVectorEnv("conquian", 3, opponents=None)
    a, _ = env.reset(seed=[10, 11, 12])
    a = a.copy()
    b, _ = env.reset(seed=10)
    np.testing.assert_array_equal(a, b)
    c, _ = env.reset(seed=[12, 11, 10])
    np.testing.assert_array_equal(a[::-1], c)
    with pytest.raises(ValueError, match="one seed per environment"):
        env.reset(seed=[1, 2])
    gym_env = ConquianGymVectorEnv("conquian", 2, seed=0)
    obs, _ = gym_env.reset(seed=[5, 6])
    assert obs.shape == (2, 609)
