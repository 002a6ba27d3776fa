"""The hint of the terminal game and the web table: for a seat's partial combinations, the
cards still to come that would fill them ("live outs") and the chance to draw one in time.
"""

from __future__ import annotations

from collections.abc import Callable

from conquian.engine.actions import meld_text
from conquian.engine.cards import JOKER, card_str, cards_of
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.match import Deal, hands_in_play, round_of, turns_played
from conquian.i18n import Msg, NMsg
from conquian.present import ShownCards, spanish_pack


def live_outs(deal: Deal, seat: int) -> list[str]:
    """For a seat's partial combinations, the cards still to come that would fill them (the hint),
    in English: :func:`live_out_msgs`."""
    return [str(m) for m in live_out_msgs(deal, seat)]


def _live(cards: str | Msg, n: int, missing: str | Msg | None, pct: str | None) -> Msg:
    """One partial combination of the hint: its cards, how many cards would fill it (``missing``:
    which; None: any of them, jokers counted) and the chance it fills in time (``pct``)."""
    if missing is None and pct is None:
        return NMsg("{cards}: {n} live (with jokers)", "{cards}: {n} live (with jokers)", n, cards=cards)
    if missing is None:
        return NMsg("{cards}: {n} live (with jokers), {pct}% to fill in time",
                    "{cards}: {n} live (with jokers), {pct}% to fill in time", n, cards=cards, pct=pct)
    if pct is None:
        return NMsg("{cards}: {n} live ({missing})", "{cards}: {n} live ({missing})", n, cards=cards,
                    missing=missing)
    return NMsg("{cards}: {n} live ({missing}), {pct}% to fill in time",
                "{cards}: {n} live ({missing}), {pct}% to fill in time", n, cards=cards, missing=missing, pct=pct)


def live_out_msgs(deal: Deal, seat: int) -> list[Msg]:
    """For a seat's partial combinations, the cards still to come that would fill them (the hint),
    as messages in the reader's language.

    Conquian: pairs in hand that need one card, and the cards that could still come (not
    buried, not on the table, not in the seat's hand).  Cooncan: the same, counting copies
    and jokers still unseen.
    """
    view = deal.view(seat)
    out: list[Msg] = []
    if isinstance(deal, ConquianDeal | MexicanoDeal):
        from conquian.engine.conquian.mexicano_view import MexicanoView
        from conquian.engine.conquian.view import ConquianView

        assert isinstance(view, ConquianView | MexicanoView)
        tbl = view.table
        live = view.unseen_mask()
        hand = view.hand_mask
        seen_pairs: dict[int, int] = {}
        complete = set()  # pairs already inside a three the hand holds whole: nothing to wait for
        for c in cards_of(hand):
            for t in tbl.threes_by_card.get(c, ()):
                if t & ~hand == 0:
                    for x in cards_of(t):
                        complete.add(t & ~(1 << x))
        for c in cards_of(hand):
            for t in tbl.threes_by_card.get(c, ()):
                held = t & hand
                if held.bit_count() == 2 and held not in complete:
                    missing = t & ~hand
                    if missing & live:
                        seen_pairs[held] = seen_pairs.get(held, 0) | missing
        for held, missing in sorted(seen_pairs.items()):
            cards = " ".join(card_str(c) for c in cards_of(missing))
            # the cards drawn as the reader's screen draws the pack (R8.1): never two packs in a line
            shown: Callable[[str], str | Msg] = ShownCards.of_pack if spanish_pack(deal.rules) else str
            n = missing.bit_count()
            out.append(_live(shown(meld_text(held)), n, shown(cards), _in_time(deal, n)))
        return out
    from conquian.engine.cooncan.view import CooncanView

    assert isinstance(view, CooncanView)
    copies = deal.rules.copies
    seen: dict[int, int] = {}
    for cb in view.combos:
        for c in cb.cells:
            seen[c] = seen.get(c, 0) + 1
    for c in view.stock:
        seen[c] = seen.get(c, 0) + 1
    for c in view.hand:
        seen[c] = seen.get(c, 0) + 1
    jokers_unseen = deal.rules.jokers - seen.get(JOKER, 0)
    naturals = sorted({c for c in view.hand if c != JOKER})
    done: set[tuple[int, int]] = set()
    for i, a in enumerate(naturals):
        for b in naturals[i + 1:]:
            fills: list[int] = []
            if a & 15 == b & 15:
                fills = [(s << 4) | (a & 15) for s in range(4)]
            elif a >> 4 == b >> 4 and abs((a & 15) - (b & 15)) in (1, 2):
                lo, hi = sorted((a & 15, b & 15))
                fills = [(a >> 4 << 4) | r for r in ((lo + 1,) if hi - lo == 2 else (lo - 1, hi + 1)) if 1 <= r <= 13]
            if not fills or (a, b) in done or any(f in naturals and f not in (a, b) for f in fills):
                continue  # nothing to fill, or the hand already holds the third card
            done.add((a, b))
            n = sum(max(0, copies - seen.get(f, 0)) for f in fills) + jokers_unseen
            if n:
                out.append(_live(f"{card_str(a)} {card_str(b)}", n, None, _in_time(deal, n)))
    return out


def current_round(deal: Deal) -> int:
    """The round a deal is in (1 for the first): each player's turn once makes a round."""
    return max(1, round_of(turns_played(deal), hands_in_play(deal)))


def _in_time(deal: Deal, live: int) -> str | None:
    """"83" (per cent): the chance a combination needing one card fills before the deal ends, from
    the measured durations of :mod:`conquian.bots.fill` (None if none are shipped for these rules)."""
    from conquian.bots.fill import chance

    x = chance(deal.rules, 1, live, current_round(deal))
    return None if x is None else f"{100 * x:.0f}"


