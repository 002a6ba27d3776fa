"""The public history of a conquian deal: its events, and actions in the engine's raw form made readable.

A deal keeps its public history as a persistent list of chunks of small tuples (cheap to share
between copies); :func:`conquian_events` turns it into :class:`Event` values when asked.
Both the deal and a seat's view read it, so it lives apart from either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conquian.engine.actions import Action, Discard, Force, Pass, Use, meld_text
from conquian.engine.cards import card_name
from conquian.engine.conquian.listing import K_FORCE, K_PASS, K_USE, RawAction
from conquian.engine.history import Events, Node, newest_first, shared_events

# The public history: a persistent list of chunks of events (conquian.engine.history).
_Node = Node


@dataclass(frozen=True)
class Event:
    """One public event of a deal: what every seat at the table saw.

    ``kind`` is one of ``turn`` (a card turned from the pack), ``pass``,
    ``bury`` (a card refused by both and turned down), ``use`` (``melds`` are
    the combinations laid or changed), ``force``, ``discard``, ``win``,
    ``tableau``.  ``seat`` is the seat who did it (for ``bury``, the seat
    that buried it).
    """

    kind: str
    seat: int
    card: int | None = None
    melds: tuple[int, ...] = ()
    target: int | None = None
    """For ``force``: the seat the card was forced on."""

    def __str__(self) -> str:
        who = f"p{self.seat}"
        c = card_name(self.card) if self.card is not None else ""
        if self.kind == "turn":
            return f"{who} turned {c}"
        if self.kind == "pass":
            return f"{who} passed {c}"
        if self.kind == "bury":
            return f"{who} buried {c}"
        if self.kind == "use":
            return f"{who} used {c}: " + " | ".join(meld_text(m) for m in self.melds)
        if self.kind == "force":
            return f"{who} forced {c} on p{self.target}"
        if self.kind == "discard":
            return f"{who} discarded {c}"
        if self.kind == "win":
            return f"{who} is eleven down and wins"
        return "the pack is exhausted: tableau"


def conquian_events(node: _Node, seats: tuple[int, int], count: int | None = None) -> tuple[Event, ...]:
    """The events of a public history (the last ``count`` of them), oldest first."""
    out: list[Event] = []
    for ev in newest_first(node, count):
        target = seats[1 - ev[1]] if ev[0] == "force" else None
        out.append(Event(ev[0], seats[ev[1]], ev[2], ev[3], target))
    out.reverse()
    return tuple(out)


def seat_events(node: _Node, seats: tuple[int, int]) -> Events[Event]:
    """:func:`conquian_events` of the whole history, for a view: made once per line of play and shared
    (:func:`~conquian.engine.history.shared_events`), so that a view's events cost the same at any
    point of a deal."""

    def make(ev: tuple[Any, ...], _private: Any) -> Event:
        return Event(ev[0], seats[ev[1]], ev[2], ev[3], seats[1 - ev[1]] if ev[0] == "force" else None)

    return shared_events(("conquian", seats), node, None, None, make)


def raw_to_action(seat: int, raw: RawAction) -> Action:
    """The :class:`Action` of a raw action for ``seat``."""
    kind, arg = raw
    if kind == K_USE:
        return Use(seat, arg)
    if kind == K_PASS:
        return Pass(seat)
    if kind == K_FORCE:
        return Force(seat, arg)
    return Discard(seat, arg)


def _event_action(e: Event) -> Action:
    if e.kind == "use":
        return Use(e.seat, e.melds)
    if e.kind == "pass":
        return Pass(e.seat)
    assert e.card is not None
    if e.kind == "force":
        return Force(e.seat, e.card)
    return Discard(e.seat, e.card)


__all__ = ["Event", "conquian_events", "raw_to_action", "seat_events"]
