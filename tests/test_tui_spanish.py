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
BOOK = {"rulebook", "refused-rule", "game-rules"}


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
            assert [app.move_label(a) for a in app.options] == ["pasar", "bajar 7♣ 8♣ 9♣"]
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
            # the hint: the review's best move and the live outs, for the person only
            await pilot.press("h")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert any(m.startswith("pista: La revisión jugaría: ") for m in app.messages)
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


# ----------------------------------------------------------------------- the terminal at 80x24
def footer_text(app: ConquianApp) -> str:
    """The footer's keys and words as the screen shows them."""
    return "  ".join(f"{key} {b.description}" for key, (_node, b, _enabled, _tip) in app.screen.active_bindings.items()
                     if b.show)


def test_at_80x24_the_spanish_keys_are_the_words_letters_and_all_on_screen(tmp_path: Path) -> None:
    """80x24 in Spanish: the footer whole (``q salir`` included), the verbs' keys on their buttons
    (``b bajar``, ``g pagar``), ``b`` is *bajar* (the buried cards are ``e``), ``s`` answers *sí* in
    the quit dialog, whose answers are on its frame."""
    from textual.widgets import Footer

    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 3, None)
        app = ConquianApp(s, delay=0, record_path=str(tmp_path / "m.toml"))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            footer = app.query_one(Footer)
            shown = footer_text(app)
            assert "q salir" in shown and "^s guardar" in shown.replace("ctrl+s", "^s"), shown
            assert footer.region.width <= 80
            texts = " ".join(str(w.render()) for w in footer.query("*"))
            assert "salir" in texts, texts
            assert [str(b.label) for b in app.query(".verb")] == ["b bajar", "p pasar", "f forzar", "g pagar"]
            assert [str(a) for a in app.options] == ["p1 pass", "p1 use 7c 8c 9c"]
            await pilot.press("b")  # bajar: the list narrowed to the one use, which is played
            await pilot.pause()
            assert str(s.deal.actions()[-1]) == "p1 use 7c 8c 9c"
            await pilot.press("escape")
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, Choice)
            assert app.screen.query_one("#message").border_subtitle == "s: sí, dejarla   n: no, quedarme"
            await pilot.press("s")  # sí
            await pilot.pause()
        assert (tmp_path / "m.toml").exists()

    from conquian.tui import Choice

    run(go())


def test_the_rules_open_at_the_game_being_played_and_wrap_at_the_screens_width(tmp_path: Path) -> None:
    """During the conquián mexicano the rules screen opens with its summary and its chapter (R8), the
    keys in Spanish; the summary is one paragraph wrapped at the screen's width, not the source's."""

    async def go() -> None:
        s = make_session("conquian-mexicano", None, ["expert"], 3, None)
        app = ConquianApp(s, delay=0, record_path=str(tmp_path / "m.toml"))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            summary = str(app.screen.query_one("#summary", Static).content)
            assert summary.startswith("Conquián mexicano") and "ocho cartas" in summary and "\n" not in summary
            assert str(app.screen.query_one("#game-rules", Static).content).lstrip().startswith("R8")
            keys = str(app.screen.query_one("#keys", Static).content)
            assert "d dar, b bajar, p pasar, f forzar, g pagar" in keys and "e cartas enterradas" in keys
            lines = app.screen.query_one("#summary", Static).render_lines(app.screen.query_one("#summary").region)
            widths = [len(line.text.rstrip()) for line in lines if line.text.strip()]
            width = app.screen.query_one("#summary").region.width
            assert widths and all(w <= width for w in widths) and max(widths) >= width - 12, (widths, width)

    run(go())


