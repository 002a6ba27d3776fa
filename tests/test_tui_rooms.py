"""The session and the terminal game split by concern: small modules and classes, and the state the
terminal's screen shows held in Textual reactive attributes that its widgets draw from."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.reactive import Reactive
from textual.widgets import Static

from conquian.engine.cards import card_str
from conquian.tui import CardButton, ConquianApp, make_session
from conquian.tui.view import TableView


@pytest.fixture(autouse=True)
def _records_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test writes a record outside a temporary folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def test_the_screens_state_is_held_in_reactive_attributes() -> None:
    reactive = {name for name, value in vars(TableView).items() if isinstance(value, Reactive)}
    assert {"shown_seat", "selected", "verb", "by_rank", "show_seen", "hurry", "status"} <= reactive
    assert reactive <= set(ConquianApp._reactives)  # declared on the view, the application's base


def test_the_widgets_draw_from_the_reactive_state(tmp_path: Path) -> None:
    """A card clicked: the selection (a reactive attribute) holds it, its button shows it, the moves
    listed are those with it; the status line on the screen is the ``status`` attribute."""

    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 3, ["Ann"])
        app = ConquianApp(s, delay=0, record_path=str(tmp_path / "m.toml"))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert app.shown_seat == 1
            assert str(app.query_one("#status", Static).render()).strip() == app.status.strip()
            assert "Ann" in app.status
            buttons = list(app.query(CardButton))
            target = next(b for b in buttons if b.card == app.hand_cards[b.index])
            await pilot.click(target)
            await pilot.pause()
            assert app.selected == frozenset({target.index})
            clicked = next(b for b in app.query(CardButton) if b.index == target.index)
            assert clicked.has_class("selected")
            assert app.selected_cards() == [card_str(target.card)]
            assert all(card_str(target.card) in str(a) for a in app.options)
            await pilot.press("escape")
            await pilot.pause()
            assert app.selected == frozenset() and app.verb is None

    asyncio.run(go())
