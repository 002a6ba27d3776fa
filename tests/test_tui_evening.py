"""A new player's evening at the terminal game: resuming a match, a record never overwritten, the
keyboard in the hand, the rules at once, every score at 80x24, moves in a player's order with 10.

Driven as a person plays: Textual's pilot for keys, the real command for its exit codes.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.widgets import Static

from conquian.tui import ConquianApp, RulesScreen, make_session


def run(coro: Any) -> None:
    asyncio.run(coro)


async def type_text(pilot: Any, text: str) -> None:
    """Type an action into the command line, key by key, and press Enter."""
    await pilot.press("colon")
    for ch in text:
        await pilot.press(ch if ch != " " else "space")
    await pilot.press("enter")
    await pilot.pause()


# ----------------------------------------------------------------------- the rules screen
def test_the_rules_screen_is_drawn_text_and_opens_at_the_refused_rule() -> None:
    """The rule book was a Textual Markdown widget (a widget per block: seconds to open); it is now text
    drawn once for the box's width, the refused rule first."""
    from textual.widgets import Markdown

    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 3, ["Ann"])
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await type_text(pilot, "discard 9h")
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            assert not list(app.screen.query(Markdown))
            statics = list(app.screen.query(Static))
            texts = [str(w.content) for w in statics]
            first = next(i for i, w in enumerate(statics) if w.id == "refused-rule")
            assert first < texts.index("In short") and "R3.5 Discarding" in texts[first]
            assert "####" not in texts[first]  # markdown drawn, not shown as its source
            book = app.screen.query_one("#rulebook", Static)
            assert "R6.3" in str(book.content)
            assert max(len(line) for line in str(book.content).splitlines()) <= book.content_size.width

    run(go())
