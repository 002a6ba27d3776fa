"""Playing a lesson: the learner's move is checked against the rules and against the lesson's idea;
anything else is refused with a short explanation that names the rule (its number and title)."""

from __future__ import annotations

from dataclasses import dataclass

from conquian.engine.errors import ConquianError, IllegalActionError
from conquian.engine.match import Deal
from conquian.engine.rulebook import normalise, rules
from conquian.i18n import Msg, Translator, active
from conquian.learn.model import ANY, Lesson, Step


@dataclass(frozen=True)
class Answer:
    """What the runner says to a move: accepted or refused, under which rule, and why."""

    accepted: bool
    rule: str | None
    message: Msg

    def render(self, tr: Translator | None = None) -> str:
        """The answer in the reader's language; a refusal begins with the rule's number and title."""
        tr = tr or active()
        text = tr.render(self.message)
        if self.rule is None:
            return text
        return f"{rule_words(self.rule, tr)}: {text}"


def rule_words(number: str, tr: Translator | None = None) -> str:
    """A rule's number and title in the reader's language: ``R3.6 Forcing``."""
    tr = tr or active()
    key = normalise(number)
    found = rules(tr.lang).get(key)
    return f"{key} {found.title}" if found else key


class LessonRun:
    """One lesson in progress: the deal, the step the learner is on, and the comments so far."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.deal: Deal = lesson.new_deal()
        for move in lesson.before:
            self.deal.play(move)
        self.index = 0
        self.last: Answer | None = None

    @property
    def done(self) -> bool:
        """Whether every step is made."""
        return self.index >= len(self.lesson.steps)

    @property
    def step(self) -> Step | None:
        """The step the learner is on (None once done)."""
        return None if self.done else self.lesson.steps[self.index]

    def legal(self) -> list[str]:
        """The learner's legal moves now, in notation (empty when done)."""
        if self.done:
            return []
        return [str(a) for a in self.deal.legal_actions()]

    def moves(self) -> list[tuple[str, Msg]]:
        """The learner's legal moves now: each one's notation and its words for a button."""
        from conquian.present import move_msg

        if self.done:
            return []
        return [(str(a), move_msg(a)) for a in self.deal.legal_actions()]

    def hand(self) -> list[int]:
        """The learner's hand (what the seat sees of itself)."""
        from conquian.engine.cards import cards_of, sort_key
        from conquian.engine.cooncan.deal import CooncanDeal

        d = self.deal
        seat = self.lesson.seat
        if isinstance(d, CooncanDeal):
            return sorted(d.hand(seat), key=sort_key)
        return sorted(cards_of(d.view(seat).hand_mask), key=sort_key)

    def try_move(self, text: str) -> Answer:
        """Check a move and, if it is the lesson's, make it and the scripted replies that follow."""
        step = self.step
        if step is None:
            self.last = Answer(False, None, Msg("the lesson is over"))
            return self.last
        seat = f"p{self.lesson.seat}"
        text = " ".join(text.split())
        if text and not text.startswith(seat + " "):
            text = f"{seat} {text}"
        try:
            legal = self.deal.is_legal(text)
            if not legal:
                self.deal.copy().play(text)  # raises the engine's refusal with its rule
        except IllegalActionError as e:
            self.last = Answer(False, e.rule, e.cause_message)
            return self.last
        except ConquianError as e:
            self.last = Answer(False, None, e.message)
            return self.last
        played = str(self.deal.copy().play(text))
        if step.expect != ANY and not any(self._same(played, want) for want in step.expect):
            self.last = Answer(False, step.rule, step.why)
            return self.last
        self.deal.play(text)
        for move in step.then:
            self.deal.play(move)
        self.index += 1
        self.last = Answer(True, None, step.after or (self.lesson.summary if self.done else Msg("Well done.")))
        return self.last

    def _same(self, played: str, want: str) -> bool:
        """Whether two moves are the same (a ``use`` may list its combinations in any order)."""
        if played == want:
            return True
        a = self.deal.copy()
        b = self.deal.copy()
        try:
            a.play(played)
            b.play(want)
        except ConquianError:
            return False
        return bool(a == b)
