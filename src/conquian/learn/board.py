"""A lesson's table in words, from the learner's seat (its view: nothing another seat holds), for
the web page and any other reader: one line a side or combination, the card in play, the pack."""

from __future__ import annotations

from conquian.engine.cards import JOKER, cards_of, sort_key
from conquian.engine.conquian.base import ConquianFamilyView
from conquian.engine.cooncan.view import CooncanView
from conquian.i18n import Msg, Translator
from conquian.learn.runner import LessonRun
from conquian.present import seat_msg, sentence, symbols


def _cards(cards: list[int]) -> str:
    from conquian.engine.cards import card_symbol

    return " ".join(card_symbol(c) for c in sorted(cards, key=sort_key))


def board_lines(run: LessonRun, tr: Translator) -> list[str]:
    """The table as the learner's seat sees it, one line each, in the reader's language."""
    seat = run.lesson.seat
    view = run.deal.view(seat)

    def who(s: int) -> str:
        return tr.render(seat_msg(s, seat, run.deal.rules.players))

    lines: list[str] = []
    if isinstance(view, CooncanView):
        for i, combo in enumerate(view.combos, 1):
            lines.append(f"{i}. {symbols(combo.display())}  ({who(combo.owner)})")
        if view.stock:
            lines.append(tr.render(Msg("Discard pile: ")) + _cards([view.stock[-1]]))
        lines.append(tr.render(Msg("pack {n}", n=view.pack_count)))
        return lines
    assert isinstance(view, ConquianFamilyView)
    for s, side in zip(view.seats, view.side_masks, strict=False):
        melds = " | ".join(_cards(cards_of(m)) for m in side) or tr.render(Msg("nothing down"))
        lines.append(f"{sentence(who(s))}: {melds}")
    if view.card >= 0 and view.card != JOKER and not run.deal.over:
        lines.append(tr.render(Msg("In play: ")) + _cards([view.card]))
    lines.append(tr.render(Msg("pack {n}", n=view.pack_count)))
    return lines
