"""The public history of a Cooncan deal: its events, and actions in the engine's raw form made readable.

A deal keeps its public history as a persistent list of chunks of small tuples (cheap to share
between copies), and each player's draws apart (only the drawer saw them);
:func:`cooncan_events` turns them into :class:`CooncanEvent` values when asked.  Both the deal
and a seat's view read it, so it lives apart from either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

import conquian.engine.cooncan.listing as codes  # the module alone: the package imports this one
from conquian.engine.actions import Action, Add, Discard, Draw, Meld, Shift, Take
from conquian.engine.cards import JOKER, card_name, card_str
from conquian.engine.deal import flatten
from conquian.engine.history import Events, Node, shared_events

_Node = Node  # the public history (conquian.engine.history)
_Cards = Union[tuple["_Cards", int], None]  # noqa: UP007 (a player's draws, newest first)

@dataclass(frozen=True)
class CooncanEvent:
    """One event of a Cooncan deal.  ``card`` of a ``draw`` is known only to the drawer: views of
    other seats hold ``None`` there."""

    kind: str  # start, draw, take, meld, add, shift, discard, turnover, win, void
    seat: int
    card: int | None = None
    combo: int | None = None  # the combination number (meld, add, shift)
    cards: tuple[str, ...] = ()
    text: str = ""  # the combination after the action
    which: str | None = None  # shift: the joker moved, when both ends held one

    def __str__(self) -> str:
        who = f"p{self.seat}"
        if self.kind == "draw":
            return f"{who} drew " + (card_name(self.card) if self.card is not None else "from the pack")
        if self.kind == "take":
            return f"{who} took {card_name(self.card or 0)} from the stock"
        if self.kind == "meld":
            return f"{who} laid out {self.text} (combination {self.combo})"
        if self.kind == "add":
            return f"{who} added {' '.join(self.cards)} to combination {self.combo}: {self.text}"
        if self.kind == "shift":
            return f"{who} moved the joker of combination {self.combo} and added {' '.join(self.cards)}: {self.text}"
        if self.kind == "discard":
            return f"{who} discarded {card_name(self.card or 0)}"
        if self.kind == "start":
            return f"p{self.seat} deals; the stock starts with {card_name(self.card or 0)}"
        if self.kind == "turnover":
            return "the pack is exhausted: the stock is turned over to make a new pack"
        if self.kind == "win":
            return f"{who} is out and wins"
        return "the deal is void: the pack ran out too often, or the deal lasted too long"


def _cards(node: _Cards, limit: int = -1) -> list[int]:
    """The cards of a player's draws, newest first (at most ``limit`` of them when it is not -1)."""
    out: list[int] = []
    while node is not None and len(out) != limit:
        node, c = node
        out.append(c)
    return out


def cooncan_events(node: _Node, drawn: dict[int, _Cards]) -> tuple[CooncanEvent, ...]:
    """The events of a public history, oldest first, each draw from the pack showing its card
    only for the players in ``drawn`` (player index -> that player's draws, newest first)."""
    raw = flatten(node)
    cards = {p: _cards(d) for p, d in drawn.items()}  # newest first: pop() gives the oldest
    out = []
    for ev in reversed(raw):
        kind, p = ev[0], ev[1]
        card = ev[2]
        if kind == "draw" and p in cards:
            card = cards[p].pop()
        out.append(CooncanEvent(kind, p + 1, card, ev[3], ev[4], ev[5], ev[6]))
    return tuple(out)


def seat_events(node: _Node, player: int, drawn: _Cards) -> Events[CooncanEvent]:
    """:func:`cooncan_events` of the whole history as ``player`` reads it (his draws from the pack,
    ``drawn``, show their card), for his view: made once per line of play and shared
    (:func:`~conquian.engine.history.shared_events`)."""

    def back(ev: tuple[Any, ...], own: Any) -> tuple[Any, Any]:
        if ev[0] == "draw" and ev[1] == player:
            return own[0], own[1]
        return own, None

    def make(ev: tuple[Any, ...], private: Any) -> CooncanEvent:
        card = private if private is not None else ev[2]
        return CooncanEvent(ev[0], ev[1] + 1, card, ev[3], ev[4], ev[5], ev[6])

    return shared_events(("cooncan", player), node, drawn, back, make)


def _token(card: int, pos: int, named: int) -> str:
    """A card as written in add/shift: a joker in a sequence names its card (``X=9h``)."""
    if card != JOKER:
        return card_str(card)
    return "X" if pos == 0 else "X=" + card_str(named)


def raw_to_action(seat: int, raw: codes.RawAction, open_stock: bool) -> Action:
    """The Action of a raw Cooncan action."""
    kind, arg = raw
    if kind == codes.K_DRAW:
        return Draw(seat)
    if kind == codes.K_TAKE:
        return Take(seat, arg if open_stock else None)
    if kind == codes.K_DISCARD:
        return Discard(seat, arg)
    if kind == codes.K_MELD3:
        return Meld(seat, tuple(str(codes.new_combo(arg, seat, 0)).split()))
    if kind == codes.K_MELD3R:
        return Meld(seat, tuple(str(codes.new_run3(arg, seat, 0)).split()))
    if kind == codes.K_ADD1:
        k, card, pos, named = arg
        return Add(seat, k + 1, (_token(card, pos, named),))
    if kind == codes.K_SHIFT1:
        k, which, card, pos, named = arg
        return Shift(seat, k + 1, which, (_token(card, pos, named),))
    index, _combo, _removed, tokens, which = arg
    if kind == codes.K_MELD:
        return Meld(seat, tokens)
    if kind == codes.K_ADD:
        return Add(seat, index + 1, tokens)
    return Shift(seat, index + 1, which, tokens)


__all__ = ["CooncanEvent", "cooncan_events", "raw_to_action", "seat_events"]
