"""The presets as OpenSpiel Python games (optional: ``pip install 'conquian[rl]'``).

Importing this module registers ``python_conquian``, ``python_conquian_spanish``,
``python_cooncan``, ``python_cooncan_double`` and ``python_conquian_mexicano`` with pyspiel, so that OpenSpiel's own
algorithms run on them unchanged, and ``python_conquian_tiny``, the research preset
``conquian-tiny`` (:data:`conquian.engine.rules.RESEARCH_PRESETS`), whose whole tree OpenSpiel's
exact tools can walk (:mod:`conquian.envs.exact`).  A game is one deal.  Its first chance node cuts for the deal
(R6.1): the dealer is drawn uniformly among the seats (outcome ``s`` makes seat ``s + 1`` the
dealer), so that every seat deals and plays alike (at a three-seat conquian table the dealer sits
out, R6.3); the game parameter ``dealer`` (a seat from 1) fixes him instead, and the node is
left out.  The deal of the cards is a sequence of
chance nodes (the deck's cards, top first, each drawn uniformly from what is left; in a research
preset each hand is one outcome, every hand of the cards left alike, then the pack's cards one
by one: :func:`hand_combinations`); actions
are the fixed indices of :mod:`conquian.envs.encoding` (the game parameter ``version``: the
action space's, 1 by default; 0, deprecated, the first one's); the returns are the deal's scores.
Observation tensors and strings are built from the seat's view; the information state string
adds the seat's whole history (its hand as dealt and every public action), so it is perfect
recall.  The games provide no information state tensor: the observation tensor (which holds
the cards each seat passed, discarded or took) is not perfect recall, and a fixed-size tensor
of the whole history would be as long as the longest deal.  ``resample_from_infostate``
re-deals every card the player has not seen and replays the history
(:func:`conquian.engine.redeal.redeal_unseen`), which is what OpenSpiel's information-set MCTS
needs.  A clone or a resampled state keeps OpenSpiel's history and move number; games and
states pickle (a state in a few kilobytes: the shared tables stay with the game).

```pycon
>>> import pyspiel
>>> import conquian.envs.openspiel
>>> game = pyspiel.load_game("python_conquian")
>>> state = game.new_initial_state()
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> state.deal.dealer, state.current_player(), len(state.observation_tensor(0)) == game.observation_tensor_size()
(1, 1, True)

```
"""

from __future__ import annotations

import random
import warnings
from functools import cache
from itertools import combinations
from math import comb
from typing import Any

import pyspiel  # type: ignore[import-not-found, unused-ignore]

from conquian.engine.actions import Give
from conquian.engine.cards import JOKER, card_str
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.deck import pack_order
from conquian.engine.history import build, newest_first
from conquian.engine.match import Deal, new_deal
from conquian.engine.redeal import redeal_unseen
from conquian.engine.rules import CONQUIAN, MEXICANO, PRESETS, RESEARCH_PRESETS, Rules, get_rules, preset
from conquian.envs.encoding import LATEST, Encoding, Public, encoding
from conquian.envs.openspiel_observer import Observer as Observer

#: The options each preset takes as game parameters.
_OPTIONS: dict[str, tuple[str, ...]] = {
    "conquian": ("players", "scoring"),
    "conquian-spanish": ("players", "scoring"),
    "cooncan": ("players", "jokers", "stock", "splash_bonus", "max_pack_turns", "max_turns", "discard_taken"),
    "cooncan-double": ("players", "splash_bonus", "max_pack_turns", "max_turns", "discard_taken"),
    "conquian-mexicano": ("players", "hand", "exchange", "exhausted"),
    "conquian-tiny": ("players", "exchange", "exhausted"),
}
#: Option names that differ from the rules object's attribute.
_ATTRIBUTES = {"hand": "hand_size"}


def _defaults(variant: str) -> dict[str, Any]:
    """The parameters' defaults: the preset's own (:data:`conquian.engine.rules.PRESETS`), so that
    ``python_cooncan`` deals the joker as ``cooncan_v1`` does; and the action space's version."""
    base = preset(variant)
    return {**{k: getattr(base, _ATTRIBUTES.get(k, k)) for k in _OPTIONS[variant]}, "version": LATEST, "dealer": 0}


