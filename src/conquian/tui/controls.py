"""The table's keys: the verbs, the typed move, clearing, the hint, the rules, and the ways of
showing the cards (:class:`TableControls`)."""

from __future__ import annotations

import contextlib

from textual.widgets import OptionList

from conquian.engine.actions import Action
from conquian.i18n import Msg, _, render
from conquian.present import spanish_pack
from conquian.session import Joined, live_out_msgs
from conquian.tui.board import VERB_LABELS, CommandBox, VerbBar
from conquian.tui.keys import hint_move
from conquian.tui.screens import RulesScreen
from conquian.tui.view import TableView


class TableControls(TableView):
    """What a person's keys do at the table, besides playing and leaving (:class:`~conquian.tui.flow.DealFlow`)."""

    # ------------------------------------------------------------------ the verbs
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
        self.query_one("#verbs", VerbBar).rebuild()

    def action_verb(self, verb: str) -> None:
        """A verb's key: the moves narrowed to it, and played if only one is left."""
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

    # ------------------------------------------------------------------ the typed move, clearing
    def open_command(self, text: str = "") -> None:
        """The box for a typed move, opened with ``text`` in it."""
        self.query_one("#command", CommandBox).open(text)

    def action_command(self) -> None:
        """``:``: type a move."""
        self.open_command()

    def action_clear(self) -> None:
        """Escape: the selection and the verb cleared, the typed move's box closed."""
        self.selected = frozenset()
        self.verb = None
        self.query_one("#command", CommandBox).close()
        self.refresh_view()

    # ------------------------------------------------------------------ the hint
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
        """A hint in the seat's own log (no one else reads it), and in a pop-up."""
        s = self.session
        for line in lines:
            s.say("", seat, Msg("hint: {text}", text=line))
        self.flush_log()
        if len(self.screen_stack) > 1:
            return  # the rules or a question is open: the hint waits in the log, never over that window
        self.notify(self.people("\n".join(render(line) for line in lines)), title=_("hint"), timeout=8, markup=False)

    # ------------------------------------------------------------------ the rules, the cards shown
    def action_rules(self) -> None:
        """``?``: the rules, open at the rule of the last refusal."""
        refused = None
        if self.last_rule:
            from conquian.engine.rulebook import UnknownRuleError, rule

            with contextlib.suppress(UnknownRuleError):
                rule(self.last_rule)
                refused = self.last_rule
        self.clear_notifications()  # a hint's pop-up would cover the rules' text (it stays in the log)
        self.push_screen(RulesScreen(refused, self.session.rules.family, self.keys))

    def action_seen(self) -> None:
        """The buried and covered cards shown or hidden (the memory aid, R3.3)."""
        if not self.show_buried:
            self.notify(_("Buried and covered cards are not shown (R3.3): start the game with --show-buried "
                          "for the memory aid"), title=_("buried cards"), timeout=6, markup=False)
            return
        self.show_seen = not self.show_seen
        self.refresh_view()

    def action_group(self) -> None:
        """The hand sorted by rank, or by suit again."""
        self.by_rank = not self.by_rank
        self.selected = frozenset()
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