def test_the_end_of_a_deal_shows_press_enter_and_the_log_wraps_again_after_a_resize(tmp_path: Path) -> None:
    """80x24: the end-of-deal message keeps "(presiona Enter)" on its frame, in sight; after the
    terminal is resized the log is wrapped again at its new width."""
    from conquian.tui.widgets import GameLog

    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 3, None)
        app = ConquianApp(s, delay=0, record_path=str(tmp_path / "m.toml"))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            log = app.query_one("#log", GameLog)
            app.write("una línea muy larga de la bitácora " * 4)
            await pilot.pause()
            narrow = len(log.lines)
            await pilot.resize_terminal(160, 24)
            await pilot.pause()
            await pilot.pause()
            assert len(log.lines) < narrow, (len(log.lines), narrow)  # fewer, longer lines
            assert max(len(strip.text.rstrip()) for strip in log.lines) > 40
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            await play_deal(app, pilot)
            await pilot.pause()
            assert isinstance(app.screen, Message)
            box = app.screen.query_one("#message")
            assert box.border_subtitle == "(presiona Enter)"
            assert box.region.bottom <= 24 and box.region.y >= 0

    run(go())


def test_espadas_read_in_every_theme_and_three_arrows_in_a_burst_move_three_cards(tmp_path: Path) -> None:
    """The Spanish suits' colours keep a contrast of 4.5 with every background of every theme
    (espadas were pure blue on near-black); three Right arrows sent at once move the focus three
    cards (the app's doing, not tmux's: the focus moved after the key was handled)."""
    from textual import events
    from textual.theme import BUILTIN_THEMES

    from conquian.tui import CardButton
    from conquian.tui.widgets import SPANISH_STYLES, contrast

    async def go() -> None:
        s = make_session("conquian-mexicano", None, ["expert"], 3, None)
        app = ConquianApp(s, delay=0, record_path=str(tmp_path / "m.toml"), spanish_suits=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for name in BUILTIN_THEMES:
                app.theme = name
                await pilot.pause()
                values = app.get_css_variables()
                for key in ("background", "surface", "panel"):
                    if values[key].startswith("#"):
                        for suit, style in SPANISH_STYLES.items():
                            colour = style.split()[-1]
                            assert contrast(colour, values[key][:7]) >= 4.5, (name, key, suit, colour)
            app.theme = "textual-dark"
            await pilot.pause()
            cards = list(app.query(CardButton))
            cards[0].focus()
            await pilot.pause()
            for _ in range(3):
                app.post_message(events.Key("right", None))
            await pilot.pause()
            await pilot.pause()
            assert isinstance(app.focused, CardButton) and app.focused.index == cards[3].index

    run(go())


def test_tens_read_the_same_in_the_hand_and_in_the_moves(tmp_path: Path) -> None:
    """The hand shows ``10♦``; the moves, the log and the hint too (never ``10d`` nor ``Td``)."""
    import re

    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 1, None)
        app = ConquianApp(s, delay=0, record_path=str(tmp_path / "m.toml"))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app, [])
            hand = " ".join(str(b.label) for b in app.query(".card"))
            assert re.search(r"10[♣♦♥♠]", hand + text), hand
            assert not re.search(r"(?<![\w=])(10|[2-9TAJQK])[cdhs]\b", text), text
            labels = [app.move_label(a) for a in app.options]
            assert labels and all(re.search(r"[♣♦♥♠]", label) or label == "pasar" for label in labels), labels

    run(go())


def test_every_games_verb_buttons_fit_80_columns_in_spanish(tmp_path: Path) -> None:
    """Each verb's button, key and word ("m tomar del montón"), inside the 80 columns: none cut."""

    async def go() -> None:
        for variant, players in (("conquian", None), ("conquian-mexicano", 4), ("cooncan", None),
                                 ("cooncan-double", None)):
            s = make_session(variant, players, ["foster"], 5, None)
            app = ConquianApp(s, delay=0, record_path=str(tmp_path / f"{variant}.toml"))
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                buttons = list(app.query(".verb"))
                assert buttons and all(b.region.right <= 80 and b.region.width >= len(str(b.label))
                                       for b in buttons), [(str(b.label), b.region) for b in buttons]

    run(go())
