"""Stepping through a record in the terminal: :class:`ReplayApp`."""

from __future__ import annotations

import re
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, RichLog, Static

from conquian.engine.match import Deal, new_deal
from conquian.engine.record import Record
from conquian.i18n import N_, _, active, render
from conquian.present import for_people, spanish_pack, spanish_text
from conquian.tui.widgets import table_text, translate_bindings
from conquian.words import Words


class ReplayApp(App[None]):
    """Step through a record, forwards and backwards, every hand shown."""

    CSS = """
    #status { height: 1; background: $boost; }
    #table { border: round $primary; padding: 0 1; }
    #events { border: round $secondary; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,l", "step(1)", N_("next"), priority=True),
        Binding("left,backspace,j", "step(-1)", N_("back"), priority=True),
        Binding("pagedown", "deal(1)", N_("next deal"), priority=True),
        Binding("pageup", "deal(-1)", N_("previous deal"), priority=True),
        Binding("home", "start", N_("start"), priority=True),
        Binding("end", "finish", N_("end"), priority=True),
        Binding("s", "spanish", N_("suits")),
        Binding("q", "quit", N_("quit")),
    ]

    def __init__(self, record: Record, ascii_only: bool = False, spanish_suits: bool = False) -> None:
        super().__init__()
        translate_bindings(self)
        self.record = record
        self.rules = record.rules()
        self.ascii_only = ascii_only
        self.spanish = spanish_suits and spanish_pack(self.rules)
        """The Spanish pack shown with its own suits (R8.1)."""
        self.deal_index = 0
        self.step = 0
        self.words = Words(self.rules, record.players)

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Vertical():
            yield Static(id="table")
            yield RichLog(id="events", wrap=True, min_width=10)
        yield Footer()

    def on_mount(self) -> None:
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
        fields = {"game": self.rules.name, "n": self.deal_index + 1, "deals": len(self.record.deals),
                  "step": self.step, "steps": len(d.actions)}
        status = " " + (_("{game} - deal {n}/{deals} - action {step}/{steps} - next: {action}").format(
            action=self.action_words(d.actions[self.step]), **fields) if self.step < len(d.actions)
            else _("{game} - deal {n}/{deals} - action {step}/{steps}").format(**fields))
        self.query_one("#status", Static).update(Text(spanish_text(status) if self.spanish else status))
        self.query_one("#table", Static).update(
            table_text(None, deal, self.ascii_only, True, reveal=True, names=self.record.players, spanish=self.spanish))
        log = self.query_one("#events", RichLog)
        log.clear()
        for e in deal.history()[-12:]:
            line = for_people(self.words.describe(e, active()))
            log.write(spanish_text(line) if self.spanish else line)

    def action_words(self, action: object) -> str:
        """An action of the record in the notation, its seat label replaced by the player's name."""

        def name(m: re.Match[str]) -> str:
            k = int(m.group(1))
            return render(self.words.person(k)) + (m.group(2) or "") if 1 <= k <= len(self.record.players) \
                else m.group(0)

        return for_people(re.sub(r"\bp(\d{1,2})('s)?\b", name, str(action)))

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