def _dealer(params: dict[str, Any] | None, players: int) -> int:
    """The game parameter ``dealer``: 0 (the default), the dealer drawn by chance, uniformly among
    the seats, before the cards (R6.1's cut); or a seat from 1 to ``players``, dealing every game."""
    dealer = (params or {}).get("dealer", 0)
    if type(dealer) is not int or not 0 <= dealer <= players:
        raise ValueError(f"R6.1: dealer must be 0 (drawn by chance) or a seat from 1 to {players}, not {dealer!r}")
    return dealer


def _version(params: dict[str, Any] | None) -> int:
    """The action space's version a game's parameters ask for (``docs/encodings.md``)."""
    version = (params or {}).get("version", LATEST)
    if version == 0:
        warnings.warn("version 0 of the action space is deprecated: it cannot express every listed use "
                      "(docs/encodings.md)", DeprecationWarning, stacklevel=3)
    return int(version)


def _rules(variant: str, params: dict[str, Any] | None) -> Rules:
    options = _defaults(variant)
    options.update(params or {})
    options.pop("version")
    options.pop("dealer")
    base = preset(variant)
    changed = {k: v for k, v in options.items() if getattr(base, _ATTRIBUTES.get(k, k)) != v or k == "players"}
    return get_rules(variant, **changed)


def _game_type(variant: str) -> pyspiel.GameType:
    base = preset(variant)
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
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_defaults(variant),
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
        max_chance_outcomes=max(distinct, rules.players, len(hand_combinations(rules)) if rules.research else 0),
        num_players=rules.players,
        min_utility=-bound,
        max_utility=bound,
        utility_sum=0.0,
        max_game_length=length + rules.pack_size + 1,  # and the cut for the deal
    )


class GameData:
    """What a state needs of its game: the rules, their encoding (megabytes of tables) and the
    pack.  One per rules object and version of the action space, shared by every game and state
    of those rules: a copy of a state shares it, and a pickled state holds only the rules and the
    version, the tables made again (or found) on loading."""

    def __init__(self, rules: Rules, version: int = LATEST) -> None:
        self.rules = rules
        self.version = version
        self.enc = encoding(rules, version)
        self.pack = pack_order(rules)
        self.outcomes = sorted(set(self.pack))
        self.outcome_of = {c: i for i, c in enumerate(self.outcomes)}
        #: a research preset deals each hand as one chance outcome (:func:`hand_combinations`)
        self.by_hands = rules.research
        self.hands = hand_combinations(rules) if rules.research else ()
        self.hand_index = {h: i for i, h in enumerate(self.hands)}

    def __deepcopy__(self, memo: dict[int, Any]) -> GameData:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Rules, int]]:
        return game_data, (self.rules, self.version)


@cache
def hand_combinations(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """Every hand of ``rules.hand_size`` cards of a single pack, each sorted, in a fixed order:
    the chance outcomes of a research preset's deal, which deals each hand as one outcome (the
    order of the cards within a hand changes nothing), so that its game tree holds each deal
    once rather than once for each order of each hand's cards."""
    return tuple(combinations(sorted(set(pack_order(rules))), rules.hand_size))


@cache
def game_data(rules: Rules, version: int = LATEST) -> GameData:
    """The shared :class:`GameData` of ``rules`` in version ``version`` of the action space."""
    return GameData(rules, version)


def load_game(short_name: str, params: dict[str, Any]) -> pyspiel.Game:
    """``pyspiel.load_game`` after registering the presets (how a pickled game is loaded)."""
    return pyspiel.load_game(short_name, params)


class ConquianGame(pyspiel.Game):  # type: ignore[misc, unused-ignore]
    """One deal of a preset as an OpenSpiel game."""

    variant = "conquian"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        rules = _rules(self.variant, params)
        self.data = game_data(rules, _version(params))
        self.dealer = _dealer(params, rules.players)
        super().__init__(_game_type(self.variant), _game_info(rules, self.data.enc), params or {})

    def new_initial_state(self) -> ConquianState:
        return ConquianState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """The observer OpenSpiel's ``make_observation`` asks for: ``iig_obs_type`` ``None`` is the
        default (the seat's own cards and the public facts); ``perfect_recall`` gives the
        information-state strings; ``private_info=PrivateInfoType.NONE`` leaves the seat's own
        cards out (a public observer); ``public_info=False`` keeps only them (a private observer:
        the tensor's public part zero).  Every seat's private cards at once
        (``PrivateInfoType.ALL_PLAYERS``) and an observer of nothing are refused."""
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = public = True
        if iig_obs_type is not None:
            kind = iig_obs_type.private_info
            if kind == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ValueError("no observer of every seat's private cards: a seat sees only its own")
            private = kind == pyspiel.PrivateInfoType.SINGLE_PLAYER
            public = bool(iig_obs_type.public_info)
            if not private and not public:
                raise ValueError("an observer of neither the public nor the private information sees nothing")
            if perfect and not public:
                raise ValueError("no perfect-recall observer without the public information")
        return Observer(self, perfect, private, public)

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        return load_game, (self.get_type().short_name, dict(self.get_parameters()))


class _Held:
    """The deal a state holds, copied the cheap way when pyspiel deep-copies the state's
    attributes to clone it (its history is immutable and shared) instead of walking thousands of
    nested events."""

    __slots__ = ("deal",)

    def __init__(self, deal: Deal | None) -> None:
        self.deal = deal

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.deal.copy() if self.deal is not None else None)

    def __getstate__(self) -> tuple[Deal | None, list[Any]]:
        # the deal's events are a persistent list of chunks, as deep as the deal is long over
        # history.CHUNK: pickled flat, or a very long deal would pass the recursion limit
        if self.deal is None:
            return None, []
        deal = self.deal.copy()
        events = list(newest_first(deal.events))
        deal.events = None
        return deal, events

    def __setstate__(self, state: tuple[Deal | None, list[Any]]) -> None:
        deal, events = state
        if deal is not None:
            deal.events = build(reversed(events))
        self.deal = deal


