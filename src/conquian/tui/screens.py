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

from conquian.i18n import N_, CMsg, _, active, render
from conquian.tui.widgets import RULES_CHAPTERS, RULES_SUMMARIES, keys_text, markdown_text, translate_bindings


class Message(ModalScreen[None]):
    """A message over the table; any key (or a click) closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,space,q", "close", N_("close"))]

    def __init__(self, body: Text | str, title: str = "") -> None:
        super().__init__()
        translate_bindings(self)
        self.body = body
        self.title_text = title

    def compose(self) -> ComposeResult:
        box = VerticalScroll(id="message")
        # on the frame, always in sight: a long message scrolls inside it (80x24: the end of a deal)
        box.border_subtitle = _("(press Enter)")
        with box:
            if self.title_text:
                yield Static(Text(self.title_text, style="bold"))
            # text from players (names) is never read as markup
            yield Static(Text(self.body) if isinstance(self.body, str) else self.body)

    def action_close(self) -> None:
        self.dismiss(None)

    def on_click(self) -> None:
        self.dismiss(None)


class RulesScreen(ModalScreen[None]):
    """The rules: the rule just refused under (if any), the game at the table in short with its keys,
    its chapter of the rule book (R3, R4 or R8), the other games in short, and the whole rule book
    (the same text as ``conquian rules``); escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,q,question_mark", "close", N_("close"))]

    def __init__(self, refused: str | None = None, family: str = "conquian",
                 keys: dict[str, tuple[str, str, bool]] | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.refused = refused
        self.family = family if family in RULES_SUMMARIES else "conquian"
        self.keys = keys

    def compose(self) -> ComposeResult:
        from conquian.engine import rulebook
        from conquian.tui.keys import game_keys

        lang = active().lang
        box = VerticalScroll(id="message")
        box.border_subtitle = _("(escape closes)")
        with box:
            # the book as text drawn once for this width: Textual's Markdown widget (a widget per block
            # of the 450-line book) and even Rich's Markdown (parsed again at every layout) took a second
            width = max(20, self.app.size.width - 16)  # the message box's margins, border, padding, scrollbar
            if self.refused:
                yield Static(Text(_("The rule of the last refusal ({rule}):").format(rule=self.refused),
                                  style="bold"))
                yield Static(markdown_text("#### " + rulebook.rule(self.refused, lang=lang), width), id="refused-rule")
            yield Static(Text(_("In short"), style="bold"))
            yield Static(Text.from_markup(_(RULES_SUMMARIES[self.family])), id="summary")
            yield Static(Text("\n" + keys_text(self.family, self.keys or game_keys())), id="keys")
            chapter = RULES_CHAPTERS[self.family]
            yield Static(Text("\n" + _("The rules of this game ({rule}):").format(rule=chapter), style="bold"))
            yield Static(markdown_text("#### " + rulebook.rule(chapter, lang=lang), width), id="game-rules")
            yield Static(Text("\n" + _("The other games in short"), style="bold"))
            for family, summary in RULES_SUMMARIES.items():
                if family != self.family:
                    yield Static(Text.from_markup(_(summary) + "\n"))
            yield Static(Text("\n" + _("The rule book (also: conquian rules, or conquian rules R3.4 for one rule)"),
                              style="bold"))
            yield Static(markdown_text(rulebook.text(lang=lang), width), id="rulebook")

    def action_close(self) -> None:
        self.dismiss(None)


#: The letters of the answers to the terminal's questions, by meaning: a translator gives each
#: language its own ("key: yes, leave" is "s" in Spanish, for *sí*).
ANSWER_KEYS = {"leave": CMsg("key: yes, leave", "y"), "stay": CMsg("key: no, stay", "n"),
               "again": CMsg("key: play again", "n"), "choose": CMsg("key: choose another game", "c"),
               "quit": CMsg("key: quit the program", "q")}


def answer_key(meaning: str) -> str:
    """The letter of an answer (:data:`ANSWER_KEYS`) in the program's language."""
    letter = render(ANSWER_KEYS[meaning])
    return letter if len(letter) == 1 else ANSWER_KEYS[meaning].msgid


class Choice(ModalScreen[str]):
    """A question with keyed answers, e.g. ``{"y": "leave", "n": "stay"}``; dismisses with the key.

    ``keys`` are the letters shown and typed for each answer in the program's language (``{"y":
    "s"}``: Spanish *sí*); the answer's own key is taken too where no other answer shows it."""

    def __init__(self, body: str, answers: dict[str, str], title: str = "", keys: dict[str, str] | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.body = body
        self.answers = answers
        self.title_text = title
        self.keys = {k: (keys or {}).get(k, k) for k in answers}

    def compose(self) -> ComposeResult:
        answers = "   ".join(f"{self.keys[k]}: {v}" for k, v in self.answers.items())
        box = VerticalScroll(id="message")
        box.border_subtitle = answers  # on the frame, in sight however long the question
        with box:
            if self.title_text:
                yield Static(Text(self.title_text, style="bold"))
            yield Static(Text(self.body))
            yield Static(Text(answers, style="bold"), id="answers")

    def on_key(self, event: Any) -> None:
        key = getattr(event, "key", "")
        shown = {letter: answer for answer, letter in self.keys.items()}
        answer = shown.get(key) or (key if key in self.answers and key not in shown else None)
        if answer is not None:
            event.stop()
            self.dismiss(answer)
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
