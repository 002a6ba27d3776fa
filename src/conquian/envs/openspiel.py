"""The presets as OpenSpiel Python games (optional: ``pip install 'conquian[rl]'``).

Importing this module registers ``python_conquian``, ``python_conquian_spanish``,
``python_cooncan``, ``python_cooncan_double`` and ``python_conquian_mexicano`` with pyspiel, so that OpenSpiel's own
algorithms run on them unchanged.  A game is one deal.  The deal of the cards is a sequence of
chance nodes (the deck's cards, top first, each drawn uniformly from what is left); actions
are the fixed indices of :mod:`conquian.envs.encoding`; the returns are the deal's scores.
Observation tensors and strings are built from the seat's view; the information state string
adds the seat's whole history (its hand as dealt and every public action), so it is perfect
recall.  The information state tensor is the observation tensor (which already holds the
cards each seat passed, discarded or took): a fixed-size tensor of the whole history would
be as long as the longest deal, so it is not perfect recall.  ``resample_from_infostate``
re-deals every card the player has not seen and replays the history
(:func:`conquian.engine.redeal.redeal_unseen`), which is what OpenSpiel's information-set MCTS needs.

```pycon
>>> import pyspiel
>>> import conquian.envs.openspiel
>>> game = pyspiel.load_game("python_conquian")
>>> state = game.new_initial_state()
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> state.current_player(), len(state.observation_tensor(0)) == game.observation_tensor_size()
(0, True)

```
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, unused-ignore]

from conquian.engine.cards import JOKER, CardSet, card_str
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.conquian.view import ConquianView
from conquian.engine.cooncan.view import CooncanView
from conquian.engine.deck import pack_order
from conquian.engine.match import Deal, new_deal
from conquian.engine.redeal import redeal_unseen
from conquian.engine.rules import CONQUIAN, MEXICANO, PRESETS, Rules, get_rules
from conquian.envs.encoding import Encoding, Public, encoding

_OPTION_DEFAULTS: dict[str, dict[str, Any]] = {
    "conquian": {"players": 2, "scoring": "games"},
    "conquian-spanish": {"players": 2, "scoring": "games"},
    "cooncan": {"players": 3, "jokers": 0, "stock": "closed", "splash_bonus": 0, "max_pack_turns": 3,
                "max_turns": 2000, "discard_taken": True},
    "cooncan-double": {"players": 5, "splash_bonus": 0, "max_pack_turns": 3, "max_turns": 2000,
                       "discard_taken": True},
    "conquian-mexicano": {"players": 2, "hand": 8, "exchange": True, "exhausted": "tablas"},
}
#: Option names that differ from the rules object's attribute.
_ATTRIBUTES = {"hand": "hand_size"}


def _rules(variant: str, params: dict[str, Any] | None) -> Rules:
    options = dict(_OPTION_DEFAULTS[variant])
    options.update(params or {})
    base = PRESETS[variant]
    changed = {k: v for k, v in options.items() if getattr(base, _ATTRIBUTES.get(k, k)) != v or k == "players"}
    return get_rules(variant, **changed)


def _game_type(variant: str) -> pyspiel.GameType:
    base = PRESETS[variant]
    return pyspiel.GameType(
        short_name="python_" + variant.replace("-", "_"),
        long_name=f"Python {variant} (conquian)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=base.max_players,
        min_num_players=base.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_OPTION_DEFAULTS[variant],
    )


def _game_info(rules: Rules, enc: Encoding) -> pyspiel.GameInfo:
    distinct = len(set(pack_order(rules)))
    bound = 2.0 if rules.family == CONQUIAN and rules.scoring == "games" else 200.0 * rules.players
    length = rules.pack_size * 8 if rules.family == CONQUIAN else rules.max_turns * 4
    if rules.family == MEXICANO:
        # R8.7: the winner is paid one counter by every other player.  Every card turned is passed
        # by each player at most once, or starts a chain of uses and discards, each discard
        # leaving a hand one card shorter; and the exchange's gives.
        bound = float(rules.players - 1)
        length = rules.pack_size * (rules.players + 4) + rules.players
    return pyspiel.GameInfo(
        num_distinct_actions=enc.n_actions,
        max_chance_outcomes=distinct,
        num_players=rules.players,
        min_utility=-bound,
        max_utility=bound,
        utility_sum=0.0,
        max_game_length=length + rules.pack_size,
    )


class GameData:
    """What a state needs of its game (pyspiel deep-copies a Python state's attributes to clone
    it: this is shared, never copied)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.enc = encoding(rules)
        self.pack = pack_order(rules)
        self.outcomes = sorted(set(self.pack))

    def __deepcopy__(self, memo: dict[int, Any]) -> GameData:
        return self


class ConquianGame(pyspiel.Game):  # type: ignore[misc]
    """One deal of a preset as an OpenSpiel game."""

    variant = "conquian"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        rules = _rules(self.variant, params)
        enc = encoding(rules)
        super().__init__(_game_type(self.variant), _game_info(rules, enc), params or {})
        self.data = GameData(rules)

    def new_initial_state(self) -> ConquianState:
        return ConquianState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self, perfect)


