"""The game at one table in the terminal: :class:`ConquianApp`, and a session from command-line
choices (:func:`~conquian.tui.keys.make_session`)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import threading
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Button, Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from conquian.engine.actions import Action
from conquian.engine.cards import JOKER, card_str, cards_of, the_card
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.errors import ConquianError
from conquian.i18n import N_, Msg, _, active, render, show_suits
from conquian.present import game_name, order_moves, spanish_pack
from conquian.session import HUMAN, GameSession, Joined, action_cards, live_out_msgs
from conquian.tui.exchange import exchange_note, exchange_status
from conquian.tui.keys import bind_game_keys, game_keys, hint_move, make_session
from conquian.tui.screens import Choice, GameChooser, Message, RulesScreen, answer_key
from conquian.tui.widgets import (
    CardButton,
    GameLog,
    card_text,
    fit_theme_colours,
    people_text,
    resume_command,
    score_text,
    table_text,
    translate_bindings,
    turn_words,
)

#: The verbs' words on their buttons, by the notation's verb (the words a player reads).
VERB_LABELS = {
    "use": N_("use"), "pass": N_("pass"), "force": N_("force"), "discard": N_("discard"), "draw": N_("draw"),
    "take": N_("take"), "meld": N_("meld"), "add": N_("add"), "shift": N_("shift"), "give": N_("give"),
}


class ConquianApp(App[None]):
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
        super().__init__()
        translate_bindings(self)
        self.keys = game_keys()
        """The game's letters in the program's language (:func:`game_keys`): ``b`` is *bajar* in Spanish."""
        bind_game_keys(self, self.keys)
        self.session = session
        self.delay = delay
        self.ascii_only = ascii_only
        self.record_path = record_path or session.default_record_path()
        self.show_buried = show_buried
        self.spanish_suits = spanish_suits
        """The memory aid (R3.3): buried and covered cards shown to every seat alike; off by default."""
        self.selected: set[int] = set()  # indexes into the shown hand
        self.last_rule: str | None = None  # the rule of the last refusal: the rules screen opens at it
        self.verb: str | None = None
        self.by_rank = False
        self.show_seen = False
        self.hurry = False
        self.shown_seat: int | None = None
        """The seat whose hand and log are on the screen (None: nobody's, between hot-seat players)."""
        self.hand_cards: list[int] = []
        self._hand_shown: tuple[int, tuple[int, ...], bool, bool] | None = None
        self.options: list[Action] = []
        self._bot_timer: Any = None
        self.messages: list[str] = []
        self.logged = 0
        self.saved_to: str | None = None
        self.save_error: str | None = None

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
        yield Horizontal(id="handrow")
        with Horizontal(id="verbs"):
            for verb in self.verbs():
                yield Button(self.verb_label(verb), id=f"verb-{verb}", classes="verb")
        yield Input(placeholder=_("type a move, e.g. use 5♥ 6♥ 7♥ or discard 9♣   (Enter plays, Escape closes)"),
                    id="command", disabled=True)
        with Horizontal(id="lower"):
            yield OptionList(id="actions")
            # min_width: wrap at the panel's own width (the default 78 clipped lines in a half-width panel)
            yield GameLog(id="log", wrap=True, markup=False, min_width=10)
        yield Footer()

    def fit_colours(self, *_args: object) -> None:
        """The Spanish suits' colours made readable on this theme's backgrounds (R8.1: espadas blue)."""
        fit_theme_colours(self)
        self._hand_shown = None  # the hand drawn again with them

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
        status = one if len(one) <= width else f"{head}\n{score_text(names, s.match.totals, width)}"
        self.query_one("#status", Static).update(Text(status))  # names are never markup

    def on_resize(self) -> None:
        """A new terminal size: the status line is fitted again."""
        if self.query("#status"):
            self.refresh_status()

    def card_face(self, index: int) -> Text:
        """A card of the shown hand as its button shows it: the selected cards are bracketed, not
        marked by colour alone."""
        face = card_text(self.hand_cards[index], self.ascii_only, self.spanish)
        return Text("[") + face + Text("]") if index in self.selected else face

    def refresh_hand(self) -> None:
        row = self.query_one("#handrow", Horizontal)
        seat = self.shown_seat
        deal = self.session.deal
        if seat is None:
            row.remove_children()
            self.hand_cards = []
            self._hand_shown = None
            return
        if isinstance(deal, ConquianDeal):
            cards = cards_of(deal.hands[deal.player_of(seat)]) if seat in deal.seats else []
        else:
            cards = list(deal.hand(seat))
        key = (lambda c: (c & 15, c >> 4)) if self.by_rank else (lambda c: (c >> 4, c & 15))
        cards = sorted([c for c in cards if c != JOKER], key=key) + [c for c in cards if c == JOKER]
        if cards != self.hand_cards:
            self.selected = {i for i in self.selected if i < len(cards) and cards[i] == self.hand_cards[i]} \
                if len(self.hand_cards) == len(cards) else set()
        self.hand_cards = cards
        shown = (seat, tuple(cards), self.ascii_only, self.spanish)
        buttons = list(row.query(CardButton))
        if shown == self._hand_shown and len(buttons) == len(cards):
            # the same hand: only the marks change, the buttons stay, and so does the focus
            for b in buttons:
                b.label = self.card_face(b.index)
                b.set_class(b.index in self.selected, "selected")
            return
        self._hand_shown = shown
        focused = self.focused.index if isinstance(self.focused, CardButton) else None
        row.remove_children()
        label = Text(f"{render(self.session.person(seat))}: ", style="bold")
        if not self.session.holds_cards(seat):
            label.append(_("you sit out this deal (R6.3)") if self.session.is_you(seat)
                         else _("sits out this deal (R6.3)"), style="dim")
        row.mount(Static(label, classes="label"))
        new = []
        for i, c in enumerate(cards):
            b = CardButton(c, self.card_face(i), i)
            if i in self.selected:
                b.add_class("selected")
            new.append(b)
        row.mount(*new)
        if focused is not None and new:  # the hand drawn again: the focus stays in it
            new[min(focused, len(new) - 1)].focus()

    def selected_cards(self) -> list[str]:
        return [card_str(self.hand_cards[i]) for i in sorted(self.selected)]

    def refresh_actions(self) -> None:
        ol = self.query_one("#actions", OptionList)
        ol.clear_options()
        self.options = []
        s = self.session
        if not s.human_to_act or s.deal.to_act != self.shown_seat:
            ol.border_title = _("waiting") if not s.deal.over else _("deal over")
            return
        chosen = self.selected_cards()
        for a in order_moves(s.legal(), s.deal.phase):  # a player's order, not the notation's
            if self.verb and a.verb != self.verb:
                continue
            names = action_cards(a)
            if chosen and not all(c in names for c in chosen):
                continue
            self.options.append(a)
        if not self.options and self.selected:
            # the listing shows minimal forms: build the moves the selection makes, checked by the engine
            built = s.actions_from_selection([self.hand_cards[i] for i in sorted(self.selected)])
            self.options = order_moves([a for a in built if not self.verb or a.verb == self.verb], s.deal.phase)
        ol.add_options([Option(Text(self.move_label(a))) for a in self.options])
        ol.border_title = (_("your move ({n})").format(n=len(self.options))
                           + (f" - {_(VERB_LABELS.get(self.verb, self.verb))}" if self.verb else ""))
        if self.options:
            ol.highlighted = 0

    # ------------------------------------------------------------------ playing
    def play(self, action: Action | str) -> None:
        try:
            self.session.play_human(action)
        except ConquianError as e:
            tr = active()
            text = self.people(self.session.humanize(e.render(tr), tr))
            rule = getattr(e, "rule", None)
            self.last_rule = rule if isinstance(rule, str) else None
            told = _("{text} (? shows rule {rule})").format(text=text, rule=rule) if self.last_rule else text
            self.notify(told, title=_("refused"), severity="error", timeout=6, markup=False)
            self.write(_("refused: {text}").format(text=told))
            return
        self.selected.clear()
        self.verb = None
        self.after_move()

    def after_move(self) -> None:
        self.flush_log()
        self.refresh_view()
        if self.session.deal.over:
            self.deal_over()
            return
        self.check_handover()
        self.schedule_bots()

    def schedule_bots(self) -> None:
        s = self.session
        if s.deal.over or s.human_to_act:
            self.hurry = False
            return
        if self.delay <= 0 or self.hurry:
            self.call_later(self.bot_tick)
        else:
            self._bot_timer = self.set_timer(self.delay, self.bot_tick)

    def bot_tick(self) -> None:
        if self.session.bot_step() is None:
            return
        self.after_move()

    def check_handover(self) -> None:
        """Before a person's hand is shown, with several people at the terminal, a hand-over screen:
        the hand, the log and the hints on the screen are only ever one person's."""
        s = self.session
        seat = s.deal.to_act
        if seat is None or not s.human_to_act or seat == self.shown_seat:
            return
        if len(s.human_seats) > 1:
            self.shown_seat = None
            self.query_one("#handrow", Horizontal).remove_children()
            self.query_one("#log", RichLog).clear()
            self.refresh_view()

            def show(_result: object) -> None:
                self.shown_seat = seat
                self.rewrite_log()
                self.refresh_view()

            self.push_screen(Message(_("Pass the terminal to {name}. Others, look away.").format(
                name=render(s.person(seat))), title=_("Next player")), show)
        else:
            self.shown_seat = seat
            self.refresh_view()

    def start_deal_view(self) -> None:
        """A new deal on the screen: one person sees his hand at once; several wait for a hand-over."""
        s = self.session
        humans = s.human_seats
        self.shown_seat = humans[0] if len(humans) == 1 else None
        self.rewrite_log()
        self.refresh_view()
        self.check_handover()

    def deal_over(self) -> None:
        s = self.session
        deal = s.deal
        self.shown_seat = s.human_seats[0] if len(s.human_seats) == 1 else None
        self.rewrite_log()  # the deal is over: its hands are public, the log is everyone's
        body = table_text(s, deal, self.ascii_only, False, reveal=True, spanish=self.spanish)
        # the result, after why the deal ended if the pack ran out (R8.6: tablas, or the fewest cards)
        last = self.people("\n".join(line.render(None, active()) for line in s.deal_end()))
        body.append("\n" + last + "\n\n")
        body.append(s.washbook_text(active()))
        if s.pool_text(active()):
            body.append("\n" + s.pool_text(active()))
        saved = self.save_now()
        if saved:
            body.append("\n\n" + _("The match so far is saved in {path}.").format(path=saved))
        self.push_screen(Message(body, title=_("Deal {n} is over").format(n=len(s.match.deals))), self.next_deal)

    def next_deal(self, _result: object = None) -> None:
        s = self.session
        if s.match_over:
            saved = self.save_now()
            totals = render(s.scores_msg(s.match.totals))
            where = (_("The match is saved in {path}.").format(path=saved) if saved
                     else _("The match could not be saved: {error}").format(error=self.save_error))
            self.push_screen(Choice(_("Final scores: {totals}").format(totals=totals) + f"\n\n{where}",
                                    {"n": _("play again"), "c": _("choose another game"), "q": _("quit")},
                                    title=_("The match is over"),
                                    keys={"n": answer_key("again"), "c": answer_key("choose"),
                                          "q": answer_key("quit")}), self.after_match)
            return
        s.new_deal()
        self.start_deal_view()
        self.schedule_bots()

    def after_match(self, answer: str | None) -> None:
        if answer == "c":
            self.push_screen(GameChooser(), self.start_game)
            return
        if answer != "n":
            self.exit()
            return
        old = self.session
        self.switch_session(GameSession(old.rules, list(old.seats), names=list(old.names or []),
                                        seed=secrets.randbits(63), deals_in_match=old.deals_in_match))

    def switch_session(self, session: GameSession) -> None:
        """A new match at this table (play again, or another game), saved to a new file beside the last."""
        if self._bot_timer is not None:
            self._bot_timer.stop()
        self.session = session
        show_suits(self.spanish)
        self.record_path = str(Path(self.record_path).with_name(self.session.default_record_name()))
        self.hurry = False
        self.show_seen = False
        self.rebuild_verbs()
        self.saved_to = None
        self.selected.clear()
        self.verb = None
        self.start_deal_view()
        self.schedule_bots()

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

    def verbs(self) -> list[str]:
        """The verbs of this game, as buttons for the mouse."""
        if self.session.rules.family == "conquian":
            return ["use", "pass", "force", "discard"]
        if self.session.rules.family == "mexicano":
            return ["give", "use", "pass", "force", "discard"]
        return ["draw", "take", "meld", "add", "shift", "discard"]

    def verb_label(self, verb: str) -> str:
        """A verb's button: its key and its word ("b bajar")."""
        return f"{self.keys[verb][0]} {_(VERB_LABELS[verb])}"

    def rebuild_verbs(self) -> None:
        """The verb buttons again, for the game now at the table."""
        row = self.query_one("#verbs", Horizontal)
        if [b.id for b in row.query(Button)] == [f"verb-{verb}" for verb in self.verbs()]:
            return

        async def rebuild() -> None:  # the old buttons gone first: the new ones have their ids
            await row.remove_children()
            await row.mount(*(Button(self.verb_label(verb), id=f"verb-{verb}", classes="verb")
                              for verb in self.verbs()))

        self.call_later(rebuild)

    @on(Button.Pressed, ".verb")
    def verb_pressed(self, event: Button.Pressed) -> None:
        self.action_verb((event.button.id or "verb-").split("-", 1)[1])

    # ------------------------------------------------------------------ events
    @on(Button.Pressed, ".card")
    def card_pressed(self, event: Button.Pressed) -> None:
        assert isinstance(event.button, CardButton)
        index = event.button.index
        if index in self.selected:
            self.selected.discard(index)
        else:
            self.selected.add(index)
        self.refresh_hand()
        self.refresh_actions()
        if event.button.by_key:
            event.button.by_key = False  # the keyboard: the player is in his hand, and stays there
        else:
            self.query_one("#actions", OptionList).focus()

    @on(OptionList.OptionSelected, "#actions")
    def option_chosen(self, event: OptionList.OptionSelected) -> None:
        if 0 <= event.option_index < len(self.options):
            self.play(self.options[event.option_index])

    @on(Input.Submitted, "#command")
    def command_given(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        box = self.query_one("#command", Input)
        box.value = ""
        box.remove_class("visible")
        box.disabled = True
        self.query_one("#actions", OptionList).focus()
        if text:
            self.play(text)

    # ------------------------------------------------------------------ actions
    def action_verb(self, verb: str) -> None:
        if not self.session.human_to_act or self.session.deal.to_act != self.shown_seat:
            return
        if verb not in self.verbs():  # one letter for two verbs (Spanish b: bajar): this game's
            verb = {"use": "meld", "meld": "use"}.get(verb, verb)
            if verb not in self.verbs():
                return
        self.verb = verb
        self.refresh_actions()
        self.query_one("#actions", OptionList).focus()
        if len(self.options) == 1:
            self.play(self.options[0])

    def open_command(self, text: str = "") -> None:
        box = self.query_one("#command", Input)
        box.disabled = False
        box.add_class("visible")
        box.value = text
        box.focus()

    def action_command(self) -> None:
        self.open_command()

    def action_clear(self) -> None:
        self.selected.clear()
        self.verb = None
        box = self.query_one("#command", Input)
        box.remove_class("visible")
        box.disabled = True
        self.query_one("#actions", OptionList).focus()
        self.refresh_view()

    def action_hint(self) -> None:
        """The move the review would call best and the live outs, for the seat on the screen only
        (worked out away from the screen: the review's playouts take a moment)."""
        s = self.session
        seat = self.shown_seat
        if seat is None:
            return
        if not s.holds_cards(seat):
            self.show_hint(seat, [Msg("You sit out this deal (R6.3): there is nothing to hint") if s.is_you(seat)
                                  else Msg("{who} sits out this deal (R6.3): there is nothing to hint",
                                           who=s.person(seat))])
            return
        if not (s.human_to_act and s.deal.to_act == seat):
            self.show_hint(seat, [self.outs_line(seat)])
            return
        self.notify(_("working out the hint..."), title=_("hint"), timeout=3, markup=False)
        deal, state = s.deal, len(s.deal.actions())

        def work() -> None:
            move = hint_move(s, seat)
            self.call_from_thread(self.hint_ready, deal, state, seat, move)

        self.run_worker(work, thread=True, exclusive=True, group="hint")

    def outs_line(self, seat: int) -> Msg:
        """The live outs of the seat's partial combinations, in a line of the hint."""
        outs = live_out_msgs(self.session.deal, seat)
        return Msg("Live outs: {outs}", outs=Joined(outs, "; ")) if outs else Msg("Live outs: none")

    def hint_ready(self, deal: object, state: int, seat: int, move: Action) -> None:
        """The hint worked out: shown if the position is still the one it was asked at."""
        s = self.session
        if s.deal is not deal or len(s.deal.actions()) != state:
            return
        self.show_hint(seat, [Msg("The review would play: {move}", move=s.move_msg(move)), self.outs_line(seat)])

    def show_hint(self, seat: int, lines: list[Msg]) -> None:
        s = self.session
        for line in lines:
            s.say("", seat, Msg("hint: {text}", text=line))
        self.flush_log()
        if len(self.screen_stack) > 1:
            return  # the rules or a question is open: the hint waits in the log, never over that window
        self.notify(self.people("\n".join(render(line) for line in lines)), title=_("hint"), timeout=8, markup=False)

    def action_rules(self) -> None:
        refused = None
        if self.last_rule:
            from conquian.engine.rulebook import UnknownRuleError, rule

            with contextlib.suppress(UnknownRuleError):
                rule(self.last_rule)
                refused = self.last_rule
        self.clear_notifications()  # a hint's pop-up would cover the rules' text (it stays in the log)
        self.push_screen(RulesScreen(refused, self.session.rules.family, self.keys))

    def action_seen(self) -> None:
        if not self.show_buried:
            self.notify(_("Buried and covered cards are not shown (R3.3): start the game with --show-buried "
                          "for the memory aid"), title=_("buried cards"), timeout=6, markup=False)
            return
        self.show_seen = not self.show_seen
        self.refresh_view()

    def action_group(self) -> None:
        self.by_rank = not self.by_rank
        self.selected.clear()
        self.refresh_view()

    def action_spanish(self) -> None:
        """``s``: the Spanish pack's cards with the Spanish suits, or the French ones again (R8.1)."""
        if not spanish_pack(self.session.rules):
            self.notify(_("The Spanish suits are for the Spanish pack (conquian-spanish, conquian-mexicano)"),
                        title=_("suits"), timeout=6, markup=False)
            return
        self.spanish_suits = not self.spanish_suits
        self.rewrite_log()
        self.refresh_view()

    def action_new_game(self) -> None:
        """``n``: choose a game (every preset); the match in progress is saved and may be resumed."""
        if len(self.screen_stack) > 1:  # a question or a message is open: it has the keys
            return
        self.push_screen(GameChooser(), self.start_game)

    def start_game(self, choice: tuple[str, dict[str, int]] | None) -> None:
        """Start the chosen game: the first person at this table against the bots of this table (or
        the default bot); the match left is saved first (``conquian play --resume`` goes on with it)."""
        if choice is None:
            return
        old = self.session
        if not old.match_over and (old.match.results or old.deal.actions()):
            saved = self.save_now()
            if saved:
                # the command names the file: the path once
                self.notify(_("The match left is saved; to go on with it: {command}").format(
                    command=resume_command(saved)), title=_("saved"), timeout=10, markup=False)
        variant, options = choice
        bots = [k for k in old.seats if k != HUMAN][:1] or None
        people = [old.name(i) for i in old.human_seats]
        try:
            session = make_session(variant, options.get("players"), bots, secrets.randbits(63), people[:1],
                                   **{k: v for k, v in options.items() if k != "players"})
        except ConquianError as e:
            self.notify(e.render(active()), title=_("cannot start"), severity="error", markup=False)
            return
        self.switch_session(session)

    # ------------------------------------------------------------------ the conquián mexicano (R8)
    def move_label(self, action: Action) -> str:
        """A move in the list, in the program's language: a card given or forced names the player it
        goes to (R8.2, R8.4)."""
        return self.people(self.session.move_label(action, active()))

    def card_words(self, card: int) -> Msg:
        """A card in a sentence, with its article: "the 7♣" (``--ascii``: "the 7c"; the Spanish
        suits: "el 7 Ba", "la Sota Es")."""
        return the_card(card, self.spanish, card_text(card, self.ascii_only, self.spanish).plain)

    def action_hurry(self) -> None:
        """Play the bots' moves at once until a person is to act."""
        self.hurry = True
        if self._bot_timer is not None:
            self._bot_timer.stop()
        self.schedule_bots()

    def action_scores(self) -> None:
        s = self.session
        body = s.washbook_text(active()) if s.match.results else _("no deal finished yet")
        if s.pool_text(active()):
            body += "\n\n" + s.pool_text(active())
        self.push_screen(Message(body, title=_("Scores")))

    def action_save(self) -> None:
        path = self.save_now()
        if path:
            self.notify(_("saved to {path}").format(path=path), markup=False)
            self.write(_("saved to {path}").format(path=path))

    def action_quit_game(self) -> None:
        s = self.session
        if s.deal.over and s.match_over:
            self.save_now()
            self.exit()
            return
        saved = self.save_now()
        # the command names the saved file: its path said once
        where = (_("The match so far is saved. To continue it later: {command}").format(
            command=resume_command(saved)) if saved
                 else _("It could not be saved: {error}").format(error=self.save_error))

        def answer(key: str | None) -> None:
            if key == "y":
                self.exit()

        self.push_screen(Choice(_("Leave the match in progress?") + f"\n\n{where}",
                                {"y": _("leave"), "n": _("stay")}, title=_("Quit"),
                                keys={"y": answer_key("leave"), "n": answer_key("stay")}), answer)

    async def action_quit(self) -> None:
        """ctrl+q: save, then leave at once."""
        self.save_now()
        self.exit()
