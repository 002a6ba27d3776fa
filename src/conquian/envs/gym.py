"""A single-agent Gymnasium environment: one seat learns, bots named by the caller play the others.

One episode is one deal.  The observation is the seat's encoded view (``docs/encodings.md``;
``version`` chooses the action space, 1 by default, 0 the first one's);
the mask of legal actions is in ``info["action_mask"]`` and from :meth:`action_masks` (the
method sb3-contrib's ``MaskablePPO`` calls).  The reward is the seat's score for the deal at its
end, zero before.  A masked index ends the episode with ``illegal_reward``.  ``max_steps``
truncates a deal after that many actions (every seat's); ``state()`` is the full state for
centralised critics (:mod:`conquian.envs.state`).  Each deal's dealer is drawn from the seed
among the seats (R6.1; at a three-seat conquian table among the others, the dealer sitting out,
R6.3), or named by ``reset(options={"dealer": d})``: the rule of every environment
(``docs/research.md``).

``episode="match"`` makes an episode a whole match (:class:`~conquian.engine.match.Match`) of
``rounds`` rounds, every seat dealing once a round (``reset(options={"dealer": d})``: the first
dealer): each deal's reward is the seat's score as the match keeps it, the conquian tableau
pool applied (R5.1: a tableau pays nothing, the next winner takes the counters owed), and the
episode ends after the match's last deal, ``info["scores"]`` then the match's totals.  The
observation is the deal's followed by ``2 x players + 1`` floats
(:func:`~conquian.envs.state.match_features`): every seat's running total and the counters it
owes to the pool, from the learner round the table, then the share of the match played.  At a
three-seat conquian table the learner sits out the deals it deals (the bots play them; their
score comes with its next step); its match starts with its own deal, so that it never ends on
one.  ``max_steps`` then counts the match's actions.

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

from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.match import Deal, Match, new_deal
from conquian.engine.rules import CONQUIAN, get_rules
from conquian.envs.encoding import LATEST, Mask, Obs, Public, encoding
from conquian.envs.state import check_episode, global_state, match_features


class ConquianGymEnv(gymnasium.Env[Obs, np.int64]):
    """One deal of a preset, from seat ``seat``'s side, against ``opponents`` (a bot name or a
    policy for every other seat, or one for all: a policy is any callable ``(obs, mask) ->
    actions`` on stacked observations and masks, see :mod:`conquian.envs.league`)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's own attribute)

    def __init__(self, variant: str = "conquian", opponents: Any = "random", seat: int = 1,
                 players: int | None = None, illegal_reward: float = -1.0, render_mode: str | None = None,
                 max_steps: int | None = None, episode: str = "deal", rounds: int = 1, version: int = LATEST,
                 **options: Any) -> None:
        check_episode(episode, rounds, max_steps)
        self.episode, self.rounds = episode, rounds
        self.match: Match | None = None
        self._before = 0  # a match's actions in its earlier deals
        self._pending = 0.0  # the learner's scores of deals it sat out, paid with its next step
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
        self.enc = encoding(self.rules, version)
        self.version = version
        self.illegal_reward = illegal_reward
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        if episode == "match":
            self.observation_space = spaces.Box(-np.inf, np.inf, shape=(self.enc.obs_size + 2 * n + 1,),
                                                dtype=np.float32)
        else:
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
        three = self.rules.family == CONQUIAN and n == 3
        given = (options or {}).get("dealer")
        if given is not None and not (type(given) is int and 1 <= given <= n):
            raise ValueError(f"dealer must be a seat from 1 to {n}, not {given!r}")
        if self.episode == "match":
            first = self.seat if three else given if given is not None else self._rng.randint(1, n)
            self.match = Match(self.rules, first_dealer=first, rounds=self.rounds)
            self.deal = self.match.new_deal(seed=self._rng.getrandbits(63))
        else:
            if three:
                dealer = self._rng.choice([s for s in range(1, 4) if s != self.seat])  # the learner holds cards
                if given is not None:
                    if given == self.seat:
                        raise ValueError("at a three-seat conquian table the dealer sits out: the learner cannot deal")
                    dealer = given
            else:
                dealer = given if given is not None else self._rng.randint(1, n)
            self.deal = new_deal(self.rules, seed=self._rng.getrandbits(63), dealer=dealer)
        from conquian.envs.league import make_player

        self.bots = {s: make_player(name, self.rules, seed=self._rng.getrandbits(32), version=self.version)
                     for s, name in self.opponent_names.items()}
        self._random = random.Random(self._rng.getrandbits(32))
        self.public = Public()
        self._before, self._pending = 0, 0.0
        self._advance(limit=False, fresh=True)
        return self._obs(), self._info()

    def _fold(self) -> None:
        deal = self.deal
        assert deal is not None
        self.enc.fold(self.public, deal)

    def _advance(self, limit: bool = True, fresh: bool = False) -> None:
        """Let the bots play until the learner is to act or the deal is over (or, with ``limit``,
        has reached ``max_steps`` actions: never before the learner's first decision)."""
        if self.match is not None:
            self._advance_match(limit, fresh)
            return
        deal = self.deal
        assert deal is not None
        self._play_bots(deal, limit)
        self._fold()

    def _advance_match(self, limit: bool, fresh: bool) -> None:
        """A whole match: the bots play on until the learner is to act or its deal is over.  A
        deal that ends without a decision of the learner (one it deals at a three-seat conquian
        table; with ``fresh``, the current one too) is settled, its score kept for the learner's
        next step, and the next one dealt."""
        match = self.match
        assert match is not None
        while True:
            deal = self.deal
            assert deal is not None
            self._play_bots(deal, limit)
            self._fold()
            if not deal.over or (limit and self._truncated()):
                return
            sat_out = isinstance(deal, ConquianDeal) and self.seat not in deal.seats
            if not (fresh or sat_out):
                return
            match.settle()
            self._pending += match.results[-1][self.seat - 1]
            if match.complete:
                raise RuntimeError("a match ended without a decision of the learner")
            self._next_deal()
            fresh = True

    def _next_deal(self) -> None:
        """The match's next deal (the last one over and settled)."""
        match, deal = self.match, self.deal
        assert match is not None and deal is not None
        self._before += deal.n_actions
        self.deal = match.new_deal(seed=self._rng.getrandbits(63))
        self.public = Public()

    def _play_bots(self, deal: Deal, limit: bool) -> None:
        """The bots' moves until the learner is to act or ``deal`` is over (or truncated)."""
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

    def _truncated(self) -> bool:
        """Whether the deal (a match: the match) has reached ``max_steps`` actions (every seat's)."""
        return self.max_steps is not None and self.deal is not None and \
            self._before + self.deal.n_actions >= self.max_steps

    def state(self) -> Obs:
        """The full state of the deal, hidden cards included, for centralised critics only (never the
        learner's observation): every seat's observation and the pack (:mod:`conquian.envs.state`)."""
        assert self.deal is not None, "call reset() first"
        return global_state(self.enc, self.deal, self.public)

    def _obs(self) -> Obs:
        assert self.deal is not None
        obs = self.enc.observe(self.deal.view(self.seat), self.public)
        if self.match is None:
            return obs
        return np.concatenate([obs, np.asarray(match_features(self.match, self.seat), dtype=np.float32)])

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
        if self.match is not None:
            return self._step_match()
        if deal.over:
            scores = deal.scores() or [0] * self.rules.players
            return self._obs(), float(scores[self.seat - 1]), True, False, self._info() | {"scores": list(scores)}
        return self._obs(), 0.0, False, self._truncated(), self._info()

    def _step_match(self) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """A whole match's step: the deal's score as the match keeps it when it ends, and the next
        deal dealt unless the match is over."""
        match, deal = self.match, self.deal
        assert match is not None and deal is not None
        reward, self._pending = self._pending, 0.0
        if deal.over:
            match.settle()
            reward += match.results[-1][self.seat - 1]
            if match.complete:
                return self._obs(), float(reward), True, False, self._info() | {"scores": list(match.totals)}
            self._next_deal()
            self._advance(fresh=True)
            reward, self._pending = reward + self._pending, 0.0
        return self._obs(), float(reward), False, self._truncated(), self._info()

    def render(self) -> str | None:
        if self.render_mode is None or self.deal is None:
            return None
        return str(self.deal)
