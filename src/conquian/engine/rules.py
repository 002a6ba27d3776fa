"""Rules objects: the presets of R1 as data.

A :class:`Rules` value says everything that differs between the forms of the
game; the engine reads it and has no per-variant code paths beyond the three
families (two-hand conquian, R3; Cooncan, R4; the modern conquián mexicano, R8).

```pycon
>>> r = get_rules("conquian")
>>> r.players, r.hand_size, len(r.ranks)
(2, 10, 10)
>>> r.with_options(scoring="pips").options_diff()
{'scoring': 'pips'}
>>> get_rules("conquian", scoring="tricks")
Traceback (most recent call last):
...
conquian.engine.errors.NotationError: R1: option scoring must be one of 'games', 'pips', not 'tricks'

```
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from conquian.engine.errors import NotationError, quote
from conquian.i18n import Msg

CONQUIAN = "conquian"
COONCAN = "cooncan"
MEXICANO = "mexicano"


@dataclass(frozen=True)
class Rules:
    """One form of the game with its options (R1).  Frozen and hashable."""

    name: str
    """The preset's name (``conquian``, ``conquian-spanish``, ``cooncan``, ``cooncan-double``)."""
    family: str
    """``conquian`` (R3: pass-and-say, eleven down), ``cooncan`` (R4: draw, meld, go out) or
    ``mexicano`` (R8: pass-and-say round the table after an exchange, ``hand + 1`` down)."""
    ranks: tuple[int, ...]
    """The ranks in the pack, in sequence order (R2.2); 1 is the ace, 11-13 J Q K."""
    ace_high: bool
    """Whether an ace may also follow the king in a sequence (Cooncan, R2.2)."""
    copies: int
    """Copies of each card: 1, or 2 for the double pack."""
    hand_size: int
    """Cards dealt to each player (the option ``hand`` of ``conquian-mexicano``, R8.1)."""
    deal_batch: int
    """Cards dealt at a time (two in conquian, one in Cooncan)."""
    min_players: int
    max_players: int
    players: int
    """Players seated at the table (for conquian, 3 means the dealer sits out, R6.3)."""
    jokers: int = 0
    stock: str = "say"
    """``say`` (conquian), ``closed`` or ``open`` (R4.2)."""
    scoring: str = "games"
    """Conquian: ``games`` (R5.1) or ``pips`` (R5.2).  Cooncan always scores pips."""
    splash_bonus: int = 0
    max_pack_turns: int = 3
    max_turns: int = 2000
    """Cooncan: turns after which a deal is void even if the pack never runs out (players who
    only ever take from the stock never exhaust it).  A refinement of R1's bound: see R4.5."""
    discard_taken: bool = True
    """Cooncan: whether a player may discard the card he took from the stock in the same turn (R1).
    ``False`` is the house rule that forbids this do-nothing turn."""
    exchange: bool = True
    """Conquián mexicano: whether each player gives a card to the next before play (R8.2)."""
    exhausted: str = "tablas"
    """Conquián mexicano, the pack exhausted (R8.6): ``tablas`` (a draw) or ``fewest`` (the
    fewest cards in hand win)."""
    research: bool = False
    """Whether this is a research preset (:data:`RESEARCH_PRESETS`): a miniature of a game
    preset made to be solved exactly, not a form of the game people play."""

    # ------------------------------------------------------------------ options
    def with_options(self, **options: Any) -> Rules:
        """A copy with options changed, each checked against R1."""
        if not options:
            return self
        allowed = _OPTIONS[self.family]
        for key, value in options.items():
            if key not in allowed:
                raise _refused("R1", Msg("{value} is not an option of {variant} (options: {options})",
                                         value=quote(key, 30), variant=self.name, options=", ".join(sorted(allowed))))
            kind = _TYPES[key]
            if type(value) is not kind:
                raise _refused("R1", Msg("option {option} takes {kind}, not {value} ({type})", option=key,
                                         kind=_TYPE_WORDS[kind], value=quote(value, 30), type=type(value).__name__))
        new = dataclasses.replace(self, **{_FIELDS.get(k, k): v for k, v in options.items()})
        new.check()
        return new

    def check(self) -> None:
        """Raise :class:`NotationError` naming R1 if an option is out of range."""

        def bad(key: str, choices: tuple[Any, ...]) -> None:
            value = getattr(self, key)
            if value not in choices:
                raise _refused("R1", Msg("option {option} must be one of {choices}, not {value}", option=key,
                                         choices=", ".join(map(repr, choices)), value=repr(value)))

        if self.family == CONQUIAN:
            bad("scoring", ("games", "pips"))
        elif self.family == MEXICANO:
            self._check_mexicano()
            return
        else:
            bad("splash_bonus", (0, 25, 50))
            if self.copies == 1:
                bad("jokers", (0, 1))
                bad("stock", ("closed", "open"))
            else:  # the double pack: two jokers, closed stock (R1, R4.2)
                bad("jokers", (2,))
                bad("stock", ("closed",))
        if not self.min_players <= self.players <= self.max_players:
            raise _refused("R1", Msg("{variant} is played by {low} to {high} players, not {value}", variant=self.name,
                                     low=self.min_players, high=self.max_players, value=repr(self.players)))
        if not 0 <= self.max_pack_turns <= MAX_PACK_TURNS:
            raise _refused("R1", Msg("{option} must be a whole number from {low} to {high}, not {value}",
                                     option="max_pack_turns", low=0, high=MAX_PACK_TURNS,
                                     value=repr(self.max_pack_turns)))
        if not 1 <= self.max_turns <= MAX_TURNS:
            raise _refused("R1", Msg("{option} must be a whole number from {low} to {high}, not {value}",
                                     option="max_turns", low=1, high=f"{MAX_TURNS:,}", value=repr(self.max_turns)))

    def _check_mexicano(self) -> None:
        """R8.1: ``hand`` 8 or 9, ``exhausted`` tablas or fewest, 2 or 3 players (4 with ``hand=8``).
        A research preset keeps its own hand size and players (:data:`RESEARCH_PRESETS`)."""
        if self.research:
            self._check_research()
            return
        if self.hand_size not in (8, 9):
            raise _refused("R8.1", Msg("option {option} must be one of {choices}, not {value}", option="hand",
                                       choices="8, 9", value=repr(self.hand_size)))
        if self.exhausted not in ("tablas", "fewest"):
            raise _refused("R8.1", Msg("option {option} must be one of {choices}, not {value}", option="exhausted",
                                       choices="'tablas', 'fewest'", value=repr(self.exhausted)))
        top = 4 if self.hand_size == 8 else 3
        if not self.min_players <= self.players <= top:
            if self.players == 4:
                raise _refused("R8.1", Msg("{variant} with hand={hand} is played by {low} to {high} players, not "
                                           "{value} (four play only with hand=8)", variant=self.name,
                                           hand=self.hand_size, low=self.min_players, high=top,
                                           value=repr(self.players)))
            raise _refused("R8.1", Msg("{variant} with hand={hand} is played by {low} to {high} players, not {value}",
                                       variant=self.name, hand=self.hand_size, low=self.min_players, high=top,
                                       value=repr(self.players)))

    def _check_research(self) -> None:
        """A research preset (:data:`RESEARCH_PRESETS`): its ``hand`` and its players are the
        preset's own (the size of its game tree depends on them); ``exhausted`` as in R8.1."""
        base = RESEARCH_PRESETS[self.name]
        if self.hand_size != base.hand_size:
            raise _refused("R8.1", Msg("option {option} must be one of {choices}, not {value}", option="hand",
                                       choices=str(base.hand_size), value=repr(self.hand_size)))
        if self.exhausted not in ("tablas", "fewest"):
            raise _refused("R8.1", Msg("option {option} must be one of {choices}, not {value}", option="exhausted",
                                       choices="'tablas', 'fewest'", value=repr(self.exhausted)))
        if not self.min_players <= self.players <= self.max_players:
            raise _refused("R1", Msg("{variant} is played by {low} to {high} players, not {value}", variant=self.name,
                                     low=self.min_players, high=self.max_players, value=repr(self.players)))

    def option_values(self) -> dict[str, Any]:
        """Every option of the family with its value in these rules, by its name in R1 and R8.1."""
        return {key: getattr(self, _FIELDS.get(key, key)) for key in sorted(_OPTIONS[self.family])}

    def options_diff(self) -> dict[str, Any]:
        """The options that differ from the preset (what a record stores, docs/records.md)."""
        base = preset(self.name)
        return {
            key: getattr(self, _FIELDS.get(key, key))
            for key in sorted(_OPTIONS[self.family])
            if key != "players" and getattr(self, _FIELDS.get(key, key)) != getattr(base, _FIELDS.get(key, key))
        }

    @property
    def pack_size(self) -> int:
        """Cards in the pack, jokers included."""
        return 4 * len(self.ranks) * self.copies + self.jokers

    @property
    def active_players(self) -> int:
        """Players who hold cards in a deal (R6.3: a third conquian player sits out; R8: every one)."""
        return 2 if self.family == CONQUIAN else self.players