#: How many re-deals :meth:`ConquianState.resample_from_infostate` draws at most.
RESAMPLE_TRIES = 20


class ConquianState(pyspiel.State):  # type: ignore[misc, unused-ignore]
    """A state: dealing (chance), then the deal, then its end.

    Its attributes are all small: the shared tables are the game's (:class:`GameData`), so a
    clone, a serialized state and a pickled state carry only the deck, the deal and the public
    facts, with OpenSpiel's own history and move number."""

    def __init__(self, game: ConquianGame) -> None:
        super().__init__(game)
        self.g = game.data
        self.deck: list[int] = []
        #: a research preset's hands as dealt, each one chance outcome (:func:`hand_combinations`)
        self.dealt: list[tuple[int, ...]] = []
        self.left: dict[int, int] = {}
        for c in self.g.pack:
            self.left[c] = self.left.get(c, 0) + 1
        self.held = _Held(None)
        self.public = Public()
        #: the dealer's seat, once known (the game's parameter, or drawn by the first chance node)
        self.dealer: int | None = game.dealer or None

    @property
    def deal(self) -> Deal | None:
        """The deal, once every card is dealt."""
        return self.held.deal

    @deal.setter
    def deal(self, deal: Deal | None) -> None:
        self.held = _Held(deal)

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
        if self.dealer is None:  # the cut for the deal (R6.1): every seat alike
            n = self.g.rules.players
            return [(s, 1.0 / n) for s in range(n)]
        if self._dealing_hands():
            # a research preset: the next hand as one outcome, every hand of the cards left alike
            rules = self.g.rules
            p = 1.0 / comb(sum(self.left.values()), rules.hand_size)
            return [(i, p) for i, hand in enumerate(self.g.hands) if all(self.left.get(c, 0) for c in hand)]
        total = sum(self.left.values())
        return [(i, k / total) for i, c in enumerate(self.g.outcomes) if (k := self.left.get(c, 0))]

    def _dealing_hands(self) -> bool:
        """Whether the next chance outcome is a whole hand (a research preset, hands to deal)."""
        rules = self.g.rules
        return self.g.by_hands and len(self.dealt) < rules.players

    def _legal_actions(self, player: int) -> list[int]:
        if self.deal is None or self.deal.over or player != self.current_player():
            return []
        return sorted(self.g.enc.listed(self.deal.view(player + 1)))

    def _apply_action(self, action: int) -> None:
        if self.dealer is None:
            if not 0 <= action < self.g.rules.players:
                raise ValueError(f"chance outcome {action} is not a seat: the dealer is drawn first")
            self.dealer = action + 1
            return
        if self.deal is None and self._dealing_hands():
            self._deal_hand(action)
            return
        if self.deal is None:
            card = self.g.outcomes[action]
            if not self.left.get(card):
                raise ValueError(f"chance outcome {action} is not possible now")
            self.left[card] -= 1
            self.deck.append(card)
            if len(self.deck) == len(self.g.pack):
                rules = self.g.rules
                self.deal = new_deal(rules, tuple(self.deck), dealer=self.dealer)
                self._fold()
            return
        deal = self.deal
        seat = self.current_player() + 1
        deal.play(self.g.enc.action(action, deal.view(seat)))
        self._fold()

    def _deal_hand(self, action: int) -> None:
        """Deal the next hand of a research preset (:func:`hand_combinations`).  Once every hand
        is dealt, their cards take the places that R8.2's deal one at a time gives them in the
        deck (card ``k`` to the ``k % n``-th player after the dealer); the pack's cards follow,
        one chance outcome each."""
        if not 0 <= action < len(self.g.hands) or not all(self.left.get(c, 0) for c in self.g.hands[action]):
            raise ValueError(f"chance outcome {action} is not possible now")
        hand = self.g.hands[action]
        for c in hand:
            self.left[c] -= 1
        self.dealt.append(hand)
        rules = self.g.rules
        n = rules.players
        if len(self.dealt) == n:
            self.deck = [self.dealt[k % n][k // n] for k in range(n * rules.hand_size)]

    def _fold(self) -> None:
        deal = self.deal
        assert deal is not None
        self.g.enc.fold(self.public, deal)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.dealer is None:
                return f"dealer p{action + 1}"
            if self._dealing_hands() and 0 <= action < len(self.g.hands):
                return "deal " + " ".join(card_str(c) for c in self.g.hands[action])
            c = self.g.outcomes[action]
            return "deal X" if c == JOKER else f"deal {card_str(c)}"
        deal = self.deal
        if deal is not None and not deal.over and player == self.current_player():
            return self.g.enc.action_text(action, player + 1, deal.view(player + 1))  # a further use: its cards
        return self.g.enc.action_text(action, player + 1)

    def returns(self) -> list[float]:
        if self.deal is None or not self.deal.over:
            return [0.0] * self.g.rules.players
        return [float(x) for x in (self.deal.scores() or [0] * self.g.rules.players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ConquianState:
        """A state of the same information set for ``player_id``: every card he has not seen is
        dealt again at random (:func:`conquian.engine.redeal.redeal_unseen`) and the players'
        actions are replayed through this game, so that the state has its own history (the new
        deal's chance outcomes, then the same actions) and its move number.

        A re-deal is kept only if every action is listed at its turn in the new deal, as it was
        in this one: the listing lays each set of hand cards in one partition only
        (``docs/api.md``), so an action can tell the other players something of the hand that
        chose it, and a re-deal that contradicts it is drawn again.  Each action is replayed by
        its index in the new deal (a use's index can depend on the hidden hand that makes it:
        ``docs/encodings.md``).  After ``RESAMPLE_TRIES`` contradicting re-deals the state's own
        deal is returned."""
        seed = int(probability_sampler() * 2**31) if callable(probability_sampler) else random.getrandbits(31)
        if self.deal is None:
            return self.clone()  # still dealing: nothing seen yet
        seat = player_id + 1
        if isinstance(self.deal, ConquianDeal) and seat not in self.deal.seats:
            seat = self.deal.seats[0]
        rng = random.Random(seed)
        chance = int(pyspiel.PlayerId.CHANCE)
        played = [h.action for h in self.full_history() if h.player != chance]
        for _ in range(RESAMPLE_TRIES):
            other = self._replayed(redeal_unseen(self.deal, seat, rng), played)
            if other is not None:
                return other
        return self.clone()

    def _replayed(self, deal: Deal, played: list[int]) -> ConquianState | None:
        """A new state of this game dealt ``deal``'s deck and played ``deal``'s actions (those of
        this state, an exchange's give of a card the re-deal changed giving the new card), each by
        its index in the new state, if every one is listed at its turn."""
        enc, outcome_of = self.g.enc, self.g.outcome_of
        state: ConquianState = self.get_game().new_initial_state()
        if state.dealer is None:
            state.apply_action(deal.dealer - 1)
        deck = deal.deck
        rest = 0
        if self.g.by_hands:  # a research preset: each hand one outcome, then the pack's cards
            n, size = self.g.rules.players, self.g.rules.hand_size
            for p in range(n):
                state.apply_action(self.g.hand_index[tuple(sorted(deck[p:n * size:n]))])
            rest = n * size
        for c in deck[rest:]:
            state.apply_action(outcome_of[c])
        actions = deal.actions()
        if len(actions) != len(played):
            return None
        for action in actions:
            now = state.deal
            assert now is not None
            view = now.view(state.current_player() + 1)
            index = enc.A_GIVE + enc.dense[action.card] if isinstance(action, Give) else enc.index_of(action, view)
            if index is None:
                return None  # not listed in this deal: it contradicts what the players saw
            state.apply_action(index)
        return state if state.deal == deal else None

    def clone(self) -> ConquianState:
        # pyspiel's own: a new state, the attributes deep-copied (the tables shared, the deal copied
        # the cheap way), the history and the move number carried over
        state: ConquianState = pyspiel.State.clone(self)
        return state

    def __deepcopy__(self, memo: dict[int, Any]) -> ConquianState:
        return self.clone()

    def __str__(self) -> str:
        if self.dealer is None:
            return "cutting for the deal"
        if self.deal is None:
            dealt = len(self.deck) or sum(len(hand) for hand in self.dealt)  # a research preset's hands
            return f"p{self.dealer} dealing: {dealt} of {len(self.g.pack)} cards"
        return str(self.deal)


#: Why pyspiel's C++ information-set MCTS bot cannot search these games (``docs/research.md``).
CPP_ISMCTS_REFUSED = (
    "pyspiel.ISMCTSBot (OpenSpiel's C++ information-set MCTS) cannot search {game}, a game written in Python: "
    "its step releases Python's global interpreter lock and then calls the game's Python methods "
    "(observation strings, clones, legal actions), which crashes the interpreter (a segmentation fault); "
    "use OpenSpiel's Python implementation, open_spiel.python.algorithms.ismcts.ISMCTSBot, which calls "
    "the game's resample_from_infostate")


#: Why pyspiel's C++ MCTS bot cannot search these games (``docs/research.md``).
CPP_MCTS_REFUSED = (
    "pyspiel.MCTSBot (OpenSpiel's C++ MCTS) cannot search {game}, a game written in Python: its search "
    "calls the game's Python methods from C++ in a way that crashes the interpreter (a segmentation fault, "
    "as with OpenSpiel's own Python games); use OpenSpiel's Python implementation, "
    "open_spiel.python.algorithms.mcts.MCTSBot")

#: The C++ bots guarded, each with its refusal and the methods that are given a state.
_GUARDED_CPP_BOTS = (
    ("ISMCTSBot", CPP_ISMCTS_REFUSED, ("step", "get_policy", "step_with_policy", "step_verbose")),
    ("MCTSBot", CPP_MCTS_REFUSED, ("step", "mcts_search", "get_policy", "step_with_policy", "step_verbose")),
)


def _guard_cpp_bots() -> None:
    """Make ``pyspiel.ISMCTSBot`` and ``pyspiel.MCTSBot`` refuse a state of these games with
    ``TypeError`` instead of crashing the interpreter (:data:`CPP_ISMCTS_REFUSED`,
    :data:`CPP_MCTS_REFUSED`); every other game they search as before.  The classes themselves
    are changed, not replaced, so that the guard holds for a class imported from ``pyspiel``
    before this module (``from pyspiel import MCTSBot``) and for bots made before it."""
    for name, refusal, methods in _GUARDED_CPP_BOTS:
        cls = getattr(pyspiel, name, None)
        if cls is None or getattr(cls, "guards_python_games", False):
            continue
        for method in methods:
            if hasattr(cls, method):
                setattr(cls, method, _refusing(getattr(cls, method), refusal))
        cls.guards_python_games = True


def _refusing(method: Any, refusal: str) -> Any:
    """``method`` of a C++ bot, refusing a state of these games with ``TypeError`` (``refusal``)."""

    def guarded(self: Any, state: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(state, ConquianState):
            raise TypeError(refusal.format(game=state.get_game().get_type().short_name))
        return method(self, state, *args, **kwargs)

    guarded.__name__ = guarded.__qualname__ = getattr(method, "__name__", "guarded")
    guarded.__doc__ = getattr(method, "__doc__", None)
    return guarded


def _register() -> None:
    for variant in [*PRESETS, *RESEARCH_PRESETS]:
        name = f"Game_{variant.replace('-', '_')}"
        cls = type(name, (ConquianGame,), {"variant": variant, "__module__": __name__})
        globals()[name] = cls  # module-level, as pickle wants a class to be
        pyspiel.register_game(_game_type(variant), cls)


_register()
_guard_cpp_bots()
