"""Checking a use against R3.4, for every deal of the conquian family (R3, and R8.3 with
``hand`` in place of ten).

```pycon
>>> from conquian import get_rules, meld_table, parse_card, parse_cards
>>> from conquian.engine.cards import mask_of
>>> tbl, run = meld_table(get_rules("conquian")), mask_of(parse_cards("5h 6h 7h"))
>>> check_use(tbl, parse_card("7h"), (run,), (), 0, mask_of(parse_cards("5h 6h")), 0, 1, "{cards}") == (run,)
True
>>> check_use(tbl, parse_card("7h"), (run,), (), 0, mask_of(parse_cards("5h")), 0, 1, "{cards}")
Traceback (most recent call last):
...
conquian.engine.errors.IllegalActionError: R3.4: p1 does not hold 6h

```
"""

from __future__ import annotations

from conquian.engine.actions import meld_text
from conquian.engine.cards import mask_str, the_card
from conquian.engine.conquian.melds import MeldTable
from conquian.engine.errors import IllegalActionError
from conquian.i18n import Msg


def check_use(tbl: MeldTable, card: int, melds: tuple[int, ...], side: tuple[int, ...], down: int, hand: int,
              others_down: int, seat: int, not_yours: str) -> tuple[int, ...]:
    """``melds`` if using ``card`` so is legal (R3.4), else :class:`IllegalActionError` naming the
    rule: valid combinations (R2.2), each card in one only, the card in play among them, the
    player's own combinations (``side``, their cards ``down``) kept whole or taken up whole, every
    other card from his ``hand``.  A card on another player's side (``others_down``) is refused
    with ``not_yours``, a message (``{cards}`` stands for them; the caller marks it with
    :func:`~conquian.i18n.N_`); any other card he lacks names ``seat``."""
    cb = 1 << card
    u = 0
    for m in melds:
        if not tbl.is_meld(m):
            raise IllegalActionError("R2.2", Msg("{meld} is not a valid combination", meld=meld_text(m)))
        if u & m:
            raise IllegalActionError("R3.4", Msg("{cards} is in two combinations at once", cards=mask_str(u & m)))
        u |= m
    if not u & cb:
        raise IllegalActionError("R3.4", Msg("the combinations must hold the card in play, {card}",
                                             card=the_card(card, True)))
    for m in side:
        if m & u and m & ~u:
            raise IllegalActionError("R3.4", Msg("borrowing from {meld} would leave {cards} out of any combination",
                                                 meld=meld_text(m), cards=mask_str(m & ~u)))
    missing = u & ~cb & ~down & ~hand
    if missing:
        if missing & others_down:
            raise IllegalActionError("R3.4", Msg(not_yours, cards=mask_str(missing & others_down)))
        raise IllegalActionError("R3.4", Msg("{seat} does not hold {cards}", seat=f"p{seat}", cards=mask_str(missing)))
    return melds