_OPTIONS = {
    CONQUIAN: frozenset({"scoring", "players"}),
    COONCAN: frozenset(
        {"splash_bonus", "max_pack_turns", "max_turns", "players", "jokers", "stock", "discard_taken"}
    ),
    MEXICANO: frozenset({"hand", "exchange", "exhausted", "players"}),
}
#: Options whose field has another name (R8.1's ``hand`` is the cards dealt to each player).
_FIELDS = {"hand": "hand_size"}
# R1: option values are typed; a value of another type is refused, never coerced (True is not 1).
_TYPES: dict[str, type] = {
    "scoring": str, "stock": str, "players": int, "jokers": int, "splash_bonus": int,
    "max_pack_turns": int, "max_turns": int, "discard_taken": bool, "hand": int, "exchange": bool,
    "exhausted": str,
}
_TYPE_WORDS = {str: Msg("a string"), int: Msg("a whole number"), bool: Msg("true or false")}
#: Bounds that keep a deal finite and a typo harmless (R1's bounds are Decisions for software).
MAX_PACK_TURNS = 100
MAX_TURNS = 1_000_000

_A10 = tuple(range(1, 11))
_SPANISH = (1, 2, 3, 4, 5, 6, 7, 11, 12, 13)
_FULL = tuple(range(1, 14))

