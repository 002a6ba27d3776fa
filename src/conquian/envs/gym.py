"""A single-agent Gymnasium environment: one seat learns, bots named by the caller play the others.

One episode is one deal.  The observation is the seat's encoded view (``docs/encodings.md``);
the mask of legal actions is in ``info["action_mask"]`` and from :meth:`action_masks` (the
method sb3-contrib's ``MaskablePPO`` calls).  The reward is the seat's score for the deal at its
end, zero before.  A masked index ends the episode with ``illegal_reward``.  ``max_steps``
truncates a deal after that many actions (every seat's); ``state()`` is the full state for
centralised critics (:mod:`conquian.envs.state`).

```pycon
>>> env = ConquianGymEnv("conquian", opponents="random")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["action_mask"].dtype
((609,), dtype('int8'))
>>> done = False
>>> while not done:
...     action = int(info["action_mask"].nonzero()[0][0])
...     obs, reward, terminated, truncated, info = env.step(action)
...     done = terminated or truncated

```
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.match import Deal, new_deal
from conquian.engine.rules import CONQUIAN, get_rules
from conquian.envs.encoding import Mask, Obs, Public, encoding
from conquian.envs.state import global_state


class ConquianGymEnv(gymnasium.Env[Obs, np.int64]):
    """One deal of a preset, from seat ``seat``'s side, against ``opponents`` (a bot name or a
    policy for every other seat, or one for all: a policy is any callable ``(obs, mask) ->
    actions`` on stacked observations and masks, see :mod:`conquian.envs.league`)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's own attribute)

    def __init__(self, variant: str = "conquian", opponents: Any = "random", seat: int = 1,
                 players: int | None = None, illegal_reward: float = -1.0, render_mode: str | None = None,
                 max_steps: int | None = None, **options: Any) -> None:
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, not {max_steps!r}")
        self.max_steps = max_steps
        opts = dict(options)
        if players is not None:
            opts["players"] = players
        self.rules = get_rules(variant, **opts)
        n = self.rules.players
        if not 1 <= seat <= n:
            raise ValueError(f"seat must be from 1 to {n}, not {seat!r}")
        self.seat = seat
        others = [s for s in range(1, n + 1) if s != seat]
        names = [opponents] * len(others) if isinstance(opponents, str) or callable(opponents) else list(opponents)
        if len(names) != len(others):
            raise ValueError(f"name {len(others)} opponents, one per other seat, not {len(names)}")
        self.opponent_names: dict[int, Any] = dict(zip(others, names, strict=True))
        self.bots: dict[int, Any] = {}
        self.enc = encoding(self.rules)
        self.illegal_reward = illegal_reward
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 2.0, shape=(self.enc.obs_size,), dtype=np.float32)
        self.action_space = spaces.Discrete(self.enc.n_actions)
        self.deal: Deal | None = None
        self.public = Public()
        self._rng = random.Random()
        self._random = random.Random()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(0, 2**62)))
        n = self.rules.players
        if self.rules.family == CONQUIAN and n == 3:
            dealer = self._rng.choice([s for s in range(1, 4) if s != self.seat])  # the learner holds cards
        else:
            dealer = self._rng.randint(1, n)
        self.deal = new_deal(self.rules, seed=self._rng.getrandbits(63), dealer=dealer)
        from conquian.envs.league import make_player

        self.bots = {s: make_player(name, self.rules, seed=self._rng.getrandbits(32))
                     for s, name in self.opponent_names.items()}
        self._random = random.Random(self._rng.getrandbits(32))
        self.public = Public()
        self._advance(limit=False)
        return self._obs(), self._info()

    def _fold(self) -> None:
        deal = self.deal
        assert deal is not None
        self.enc.fold(self.public, deal)

    def _advance(self, limit: bool = True) -> None:
        """Let the bots play until the learner is to act or the deal is over (or, with ``limit``,
        has reached ``max_steps`` actions: never before the learner's first decision)."""
        deal = self.deal
        assert deal is not None
        while not deal.over and deal.to_act != self.seat and not (limit and self._truncated()):
            s = deal.to_act
            assert s is not None
            if isinstance(deal, MexicanoDeal) and self.opponent_names[s] == "random":
                # R8: uniform over the seat's listed legal actions, as the random bot chooses
                deal.apply_raw(*deal.random_raw(self._random.random))
                continue
            # a bot is handed the seat's view; one that does not play R8 yet refuses a mexicano view
            bot: Any = self.bots[s]
            deal.play(bot.choose(deal.view(s)))
        self._fold()

    def _truncated(self) -> bool:
        """Whether the deal has reached ``max_steps`` actions (every seat's)."""
        return self.max_steps is not None and self.deal is not None and self.deal.n_actions >= self.max_steps

    def state(self) -> Obs:
        """The full state of the deal, hidden cards included, for centralised critics only (never the
        learner's observation): every seat's observation and the pack (:mod:`conquian.envs.state`)."""
        assert self.deal is not None, "call reset() first"
        return global_state(self.enc, self.deal, self.public)

    def _obs(self) -> Obs:
        assert self.deal is not None
        return self.enc.observe(self.deal.view(self.seat), self.public)

    def action_masks(self) -> Mask:
        """The legal actions of the learner now (all zero once the deal is over)."""
        assert self.deal is not None
        if self.deal.over:
            return np.zeros(self.enc.n_actions, dtype=np.int8)
        return self.enc.mask(self.deal.view(self.seat))

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        deal = self.deal
        assert deal is not None, "call reset() first"
        try:
            chosen = self.enc.action(int(action), deal.view(self.seat))
        except ValueError:
            info = self._info() | {"illegal": True}
            return self._obs(), self.illegal_reward, True, False, info
        deal.play(chosen)
        self._fold()
        self._advance()
        if deal.over:
            scores = deal.scores() or [0] * self.rules.players
            return self._obs(), float(scores[self.seat - 1]), True, False, self._info() | {"scores": list(scores)}
        return self._obs(), 0.0, False, self._truncated(), self._info()

    def render(self) -> str | None:
        if self.render_mode is None or self.deal is None:
            return None
        return str(self.deal)
