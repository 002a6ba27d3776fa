"""PettingZoo AEC environments: one episode is one deal of a preset.

Agents are ``player_1`` .. ``player_N`` (the seats).  Each observation is a dict with
``observation`` (the seat's view, encoded as :mod:`conquian.envs.encoding` documents) and
``action_mask``; actions are indices of the fixed discrete space of the preset (``version``: the
action space's, 1 by default; the ``*_v0`` modules make version 0's).  Rewards are
the deal's real scores at its end (games or pips, as the options say), zero before; no
shaping.  ``reset(seed=...)`` reproduces the deck.  ``max_steps`` truncates a deal after that
many actions (every seat's; zero rewards).  ``state()`` is the full state for centralised critics
(:mod:`conquian.envs.state`).  ``episode="match"`` makes an episode a whole match of ``rounds``
rounds (the first dealer drawn, or ``options={"dealer": d}``): each deal's rewards as the match
scores it (the conquian tableau pool applied), every seat an agent throughout, and the
observation followed by the match's running totals, the pool and its progress
(:func:`conquian.envs.state.match_features`).  At a three-seat conquian table the dealer
sits out (R6.3): he is not among the agents of that episode.

The dealer: each ``reset`` draws him uniformly among the seats (the cut, R6.1), from the seed and
apart from the deck, unless ``options={"dealer": d}`` names him; in a match the deal then passes
in turn (R3.8, R4.3).  So every seat deals, and every seat plays, as often as any other
(``docs/research.md``: the same rule in every environment).

```pycon
>>> from conquian.envs import conquian_v1
>>> env = conquian_v1.env()
>>> env.reset(seed=3)
>>> obs, reward, term, trunc, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) == len(env.unwrapped.deal.legal_actions())
((609,), True)
>>> while env.agents:
...     obs, reward, term, trunc, info = env.last()
...     env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))

```
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, unused-ignore]

from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.view import ConquianView
from conquian.engine.deck import SplitMix64
from conquian.engine.match import Deal, Match, new_deal
from conquian.engine.rules import get_rules
from conquian.envs.encoding import LATEST, Encoding, Obs, Public, encoding
from conquian.envs.state import check_episode, global_state, match_features, state_size

_SEATS = {f"player_{i}": i for i in range(1, 8)}


class ConquianAEC(AECEnv):  # type: ignore[misc, unused-ignore]
    """One deal of a preset as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi", "human"], "name": "conquian_v1", "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, variant: str = "conquian", players: int | None = None, render_mode: str | None = None,
                 name: str | None = None, max_steps: int | None = None, episode: str = "deal", rounds: int = 1,
                 version: int = LATEST, **options: Any) -> None:
        super().__init__()
        check_episode(episode, rounds, max_steps)
        self.episode, self.rounds = episode, rounds
        self.match: Match | None = None
        self.max_steps = max_steps
        opts = dict(options)
        if players is not None:
            opts["players"] = players
        self.rules = get_rules(variant, **opts)
        self.enc: Encoding = encoding(self.rules, version)
        self.version = version
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=name or f"{variant.replace('-', '_')}_v{version}")
        n = self.rules.players
        self.possible_agents = [f"player_{i}" for i in range(1, n + 1)]
        size = self.enc.obs_size + (2 * n + 1 if episode == "match" else 0)
        low, high = (-np.inf, np.inf) if episode == "match" else (0.0, 2.0)
        obs_space = spaces.Dict({
            "observation": spaces.Box(low, high, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(self.enc.n_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.enc.n_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(0.0, 8.0, shape=(state_size(self.enc),), dtype=np.float32)
        self._seeds = SplitMix64(random.SystemRandom().getrandbits(63))
        self._cut = random.Random(random.SystemRandom().getrandbits(63))  # draws the dealers, apart from the decks
        self.deal: Deal | None = None
        self.public = Public()
        self._view: Any = None
        self._listed: dict[int, Any] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @staticmethod
    def seat(agent: str) -> int:
        """The seat number of an agent name."""
        return int(agent.rsplit("_", 1)[1])

    # ------------------------------------------------------------------ the episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = SplitMix64(seed)
            self._cut = random.Random(seed * 2 + 1)
        deal_seed = self._seeds.next64()
        n = self.rules.players
        dealer = (options or {}).get("dealer")
        if dealer is None:
            dealer = self._cut.randint(1, n)  # the cut for the deal (R6.1): every seat alike
        elif not (type(dealer) is int and 1 <= dealer <= n):
            raise ValueError(f"dealer must be a seat from 1 to {n}, not {dealer!r}")
        if self.episode == "match":
            self.match = Match(self.rules, first_dealer=dealer, rounds=self.rounds)
            self.deal = self.match.new_deal(seed=deal_seed)
        else:
            self.deal = new_deal(self.rules, seed=deal_seed, dealer=dealer)
        self.public = Public()
        self._fold()
        if isinstance(self.deal, ConquianDeal) and self.match is None:
            self.agents = [f"player_{s}" for s in sorted(self.deal.seats)]
        else:
            self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = f"player_{self.deal.to_act}"
        self._refresh()

    def _fold(self) -> None:
        deal = self.deal
        assert deal is not None
        self.enc.fold(self.public, deal)

    def _refresh(self) -> None:
        """The view and the listed actions of the seat to act, made once per state."""
        deal = self.deal
        assert deal is not None
        if deal.over:
            self._view, self._listed = None, {}
            return
        self._view = deal.view(deal.to_act or 1)
        self._listed = self.enc.listed(self._view)

    def observe(self, agent: str) -> dict[str, Any]:
        deal = self.deal
        assert deal is not None
        seat = _SEATS.get(agent) or self.seat(agent)
        view = self._view
        mask = np.zeros(self.enc.n_actions, dtype=np.int8)
        if view is not None and view.seat == seat:
            mask[list(self._listed)] = 1
        else:
            view = deal.view(seat)
        if isinstance(view, ConquianView) and view.sitting_out:
            obs: Obs = np.zeros(self.enc.obs_size, dtype=np.float32)  # a match's deal this seat deals
        else:
            obs = self.enc.observe(view, self.public)
        if self.match is not None:
            obs = np.concatenate([obs, np.asarray(match_features(self.match, seat), dtype=np.float32)])
        return {"observation": obs, "action_mask": mask}

    def state(self) -> Obs:
        """The full state of the deal, hidden cards included, for centralised critics only (never a
        seat's observation): every seat's observation and the pack (:mod:`conquian.envs.state`)."""
        assert self.deal is not None, "call reset() first"
        return global_state(self.enc, self.deal, self.public)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        deal = self.deal
        assert deal is not None
        raw = self._listed.get(action) if isinstance(action, int | np.integer) else None
        if raw is None:
            raise ValueError(f"action {action!r} is not legal now (see the action mask)")
        self._cumulative_rewards[agent] = 0.0
        deal.apply_raw(*raw)  # the listed raw action: the engine's own fast path
        self._fold()
        rewards = self.rewards
        for a in self.agents:
            rewards[a] = 0.0
        if deal.over and self.match is not None:
            # a whole match: the deal scored as the match keeps it (the tableau pool applied, R5.1)
            self.match.settle()
            scores = self.match.results[-1]
            for a in self.agents:
                rewards[a] = float(scores[self.seat(a) - 1])
            if self.match.complete:
                for a in self.agents:
                    self.terminations[a] = True
                    self.infos[a] = {"scores": list(self.match.totals)}
                self._refresh()
            else:
                self.deal = self.match.new_deal(seed=self._seeds.next64())
                self.public = Public()
                self._fold()
                self.agent_selection = f"player_{self.deal.to_act}"
                self._refresh()
        elif deal.over:
            scores = deal.scores() or [0] * self.rules.players
            for a in self.agents:
                rewards[a] = float(scores[self.seat(a) - 1])
                self.terminations[a] = True
                self.infos[a] = {"scores": list(scores)}
            self._refresh()
        elif self.max_steps is not None and deal.n_actions >= self.max_steps:
            for a in self.agents:  # the deal goes no further: truncated, nobody scores
                self.truncations[a] = True
            self._view, self._listed = None, {}
        else:
            self.agent_selection = f"player_{deal.to_act}"
            self._refresh()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The whole deal as text, what an observer of the experiment sees: returned (``ansi``) or
        printed to the terminal (``human``)."""
        if self.render_mode is None or self.deal is None:
            return None
        text = str(self.deal)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        pass


#: The reward of an illegal action in the wrapped ``env`` (PettingZoo's own convention) unless
#: ``illegal_reward`` says otherwise.
ILLEGAL_REWARD = -1.0


def make_env(variant: str, name: str, version: int = LATEST) -> Any:
    """The ``env`` and ``raw_env`` constructors of one preset, in version ``version`` of the action
    space (``docs/encodings.md``).

    ``env`` wraps ``raw_env`` in PettingZoo's usual wrappers: an illegal action ends the episode,
    the seat that played it rewarded ``illegal_reward`` (-1 by default; under pip scoring, where a
    deal's score runs to hundreds, a larger penalty such as -200 may suit) and the others 0.
    ``raw_env`` refuses an illegal action with ``ValueError``."""

    def raw_env(players: int | None = None, render_mode: str | None = None, **options: Any) -> ConquianAEC:
        return ConquianAEC(variant, players, render_mode, name, version=version, **options)

    def env(players: int | None = None, render_mode: str | None = None,
            illegal_reward: float = ILLEGAL_REWARD, **options: Any) -> AECEnv:
        from pettingzoo.utils import wrappers  # type: ignore[import-untyped, unused-ignore]

        e: AECEnv = raw_env(players, render_mode, **options)
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
        e = wrappers.AssertOutOfBoundsWrapper(e)
        return wrappers.OrderEnforcingWrapper(e)

    return env, raw_env