PRESETS: dict[str, Rules] = {
    "conquian": Rules(
        name="conquian", family=CONQUIAN, ranks=_A10, ace_high=False, copies=1,
        hand_size=10, deal_batch=2, min_players=2, max_players=3, players=2,
    ),
    "conquian-spanish": Rules(
        name="conquian-spanish", family=CONQUIAN, ranks=_SPANISH, ace_high=False, copies=1,
        hand_size=10, deal_batch=2, min_players=2, max_players=3, players=2,
    ),
    "cooncan": Rules(
        name="cooncan", family=COONCAN, ranks=_FULL, ace_high=True, copies=1,
        hand_size=7, deal_batch=1, min_players=2, max_players=3, players=3,
        jokers=1, stock="closed", scoring="pips",
    ),
    "cooncan-double": Rules(
        name="cooncan-double", family=COONCAN, ranks=_FULL, ace_high=True, copies=2,
        hand_size=10, deal_batch=1, min_players=2, max_players=7, players=5,
        jokers=2, stock="closed", scoring="pips",
    ),
    # R8.1: the Spanish pack of conquian-spanish, dealt one at a time, going out with hand + 1
    "conquian-mexicano": Rules(
        name="conquian-mexicano", family=MEXICANO, ranks=_SPANISH, ace_high=False, copies=1,
        hand_size=8, deal_batch=1, min_players=2, max_players=4, players=2,
    ),
}


#: Research presets: miniatures of a game preset whose whole game tree OpenSpiel's exact tools
#: (counterfactual regret minimisation, best responses, exploitability) can walk
#: (``docs/research.md``).  They are not offered for play: the lobby, the command line's
#: ``play`` and the records know only :data:`PRESETS`; :func:`get_rules` gives them by name.
RESEARCH_PRESETS: dict[str, Rules] = {
    # R8 for two without the exchange, which is R3 (R8.3: "with two players this is exactly
    # R3.3"), on a pack of eight cards: the aces and twos of the four suits.  Three cards a
    # hand, out with four down (R8.5: hand + 1), a pack of two cards, a draw when it is empty
    # (R8.6).  What changes: the pack (R1's 40 cards; with two ranks the combinations are sets
    # of three and four, no sequence), the hand (R8.1's 8 or 9; R8.1's check is relaxed for this
    # preset alone) and the players (two only).  Why: its whole game tree, chance included, is
    # 41,833 states with one dealer, which OpenSpiel's exact tools walk (docs/research.md).
    "conquian-tiny": Rules(
        name="conquian-tiny", family=MEXICANO, ranks=(1, 2), ace_high=False, copies=1,
        hand_size=3, deal_batch=1, min_players=2, max_players=2, players=2, exchange=False,
        research=True,
    ),
}


def preset(name: str) -> Rules:
    """The preset called ``name``, a game preset (:data:`PRESETS`) or a research one
    (:data:`RESEARCH_PRESETS`); ``KeyError`` if there is none."""
    found = PRESETS.get(name) or RESEARCH_PRESETS.get(name)
    if found is None:
        raise KeyError(name)
    return found


def _refused(rule: str, cause: Msg) -> NotationError:
    """The error of an option or variant that R1 (or R8.1) refuses: ``R1: cause``."""
    return NotationError(Msg("{rule}: {cause}", rule=rule, cause=cause))


def get_rules(name: str, **options: Any) -> Rules:
    """The preset called ``name`` with ``options`` applied (R1); a research preset
    (:data:`RESEARCH_PRESETS`) is found by its name too."""
    base = (PRESETS.get(name) or RESEARCH_PRESETS.get(name)) if isinstance(name, str) else None
    if base is None:
        raise _refused("R1", Msg("unknown variant {value} (variants: {variants})", value=quote(name, 30),
                                 variants=", ".join(PRESETS)))
    return base.with_options(**options)