class ConquianState(pyspiel.State):  # type: ignore[misc]
    """A state: dealing (chance), then the deal, then its end."""

    def __init__(self, game: ConquianGame) -> None:
        super().__init__(game)
        self.g = game.data
        self.deck: list[int] = []
        self.left: dict[int, int] = {}
        for c in self.g.pack:
            self.left[c] = self.left.get(c, 0) + 1
        self.deal: Deal | None = None
        self.public = Public()

    # ----------------------------------------------------------- dealing
    def current_player(self) -> int:
        if self.deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.deal.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.deal.to_act or 1) - 1

    def is_terminal(self) -> bool:
        return self.deal is not None and self.deal.over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        total = sum(self.left.values())
        return [(i, k / total) for i, c in enumerate(self.g.outcomes) if (k := self.left.get(c, 0))]

    def _legal_actions(self, player: int) -> list[int]:
        if self.deal is None or self.deal.over or player != self.current_player():
            return []
        return sorted(self.g.enc.listed(self.deal.view(player + 1)))

    def _apply_action(self, action: int) -> None:
        if self.deal is None:
            card = self.g.outcomes[action]
            if not self.left.get(card):
                raise ValueError(f"chance outcome {action} is not possible now")
            self.left[card] -= 1
            self.deck.append(card)
            if len(self.deck) == len(self.g.pack):
                rules = self.g.rules
                self.deal = new_deal(rules, tuple(self.deck), dealer=rules.players)
                self._fold()
            return
        seat = self.current_player() + 1
        self.deal.play(self.g.enc.action(action, self.deal.view(seat)))
        self._fold()

    def _fold(self) -> None:
        deal = self.deal
        assert deal is not None
        self.g.enc.fold(self.public, deal)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            c = self.g.outcomes[action]
            return "deal X" if c == JOKER else f"deal {card_str(c)}"
        return self.g.enc.action_text(action, player + 1)

    def returns(self) -> list[float]:
        if self.deal is None or not self.deal.over:
            return [0.0] * self.g.rules.players
        return [float(x) for x in (self.deal.scores() or [0] * self.g.rules.players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ConquianState:
        """A state of the same information set for ``player_id``: every card he has not seen is
        dealt again at random, the history replayed."""
        seed = int(probability_sampler() * 2**31) if callable(probability_sampler) else random.getrandbits(31)
        clone = self.__deepcopy__({})
        if self.deal is None:
            return clone  # still dealing: nothing seen yet
        seat = player_id + 1
        if isinstance(self.deal, ConquianDeal) and seat not in self.deal.seats:
            seat = self.deal.seats[0]
        clone.deal = redeal_unseen(self.deal, seat, random.Random(seed))
        clone.deck = list(clone.deal.deck)
        return clone

    def clone(self) -> ConquianState:
        return self.__deepcopy__({})

    def __deepcopy__(self, memo: dict[int, Any]) -> ConquianState:
        # pyspiel clones a Python state by deep-copying it: copy the deal the cheap way (its
        # history is immutable and shared) instead of walking thousands of nested events
        other = ConquianState.__new__(ConquianState)
        pyspiel.State.__init__(other, self.get_game())
        other.g = self.g
        other.deck = list(self.deck)
        other.left = dict(self.left)
        other.deal = self.deal.copy() if self.deal is not None else None
        other.public = self.public.copy()
        return other

    def __str__(self) -> str:
        if self.deal is None:
            return f"dealing: {len(self.deck)} of {len(self.g.pack)} cards"
        return str(self.deal)


class Observer:
    """Observation tensors and strings from a seat's view; information-state strings (perfect
    recall) add the seat's whole history."""

    def __init__(self, game: ConquianGame, perfect_recall: bool) -> None:
        self.game = game.data
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.data.enc.obs_size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ConquianState, player: int) -> None:
        if state.deal is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self.game.enc.observe(state.deal.view(player + 1), state.public)

    def string_from(self, state: ConquianState, player: int) -> str:
        if state.deal is None:
            return f"p{player + 1} waiting for the deal"
        deal = state.deal
        seat = player + 1
        view: ConquianView | CooncanView | MexicanoView
        if isinstance(deal, ConquianDeal) and seat not in deal.seats:
            view = deal.view(deal.seats[0])
            hand = "sits out"
        else:
            view = deal.view(seat)
            hand = str(view.hand) if isinstance(view, ConquianView | MexicanoView) else " ".join(
                "X" if c == JOKER else card_str(c) for c in view.hand)
        if not self.perfect_recall:
            return f"p{seat} hand {hand} | {np.flatnonzero(self.game.enc.observe(view, state.public)).tolist()}"
        events = " ; ".join(str(e) for e in view.events)
        dealt = ""
        if isinstance(deal, ConquianDeal) and seat in deal.seats:
            p = deal.player_of(seat)
            first = [deal.deck[i] for i in range(20) if (i >> 1) & 1 == p]
            dealt = str(CardSet(sum(1 << c for c in first)))
        elif isinstance(deal, MexicanoDeal) and isinstance(view, MexicanoView):
            # R8.2: dealt one at a time from the first player after the dealer; the card the seat
            # gave, and the one it got once every seat has given
            p, n = deal.player_of(seat), deal.n
            first = [deal.deck[i] for i in range(n * deal.rules.hand_size) if i % n == p]
            gave = card_str(view.gave_card) if view.gave_card >= 0 else "-"
            got = card_str(view.got_card) if view.got_card >= 0 else "-"
            dealt = f"{CardSet(sum(1 << c for c in first))} | gave {gave} got {got}"
        elif not isinstance(deal, ConquianDeal):
            dealt = " ".join("X" if c == JOKER else card_str(c) for c in sorted(_dealt_cooncan(deal, seat)))
        return f"p{seat} dealt {dealt} | {events} | hand {hand}"


def _dealt_cooncan(deal: Any, seat: int) -> list[int]:
    n, hs = deal.n, deal.rules.hand_size
    return [deal.deck[k] for k in range(n * hs) if (deal.dealer + k) % n + 1 == seat]


def _register() -> None:
    for variant in PRESETS:
        cls = type(f"Game_{variant.replace('-', '_')}", (ConquianGame,), {"variant": variant})
        pyspiel.register_game(_game_type(variant), cls)


_register()
