"""Issue 54, the terminal: the hint's pop-up never covers the rules window, and the quit dialog
says where the match is saved once (driven with Textual's pilot, in English and in Spanish)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.widgets import Static

from conquian.i18n import set_language
from conquian.tui import Choice, ConquianApp, make_session
from conquian.tui.screens import RulesScreen


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def toasts(app: ConquianApp) -> list[str]:
    """The pop-ups Textual shows now, over whatever screen is on top (its toast rack draws every
    notification not yet expired: the app's list of them, as no public property gives it)."""
    return [n.message for n in app._notifications]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_hint_never_covers_the_rules_window(lang: str, tmp_path: Path) -> None:
    set_language(lang)

    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 3, ["Ann"])
        app = ConquianApp(s, delay=0, record_path=str(tmp_path / "m.toml"))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("h")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.messages[-1].startswith(("hint: ", "pista: ")), app.messages[-2:]
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            assert toasts(app) == [], toasts(app)
            rules = str(app.screen.query_one("#rulebook", Static).content)
            assert "R3" in rules
            # a hint that comes while the rules are open waits in the log
            seat = s.deal.to_act
            assert seat is not None
            logged = len(app.messages)
            app.show_hint(seat, [app.outs_line(seat)])
            await pilot.pause()
            assert toasts(app) == [] and len(app.messages) > logged
            await pilot.press("escape")
            await pilot.pause()

    asyncio.run(go())


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_quit_dialog_says_the_saved_files_path_once(lang: str, tmp_path: Path) -> None:
    set_language(lang)
    record = tmp_path / "partida.toml"

    async def go() -> None:
        s = make_session("conquian-mexicano", None, ["foster"], 5, ["Ann"])
        app = ConquianApp(s, delay=0, record_path=str(record))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, Choice)
            body = app.screen.body
            assert body.count(str(record)) == 1, body
            assert "conquian play --resume" in body
            await pilot.press("n")
            await pilot.pause()

    asyncio.run(go())
