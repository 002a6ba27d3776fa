"""The terminal game in Spanish, driven the way a person plays it (Textual's pilot).

The program's language is chosen before the game starts (``conquian play --lang es`` does it with
:func:`conquian.i18n.set_language`).  Everything the screen shows is then Spanish: the status line,
the table, the moves, the log, the hint, a refusal with its rule (R7), the rules screen, the
exchange of the conquián mexicano (R8.2), the end of a deal, the games to choose from.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.widgets import Button, Input, OptionList, Static

from conquian.i18n import set_language
from conquian.tui import ConquianApp, Message, RulesScreen, make_session
from conquian.tui.screens import GameChooser
from test_i18n_session import english_left
from test_tui import play_deal, type_action

#: Texts of the rule book (its own translation, ``rulebook.<lang>.md``, is not the catalogue's).
BOOK = {"rulebook", "refused-rule"}


@pytest.fixture(autouse=True)
def _spanish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The program in Spanish for the test, English again afterwards; records in a temporary folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    set_language("es")
    try:
        yield
    finally:
        set_language("en")


SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"


def screenshot(app: ConquianApp, name: str) -> None:
    """``CONQUIAN_SCREENSHOTS=1`` writes the screen to ``docs/screenshots/<name>.svg``."""
    if os.environ.get("CONQUIAN_SCREENSHOTS"):
        (SHOTS / f"{name}.svg").write_text(app.export_screenshot(title="conquián"), encoding="utf-8")


def run(coro: object) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


def screen_text(app: ConquianApp, notes: list[str]) -> str:
    """Every text on the screen and the screens under it: texts, buttons, lists and their titles,
    the text box's hint, the footer's keys, the log and the notifications (the rule book apart)."""
    out: list[str] = [*app.messages, *notes]
    for screen in app.screen_stack:
        for w in screen.query(Static):
            if w.id not in BOOK and not isinstance(w, Button):
                out.append(str(w.content))
        out += [str(b.label) for b in screen.query(Button)]
        for ol in screen.query(OptionList):
            out.append(str(ol.border_title or ""))
            out += [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]
        out += [str(i.placeholder) for i in screen.query(Input)]
    out += [b.description for _key, (_node, b, _enabled, _tip) in app.screen.active_bindings.items() if b.show]
    return "\n".join(out)


def listen(app: ConquianApp) -> list[str]:
    """The notifications the app shows, as text."""
    notes: list[str] = []
    notify = app.notify

    def record(message: str, *args: Any, **kwargs: Any) -> None:
        notes.append(f"{kwargs.get('title', '')}: {message}")
        notify(message, *args, **kwargs)

    app.notify = record  # type: ignore[method-assign]
    return notes


def test_a_conquian_deal_in_spanish(tmp_path: Path) -> None:
    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 3, None)
        app = ConquianApp(s, delay=0, record_path=str(tmp_path / "m.toml"))
        notes = listen(app)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert [app.move_label(a) for a in app.options] == ["pasar", "bajar 7c 8c 9c"]
            text = screen_text(app, notes)
            assert "te toca decidir" in text and "tu jugada (2)" in text and "Volteaste el 9 de tréboles" in text
            assert "pista" in text and "puntos" in text and "salir" in text  # the footer's keys
            assert not english_left(text), english_left(text)
            # a refused action (R3.5): refused with its rule, in Spanish, nothing changed
            before = s.deal.copy()
            await pilot.press("colon")
            await type_action(pilot, "discard 9h")
            await pilot.pause()
            assert s.deal == before
            refusal = next(m for m in app.messages if m.startswith("rechazada: "))
            assert refusal.startswith("rechazada: R3.5") and refusal.endswith("(? muestra la regla R3.5)")
            assert any(n.startswith("rechazada: R3.5") for n in notes)
            # the hint: the expert's move and the live outs, for the person only
            await pilot.press("h")
            await pilot.pause()
            assert any(m.startswith("pista: El experto jugaría: ") for m in app.messages)
            assert any(m.startswith("pista: Cartas que te sirven: ") for m in app.messages)
            screenshot(app, "es-terminal-conquian")
            # the rules screen, at the rule just refused under
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            text = screen_text(app, notes)
            assert "La regla del último rechazo (R3.5):" in text and "En resumen" in text and "Teclas:" in text
            assert not english_left(text), english_left(text)
            await pilot.press("escape")
            await pilot.pause()
            # the whole deal, to its end
            await play_deal(app, pilot)
            await pilot.pause()
            assert isinstance(app.screen, Message)
            text = screen_text(app, notes)
            assert f"Terminó la mano {len(s.match.deals)}" in text and "mano  valor" in text
            assert "La partida hasta ahora está guardada en" in text
            assert "gana la mano" in text.lower() or "tablas" in text
            assert not english_left(text), english_left(text)

    run(go())


def test_the_exchange_and_the_games_in_spanish(tmp_path: Path) -> None:
    """R8.2: the exchange told in Spanish, the person spoken to; the games to choose from."""

    async def go() -> None:
        s = make_session("conquian-mexicano", 3, ["foster"], 3, None)
        app = ConquianApp(s, delay=0, record_path=str(tmp_path / "m.toml"))
        notes = listen(app)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            text = screen_text(app, notes)
            assert "Elige una carta para darle a Foster 2" in text
            assert "El intercambio (R8.2): nadie ha dado todavía; te toca dar" in text
            assert all(app.move_label(a).startswith("dar ") and app.move_label(a).endswith(" a Foster 2")
                       for a in app.options)
            assert not english_left(text), english_left(text)
            screenshot(app, "es-terminal-mexicano-exchange")
            await pilot.press("enter")  # give the first card listed
            await pilot.pause()
            while s.deal.phase == "exchange":
                await pilot.pause()
            text = screen_text(app, notes)
            assert any(m.startswith("Le diste ") and " y recibiste " in m for m in app.messages), app.messages
            assert not english_left(text), english_left(text)
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, GameChooser)
            text = screen_text(app, notes)
            assert "Elige un juego" in text and "Tercerilla: el conquián mexicano para tres (3 jugadores)" in text
            assert not english_left(text), english_left(text)
            await pilot.press("escape")

    run(go())
