"""``conquian learn`` in the terminal: the path of lessons, and one lesson played by choosing moves
(or typing them in notation); a refused move is explained with its rule."""

from __future__ import annotations

from typing import ClassVar, cast

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from conquian.i18n import N_, Msg, _, active, render
from conquian.learn.lessons import LESSONS
from conquian.learn.model import Lesson
from conquian.learn.progress import done_lessons, mark_done
from conquian.learn.runner import LessonRun
from conquian.present import seat_msg, sentence
from conquian.tui.widgets import cards_text, table_text, translate_bindings
from conquian.words import YOU


def lesson_line(lesson: Lesson, done: bool) -> str:
    """One line of the path: the title and whether it is done, a mark before it once done (the
    words say it already: no mark stands for "not yet")."""
    state = _("done") if done else _("not done")
    return f"✓ {render(lesson.title)} ({state})" if done else f"{render(lesson.title)} ({state})"


class LessonScreen(Screen[bool]):
    """One lesson: the table as the learner's seat sees it, the prompt, the moves, the answer."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave", N_("back"))]
    DEFAULT_CSS = """
    LessonScreen #title { margin-bottom: 1; }
    LessonScreen #source { margin-top: 1; }
    LessonScreen #table { margin-top: 1; }
    LessonScreen #prompt { margin-top: 1; }
    LessonScreen #moves { height: auto; max-height: 14; }
    """

    def __init__(self, lesson: Lesson) -> None:
        super().__init__()
        translate_bindings(self)
        self.run = LessonRun(lesson)

    def compose(self) -> ComposeResult:
        lesson = self.run.lesson
        with VerticalScroll():
            yield Static(Text(render(lesson.title), style="bold"), id="title")
            yield Static(render(lesson.intro), id="intro")
            if lesson.source is not None:
                yield Static(Text(_("After {book}: \u201c{passage}\u2026\u201d").format(
                    book=lesson.source.book, passage=lesson.source.passage), style="dim italic"), id="source")
            yield Static(id="table")
            yield Static(id="hand")
            yield Static(id="prompt")
            yield Static(id="answer")
            yield OptionList(id="moves")
            yield Input(placeholder=_("or type a move, e.g. use 7c 7d 7h"), id="typed")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_lesson()
        self.query_one("#moves", OptionList).focus()

    def refresh_lesson(self) -> None:
        """Redraw the table, the hand, the prompt and the moves."""
        run = self.run
        # the learner's seat is "You" (a message, so that the table speaks to him in the second person)
        players = run.deal.rules.players
        me = run.lesson.seat
        names = cast(list[str], [Msg(YOU) if s == me else sentence(render(seat_msg(s, me, players)))
                                 for s in range(1, players + 1)])
        # the lessons draw every pack with the French suits their words name ("Lay the 5♥ ...")
        spanish = False
        self.query_one("#table", Static).update(table_text(None, run.deal, False, False, names=names, spanish=spanish))
        hand = Text(_("Your hand: "))
        hand.append_text(cards_text(run.hand(), False, spanish))
        self.query_one("#hand", Static).update(hand)
        step = run.step
        prompt = render(step.prompt) if step else _("Lesson complete. Press Escape to return.")
        self.query_one("#prompt", Static).update(Text(prompt, style="bold"))
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        for move, words in run.moves():
            moves.add_option(Option(render(words), id=move))

    def show_answer(self, text: str) -> None:
        """Try a move and show what the lesson says to it."""
        answer = self.run.try_move(text)
        style = "green" if answer.accepted else "red"
        self.query_one("#answer", Static).update(Text(answer.render(active()), style=style))
        if answer.accepted and self.run.done:
            mark_done(self.run.lesson.key)
        self.refresh_lesson()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.show_answer(event.option.id)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.show_answer(event.value)
            event.input.value = ""

    def action_leave(self) -> None:
        self.dismiss(self.run.done)


class LearnApp(App[None]):
    """The path of lessons: choose one to play; the marks show which are done."""

    TITLE = "conquian learn"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "quit", N_("quit"))]

    def __init__(self, start: str | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.start = start

    def compose(self) -> ComposeResult:
        yield Static(Text(_("Learn conquián: choose a lesson"), style="bold"))
        yield OptionList(id="path")
        yield Footer()

    def on_mount(self) -> None:
        self.fill()
        if self.start:
            self.open(self.start)

    def fill(self) -> None:
        """List the lessons with their marks."""
        done = done_lessons()
        path = self.query_one("#path", OptionList)
        path.clear_options()
        for lesson in LESSONS:
            path.add_option(Option(lesson_line(lesson, lesson.key in done), id=lesson.key))
        path.highlighted = 0
        path.focus()

    def open(self, key: str) -> None:
        """Play one lesson."""
        lesson = next(item for item in LESSONS if item.key == key)
        self.push_screen(LessonScreen(lesson), lambda _done: self.fill())

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "path" and event.option.id:
            self.open(event.option.id)
