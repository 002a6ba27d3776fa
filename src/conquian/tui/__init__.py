"""``conquian play``: the game in the terminal (Textual).

One person (or several sharing the terminal) plays any preset against the bots.
Select cards in the hand (click, or Tab into it, the arrows and Enter or space), then pick a legal action from
the list (arrows and Enter, or a click), press a verb key to narrow the list (and
play it when one action is left), or type any action with ``:``.  The engine
refuses an illegal action with its rule number and changes nothing.

The package: :mod:`~conquian.tui.app` (the game, composed of :mod:`~conquian.tui.view`, its state and
drawing, :mod:`~conquian.tui.board`, its widgets, :mod:`~conquian.tui.flow`, the deal's flow, and
:mod:`~conquian.tui.controls`, its keys), :mod:`~conquian.tui.screens` (the screens over
the table), :mod:`~conquian.tui.widgets` (cards, the table, the hand) and
:mod:`~conquian.tui.replay` (the record viewer).
"""

from __future__ import annotations

from conquian.session import HUMAN
from conquian.tui.app import ConquianApp
from conquian.tui.keys import make_session
from conquian.tui.replay import ReplayApp
from conquian.tui.screens import Choice, Message, RulesScreen
from conquian.tui.widgets import (
    RULES_SUMMARIES,
    CardButton,
    card_text,
    cards_text,
    markdown_text,
    resume_command,
    score_text,
    table_text,
    turn_words,
)

__all__ = ["HUMAN", "RULES_SUMMARIES", "CardButton", "Choice", "ConquianApp", "Message", "ReplayApp", "RulesScreen",
           "card_text", "cards_text", "make_session", "markdown_text", "resume_command", "score_text", "table_text",
           "turn_words"]
