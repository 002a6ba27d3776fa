"""How the batched environment (:mod:`conquian.envs.vector`) plays its deals: an action index
in every environment, the opponents' moves, the rewards and the autoreset (a base class of
:class:`~conquian.envs.vector.ConquianVectorEnv`, which holds the deals and the arrays).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode

from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.listing import (
    K_DISCARD,
    K_FORCE,
    K_PASS,
    K_USE,
    OVER,
    legal_raw,
)
from conquian.envs.encoding import Mask, Obs
from conquian.envs.vector_encoding import BatchEncoding

#: A policy: stacked observations ``(B, obs_size)`` and masks ``(B, n_actions)`` in, one legal
#: action index per row out (any integer sequence or array of length ``B``).
Policy = Callable[[Obs, Mask], Any]
Opponent = str | Policy


class VectorSteps(BatchEncoding):
    """The stepping of :class:`~conquian.envs.vector.ConquianVectorEnv` (its fields, set there)."""

    copy: bool
    autoreset_mode: AutoresetMode
    _held: dict[int, Obs]
    seat: int
    opponents: dict[int, Opponent]
    max_steps: int | None
    illegal_reward: float | None
    _rew: npt.NDArray[np.float32]
    _term: npt.NDArray[np.bool_]
    _trunc: npt.NDArray[np.bool_]
    _flat_base: npt.NDArray[np.int64]
    _steps: list[int]
    _rngs: list[random.Random]
    _bots: list[dict[int, Any]]
    _pending: list[list[int] | None]

    def _start(self, rows: Sequence[int]) -> None:
        """New deals in environments ``rows`` (the environment's own)."""
        raise NotImplementedError

    def _out(self, obs: Obs) -> Obs:
        """The observations returned (the environment's own)."""
        raise NotImplementedError

    def _apply(self, i: int, raw: tuple[int, Any]) -> None:
        """Apply a listed raw action, keeping conquian's passes and discards (the public planes)."""
        deal = self.deals[i]
        if self.fast:
            assert isinstance(deal, ConquianDeal)
            self._last[i] = deal.actor
            kind = raw[0]
            if kind == K_PASS:
                self._passed[i][deal.actor] |= 1 << deal.card
            elif kind == K_DISCARD:
                self._discarded[i][deal.actor] |= 1 << raw[1]
        else:
            self._last[i] = self._player(deal, deal.to_act or 1)
        deal.apply_raw(*raw)
        self._steps[i] += 1

    def _advance(self, rows: Sequence[int], limit: bool = True) -> None:
        """Let the opponents play until the learner is to act or the deal is over (or, with
        ``limit``, has reached ``max_steps``)."""
        if self.self_play:
            return
        learner, max_steps = self.seat, self.max_steps if limit else None
        pending = [i for i in rows if not self.deals[i].over and self.deals[i].to_act != learner
                   and not (max_steps and self._steps[i] >= max_steps)]
        while pending:
            batches: dict[int, list[int]] = {}
            for i in pending:
                deal = self.deals[i]
                s = deal.to_act
                assert s is not None
                o = self.opponents[s]
                if o == "random":
                    rnd = self._rngs[i].random
                    if isinstance(deal, ConquianDeal):
                        raws = legal_raw(deal.tbl, deal.stage, deal.card, deal.hands[deal.actor],
                                         deal.sides[deal.actor], deal.downs[deal.actor], deal.sides[1 - deal.actor])
                        self._apply(i, raws[int(rnd() * len(raws))])
                    else:
                        self._apply(i, deal.random_raw(rnd))
                elif isinstance(o, str):
                    action = self._bots[i][s].choose(deal.view(s))
                    self._apply(i, deal.verify(action))
                else:
                    batches.setdefault(s, []).append(i)
            for s, envs in batches.items():
                policy = self.opponents[s]
                assert callable(policy)
                obs = np.zeros((len(envs), self.obs_size), dtype=np.float32)
                mask = np.zeros((len(envs), self.n_actions), dtype=np.int8)
                listed = self._encode(envs, [self._player(self.deals[i], s) for i in envs], obs, mask)
                chosen = np.asarray(policy(obs, mask)).reshape(-1).tolist()
                for k, i in enumerate(envs):
                    a = int(chosen[k])
                    if not 0 <= a < self.n_actions or not mask[k, a]:
                        raise ValueError(f"the policy of p{s} chose {chosen[k]!r}, masked in environment {i}")
                    self._apply(i, self._decode(a, listed[k]))
            pending = [i for i in pending if not self.deals[i].over and self.deals[i].to_act != learner
                       and not (max_steps and self._steps[i] >= max_steps)]

    def _play_conquian(self, acts: list[int]) -> list[int]:
        """Conquian: play every environment's action, every one legal; returns the environments
        whose deal ended."""
        cards, a_discard, a_use = self.enc.cards, self.enc.A_DISCARD, self.enc.A_USE
        steps, lasts, ends = self._steps, self._last, []
        for i, a, deal, pa, di, uses in zip(self._rows_all, acts, self.deals, self._passed, self._discarded,
                                            self._uses, strict=True):
            p = lasts[i] = deal.actor
            if a == 0:
                pa[p] |= 1 << deal.card
                deal.apply_raw(K_PASS, -1)
            elif a < a_discard:
                deal.apply_raw(K_FORCE, cards[a - 1])
            elif a < a_use:
                c = cards[a - a_discard]
                di[p] |= 1 << c
                deal.apply_raw(K_DISCARD, c)
            else:
                deal.apply_raw(K_USE, uses[a])
            steps[i] += 1
            if deal.stage == OVER:
                ends.append(i)
        return ends

    def _play_conquian_checked(self, acts: list[int], legal: list[bool], illegal: set[int],
                               skip: frozenset[int] = frozenset()) -> None:
        """Conquian: play every environment's action but those of ``skip``, those masked left out
        (``illegal``) or, without ``illegal_reward``, refused."""
        for i in self._rows_all:
            if i in skip:
                continue
            if not legal[i]:
                if self.illegal_reward is None:
                    raise ValueError(f"action {acts[i]!r} is not legal now in environment {i} (see the action mask)")
                illegal.add(i)
                self._last[i] = self._seat_player(i)  # the offender, whose observation ends the episode
                continue
            self._apply(i, self._decode(acts[i], self._uses[i]))

    def step(self, actions: Any) -> tuple[Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_],
                                          npt.NDArray[np.bool_], dict[str, Any]]:
        """Play one action index in every environment; returns ``(obs, rewards, terminated,
        truncated, info)`` with ``info["action_mask"]``, ``info["to_act"]`` and, for the deals
        that ended, ``info["final_info"]`` and (same-step autoreset, the default: ``obs`` already
        holds the next deal's first observation) ``info["final_obs"]``.  The autoreset modes are
        the class's documentation's."""
        mode = self.autoreset_mode
        if mode == AutoresetMode.SAME_STEP:
            obs, rew, term, trunc, info = self._step(actions, frozenset())
            if self.copy:
                rew, term, trunc = rew.copy(), term.copy(), trunc.copy()
            return self._out(obs), rew, term, trunc, info
        if mode == AutoresetMode.DISABLED and self._held:
            raise ValueError(f"the episodes of environments {sorted(self._held)} are over: start them again with "
                             "reset(options={'reset_mask': ...}) (autoreset_mode DISABLED)")
        skip = frozenset(self._held)  # NEXT_STEP: their action is ignored, the next episode shown
        self._held = {}
        obs, rew, term, trunc, info = self._step(actions, skip)
        ended = np.flatnonzero(term | trunc).tolist()
        final = info.pop("final_obs", None)
        info.pop("_final_obs", None)
        for i in ended:
            assert final is not None
            self._held[i] = final[i]
        info["action_mask"] = info["action_mask"].copy()
        info["to_act"] = info["to_act"].copy()
        for i in ended:
            info["action_mask"][i] = 0
            info["to_act"][i] = 0
        return self._out(obs), rew.copy(), term.copy(), trunc.copy(), info

    def _step(self, actions: Any, skip: frozenset[int]) -> tuple[Obs, npt.NDArray[np.float32], npt.NDArray[np.bool_],
                                                               npt.NDArray[np.bool_], dict[str, Any]]:
        """:meth:`step` in same-step autoreset, the environments ``skip`` left as they are (their
        actions ignored), into the environment's own arrays."""
        arr = np.asarray(actions).reshape(-1)
        acts = arr.tolist()
        if len(acts) != self.num_envs:
            raise ValueError(f"give one action per environment: {self.num_envs}, not {len(acts)}")
        rew, term, trunc = self._rew, self._term, self._trunc
        rew.fill(0.0)
        term.fill(False)
        trunc.fill(False)
        illegal: set[int] = set()
        deals = self.deals
        ends: list[int] | None = None
        if self.fast:
            flat = self._mask.reshape(-1)
            if not skip and arr.dtype.kind in "iu" and arr.min() >= 0 and arr.max() < self.n_actions \
                    and flat.take(self._flat_base + arr).all():  # every action legal: the common case
                ends = self._play_conquian(acts)
            else:
                clipped = np.minimum(np.maximum(arr, 0), self.n_actions - 1)
                ok = flat.take(self._flat_base + clipped).astype(np.bool_) & (arr == clipped)
                self._play_conquian_checked(acts, ok.tolist(), illegal, skip)
        else:
            listed, apply = self._listed, self._apply
            for i in self._rows_all:
                if i in skip:
                    continue
                raw = listed[i].get(acts[i])
                if raw is None:
                    if self.illegal_reward is None:
                        raise ValueError(f"action {acts[i]!r} is not legal now in environment {i} "
                                         "(see the action mask)")
                    illegal.add(i)
                    self._last[i] = self._seat_player(i)
                    continue
                apply(i, raw)
        if not self.self_play:
            self._advance([i for i in self._rows_all if i not in illegal])
        done: list[int] = []
        nexts: list[int] = []  # a deal over in a match that goes on
        limit = self.max_steps
        steps = self._steps
        sp, match_mode, pending = self.self_play, self.match_mode, self._pending
        scored: list[Any] | None = None  # the scores of the deals done, when known
        if not self.fast or illegal or match_mode or limit:
            ends = self._rows_all
        elif ends is not None and sp:  # self-play, every action legal: the deals that ended, scored at once
            done, ends = ends, []
            if done:
                zeros = [0] * self.players
                scored = [deals[i].scores() or zeros for i in done]
                rew[done] = scored
                term[done] = True
        elif ends is None or not sp:  # the common case, cheaply: who finished? (in self-play, found while playing)
            ends = [i for i, deal in zip(self._rows_all, deals, strict=True) if deal.stage == OVER]
        paid: list[int] = []  # the deals that ended and their scores, paid at once
        pays: list[Any] = []
        for i in ends:
            deal = deals[i]
            if match_mode and pending[i] is not None:  # deals the learner sat out, paid now
                pend = pending[i]
                assert pend is not None
                rew[i] += pend if sp else pend[self.seat - 1]
                pending[i] = None
            if i in illegal:
                if sp:
                    rew[i, self._to_act[i] - 1] += self.illegal_reward  # the seat that was to act
                else:
                    rew[i] += self.illegal_reward
                term[i] = True
            elif deal.over:
                match = self.matches[i]
                if match is not None:
                    match.settle()
                    scores = match.results[-1]  # the tableau pool applied (R5.1)
                else:
                    scores = deal.scores() or [0] * self.players
                paid.append(i)
                pays.append(scores if sp else scores[self.seat - 1])
                if match is not None and not match.complete:
                    nexts.append(i)
                    continue
                term[i] = True
            elif limit and steps[i] >= limit:
                trunc[i] = True
            else:
                continue
            done.append(i)
        if paid:
            rew[paid] += pays
        info: dict[str, Any] = {}
        joint: tuple[list[Any], list[int], list[list[int]], list[list[int]]] | None = None
        if done:
            final_obs = np.full(self.num_envs, None, dtype=object)
            illegal_arr = np.zeros(self.num_envs, dtype=np.bool_)
            scores_arr = np.zeros((self.num_envs, self.players), dtype=np.int64)
            flags = np.zeros(self.num_envs, dtype=np.bool_)
            players = [self._last[i] if sp else self._learner[i] for i in done]
            if self.fast and not match_mode:
                # the finished deals' last observations are made with the next ones, in one call
                joint = ([deals[i] for i in done], players, [self._passed[i] for i in done],
                         [self._discarded[i] for i in done])
            else:
                obs = np.zeros((len(done), self.obs_size), dtype=np.float32)
                mask = np.zeros((len(done), self.n_actions), dtype=np.int8)
                self._encode(done, players, obs, mask)
                for k, i in enumerate(done):
                    final_obs[i] = obs[k]
            flags[done] = True
            matches, zeros = self.matches, [0] * self.players
            scores_arr[done] = scored if scored is not None else \
                [m.totals if (m := matches[i]) is not None else deals[i].scores() or zeros for i in done]
            if illegal:
                illegal_arr[[i for i in done if i in illegal]] = True
            for i in done:
                matches[i] = None
            info["final_obs"], info["_final_obs"] = final_obs, flags
            info["final_info"] = {"scores": scores_arr, "_scores": flags.copy(), "illegal": illegal_arr,
                                  "_illegal": flags.copy()}
            info["_final_info"] = flags.copy()
        if done or nexts:
            self._start(done + nexts)
        if joint is not None:
            self._encode_out(joint)
            last = self._obs_ext[self.num_envs:self.num_envs + len(done)].copy()
            for k, i in enumerate(done):
                info["final_obs"][i] = last[k]
        else:
            self._encode_out()
        info.update(self._info())
        return self._obs, rew, term, trunc, info

    def _info(self) -> dict[str, Any]:
        if self._held:
            mask, to_act = self._mask.copy(), self._to_act.copy()
            for i in self._held:
                mask[i] = 0
                to_act[i] = 0
            return {"action_mask": mask, "to_act": to_act}
        if self.copy:
            return {"action_mask": self._mask.copy(), "to_act": self._to_act.copy()}
        return {"action_mask": self._mask, "to_act": self._to_act}

