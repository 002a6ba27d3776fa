"""The screens over the table: a message, the rules, a question with keyed answers, the games to choose from."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from conquian.i18n import N_, _, active
from conquian.tui.widgets import RULES_TEXT, markdown_text, translate_bindings


class Message(ModalScreen[None]):
    """A message over the table; any key (or a click) closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,space,q", "close", N_("close"))]

    def __init__(self, body: Text | str, title: str = "") -> None:
        super().__init__()
        translate_bindings(self)
        self.body = body
        self.title_text = title

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="message"):
            if self.title_text:
                yield Static(Text(self.title_text, style="bold"))
            # text from players (names) is never read as markup
            yield Static(Text(self.body) if isinstance(self.body, str) else self.body)
            yield Static(Text(_("(press Enter)"), style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)

    def on_click(self) -> None:
        self.dismiss(None)


class RulesScreen(ModalScreen[None]):
    """The rules: the rule just refused under (if any), a summary with the keys, and the whole
    rule book (the same text as ``conquian rules``); escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,q,question_mark", "close", N_("close"))]

    def __init__(self, refused: str | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.refused = refused

    def compose(self) -> ComposeResult:
        from conquian.engine import rulebook

        lang = active().lang
        with VerticalScroll(id="message"):
            # the book as text drawn once for this width: Textual's Markdown widget (a widget per block
            # of the 450-line book) and even Rich's Markdown (parsed again at every layout) took a second
            width = max(20, self.app.size.width - 16)  # the message box's margins, border, padding, scrollbar
            if self.refused:
                yield Static(Text(_("The rule of the last refusal ({rule}):").format(rule=self.refused),
                                  style="bold"))
                yield Static(markdown_text("#### " + rulebook.rule(self.refused, lang=lang), width), id="refused-rule")
            yield Static(Text(_("In short"), style="bold"))
            yield Static(Text.from_markup(_(RULES_TEXT)))
            yield Static(Text("\n" + _("The rule book (also: conquian rules, or conquian rules R3.4 for one rule)"),
                              style="bold"))
            yield Static(markdown_text(rulebook.text(lang=lang), width), id="rulebook")
            yield Static(Text(_("(escape closes)"), style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)


class Choice(ModalScreen[str]):
    """A question with keyed answers, e.g. ``{"y": "leave", "n": "stay"}``; dismisses with the key."""

    def __init__(self, body: str, answers: dict[str, str], title: str = "") -> None:
        super().__init__()
        translate_bindings(self)
        self.body = body
        self.answers = answers
        self.title_text = title

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="message"):
            if self.title_text:
                yield Static(Text(self.title_text, style="bold"))
            yield Static(Text(self.body))
            yield Static(Text("   ".join(f"{k}: {v}" for k, v in self.answers.items()), style="bold"))

    def on_key(self, event: Any) -> None:
        key = getattr(event, "key", "")
        if key in self.answers:
            event.stop()
            self.dismiss(key)
        elif key == "escape" and "n" in self.answers:
            event.stop()
            self.dismiss("n")


class GameChooser(ModalScreen[tuple[str, dict[str, int]] | None]):
    """Every game this table plays (:func:`~conquian.present.games`): the arrows and Enter (or a
    click) choose one, escape keeps the match at the table.  Dismisses with the preset and its options."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", N_("close"))]

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        from conquian.present import games

        self.games = games(active())
        with VerticalScroll(id="message"):
            yield Static(Text(_("Choose a game"), style="bold"))
            yield Static(Text(_("The match at the table is saved: conquian play --resume goes on with it."),
                              style="dim"))
            yield OptionList(*(Option(Text(title)) for title, _variant, _options in self.games), id="games")
            yield Static(Text(_("(Enter chooses, escape goes back to the table)"), style="dim"))

    def on_mount(self) -> None:
        self.query_one("#games", OptionList).focus()

    @on(OptionList.OptionSelected, "#games")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        _title, variant, options = self.games[event.option_index]
        self.dismiss((variant, dict(options)))

    def action_close(self) -> None:
        self.dismiss(None)
