"""The conquián mexicano's phases, raw actions and legal listing (R8), as pure functions over masks.

Shared by :class:`~conquian.engine.conquian.mexicano.MexicanoDeal` and its view (so that the
view needs no deal), and by the bots' policies.  The uses of a card are conquian's
(:func:`~conquian.engine.conquian.listing.use_forms`, R3.4); what is new is the exchange
(R8.2) and the force, which names the player forced (R8.4).

A raw force packs that player into its argument: ``target << FORCE_SHIFT | card``, the target
being the *player index* (0 the first player after the dealer), so raw actions stay pairs of
ints like conquian's.

```pycon
>>> from conquian import get_rules
>>> from conquian.engine.cards import CardSet, card_str, parse_card
>>> from conquian.engine.conquian.melds import meld_table
>>> tbl = meld_table(get_rules("conquian-mexicano"))
>>> sides = ((), (CardSet.parse("5h 6h 7h").mask,), ())
>>> raw = legal_raw(tbl, SAY, 0, parse_card("Jh"), CardSet.parse("Kc").mask, sides, 0)
>>> [(k, card_str(force_card(a)), force_target(a)) for k, a in raw if k == K_FORCE]
[(2, 'Jh', 1)]

```
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from conquian.engine.conquian.listing import use_forms
from conquian.engine.conquian.melds import MeldTable

# Phases of a deal.
EXCHANGE: Final = 0  # each player in turn chooses the card he gives (R8.2)
SAY: Final = 1  # the actor has the say to the card in play (R8.3)
FORCED: Final = 2  # a card was forced on the actor: he must use it (R8.4)
DISCARD: Final = 3  # the actor used a card and must discard (R8.3, R3.5)
OVER: Final = 4

PHASE_NAMES: Final = ("exchange", "say", "forced", "discard", "over")

# Raw action kinds: conquian's four (same numbers) and the exchange's give.
K_USE: Final = 0
K_PASS: Final = 1
K_FORCE: Final = 2
K_DISCARD: Final = 3
K_GIVE: Final = 4

#: A raw force's argument is ``target << FORCE_SHIFT | card`` (card numbers are below 64).
FORCE_SHIFT: Final = 6

RawAction = tuple[int, Any]  # (kind, melds tuple | card | packed force | -1)


def force_arg(card: int, target: int) -> int:
    """The raw argument of forcing ``card`` on player index ``target``."""
    return target << FORCE_SHIFT | card


def force_card(arg: int) -> int:
    """The card of a raw force argument."""
    return arg & 63


def force_target(arg: int) -> int:
    """The player index forced by a raw force argument."""
    return arg >> FORCE_SHIFT


def _forces(tbl: MeldTable, card: int, actor: int, sides: Sequence[tuple[int, ...]], out: list[RawAction]) -> None:
    """Append forcing ``card`` on every other player one of whose combinations it fits (R8.4)."""
    valid = tbl.valid
    cb = 1 << card
    n = len(sides)
    for k in range(1, n):
        t = (actor + k) % n
        for m in sides[t]:
            if m | cb in valid:
                out.append((K_FORCE, t << FORCE_SHIFT | card))
                break


def legal_raw(
    tbl: MeldTable,
    stage: int,
    actor: int,
    card: int,
    hand: int,
    sides: Sequence[tuple[int, ...]],
    down: int,
) -> list[RawAction]:
    """The listed legal actions of player ``actor`` (every give, pass, force and discard; the
    uses of :func:`~conquian.engine.conquian.listing.use_forms`), from what he can see."""
    out: list[RawAction] = []
    if stage == EXCHANGE:
        h = hand
        while h:
            low = h & -h
            h ^= low
            out.append((K_GIVE, low.bit_length() - 1))
        return out
    if stage in (SAY, FORCED):
        for f in use_forms(tbl, sides[actor], down, hand, card):
            out.append((K_USE, f))
        if stage == FORCED:
            return out
        out.append((K_PASS, -1))
        _forces(tbl, card, actor, sides, out)
        return out
    if stage == DISCARD:
        h = hand
        while h:
            low = h & -h
            h ^= low
            c = low.bit_length() - 1
            out.append((K_DISCARD, c))
            _forces(tbl, c, actor, sides, out)
    return out
