"""The game at one table in the terminal: :class:`ConquianApp`, and a session from command-line
choices (:func:`~conquian.tui.keys.make_session`).

The application composes its parts by concern: what the screen shows and the state it shows it
from, in Textual reactive attributes (:class:`~conquian.tui.view.TableView`); the widgets that own
the hand, the verbs, the moves and the typed move (:mod:`conquian.tui.board`); the deal's flow,
the bots' pace and saving (:class:`~conquian.tui.flow.DealFlow`); the keys, the hint and the rules
(:class:`~conquian.tui.controls.TableControls`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Input, OptionList, Static

from conquian.i18n import N_, _
from conquian.session import GameSession
from conquian.tui.board import VERB_LABELS, CommandBox, HandRow, MoveList, VerbBar
from conquian.tui.controls import TableControls
from conquian.tui.flow import DealFlow
from conquian.tui.keys import bind_game_keys
from conquian.tui.widgets import GameLog, fit_theme_colours, translate_bindings


class ConquianApp(DealFlow, TableControls):
    """The game at one table."""

    ENABLE_COMMAND_PALETTE = False  # its footer entry hid save and quit at 80 columns

    CSS = """
    Screen { layout: vertical; }
    #status { height: auto; max-height: 2; background: $boost; }
    #table { height: auto; max-height: 12; border: round $primary; padding: 0 1; }
    #handrow { height: 1; margin: 0 1; }
    #handrow .label { width: auto; }
    #verbs { height: 1; margin: 0 1; }
    .verb { min-width: 6; width: auto; height: 1; border: none; margin: 0 1 0 0; padding: 0; line-pad: 1; }
    .card { min-width: 5; width: auto; height: 1; border: none; margin: 0 1 0 0; padding: 0; }
    .card.selected { background: $accent; text-style: bold reverse underline; }
    #lower { height: 1fr; }
    #actions { width: 1fr; border: round $secondary; }
    #log { width: 1fr; border: round $secondary; }
    #command { display: none; }
    #command.visible { display: block; }
    #message { background: $panel; border: thick $accent; padding: 1 2; margin: 1 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [  # and the game's letters, in the program's language (__init__)
        Binding("escape", "clear", N_("clear"), show=False),
        Binding("ctrl+q", "quit", N_("quit"), show=False, priority=True),
    ]

    def __init__(self, session: GameSession, delay: float = 0.6, ascii_only: bool = False,
                 record_path: str | None = None, show_buried: bool = False, spanish_suits: bool = False) -> None:
        super().__init__(session, delay, ascii_only, record_path, show_buried, spanish_suits)
        translate_bindings(self)
        bind_game_keys(self, self.keys)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # while an action is being typed, the keys belong to the text box; while a question or a
        # message is open, to it (its answers are letters too: "s" is "sí" in Spanish)
        if action == "quit" or len(self.screen_stack) > 1:
            return action == "quit"
        return action == "clear" or not isinstance(self.focused, Input)

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="table")
        yield HandRow(id="handrow")
        with VerbBar(id="verbs") as verbs:
            yield from verbs.compose_buttons()
        yield CommandBox(placeholder=_("type a move, e.g. use 5♥ 6♥ 7♥ or discard 9♣   (Enter plays, Escape closes)"),
                         id="command", disabled=True)
        with Horizontal(id="lower"):
            yield MoveList(id="actions")
            # min_width: wrap at the panel's own width (the default 78 clipped lines in a half-width panel)
            yield GameLog(id="log", wrap=True, markup=False, min_width=10)
        yield Footer()

    def fit_colours(self, *_args: object) -> None:
        """The Spanish suits' colours made readable on this theme's backgrounds (R8.1: espadas blue)."""
        fit_theme_colours(self)
        self.query_one("#handrow", HandRow).forget()  # the hand drawn again with them

    def after_theme(self, _theme: object) -> None:
        self.fit_colours()
        self.refresh_view()

    def on_mount(self) -> None:
        self.fit_colours()
        self.theme_changed_signal.subscribe(self, self.after_theme)
        self.title = "conquian"
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.on_signal)
        self.start_deal_view()
        self.query_one("#actions", OptionList).focus()
        self.schedule_bots()

    def on_signal(self) -> None:
        """SIGTERM, SIGHUP (the terminal closed) or SIGINT: save the match, then leave."""
        self.save_now()
        # with the terminal gone, Textual's shutdown can wait for ever on its output thread; the
        # match is saved (atomically), so after a moment the process ends regardless
        watchdog = threading.Timer(3.0, os._exit, args=(1,))
        watchdog.daemon = True
        watchdog.start()
        self.exit()


__all__ = ["VERB_LABELS", "ConquianApp"]
