"""The deal's flow on the screen: a person's move played, the bots' turns paced, the hand-over
between people sharing the terminal, the end of a deal and of the match, a new match or game, and
leaving (:class:`DealFlow`)."""

from __future__ import annotations

import secrets
from pathlib import Path

from conquian.engine.actions import Action
from conquian.engine.errors import ConquianError
from conquian.i18n import _, active, render, show_suits
from conquian.session import HUMAN, GameSession
from conquian.tui.board import HandRow, VerbBar
from conquian.tui.keys import make_session
from conquian.tui.screens import Choice, GameChooser, Message, answer_key
from conquian.tui.view import TableView
from conquian.tui.widgets import GameLog, resume_command, table_text


class DealFlow(TableView):
    """The game's course at the table: moves, the bots' pace, deals and matches, saving and leaving."""

    # ------------------------------------------------------------------ playing
    def play(self, action: Action | str) -> None:
        """Play a person's move; a refusal is said with its rule (``?`` opens the rules at it)."""
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
        self.selected = frozenset()
        self.verb = None
        self.after_move()

    def after_move(self) -> None:
        """After any move: the log and the table drawn, then the end of the deal or the next turn."""
        self.flush_log()
        self.refresh_view()
        if self.session.deal.over:
            self.deal_over()
            return
        self.check_handover()
        self.schedule_bots()

    def schedule_bots(self) -> None:
        """The next bot's move, after the pause that lets a person follow (at once in a hurry)."""
        s = self.session
        if s.deal.over or s.human_to_act:
            self.hurry = False
            return
        if self.delay <= 0 or self.hurry:
            self.call_later(self.bot_tick)
        else:
            self._bot_timer = self.set_timer(self.delay, self.bot_tick)

    def bot_tick(self) -> None:
        """One bot's move."""
        if self.session.bot_step() is None:
            return
        self.after_move()

    def action_hurry(self) -> None:
        """Play the bots' moves at once until a person is to act."""
        self.hurry = True
        if self._bot_timer is not None:
            self._bot_timer.stop()
        self.schedule_bots()

    def check_handover(self) -> None:
        """Before a person's hand is shown, with several people at the terminal, a hand-over screen:
        the hand, the log and the hints on the screen are only ever one person's."""
        s = self.session
        seat = s.deal.to_act
        if seat is None or not s.human_to_act or seat == self.shown_seat:
            return
        if len(s.human_seats) > 1:
            self.shown_seat = None
            self.query_one("#handrow", HandRow).remove_children()
            self.query_one("#log", GameLog).clear()
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

    # ------------------------------------------------------------------ deals and matches
    def start_deal_view(self) -> None:
        """A new deal on the screen: one person sees his hand at once; several wait for a hand-over."""
        s = self.session
        humans = s.human_seats
        self.shown_seat = humans[0] if len(humans) == 1 else None
        self.rewrite_log()
        self.refresh_view()
        self.check_handover()

    def deal_over(self) -> None:
        """The deal's end: its hands shown to all, the result and the scores, the match saved."""
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
        """The next deal, or the match's end: its final scores, and what next."""
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
        """The match over: play again, choose another game, or leave."""
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
        self.query_one("#verbs", VerbBar).rebuild()
        self.saved_to = None
        self.selected = frozenset()
        self.verb = None
        self.start_deal_view()
        self.schedule_bots()

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

    # ------------------------------------------------------------------ the scores, saving, leaving
    def action_scores(self) -> None:
        """The washbook so far (R5), and the tableau pool (R5.1)."""
        s = self.session
        body = s.washbook_text(active()) if s.match.results else _("no deal finished yet")
        if s.pool_text(active()):
            body += "\n\n" + s.pool_text(active())
        self.push_screen(Message(body, title=_("Scores")))

    def action_save(self) -> None:
        """Save the match now, and say where."""
        path = self.save_now()
        if path:
            self.notify(_("saved to {path}").format(path=path), markup=False)
            self.write(_("saved to {path}").format(path=path))

    def action_quit_game(self) -> None:
        """Leave: the match is saved first, and a match in progress asks to be sure."""
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
