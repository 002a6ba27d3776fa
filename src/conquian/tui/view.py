"""What the table's screen shows, and the state it shows it from: :class:`TableView`, the base of
:class:`~conquian.tui.app.ConquianApp`.

The state the screen shows is held in Textual reactive attributes (the seat on the screen, the
selected cards, the verb chosen, the status line...); the widgets of :mod:`conquian.tui.board`
draw their parts from it.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App
from textual.reactive import var
from textual.widgets import OptionList, Static

from conquian.engine.actions import Action
from conquian.engine.cards import card_str, the_card
from conquian.i18n import Msg, _, active, render, show_suits
from conquian.present import game_name, spanish_pack
from conquian.session import GameSession
from conquian.tui.board import HandRow, MoveList
from conquian.tui.exchange import exchange_note, exchange_status
from conquian.tui.keys import game_keys
from conquian.tui.widgets import GameLog, card_text, people_text, score_text, table_text, turn_words


class TableView(App[None]):
    """The table on the screen: its state (reactive attributes) and the drawing of its parts."""

    shown_seat: var[int | None] = var(None)
    """The seat whose hand and log are on the screen (None: nobody's, between hot-seat players)."""
    selected: var[frozenset[int]] = var(frozenset())
    """The selected cards, as indexes into the shown hand."""
    verb: var[str | None] = var(None)
    """The verb the move list is narrowed to (None: every verb)."""
    by_rank: var[bool] = var(False)
    """The hand sorted by rank (else by suit)."""
    show_seen: var[bool] = var(False)
    """The buried and covered cards shown (the memory aid, R3.3, with ``--show-buried``)."""
    hurry: var[bool] = var(False)
    """The bots play at once until a person is to act."""
    status: var[str] = var("")
    """The status line: the game, the deal, whose turn, the scores."""

    def __init__(self, session: GameSession, delay: float = 0.6, ascii_only: bool = False,
                 record_path: str | None = None, show_buried: bool = False, spanish_suits: bool = False) -> None:
        super().__init__()
        self.keys = game_keys()
        """The game's letters in the program's language (:func:`game_keys`): ``b`` is *bajar* in Spanish."""
        self.session = session
        self.delay = delay
        self.ascii_only = ascii_only
        self.record_path = record_path or session.default_record_path()
        self.show_buried = show_buried
        """The memory aid (R3.3): buried and covered cards shown to every seat alike; off by default."""
        self.spanish_suits = spanish_suits
        self.last_rule: str | None = None  # the rule of the last refusal: the rules screen opens at it
        self._bot_timer: Any = None
        self.messages: list[str] = []
        self.logged = 0
        self.saved_to: str | None = None
        self.save_error: str | None = None

    # ------------------------------------------------------------------ what the others do
    def play(self, action: Action | str) -> None:
        """Play a person's move (:class:`~conquian.tui.flow.DealFlow`)."""
        raise NotImplementedError

    def verbs(self) -> list[str]:
        """The verbs of this game (:class:`~conquian.tui.controls.TableControls`)."""
        raise NotImplementedError

    def verb_label(self, verb: str) -> str:
        """A verb's button (:class:`~conquian.tui.controls.TableControls`)."""
        raise NotImplementedError

    def action_verb(self, verb: str) -> None:
        """A verb's key (:class:`~conquian.tui.controls.TableControls`)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ the log
    @property
    def spanish_suits(self) -> bool:
        """The Spanish pack shown with its own suits and courts (R8.1): oros, copas, espadas, bastos."""
        return self._spanish_suits

    @spanish_suits.setter
    def spanish_suits(self, on: bool) -> None:
        self._spanish_suits = on
        # every text of the program names the cards by the pack on the screen (one source: the catalogue)
        show_suits(self.spanish)

    @property
    def spanish(self) -> bool:
        """Whether the cards are shown with the Spanish suits now (asked for, and the Spanish pack)."""
        return self.spanish_suits and spanish_pack(self.session.rules)

    def people(self, text: str) -> str:
        """A text as the screen shows it (:func:`~conquian.tui.widgets.people_text`)."""
        return people_text(text, self.spanish, self.ascii_only)

    def write(self, line: str) -> None:
        """Add a line to the log on the screen, in the program's language (ten written 10: the log is
        read by people)."""
        line = self.people(line)
        self.query_one("#log", GameLog).add(line)
        self.messages.append(line)

    def flush_log(self) -> None:
        """Write the session's new log lines, as the seat on the screen may read them."""
        lines = self.session.lines
        for line in lines[self.logged:]:
            text = line.render(self.shown_seat, active())
            if text:
                self.write(text)
        self.logged = len(lines)

    def rewrite_log(self) -> None:
        """The whole log again, for the seat now on the screen (hot seat: each reads only his own)."""
        self.query_one("#log", GameLog).clear()
        self.logged = 0
        self.flush_log()

    # ------------------------------------------------------------------ drawing
    def refresh_view(self) -> None:
        """Every part of the table drawn again: the status, the table, the hand, the moves."""
        s = self.session
        deal = s.deal
        self.refresh_status()
        table = table_text(s, deal, self.ascii_only, self.show_seen, spanish=self.spanish)
        note = exchange_note(self.session, self.shown_seat, self.card_words)
        if note:
            table.append(note + "\n", style="bold")
        self.query_one("#table", Static).update(table)
        self.refresh_hand()
        self.refresh_actions()
        if self.focused is None or not self.focused.is_mounted:
            self.query_one("#actions", OptionList).focus()

    def refresh_status(self) -> None:
        """The status line: the game, the deal, whose turn, and every player's score, on a second
        line with shortened names when one line of the terminal's width cannot hold them all."""
        s = self.session
        deal = s.deal
        turn = _("deal over") if deal.over else (exchange_status(s, self.shown_seat)
                                                 or turn_words(s.person(deal.to_act or 0), deal.phase))
        head = " " + _("{game} - deal {n}/{total} - {turn}").format(game=render(game_name(s.rules.name)),
                                                                    n=len(s.match.deals),
                                                                    total=s.deals_in_match, turn=turn)
        names = s.names_for_seats(active())
        width = self.size.width or 80
        one = f"{head} -{score_text(names, s.match.totals, 10**6)}"
        self.status = one if len(one) <= width else f"{head}\n{score_text(names, s.match.totals, width)}"

    def watch_status(self, status: str) -> None:
        """The status line on the screen (names are never markup)."""
        if self.query("#status"):
            self.query_one("#status", Static).update(Text(status))

    def on_resize(self) -> None:
        """A new terminal size: the status line is fitted again."""
        if self.query("#status"):
            self.refresh_status()

    @property
    def hand_cards(self) -> list[int]:
        """The cards of the hand on the screen, in their order there (the selection indexes them)."""
        return self.query_one("#handrow", HandRow).cards

    def refresh_hand(self) -> None:
        """The shown seat's hand drawn again (:class:`~conquian.tui.board.HandRow`)."""
        self.query_one("#handrow", HandRow).draw()

    def selected_cards(self) -> list[str]:
        """The selected cards, in notation."""
        cards = self.hand_cards
        return [card_str(cards[i]) for i in sorted(self.selected)]

    @property
    def options(self) -> list[Action]:
        """The moves listed, in the list's order (:class:`~conquian.tui.board.MoveList`)."""
        return self.query_one("#actions", MoveList).moves

    def refresh_actions(self) -> None:
        """The legal moves listed again (:class:`~conquian.tui.board.MoveList`)."""
        self.query_one("#actions", MoveList).draw()

    def move_label(self, action: Action) -> str:
        """A move in the list, in the program's language: a card given or forced names the player it
        goes to (R8.2, R8.4)."""
        return self.people(self.session.move_label(action, active()))

    def card_words(self, card: int) -> Msg:
        """A card in a sentence, with its article: "the 7♣" (``--ascii``: "the 7c"; the Spanish
        suits: "el 7 Ba", "la Sota Es")."""
        return the_card(card, self.spanish, card_text(card, self.ascii_only, self.spanish).plain)

    # ------------------------------------------------------------------ saving
    def save_now(self) -> str | None:
        """Save the record atomically; on failure say so in the game and keep playing."""
        try:
            path = self.session.save(self.record_path)
        except OSError as e:
            self.save_error = _("cannot write {path}: {error}").format(path=self.record_path, error=e.strerror or e)
            self.notify(self.save_error, title=_("not saved"), severity="error", timeout=10, markup=False)
            self.write(_("not saved: {error}").format(error=self.save_error))
            return None
        self.saved_to = path
        self.save_error = None
        return path
