"""Stepping through a record in the terminal: :class:`ReplayApp`, with the review of a seat's
decisions beside the record (``r``; docs/review.md): each decision's mark on the timeline, its
choices with the search's estimates, what it cost, and Foster's choice where it differs."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, RichLog, Static
from textual.worker import get_current_worker

from conquian.engine.actions import Force, parse_action
from conquian.engine.errors import ConquianError
from conquian.engine.match import Deal, new_deal
from conquian.engine.record import Record, write_record
from conquian.i18n import N_, Msg, _, active, render, show_suits
from conquian.present import game_name, move_msg, spanish_pack
from conquian.review import Decision, Review, mark_word, review_file, review_text
from conquian.tui.widgets import fit_theme_colours, people_text, table_text, translate_bindings
from conquian.words import Words

#: A decision's mark as a sign beside its action number (as chess annotators write them).
_MARK_SIGNS = {"good": "", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}


class ReplayApp(App[None]):
    """Step through a record, forwards and backwards, every hand shown."""

    CSS = """
    #status { height: 1; background: $boost; }
    #table { border: round $primary; padding: 0 1; }
    #events { border: round $secondary; }
    #review { border: round $warning; padding: 0 1; height: auto; max-height: 14; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,l", "step(1)", N_("next"), priority=True),
        Binding("left,backspace,j", "step(-1)", N_("back"), priority=True),
        Binding("pagedown", "deal(1)", N_("next deal"), priority=True),
        Binding("pageup", "deal(-1)", N_("previous deal"), priority=True),
        Binding("home", "start", N_("start"), priority=True),
        Binding("end", "finish", N_("end"), priority=True),
        Binding("s", "spanish", N_("suits")),
        Binding("r", "review", N_("review")),
        Binding("p", "review_seat", N_("reviewed seat")),
        Binding("m", "next_mark", N_("next mistake")),
        Binding("q", "quit", N_("quit")),
    ]

    def __init__(self, record: Record, ascii_only: bool = False, spanish_suits: bool = False,
                 path: str | None = None, review_workers: int = 1,
                 review_playouts: int | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.record = record
        self.rules = record.rules()
        self.ascii_only = ascii_only
        self.spanish = spanish_suits and spanish_pack(self.rules)
        self.deal_index = 0
        self.step = 0
        self.words = Words(self.rules, record.players)
        self.path = path
        """The record's file: its reviews are cached beside it (None: reviewed, not cached)."""
        self.review_workers = review_workers
        """Processes that share a review's decisions."""
        self.review_playouts = review_playouts
        """Playouts a choice (None: the review's default for the game)."""
        self.review_seat = 1
        """The seat whose decisions ``r`` reviews (``p`` chooses another)."""
        self.reviews: dict[tuple[int, int], Review] = {}
        """The reviews made, by (deal number, seat)."""
        self.reviewing: str = ""
        """The progress of a review under way, in words ("" when none is)."""

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Vertical():
            yield Static(id="table")
            yield Static(id="review")
            yield RichLog(id="events", wrap=True, min_width=10)
        yield Footer()

    def on_mount(self) -> None:
        fit_theme_colours(self)
        self.show()

    def _deal_at(self) -> Deal:
        d = self.record.deals[self.deal_index]
        deal = new_deal(self.rules, d.deck, seed=d.seed, dealer=d.dealer)
        for a in d.actions[: self.step]:
            deal.play(a)
        return deal

    def show(self) -> None:
        d = self.record.deals[self.deal_index]
        deal = self._deal_at()
        fields = {"game": render(game_name(self.rules.name)), "n": self.deal_index + 1, "deals": len(self.record.deals),
                  "step": self.step, "steps": len(d.actions)}
        status = " " + (_("{game} - deal {n}/{deals} - action {step}/{steps} - next: {action}").format(
            action=self.action_words(d.actions[self.step]), **fields) if self.step < len(d.actions)
            else _("{game} - deal {n}/{deals} - action {step}/{steps}").format(**fields))
        self.query_one("#status", Static).update(Text(self.people(status)))
        self.query_one("#table", Static).update(
            table_text(None, deal, self.ascii_only, True, reveal=True, names=self.record.players, spanish=self.spanish))
        log = self.query_one("#events", RichLog)
        log.clear()
        for e in deal.history()[-12:]:
            log.write(self.people(self.words.describe(e, active())))
        self.query_one("#review", Static).update(Text(self.review_text()))
        self.query_one("#review", Static).display = bool(self.reviewing or self.current_review())

    # ------------------------------------------------------------------ the review (docs/review.md)
    def current_review(self) -> Review | None:
        """The review of the reviewed seat in the deal on the screen, if made."""
        return self.reviews.get((self.deal_index + 1, self.review_seat))

    def decision_here(self) -> Decision | None:
        """The reviewed decision that the next action of the record is, if it is one."""
        rv = self.current_review()
        if rv is None:
            return None
        return next((d for d in rv.decisions if d.action_index == self.step + 1), None)

    def review_text(self) -> str:
        """The review panel: the summary, the marks along the deal, and the decision about to be played."""
        if self.reviewing:
            return self.reviewing
        rv = self.current_review()
        if rv is None:
            return ""
        who = render(self.words.person(rv.seat))
        lines = [_("Review of {who} (only what {who} could see; {playouts} playouts a choice):").format(
            who=who, playouts=rv.playouts)]
        if rv.accuracy is None:
            lines.append(_("no decision to review"))
        else:
            counts = ", ".join(f"{n} {mark_word(m)}" for m, n in rv.counts.items())
            lines.append(_("accuracy {percent}%: {counts}").format(percent=f"{rv.accuracy * 100:.0f}", counts=counts))
        marks = [f"#{d.action_index}:{_MARK_SIGNS[d.mark]}" for d in rv.decisions if d.mark != "good"]
        if marks:
            lines.append(_("marks (action: ?! inaccuracy, ? mistake, ?? blunder): {marks}").format(
                marks=" ".join(marks)))
        d = self.decision_here()
        if d is not None:
            made = next(e for e in d.candidates if e.action == d.played)
            lines.append(_("next: decision {n}, {move}: {mark}, win {chance}").format(
                n=d.number, move=self.action_words(d.played), mark=mark_word(d.mark), chance=f"{made.win:.2f}"))
            for e in sorted(d.candidates, key=lambda e: -e.win):
                sign = "*" if e.action == d.best else ("<" if e.action == d.played else " ")
                points = "" if e.points is None else " " + _("points {points}").format(points=f"{e.points:+.1f}")
                lines.append(f"  {sign} {self.action_words(e.action):<30s} {e.win:.2f}{points}")
            if d.best != d.played:
                lines.append(_("best {move}, cost {cost}").format(move=self.action_words(d.best), cost=f"{d.cost:.2f}"))
            if d.foster_differs:
                lines.append(_("foster would play {move}").format(move=self.action_words(d.foster)))
        return self.people("\n".join(lines))

    def action_review(self) -> None:
        """``r``: review the reviewed seat's decisions in this deal (from its view only), in the
        background with its progress; a review made already (or cached beside the record) is shown at once."""
        key = (self.deal_index + 1, self.review_seat)
        if key in self.reviews or self.reviewing:
            self.show()
            return
        self.reviewing = _("reviewing {who}...").format(who=render(self.words.person(self.review_seat)))
        self.show()
        self.run_worker(lambda: self._review(key), thread=True, exclusive=True, group="review")

    def _review(self, key: tuple[int, int]) -> None:
        deal, seat = key
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if not worker.is_cancelled:
                self.call_from_thread(self._progress, seat, done, total)

        try:
            if self.path is not None:
                rv = review_file(self.path, seat, deal, self.review_playouts, self.review_workers, progress)
            else:
                rv = review_text(write_record(self.record), seat, deal, self.review_playouts, self.review_workers,
                                 progress)
        except ConquianError as e:
            self.call_from_thread(self._reviewed, key, None, e.render(active()))
            return
        self.call_from_thread(self._reviewed, key, rv, "")

    def _progress(self, seat: int, done: int, total: int) -> None:
        self.reviewing = _("reviewing {who}: decision {done} of {total}").format(
            who=render(self.words.person(seat)), done=done, total=total)
        self.show()

    def _reviewed(self, key: tuple[int, int], rv: Review | None, error: str) -> None:
        self.reviewing = ""
        if rv is not None:
            self.reviews[key] = rv
        else:
            self.notify(error, title=_("no review"), severity="error")
        self.show()

    def action_review_seat(self) -> None:
        """``p``: review another seat (the next one round the table)."""
        self.review_seat = self.review_seat % len(self.record.players) + 1
        self.notify(_("reviewed seat: {who}").format(who=render(self.words.person(self.review_seat))))
        self.show()

    def action_next_mark(self) -> None:
        """``m``: go to the reviewed seat's next decision that was not good (round to the first)."""
        rv = self.current_review()
        if rv is None:
            self.notify(_("press r to review this deal first"))
            return
        bad = [d.action_index - 1 for d in rv.decisions if d.mark != "good"]
        if not bad:
            self.notify(_("no mistake to show: every decision was good"))
            return
        self.step = next((j for j in bad if j > self.step), bad[0])
        self.show()

    def people(self, text: str) -> str:
        """A text as the screen shows it (:func:`~conquian.tui.widgets.people_text`)."""
        return people_text(text, self.spanish, self.ascii_only)

    def action_words(self, action: object) -> str:
        """An action of the record in words: the player's name and his move as the move list says
        it ("Lupita: pagar 5♣", "Bea: force 5♥ on Ann"), in the program's language."""
        try:
            a = parse_action(str(action))
        except ConquianError:
            return str(action)
        players = len(self.record.players)

        def who(seat: int) -> str | Msg:
            return self.words.person(seat) if 1 <= seat <= players else f"p{seat}"

        to = who(a.target) if isinstance(a, Force) and a.target is not None else None
        return render(Msg("{who}: {move}", who=who(a.seat), move=move_msg(a, to)))

    @property
    def spanish(self) -> bool:
        """The Spanish pack shown with its own suits (R8.1)."""
        return self._spanish

    @spanish.setter
    def spanish(self, on: bool) -> None:
        self._spanish = on
        show_suits(on)  # the cards in words named by the pack on the screen

    def action_spanish(self) -> None:
        """``s``: the Spanish pack with the Spanish suits, or the French ones again (R8.1)."""
        self.spanish = not self.spanish and spanish_pack(self.rules)
        self.show()

    def action_step(self, k: int) -> None:
        n = len(self.record.deals[self.deal_index].actions)
        self.step = max(0, min(n, self.step + k))
        self.show()

    def action_deal(self, k: int) -> None:
        self.deal_index = max(0, min(len(self.record.deals) - 1, self.deal_index + k))
        self.step = 0
        self.show()

    def action_start(self) -> None:
        self.step = 0
        self.show()

    def action_finish(self) -> None:
        self.step = len(self.record.deals[self.deal_index].actions)
        self.show()

