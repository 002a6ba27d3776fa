"""The Learn section's answers as data, the same wherever the lesson runner runs: on the server
(``/api/learn``, ``/api/puzzles``: :mod:`conquian.web.platform.learn`) or in the page's own Python (the
offline app's worker: :meth:`conquian.web.local.Games.learn`).  Nothing here depends on the
server: a request is a path and a JSON body, an answer a JSON object or a :class:`LearnError`.

Nothing is kept between requests: a lesson's state is rebuilt from the moves the page says the
lesson accepted so far, and every answer shows the learner's seat's view only.

```pycon
>>> from conquian.i18n import translator
>>> first = learn_request("/api/learn", None, translator("es"))["lessons"][0]
>>> state = learn_request("/api/learn/" + first["key"], {"moves": []}, translator("es"))
>>> state["step"], state["done"]
(0, False)

```
"""

from __future__ import annotations

import copy
import datetime
from functools import lru_cache
from typing import Any

from conquian.engine.cards import card_symbol
from conquian.i18n import Msg, Translator, translator
from conquian.learn.board import board_lines
from conquian.learn.lessons import LESSONS, lesson
from conquian.learn.puzzles import THEME_WORDS, Puzzle, daily_puzzle, move_words, puzzle_lines, puzzles, starting_shown
from conquian.learn.runner import LessonRun
from conquian.present import move_msg

#: The most moves a lesson's state may replay (the longest lesson has far fewer).
MAX_MOVES = 64
#: The longest move text read.
MAX_MOVE = 200


class LearnError(Exception):
    """A request the Learn section refuses: its HTTP status and a sentence."""

    def __init__(self, status: int, message: Msg) -> None:
        super().__init__(message.msgid)
        self.status, self.message = status, message


def page_words(tr: Translator) -> dict[str, str]:
    """The Learn page's own words in the reader's language (headings, buttons)."""
    return {
        "learn": tr.render(Msg("Learn")), "title": tr.render(Msg("Learn conquián: choose a lesson")),
        "back": tr.render(Msg("All lessons")), "done": tr.render(Msg("done")),
        "next": tr.render(Msg("Next lesson")),
        "moves": tr.render(Msg("Your moves")), "puzzles": tr.render(Msg("Puzzles")),
        "daily": tr.render(Msg("Puzzle of the day")), "difficulty": tr.render(Msg("difficulty")),
        "solved": tr.render(Msg("solved")), "rating": tr.render(Msg("rating")),
        # the page fills in the rating and its change (signed-in players on the server only)
        "your_rating": tr.render(Msg("Your puzzle rating: {rating} ({change})", rating="{rating}", change="{change}")),
        "this_rating": tr.render(Msg("this puzzle's rating: {rating}", rating="{rating}")),
        "not_counted": tr.render(Msg("only your first answer to a puzzle is rated")),
        "seen_before": tr.render(Msg("not rated: this browser was shown this puzzle's answer before")),
        "offline_unrated": tr.render(Msg("Puzzles played here, offline, are not rated.")),
    }


def lesson_state(run: LessonRun, tr: Translator) -> dict[str, Any]:
    """What the page shows of a lesson in progress: the seat's view only."""
    les = run.lesson
    step = run.step
    out: dict[str, Any] = {
        "key": les.key, "title": tr.render(les.title), "intro": tr.render(les.intro),
        "source": (tr.render(Msg("After {book}: \u201c{passage}\u2026\u201d", book=les.source.book,
                                 passage=les.source.passage)) if les.source else None),
        "board": board_lines(run, tr),
        "hand_label": tr.render(Msg("Your hand: ")),
        "hand": [card_symbol(c) for c in run.hand()],
        "prompt": tr.render(step.prompt) if step else None,
        "moves": [{"move": m, "label": tr.render(words)} for m, words in run.moves()],
        "step": run.index, "steps": len(les.steps), "done": run.done,
        "summary": tr.render(les.summary) if run.done else None,
    }
    if run.last is not None:
        out["answer"] = {"accepted": run.last.accepted, "rule": run.last.rule, "text": run.last.render(tr)}
    return out


def lesson_list(tr: Translator) -> dict[str, Any]:
    """The path of lessons (key, title, whether it is one of Foster's hands) and the page's words."""
    return {"lang": tr.lang, "words": page_words(tr), "lessons": [
        {"key": les.key, "title": tr.render(les.title), "foster": les.source is not None} for les in LESSONS]}


