"""A batched environment: ``num_envs`` deals stepped at once, numpy arrays in and out.

:class:`ConquianVectorEnv` holds ``num_envs`` deals of one preset (conquian, the conquián
mexicano, Cooncan, double-pack Cooncan, with their R1 options) and steps them all with one
array of action indices.  Observations and masks are exactly those of
:mod:`conquian.envs.encoding` (the same arrays as :mod:`conquian.envs.aec` and
:mod:`conquian.envs.gym` give for the same deal and the same actions), written into arrays
allocated once; an episode that ends is started again at once (autoreset, Gymnasium's
*same-step* mode: the last observation of the finished deal is in ``info["final_obs"]``).

Two ways to play:

- ``opponents`` given (the default, ``"random"``): one seat learns (``seat``) in every deal;
  the other seats are played inside the environment by bots named by the caller, or by
  *policies*, any callable ``policy(obs, mask) -> actions`` on stacked observations and masks
  (a learned network plugs in without registering a bot class).  Rewards have shape
  ``(num_envs,)``.  :class:`conquian.envs.gym_vector.ConquianGymVectorEnv` is this mode as a
  ``gymnasium.vector.VectorEnv``.
- ``opponents=None``: self-play.  The caller chooses for whichever seat is to act in each deal;
  the observation and mask are that seat's, ``info["to_act"]`` names it, and rewards have
  shape ``(num_envs, players)`` (every seat's reward at that step).

```pycon
>>> import numpy as np
>>> env = ConquianVectorEnv("conquian", num_envs=4, opponents="random", seed=1)
>>> obs, info = env.reset(seed=1)
>>> obs.shape, info["action_mask"].shape, obs.dtype
((4, 609), (4, 1299), dtype('float32'))
>>> for _ in range(100):
...     actions = first_legal(obs, info["action_mask"])
...     obs, rewards, terminated, truncated, info = env.step(actions)
>>> rewards.shape, terminated.dtype, bool(info["action_mask"].any(axis=1).all())
((4,), dtype('bool'), True)

```

Deals are seeded as the single environments seed them: after ``reset(seed=s)`` the deals of
environment ``i`` are those of ``conquian_v1.raw_env().reset(seed=s + i)`` and its following
``reset()`` calls (``dealer`` fixed or drawn apart from the decks).  ``max_steps`` truncates a
deal after that many actions (every seat's); ``state()`` gives the full state of every deal for
centralised critics (:mod:`conquian.envs.state`, never handed to a seat as its observation).

``episode="match"`` makes an episode a whole match (:class:`~conquian.engine.match.Match`):
``rounds`` rounds of deals, every seat dealing once a round, the deal passing to the left.
Each deal's reward is its score with the conquian tableau pool applied (R5.1: a tableau pays
nothing, and the next winner takes the counters owed), the episode ends after the match's
last deal, and the observation is the deal's followed by ``2 x players + 1`` floats: every
seat's running total and the counters it owes to the pool, in the order of play from the
observing seat, then the share of the match's deals already played.  At a three-seat conquian
table the learner sits out the deals it deals (its reward for them comes with its next step);
its match starts with its own deal, so that the match never ends on one.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.melds import meld_table
from conquian.engine.deck import SplitMix64
from conquian.engine.match import Deal, Match, new_deal
from conquian.engine.rules import CONQUIAN, COONCAN, get_rules
from conquian.envs.decks import shuffled_decks
from conquian.envs.encoding import LATEST, Encoding, Mask, Obs, Public, encoding
from conquian.envs.state import check_episode, global_state, state_size
from conquian.envs.vector_step import Opponent as Opponent
from conquian.envs.vector_step import Policy as Policy
from conquian.envs.vector_step import VectorSteps

#: How many decks an environment has shuffled ahead at a time.
_AHEAD = 16


def first_legal(obs: Obs, mask: Mask) -> npt.NDArray[np.int64]:
    """A policy that plays the lowest legal index of every row (deterministic, for tests and examples)."""
    return np.asarray(mask.argmax(axis=1), dtype=np.int64)


def random_legal(rng: np.random.Generator | None = None) -> Policy:
    """A policy that plays a legal index of every row uniformly at random (every row must have one)."""
    gen = rng if rng is not None else np.random.default_rng()

    def policy(obs: Obs, mask: Mask) -> npt.NDArray[np.int64]:
        b, a = mask.shape
        flat = np.ascontiguousarray(mask).reshape(-1)
        legal = np.flatnonzero(flat.view(np.bool_) if flat.dtype.itemsize == 1 else flat)  # row by row, ascending
        counts = np.bincount(legal // a, minlength=b)
        starts = np.cumsum(counts) - counts
        pick = starts + (gen.random(b) * counts).astype(np.int64)
        return np.asarray(legal[pick] % a, dtype=np.int64)

    return policy


class ConquianVectorEnv(VectorSteps):
    """``num_envs`` deals of one preset stepped together (see the module's documentation).

    ``opponents``: ``None`` for self-play, else a bot name or a policy for every other seat, or
    one per other seat in seat order.  ``seat``: the learner's seat.  ``dealer``: a seat number
    for every deal, or ``None`` to draw it for each deal (never the learner at a three-seat
    conquian table, where the dealer sits out).  ``max_steps``: truncate a deal after that many
    actions (in a match: the match's actions).  ``illegal_reward``: ``None`` raises
    ``ValueError`` on a masked action; a number ends that episode instead, the offending seat
    rewarded with it.  ``episode``: ``"deal"`` or ``"match"`` (then ``rounds`` rounds, ``dealer``
    the first dealer).  ``version``: the action space's (``docs/encodings.md``; 1 by default, 0 the
    ``*_v0`` environments').

    ``copy`` (Gymnasium's convention, on by default): every call returns arrays of its own.  With
    ``copy=False`` the observations, masks, rewards and flags are the environment's own buffers,
    written again by the next call (the fastest, for a loop that uses each step's arrays before
    the next step).  ``autoreset_mode`` (:class:`gymnasium.vector.AutoresetMode` or its name):
    ``SAME_STEP`` (the default) starts a finished episode again in the step that ends it, its last
    observation in ``info["final_obs"]``; ``NEXT_STEP`` returns the last observation in ``obs``
    (its mask all zero: no action is legal in a finished deal) and starts the episode again at the
    next step, which ignores that environment's action and rewards it 0; ``DISABLED`` leaves a
    finished environment alone until ``reset(options={"reset_mask": m})`` starts it again (stepping
    it before raises ``ValueError``).  In the last two modes the arrays returned are always new.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (the default; an instance's own)

    def __init__(self, variant: str = "conquian", num_envs: int = 16, *, opponents: Opponent | Sequence[Opponent]
                 | None = "random", seat: int = 1, players: int | None = None, seed: int | None = None,
                 dealer: int | None = None, max_steps: int | None = None, illegal_reward: float | None = None,
                 episode: str = "deal", rounds: int = 1, version: int = LATEST, copy: bool = True,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP, **options: Any) -> None:
        opts = dict(options)
        self.copy = copy
        self.autoreset_mode = _autoreset_mode(autoreset_mode)
        self.metadata = {"autoreset_mode": self.autoreset_mode}
        #: NEXT_STEP and DISABLED: the environments whose episode ended, with their last observation
        #: (the next episode already started behind it, shown at the next step or reset)
        self._held: dict[int, Obs] = {}
        check_episode(episode, rounds, max_steps)
        self.episode = episode
        self.match_mode = episode == "match"
        self.rounds = rounds
        if players is not None:
            opts["players"] = players
        self.variant = variant
        self.rules = get_rules(variant, **opts)
        self.enc: Encoding = encoding(self.rules, version)
        self.version = version
        n = self.players = self.rules.players
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs!r}")
        self.num_envs = num_envs
        self.self_play = opponents is None
        if not 1 <= seat <= n:
            raise ValueError(f"seat must be from 1 to {n}, not {seat!r}")
        self.seat = seat
        self.opponents: dict[int, Opponent] = {}
        if opponents is not None:
            others = [s for s in range(1, n + 1) if s != seat]
            names = [opponents] * len(others) if isinstance(opponents, str) or callable(opponents) else list(opponents)
            if len(names) != len(others):
                raise ValueError(f"name {len(others)} opponents, one per other seat, not {len(names)}")
            self.opponents = dict(zip(others, names, strict=True))
            from conquian.bots import make_bot

            for o in names:
                if isinstance(o, str):
                    make_bot(o)  # an unknown name fails here
        if dealer is not None and not 1 <= dealer <= n:
            raise ValueError(f"dealer must be a seat from 1 to {n}, not {dealer!r}")
        three = self.rules.family == CONQUIAN and n == 3
        if dealer is not None and three and not self.self_play and dealer == seat and not self.match_mode:
            raise ValueError("at a three-seat conquian table the dealer sits out: the learner cannot deal")
        self.dealer = dealer
        self._dealers = [s for s in range(1, n + 1) if not (three and not self.self_play and s == seat)]
        self.max_steps = max_steps
        self.illegal_reward = illegal_reward
        self.fast = self.rules.family == CONQUIAN
        self._seated = self.rules.family != COONCAN  # the conquian family's deals number their players

        a = self.enc.n_actions
        self.deal_obs_size = self.enc.obs_size
        d = self.deal_obs_size + (2 * n + 1 if self.match_mode else 0)
        self.obs_size, self.n_actions = d, a
        low, high = (-np.inf, np.inf) if self.match_mode else (0.0, 2.0)
        self.single_observation_space = spaces.Box(low, high, shape=(d,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(a)
        self.observation_space = spaces.Box(low, high, shape=(num_envs, d), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, a, dtype=np.int64))
        self.state_size = state_size(self.enc)

        # everything allocated once
        # twice the rows: the deals' observations, then those of the deals that just ended
        self._obs_ext = np.zeros((2 * num_envs, d), dtype=np.float32)
        self._mask_ext = np.zeros((2 * num_envs, a), dtype=np.int8)
        self._obs, self._mask = self._obs_ext[:num_envs], self._mask_ext[:num_envs]
        self._to_act = np.zeros(num_envs, dtype=np.int64)
        self._term = np.zeros(num_envs, dtype=np.bool_)
        self._trunc = np.zeros(num_envs, dtype=np.bool_)
        self._rew = np.zeros((num_envs, n) if self.self_play else num_envs, dtype=np.float32)
        self._rows_all = list(range(num_envs))

        self.deals: list[Deal] = []
        self._publics: list[Public] = []
        self._passed: list[list[int]] = []  # conquian: cards each player index passed / discarded
        self._discarded: list[list[int]] = []
        self._listed: list[dict[int, tuple[int, Any]]] = [{} for _ in range(num_envs)]
        self._uses: list[dict[int, Any]] = [{} for _ in range(num_envs)]  # conquian: the listed uses
        self._flat_base = np.arange(num_envs) * a
        self._fits: dict[int, int] = {}
        self._combos: dict[int, tuple[Any, tuple[tuple[int, float], ...]]] = {}  # Cooncan: cells by combination
        self._tbl = meld_table(self.rules)
        # conquian: for each card, the cards of every three-card combination holding it (``near``), and
        # which of their subsets hold two that make one with it (``makes``): use_forms' own first test
        self._near: list[int] = [0] * 64
        self._makes: list[frozenset[int]] = [frozenset()] * 64
        self._sidefits: dict[tuple[int, ...], int] = {}  # conquian: the cards that fit a side, by side
        if self.fast:
            self._conquian_tables()
            for c in self.enc.cards:
                rests = [t & ~(1 << c) for t in self._tbl.threes_by_card.get(c, ())]
                self._near[c] = near = sum({1 << x for r in rests for x in range(64) if r >> x & 1})
                subsets, sub = [], near
                while True:  # every subset of near
                    subsets.append(sub)
                    if not sub:
                        break
                    sub = (sub - 1) & near
                self._makes[c] = frozenset(x for x in subsets if any(r & ~x == 0 for r in rests))
        self._steps = [0] * num_envs
        self._learner = [0] * num_envs  # the learner's player index in each deal
        self._last = [0] * num_envs  # the player index that acted last in each deal
        self._streams = [SplitMix64(0)] * num_envs
        self._queues: list[deque[tuple[int, ...]]] = [deque() for _ in range(num_envs)]  # decks shuffled ahead
        self._rngs = [random.Random(0)] * num_envs
        self._bots: list[dict[int, Any]] = [{} for _ in range(num_envs)]
        self._seed = seed
        self.matches: list[Match | None] = [None] * num_envs
        self._pending: list[list[int] | None] = [None] * num_envs  # scores of deals the learner sat out

    # ------------------------------------------------------------------ episodes
    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """Start a new episode in every environment; an int ``seed`` seeds environment ``i`` with
        ``seed + i``, a list one seed per environment.  ``options={"reset_mask": m}`` (a boolean
        array, one per environment) starts only the environments ``m`` marks, the others going on
        (the way to go on in the ``DISABLED`` autoreset mode); a seed then seeds those only."""
        mask = (options or {}).get("reset_mask")
        if mask is not None:
            return self._reset_some(np.asarray(mask, dtype=np.bool_).reshape(-1), seed)
        self._held = {}
        if seed is None:
            seed = self._seed
            self._seed = None  # the constructor's seed serves the first reset only
        if seed is None:
            seed = random.SystemRandom().getrandbits(62)
        if isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = [int(x) for x in seed]
            if len(seeds) != self.num_envs:
                raise ValueError(f"give one seed per environment: {self.num_envs}, not {len(seeds)}")
        self._streams = [SplitMix64(x) for x in seeds]
        self._queues = [deque() for _ in range(self.num_envs)]
        self._rngs = [random.Random(x * 2 + 1) for x in seeds]
        n = self.num_envs
        self.deals = [None] * n  # type: ignore[list-item]
        self._publics = [Public() for _ in range(n)]
        self._passed = [[0] * self.players for _ in range(n)]
        self._discarded = [[0] * self.players for _ in range(n)]
        self.matches = [None] * n
        self._pending = [None] * n
        self._start(self._rows_all)
        self._encode_out()
        return self._out(self._obs), self._info()

    def _reset_some(self, mask: npt.NDArray[np.bool_], seed: int | Sequence[int] | None) -> tuple[Obs, dict[str, Any]]:
        """Start the environments ``mask`` marks again (a held one: the episode already started
        behind its last observation, unless a seed asks for another)."""
        if len(mask) != self.num_envs:
            raise ValueError(f"reset_mask must mark {self.num_envs} environments, not {len(mask)}")
        if not self.deals:
            raise ValueError("reset every environment first: reset() without reset_mask")
        rows = [int(i) for i in np.flatnonzero(mask)]
        fresh = [i for i in rows if i not in self._held]
        if seed is not None:
            seeds = [seed + i for i in rows] if isinstance(seed, int) else [int(x) for x in seed]
            if len(seeds) != len(rows):
                raise ValueError(f"give one seed per environment reset: {len(rows)}, not {len(seeds)}")
            for i, x in zip(rows, seeds, strict=True):
                self._streams[i], self._queues[i], self._rngs[i] = SplitMix64(x), deque(), random.Random(x * 2 + 1)
            fresh = rows
        for i in rows:
            self._held.pop(i, None)
        for i in fresh:
            self.matches[i] = None
            self._pending[i] = None
        self._start(fresh)
        self._encode_out()
        return self._out(self._obs), self._info()

    def _out(self, obs: Obs) -> Obs:
        """The observations returned: the held environments' last ones in their rows, and a copy
        unless ``copy=False``."""
        if self._held:
            obs = obs.copy()
            for i, last in self._held.items():
                obs[i] = last
        elif self.copy:
            obs = obs.copy()
        return obs

    def _start(self, rows: Sequence[int]) -> None:
        """New deals in environments ``rows``, the opponents playing up to the learner's first
        decision (a deal that ends or reaches ``max_steps`` before it is replaced: the learner
        would have had no decision in it)."""
        rows = list(rows)
        for _ in range(1000):
            if not rows:
                return
            for i in rows:
                self._new_deal(i)
            if self.self_play:
                return
            self._advance(rows, limit=not self.match_mode)
            if self.match_mode:
                rows = [i for i in rows if self.deals[i].over]
                for i in rows:  # a deal the learner sat out (three at a conquian table): scored, and on
                    match = self.matches[i]
                    assert match is not None
                    match.settle()
                    self._pending[i] = [x + y for x, y in zip(self._pending[i] or [0] * self.players,
                                                              match.results[-1], strict=True)]
                    if match.complete:
                        raise RuntimeError("a match ended without a decision of the learner")
                continue
            limit = self.max_steps
            rows = [i for i in rows if self.deals[i].over or (limit and self._steps[i] >= limit)]
        raise ValueError(f"max_steps={self.max_steps} leaves the learner no decision in a thousand deals")

    def _new_deal(self, i: int) -> None:
        rng = self._rngs[i]
        if self.match_mode:
            match = self.matches[i]
            if match is None:
                if self.rules.family == CONQUIAN and self.players == 3 and not self.self_play:
                    first = self.seat  # so that the match's last deal is never one the learner sits out
                else:
                    first = self.dealer if self.dealer is not None else rng.randint(1, self.players)
                match = self.matches[i] = Match(self.rules, first_dealer=first, rounds=self.rounds)
                self._steps[i] = 0
            deal = match.new_deal(self._deck(i))
        else:
            dealer = self.dealer if self.dealer is not None else self._dealers[rng.randrange(len(self._dealers))]
            deal = new_deal(self.rules, self._deck(i), dealer=dealer)
            self._steps[i] = 0
        self.deals[i] = deal
        self._publics[i] = Public()
        self._passed[i] = [0] * self.players
        self._discarded[i] = [0] * self.players
        if not self.self_play:
            seats = getattr(deal, "seats", None)
            # a learner who sits this deal out (three at a conquian table, in a match) shows nothing of it
            self._learner[i] = self._player(deal, self.seat) if seats is None or self.seat in seats else 0
            if any(isinstance(o, str) and o != "random" for o in self.opponents.values()):
                from conquian.bots import make_bot

                self._bots[i] = {s: make_bot(o, seed=rng.getrandbits(32)) for s, o in self.opponents.items()
                                 if isinstance(o, str) and o != "random"}

    def _deck(self, i: int) -> tuple[int, ...]:
        """Environment ``i``'s next deck: the one its seed stream gives next, as
        ``new_deal(rules, seed=stream.next64())`` would shuffle it.  Decks are shuffled ahead,
        many environments' at once (:func:`shuffled_decks`)."""
        queue = self._queues[i]
        if not queue:
            low = [k for k, q in enumerate(self._queues) if len(q) < _AHEAD // 4]
            seeds = [self._streams[k].next64() for k in low for _ in range(_AHEAD)]
            decks = shuffled_decks(self.rules, seeds)
            for n, k in enumerate(low):
                self._queues[k].extend(decks[n * _AHEAD:(n + 1) * _AHEAD])
        return queue.popleft()

    # ------------------------------------------------------------------ stepping
    def action_masks(self) -> Mask:
        """The legal actions of every environment now (as ``info["action_mask"]``)."""
        mask: Mask = self._info()["action_mask"]
        return mask

    def state(self) -> Obs:
        """The full state of every deal, ``(num_envs, state_size)``: every seat's observation and
        the pack (for centralised critics only; see :mod:`conquian.envs.state`)."""
        out = np.zeros((self.num_envs, self.state_size), dtype=np.float32)
        for i, deal in enumerate(self.deals):
            public = self._public(i)
            out[i] = global_state(self.enc, deal, public)
        return out

    def _public(self, i: int) -> Public:
        public = self._publics[i]
        deal = self.deals[i]
        if isinstance(deal, ConquianDeal):
            seats = deal.seats
            public.passed = {seats[p]: m for p, m in enumerate(self._passed[i]) if m and p < 2}
            public.discarded = {seats[p]: m for p, m in enumerate(self._discarded[i]) if m and p < 2}
            public.n_events = deal.n_events
        else:
            self.enc.fold(public, deal)
        return public

    def close(self) -> None:
        """Nothing to release (Gymnasium's interface)."""


def _autoreset_mode(mode: AutoresetMode | str) -> AutoresetMode:
    """An autoreset mode from itself or its name (``"next_step"``, ``"NEXT_STEP"``...)."""
    if isinstance(mode, AutoresetMode):
        return mode
    for m in AutoresetMode:
        if str(mode).upper() == m.name or str(mode).lower() == str(m.value).lower():
            return m
    raise ValueError(f"autoreset_mode must be one of {', '.join(m.name for m in AutoresetMode)}, not {mode!r}")
