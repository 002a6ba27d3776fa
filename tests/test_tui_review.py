"""The review in the terminal's record viewer (docs/review.md), driven with Textual's pilot: ``r``
reviews a seat's decisions from its view only, ``m`` goes to the decision that cost, and the panel
shows its choices, the estimates, the best move and what the choice cost (R3.7: the planted win
passed up on the spot is the blunder)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.widgets import Static

from conquian.engine.record import read_record
from conquian.i18n import set_language
from conquian.tui import ReplayApp
from test_review import ACTIONS, PLAYOUTS, WINNING, blunder_record


async def reviewed(app: ReplayApp, pilot: object) -> None:
    for _ in range(600):
        await pilot.pause(0.1)  # type: ignore[attr-defined]
        if app.current_review() is not None:
            return
    raise AssertionError("the review did not finish")


def panel(app: ReplayApp) -> str:
    return str(app.query_one("#review", Static).content)


def test_the_viewer_reviews_a_seat_and_goes_to_the_blunder(tmp_path: Path) -> None:
    path = tmp_path / "blunder.toml"
    path.write_text(blunder_record(), encoding="utf-8")

    async def go() -> None:
        app = ReplayApp(read_record(blunder_record()), path=str(path), review_playouts=PLAYOUTS)
        async with app.run_test(size=(110, 50)) as pilot:
            await pilot.pause()
            assert not app.query_one("#review", Static).display  # nothing reviewed yet
            await pilot.press("p")  # the seat that passed the winning card: B, p2
            await pilot.press("r")
            await reviewed(app, pilot)
            text = panel(app)
            assert "Review of B" in text and "1 blunder" in text
            marked = [d for d in app.current_review().decisions if d.mark != "good"]  # type: ignore[union-attr]
            for _ in marked:  # m goes from one decision that cost to the next
                await pilot.press("m")
                here = app.decision_here()
                assert here is not None and here.mark != "good"
                if here.mark == "blunder":
                    break
            assert app.step == len(ACTIONS) - 1
            if os.environ.get("CONQUIAN_SCREENSHOTS"):
                shot = Path(__file__).resolve().parent.parent / "docs" / "screenshots" / "terminal-review.svg"
                shot.write_text(app.export_screenshot(title="conquian review"), encoding="utf-8")
            text = panel(app)
            assert "blunder" in text and "best B: use 9♣ 9♦ 9♥ 9♠" in text, text
            assert "cost" in text
            # the review is cached beside the record: a new viewer reads it back at once
            assert path.with_name(path.name + ".review.json").exists() or any(tmp_path.iterdir())

    asyncio.run(go())
    assert WINNING.endswith("9c 9d 9h 9s")


def test_the_review_panel_in_spanish(tmp_path: Path) -> None:
    set_language("es")

    async def go() -> None:
        app = ReplayApp(read_record(blunder_record()), review_playouts=PLAYOUTS)
        async with app.run_test(size=(110, 50)) as pilot:
            await pilot.press("p", "r")
            await reviewed(app, pilot)
            app.step = len(ACTIONS) - 1
            app.show()
            text = panel(app)
            assert ("error grave" in text and "Revisión" in text) or "revisión" in text, text
            assert "blunder" not in text

    try:
        asyncio.run(go())
    finally:
        set_language("en")