def lesson_answer(key: str, body: object, tr: Translator) -> dict[str, Any]:
    """A lesson's state after the moves it accepted so far (``moves``) and the move tried (``move``)."""
    try:
        les = lesson(key)
    except KeyError:
        raise LearnError(404, Msg("there is no such lesson")) from None
    if not isinstance(body, dict):
        raise LearnError(400, Msg("the request is not a JSON object"))
    moves = body.get("moves", [])
    move = body.get("move")
    if (not isinstance(moves, list) or len(moves) > MAX_MOVES or not all(isinstance(m, str) for m in moves)
            or not (move is None or isinstance(move, str)) or (move is not None and len(move) > MAX_MOVE)):
        raise LearnError(400, Msg("the moves must be a list of texts"))
    run = LessonRun(les)
    for m in moves:
        if not run.try_move(m[:MAX_MOVE]).accepted:
            raise LearnError(400, Msg("the moves do not replay this lesson"))
    run.last = None
    if move is not None:
        run.try_move(move)
    return lesson_state(run, tr)


def puzzle_list(tr: Translator, day: datetime.date | None = None) -> dict[str, Any]:
    """The shipped puzzles (id, theme, difficulty, game, starting rating, where it was found: its
    ``source``, which names no player) and the puzzle of the day."""
    return copy.deepcopy(_puzzle_list(tr.lang, day or datetime.datetime.now(datetime.UTC).date()))


@lru_cache(maxsize=16)
def _puzzle_list(lang: str, day: datetime.date) -> dict[str, Any]:
    # the same for every reader of a language on a day: made once (the caller gets a copy)
    tr = translator(lang)
    shipped = puzzles()
    return {"daily": daily_puzzle(day).id if shipped else None, "puzzles": [
        {"id": p.id, "theme": tr.render(THEME_WORDS[p.theme]), "difficulty": p.difficulty, "variant": p.variant,
         "rating": starting_shown(p.difficulty), "source": p.source}
        for p in shipped]}


def _puzzle(puzzle_id: str) -> Puzzle:
    for p in puzzles():
        if p.id == puzzle_id:
            return p
    raise LearnError(404, Msg("there is no such puzzle"))


def puzzle_answer(puzzle_id: str, body: object, tr: Translator) -> dict[str, Any]:
    """A puzzle from its seat's view and its moves; with ``move``, the verdict and why."""
    p = _puzzle(puzzle_id)
    if not isinstance(body, dict) or not (body.get("move") is None or isinstance(body.get("move"), str)):
        raise LearnError(400, Msg("the request is not a JSON object"))
    out = copy.deepcopy(_puzzle_shown(p.id, tr.lang))
    move = body.get("move")
    if move is not None:
        if move not in [m["move"] for m in out["moves"]]:
            raise LearnError(400, Msg("that is not one of the moves listed"))
        out["result"] = copy.deepcopy(_verdict(p.id, tr.lang, move))
    return out


# A puzzle's position and a verdict are the same for every reader of a language: each is made
# once (the engine replays the deal, the reasons search the seat's view), the caller gets a copy.
@lru_cache(maxsize=256)
def _puzzle_shown(puzzle_id: str, lang: str) -> dict[str, Any]:
    tr = translator(lang)
    p = _puzzle(puzzle_id)
    return {
        "id": p.id, "title": tr.render(Msg("Puzzle {id} ({theme})", id=p.id, theme=THEME_WORDS[p.theme])),
        "lines": puzzle_lines(p, tr), "prompt": tr.render(Msg("Find the best move.")),
        "moves": [{"move": str(a), "label": tr.render(move_msg(a))} for a in p.deal().legal_actions()],
    }


@lru_cache(maxsize=2048)
def _verdict(puzzle_id: str, lang: str, move: str) -> dict[str, Any]:
    tr = translator(lang)
    p = _puzzle(puzzle_id).unsealed()  # the offline app's copy keeps the answer's digest only
    right = move == p.answer
    verdict = (Msg("Right!") if right else
               Msg("Not this time: the answer is {answer}.", answer=move_words(p.answer)))
    return {"right": right, "answer": p.answer, "verdict": tr.render(verdict),
            "why": [tr.render(m) for m in (p.explanation(), *p.reasons())],
            "text": " ".join(tr.render(m) for m in (verdict, p.explanation(), *p.reasons()))}


def learn_request(path: str, body: object, tr: Translator, day: datetime.date | None = None) -> dict[str, Any]:
    """One request by the server's path (``/api/learn``, ``/api/learn/KEY``, ``/api/puzzles``,
    ``/api/puzzles/ID``; a body for the last of each pair, None for the lists): its answer, or a
    :class:`LearnError`."""
    path = path.split("?", 1)[0]
    if path == "/api/learn":
        return lesson_list(tr)
    if path == "/api/puzzles":
        return puzzle_list(tr, day)
    for prefix, answer in (("/api/learn/", lesson_answer), ("/api/puzzles/", puzzle_answer)):
        if path.startswith(prefix) and len(path) > len(prefix):
            return answer(path[len(prefix):][:80], {} if body is None else body, tr)
    raise LearnError(404, Msg("there is no such page"))
