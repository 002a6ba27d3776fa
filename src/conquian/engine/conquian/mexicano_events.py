"""The public history of a conquián mexicano deal (R8): its events, and raw actions made readable.

The deal keeps its public history as a persistent list of chunks of tuples
``(kind, player, card, melds, target)`` shared with every view, so nothing hidden is ever put
in it: a ``give`` event says who gave a card, never which (R8.2); the deal keeps the cards
given apart.  Both the deal and a seat's view read this module, so it lives apart from either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conquian.engine.actions import Action, Discard, Force, Give, Pass, Use
from conquian.engine.cards import card_name
from conquian.engine.conquian.events import Event
from conquian.engine.conquian.mexicano_listing import FORCE_SHIFT, K_DISCARD, K_FORCE, K_GIVE, K_PASS, K_USE, RawAction
from conquian.engine.history import Events, Node, newest_first, shared_events

# The public history (conquian.engine.history), each event (kind, player, card, melds, target player or -1)
_Node = Node


@dataclass(frozen=True)
class MexicanoEvent(Event):
    """One public event of a conquián mexicano deal.

    ``kind`` is one of conquian's (``turn``, ``pass``, ``bury``, ``use``, ``force`` with its
    ``target``, ``discard``, ``win``, ``tableau``: here a draw, R8.6) or ``give`` (a seat gave
    a card face down: ``card`` is None), ``exchange`` (every seat has given: the cards change
    hands, R8.2) and ``fewest`` (the pack is exhausted and ``seat`` holds the fewest cards, R8.6).
    """

    def __str__(self) -> str:
        who = f"p{self.seat}"
        c = card_name(self.card) if self.card is not None else ""
        if self.kind == "give":
            return f"{who} gave a card" + (f" ({c})" if c else "")
        if self.kind == "exchange":
            return "the cards given change hands"
        if self.kind == "win":
            return f"{who} is out and wins"
        if self.kind == "fewest":
            return f"the pack is exhausted: {who} holds the fewest cards and wins"
        if self.kind == "tableau":
            return "the pack is exhausted: tablas (a draw)"
        return super().__str__()


def mexicano_events(node: _Node, seats: tuple[int, ...], count: int | None = None) -> tuple[MexicanoEvent, ...]:
    """The events of a public history (the last ``count`` of them), oldest first."""
    out: list[MexicanoEvent] = []
    for kind, p, card, melds, target in newest_first(node, count):
        out.append(MexicanoEvent(kind, seats[p], card, melds, seats[target] if target >= 0 else None))
    out.reverse()
    return tuple(out)


def mexicano_seat_events(node: _Node, seats: tuple[int, ...]) -> Events[MexicanoEvent]:
    """:func:`mexicano_events` of the whole history for a view, made once per line of play and
    shared (:func:`~conquian.engine.history.shared_events`)."""

    def make(ev: tuple[Any, ...], _private: Any) -> MexicanoEvent:
        kind, p, card, melds, target = ev
        return MexicanoEvent(kind, seats[p], card, melds, seats[target] if target >= 0 else None)

    return shared_events(("mexicano", seats), node, None, None, make)


def raw_to_action(seats: tuple[int, ...], actor: int, raw: RawAction) -> Action:
    """The :class:`Action` of a raw action of player index ``actor``; a force names its target
    only with more than two players (the canonical form, docs/records.md)."""
    kind, arg = raw
    seat = seats[actor]
    if kind == K_USE:
        return Use(seat, arg)
    if kind == K_PASS:
        return Pass(seat)
    if kind == K_FORCE:
        target = seats[arg >> FORCE_SHIFT] if len(seats) > 2 else None
        return Force(seat, arg & 63, target)
    if kind == K_DISCARD:
        return Discard(seat, arg)
    assert kind == K_GIVE
    return Give(seat, arg)


def event_action(e: MexicanoEvent, n: int, gave: int | None = None) -> Action:
    """The action of a ``use``, ``pass``, ``force``, ``discard`` or ``give`` event (``gave``: the
    card given, which the public event does not hold)."""
    if e.kind == "use":
        return Use(e.seat, e.melds)
    if e.kind == "pass":
        return Pass(e.seat)
    if e.kind == "give":
        assert gave is not None
        return Give(e.seat, gave)
    assert e.card is not None
    if e.kind == "force":
        return Force(e.seat, e.card, e.target if n > 2 else None)
    return Discard(e.seat, e.card)


#: The kinds of event that are actions (what a record stores).
ACTION_KINDS = frozenset({"give", "use", "pass", "force", "discard"})

__all__ = ["ACTION_KINDS", "MexicanoEvent", "event_action", "mexicano_events", "raw_to_action"]
