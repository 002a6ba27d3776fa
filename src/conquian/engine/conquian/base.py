"""What the conquian family's deals and views share: :class:`ConquianFamilyDeal`, the rules of
:class:`~conquian.engine.conquian.deal.ConquianDeal` (R3) that
:class:`~conquian.engine.conquian.mexicano.MexicanoDeal` (R8) plays round a table, and
:class:`ConquianFamilyView`, the same for their views.

The two deals are variants of one game, written as python-chess writes its variants: the family
class holds the state both keep and the rules both play (a use, a pass, a force, a discard, and
how each is checked), and each deal overrides only what differs: its seats, its phases and rule
numbers (class data), the say going round, the targets of a force, the exchange, the end and the
scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from functools import cached_property
from typing import Any, ClassVar, NoReturn, Self

from conquian.engine.actions import Action, Discard, Force, Pass, Use, meld_text
from conquian.engine.cards import CardSet, card_str, mask_str, the_card
from conquian.engine.conquian.melds import MeldTable, meld_table
from conquian.engine.deal import CardRow, DealMixin, RawAction, as_action, setup_deck
from conquian.engine.errors import IllegalActionError
from conquian.engine.rules import Rules
from conquian.i18n import Msg

#: The raw action kinds both deals share (:mod:`~conquian.engine.conquian.listing`,
#: :mod:`~conquian.engine.conquian.mexicano_listing`): the same numbers in both.
K_USE, K_PASS, K_FORCE, K_DISCARD = 0, 1, 2, 3


class ConquianFamilyDeal(DealMixin):
    """A deal whose players each hold a hand and a side of combinations, with one card in play
    at most: internal players ``0..n-1``, ``seats`` their seat numbers, hands and combinations as
    card masks, the pack ``deck[pos:]``.

    A variant names its stages and rules as class data (``OVER_STAGE``, ``PHASE_NAMES``, the
    ``R_*`` rule numbers) and overrides the hooks where its play differs.
    """

    __slots__ = (
        "_deck", "actor", "buried", "card", "dealer", "downs", "hands", "n_actions", "pos",
        "rules", "seats", "sides", "stage", "tbl", "winner",
    )

    OVER_STAGE: ClassVar[int]
    """The value of ``stage`` once the deal is over (for tight loops)."""
    FORCED_STAGE: ClassVar[int]
    """The stage in which the actor must use the card forced on him."""
    DISCARD_STAGE: ClassVar[int]
    """The stage in which the actor has used a card and must discard."""
    PHASE_NAMES: ClassVar[tuple[str, ...]]
    """The name of each stage (:attr:`phase`)."""
    R_SAY: ClassVar[str]
    """The rule of the say to the card in play."""
    R_DISCARD: ClassVar[str]
    """The rule of the discard after a use."""
    R_FORCE: ClassVar[str]
    """The rule of forcing a card."""
    NOT_AN_ACTION: ClassVar[str]
    """The message for an action of another game (``{action}``)."""
    FAMILY: ClassVar[str]
    """The rules' family (:data:`~conquian.engine.rules.CONQUIAN`, ...): the deal refuses others."""
    R_DEAL: ClassVar[str]
    """The rule of the deal (the pack and the dealer)."""
    EXCHANGE_STAGE: ClassVar[int] = -1
    """The stage of the variant's exchange before the first card (the mexicano's, R8.2), if any."""

    rules: Rules
    tbl: MeldTable
    dealer: int
    seats: tuple[int, ...]
    _deck: bytes
    """The deck, top card first, one byte a card (a stored deal holds 40 bytes, not 40 pointers)."""
    pos: int
    hands: list[int]
    sides: list[tuple[int, ...]]
    downs: list[int]
    card: int
    stage: int
    actor: int
    buried: int
    winner: int
    n_events: int
    n_actions: int

    def __init__(
        self,
        rules: Rules,
        deck: Sequence[int] | None = None,
        *,
        seed: int | None = None,
        dealer: int = 1,
    ) -> None:
        deck = setup_deck(rules, self.FAMILY, deck, seed, dealer, self.R_DEAL)
        self.rules = rules
        self.tbl = meld_table(rules)
        self.dealer = dealer
        self.deck = deck
        self.card = -1
        self.buried = 0
        self.winner = -1
        self.events = None
        self.n_events = 0
        self.n_actions = 0
        self.actor = 0
        self._deal(rules.players)

    def _deal(self, n: int) -> None:
        """Seat the ``n`` players at the table, deal their hands from :attr:`deck` and begin."""
        raise NotImplementedError

    COPIED_LISTS: ClassVar[frozenset[str]] = frozenset({"hands", "sides", "downs"})
    """The attributes that a copy copies (the lists a deal changes in place); it shares every other."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        copy = _copier(cls)
        for name in ("copy", "__copy__"):
            setattr(cls, name, copy)

    def copy(self) -> Self:
        """An independent copy (cheap: the deck and history are shared, immutable).  Each variant's
        is written out when its class is made (:func:`_copier`)."""
        raise NotImplementedError

    deck = CardRow("_deck", "The whole pack as dealt, top card first (what a record stores).")

    def player_of(self, seat: int) -> int:
        """The internal player index of a seat (each deal says how it numbers them)."""
        raise NotImplementedError

    @property
    def over(self) -> bool:
        """Whether the deal has ended (a win, or a tableau: R3.7, R8.6)."""
        return self.stage == self.OVER_STAGE

    @property
    def phase(self) -> str:
        """The phase by name: ``say`` (use, pass or force the card in play), ``forced``,
        ``discard`` or ``over``, and the mexicano's ``exchange`` (R8.2)."""
        return self.PHASE_NAMES[self.stage]

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` when the deal is over."""
        return None if self.stage == self.OVER_STAGE else self.seats[self.actor]

    @property
    def tableau(self) -> bool:
        """Whether the deal ended with no winner: a tableau (R3.7), the mexicano's draw (R8.6,
        reported as a tableau, docs/records.md)."""
        return self.stage == self.OVER_STAGE and self.winner < 0

    @property
    def card_in_play(self) -> int | None:
        """The face-up card in play (turned, passed, discarded or forced), if any."""
        return None if self.card < 0 else self.card

    @property
    def winner_seat(self) -> int | None:
        """The winning seat, or ``None``."""
        return None if self.winner < 0 else self.seats[self.winner]

    @property
    def pack_count(self) -> int:
        """Cards left face down in the pack."""
        return len(self._deck) - self.pos

    def hand(self, seat: int) -> CardSet:
        """The cards in a seat's hand (not for bots: they get :meth:`view`)."""
        return CardSet(self.hands[self.player_of(seat)])

    def side(self, seat: int) -> tuple[CardSet, ...]:
        """A seat's combinations on the table."""
        return tuple(CardSet(m) for m in self.sides[self.player_of(seat)])

    def _side_text(self, p: int) -> str:
        return " | ".join(meld_text(m) for m in self.sides[p]) or "nothing"

    def _side_words(self, p: int) -> str | Msg:
        """A player's side for a message: its combinations in notation, or "nothing" in words."""
        return " | ".join(meld_text(m) for m in self.sides[p]) or Msg("nothing")

    # ------------------------------------------------------------------- play
    def _use(self, p: int, melds: tuple[int, ...]) -> None:
        """Player ``p`` lays ``melds`` with the card in play (R3.4): his side keeps the combinations
        the use leaves untouched and the new ones follow; with no card left in his hand he wins."""
        u = 0
        for m in melds:
            u |= m
        self._push(("use", p, self.card, melds, *self._NO_TARGET))
        self.sides[p] = tuple(m for m in self.sides[p] if not m & u) + melds
        self.downs[p] |= u
        self.hands[p] &= ~u
        self.card = -1
        if self.hands[p] == 0:
            # R3.7, R8.5: every card of his down, and the card just used
            self.winner = p
            self.stage = self.OVER_STAGE
            self._push(self._EVENTS["win"][p][64])
        else:
            self.stage = self.DISCARD_STAGE

    _NO_TARGET: ClassVar[tuple[int, ...]] = ()
    """What ends an event beside its combinations (the mexicano's events name a target too)."""
    _EVENTS: ClassVar[dict[str, list[list[tuple[Any, ...]]]]]
    """Every event without combinations, made once: kind -> player -> card (64: none) -> event
    (a stored deal holds only its links)."""

    # --------------------------------------------------------------- checking
    def verify(self, action: Action | str) -> RawAction:
        """Check one action without playing it: return its raw form or raise (R7).

        Cheap: it checks the given action directly, never enumerating the
        rearrangements (python-chess's ``move in legal_moves``).
        """
        action = as_action(action)
        stage = self.stage
        if stage == self.OVER_STAGE:
            raise IllegalActionError(self._over_rule(), Msg("the deal is over"))
        p = self.actor
        seat = self.seats[p]
        if action.seat != seat:
            self._out_of_turn(action)
        if stage == self.EXCHANGE_STAGE:
            return self._verify_exchange(action)
        if isinstance(action, Use):
            if stage == self.DISCARD_STAGE:
                raise IllegalActionError(self.R_DISCARD, Msg("{seat} has used a card and must now discard",
                                                             seat=f"p{seat}"))
            return (K_USE, self._check_use(p, action.melds))
        if isinstance(action, Pass):
            if stage == self.FORCED_STAGE:
                raise IllegalActionError(self.R_FORCE, Msg("{seat} cannot refuse a forced card: he must use {card}",
                                                           seat=f"p{seat}", card=the_card(self.card, True)))
            if stage == self.DISCARD_STAGE:
                raise IllegalActionError(self.R_DISCARD, Msg("{seat} has used a card and must discard, not pass",
                                                             seat=f"p{seat}"))
            return (K_PASS, -1)
        if isinstance(action, Force):
            return (K_FORCE, self._check_force(p, action))
        if isinstance(action, Discard):
            if stage != self.DISCARD_STAGE:
                if stage == self.FORCED_STAGE:
                    raise IllegalActionError(self.R_FORCE, Msg("{seat} must first use the card forced on him",
                                                               seat=f"p{seat}"))
                raise IllegalActionError(self.R_DISCARD, Msg("a player discards only after using a card"))
            self._check_holds(p, action.card)
            return (K_DISCARD, action.card)
        return self._verify_other(action)

    def _over_rule(self) -> str:
        """The rule that ended the deal (for the message refusing any action after it)."""
        raise NotImplementedError

    def _out_of_turn(self, action: Action) -> None:
        """Refuse an action by a seat that is not to act, saying why."""
        raise NotImplementedError

    def _not_theirs(self, who: int) -> NoReturn:
        """Refuse seat ``who`` the discard or the say of the player to act (R3.3, R3.5, R8.3)."""
        seat, other = f"p{self.seats[self.actor]}", f"p{who}"
        if self.stage == self.DISCARD_STAGE:
            raise IllegalActionError(self.R_DISCARD, Msg("it is {seat}'s discard, not {other}'s", seat=seat,
                                                         other=other))
        raise IllegalActionError(self.R_SAY, Msg("it is {seat}'s say, not {other}'s", seat=seat, other=other))

    def _verify_exchange(self, action: Action) -> RawAction:
        """Check an action in the variant's exchange before the first card (R8.2)."""
        raise NotImplementedError

    def _verify_other(self, action: Action) -> RawAction:
        """Check an action that is none of the family's: the variant's own, or refused."""
        raise IllegalActionError(self.R_SAY, Msg(self.NOT_AN_ACTION, action=str(action)))

    def _check_use(self, p: int, melds: tuple[int, ...]) -> tuple[int, ...]:
        raise NotImplementedError

    def _check_force(self, p: int, action: Force) -> int:
        """The raw argument of a force by player ``p`` (its card, and the variant's target)."""
        raise NotImplementedError

    def _check_holds(self, p: int, c: int) -> None:
        """R3.5: a player discards, or forces at his discard, only a card of his hand."""
        if not self.hands[p] >> c & 1:
            raise IllegalActionError("R3.5", Msg("{seat} does not hold {card}", seat=f"p{self.seats[p]}",
                                                 card=the_card(c, True)))

    def _check_forced_card(self, p: int, c: int) -> None:
        """A force comes at the say to the card in play (that card) or at the discard (a card of
        the hand), never with a forced card to use (R3.6, R8.4)."""
        if self.stage == self.FORCED_STAGE:
            raise IllegalActionError(self.R_FORCE, Msg("{seat} must use the card forced on him before anything else",
                                                       seat=f"p{self.seats[p]}"))
        if self.stage == self.DISCARD_STAGE:
            self._check_holds(p, c)
        elif c != self.card:
            raise IllegalActionError(self.R_FORCE, Msg("only the card in play, {card}, can be forced now, not {value}",
                                                       card=the_card(self.card, True), value=the_card(c, True)))

    def _check_fits(self, t: int, c: int) -> None:
        """A card is forced only on a player whose combinations it fits (R3.6, R8.4)."""
        if not self.sides[t]:
            raise IllegalActionError(self.R_FORCE, Msg("{seat} has nothing on the table and cannot be forced",
                                                       seat=f"p{self.seats[t]}"))
        if not any(self.tbl.fits(m, c) for m in self.sides[t]):
            raise IllegalActionError(self.R_FORCE, Msg("{card} fits none of {seat}'s combinations ({side})",
                                                       card=the_card(c, True), seat=f"p{self.seats[t]}",
                                                       side=self._side_words(t)))

    # ---------------------------------------------------------------- showing
    def _view_fields(self, seat: int, hand: int) -> dict[str, Any]:
        """The fields both views read, for the view of ``seat`` holding ``hand`` (but the counts of the
        hands, which each variant counts its own fastest way): the variant's
        :meth:`view` adds its own and fills its view's dict with them at once (a frozen
        dataclass's ``__init__`` sets each field through ``object.__setattr__``; filling the
        instance's dict is the same object, several times cheaper, and views are made at every
        decision of every bot and environment)."""
        return {
            "rules": self.rules,
            "seat": seat,
            "dealer": self.dealer,
            "seats": self.seats,
            "hand_mask": hand,
            "side_masks": tuple(self.sides),
            "card": self.card,
            "stage": self.stage,
            "actor_seat": self.to_act,
            "pack_count": self.pack_count,
            "buried_mask": self.buried,
            "n_events": self.n_events,
            "winner_seat": self.winner_seat,
            "event_node": self.events,
            "table": self.tbl,  # not a field: the cached meld table of the pack, found already
        }

    def _role(self, p: int) -> str:
        """What follows a player's seat in :meth:`__str__` (his part at the table), if anything."""
        return ""

    _NO_WINNER: ClassVar[str] = "tableau"
    """How :meth:`__str__` ends a deal with no winner."""

    def __str__(self) -> str:
        lines = []
        for p, seat in enumerate(self.seats):
            lines.append(f"p{seat}{self._role(p)} hand: {mask_str(self.hands[p])}")
            lines.append(f"p{seat} table: {self._side_text(p)}")
        if self.stage == self.OVER_STAGE:
            lines.append("over: " + (f"p{self.winner_seat} wins" if self.winner >= 0 else self._NO_WINNER))
        else:
            card = card_str(self.card) if self.card >= 0 else "-"
            lines.append(f"in play: {card}; p{self.to_act} to {self.phase}; pack {self.pack_count}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.rules.name} dealer=p{self.dealer} actions={self.n_actions} {self.phase}>"


def _copier(cls: type[ConquianFamilyDeal]) -> Any:
    """``cls.copy``, one assignment a slot of ``cls`` and its bases (the lists of
    :attr:`~ConquianFamilyDeal.COPIED_LISTS` copied), written out as :mod:`dataclasses` writes an
    ``__init__``: a variant adds its slots and its copy follows, with no loop or call to slow
    the search, which copies states millions of times."""
    slots = [name for k in reversed(cls.__mro__) for name in k.__dict__.get("__slots__", ())
             if name != "_listed"]  # the listing kept for this state: a copy lists its own
    body = "".join(f"    new.{a} = self.{a}[:]\n" if a in cls.COPIED_LISTS else f"    new.{a} = self.{a}\n"
                   for a in slots)
    code = f"def copy(self):\n    new = object.__new__(cls)\n{body}    return new\n"
    space: dict[str, Any] = {"cls": cls}
    exec(code, space)
    copy = space["copy"]
    copy.__qualname__ = f"{cls.__qualname__}.copy"
    copy.__module__ = cls.__module__
    copy.__doc__ = ConquianFamilyDeal.copy.__doc__
    return copy


class ConquianFamilyView:
    """What a seat's view of either conquian deal reads the same way (its fields are the views'
    own: :class:`~conquian.engine.conquian.view.ConquianView`,
    :class:`~conquian.engine.conquian.mexicano_view.MexicanoView`, frozen dataclasses; like the
    deals, each names its stages as class data)."""

    OVER_STAGE: ClassVar[int]
    FORCED_STAGE: ClassVar[int]
    DISCARD_STAGE: ClassVar[int]
    PHASE_NAMES: ClassVar[tuple[str, ...]]

    rules: Rules
    seat: int
    hand_mask: int
    side_masks: tuple[tuple[int, ...], ...]
    card: int
    stage: int
    actor_seat: int | None

    @property
    def events(self) -> Sequence[Any]:
        """The public history, oldest first (each view reads its own kind of event)."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, ConquianFamilyView)
        return all(getattr(self, f.name) == getattr(other, f.name) for f in fields(self)  # type: ignore[arg-type]
                   if f.name != "event_node") and self.events == other.events

    __hash__ = None  # type: ignore[assignment]

    @property
    def player(self) -> int:
        """This seat's player index (each view says how it numbers them)."""
        raise NotImplementedError

    @property
    def hand(self) -> CardSet:
        """This seat's hand."""
        return CardSet(self.hand_mask)

    @property
    def my_side(self) -> tuple[int, ...]:
        """This seat's combinations (masks)."""
        return self.side_masks[self.player]

    @property
    def phase(self) -> str:
        """The phase by name (as :attr:`ConquianFamilyDeal.phase`)."""
        return self.PHASE_NAMES[self.stage]

    @property
    def over(self) -> bool:
        """Whether the deal is over."""
        return self.stage == self.OVER_STAGE

    @property
    def must_discard(self) -> bool:
        """Whether this seat must discard now."""
        return self.stage == self.DISCARD_STAGE and self.actor_seat == self.seat

    @property
    def forced(self) -> bool:
        """Whether a card has been forced on this seat."""
        return self.stage == self.FORCED_STAGE and self.actor_seat == self.seat

    @property
    def card_in_play(self) -> int | None:
        """The face-up card in play, if any."""
        return None if self.card < 0 else self.card

    @property
    def to_act(self) -> int | None:
        """The seat to act."""
        return self.actor_seat

    @cached_property
    def table(self) -> MeldTable:
        """The meld table of the pack (the deal gives it to the views it makes)."""
        return meld_table(self.rules)

    def down_mask(self, player: int) -> int:
        """All cards on one side of the table (by player index)."""
        m = 0
        for x in self.side_masks[player]:
            m |= x
        return m
