"""The web table's Learn section: ``/learn`` (the page) and ``/api/learn`` (the lessons, and one
lesson's state after the learner's moves), played by taps with the same lesson runner as the
terminal (:mod:`conquian.learn`).

The server keeps nothing: the page sends the moves the lesson accepted so far and the move tried;
the server replays them on the lesson's deal and answers with the seat's view. Progress is kept by
the browser (``localStorage``).
"""

from __future__ import annotations

import datetime
import html
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.engine.cards import card_symbol
from conquian.i18n import Msg, Translator
from conquian.learn.board import board_lines
from conquian.learn.lessons import LESSONS, lesson
from conquian.learn.puzzles import THEME_WORDS, move_words, puzzle_lines, puzzles
from conquian.learn.runner import LessonRun
from conquian.present import move_msg
from conquian.web.lang import reader

#: The most moves a lesson's state may replay (the longest lesson has far fewer).
MAX_MOVES = 64


def _reader(request: Request) -> Translator:
    return reader(request.query_params.get("lang"), request.headers.get("accept-language"))


def _error(status: int, message: Msg, tr: Translator) -> JSONResponse:
    return JSONResponse({"error": {"code": "bad_request", "rule": None, "message": tr.render(message)}},
                        status_code=status)


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


def learn_routes() -> list[BaseRoute]:
    """The Learn section's routes."""

    async def page(request: Request) -> Response:
        tr = _reader(request)
        return HTMLResponse(learn_page(tr), headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    async def lessons(request: Request) -> Response:
        tr = _reader(request)
        return JSONResponse({"lang": tr.lang, "lessons": [
            {"key": les.key, "title": tr.render(les.title), "foster": les.source is not None} for les in LESSONS]},
            headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    async def play(request: Request) -> Response:
        tr = _reader(request)
        try:
            les = lesson(request.path_params["key"])
        except KeyError:
            return _error(404, Msg("there is no such lesson"), tr)
        try:
            body = json.loads(await request.body() or b"{}")
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return _error(400, Msg("the request is not a JSON object"), tr)
        moves = body.get("moves", [])
        move = body.get("move")
        if (not isinstance(moves, list) or len(moves) > MAX_MOVES or not all(isinstance(m, str) for m in moves)
                or not (move is None or isinstance(move, str)) or (move is not None and len(move) > 200)):
            return _error(400, Msg("the moves must be a list of texts"), tr)
        run = LessonRun(les)
        for m in moves:
            if not run.try_move(m[:200]).accepted:
                return _error(400, Msg("the moves do not replay this lesson"), tr)
        run.last = None
        if move is not None:
            run.try_move(move)
        return JSONResponse(lesson_state(run, tr), headers={"Cache-Control": "no-store"})

    async def puzzle_list(request: Request) -> Response:
        tr = _reader(request)
        shipped = puzzles()
        daily = shipped[datetime.date.today().toordinal() % len(shipped)].id if shipped else None
        return JSONResponse({"daily": daily, "puzzles": [
            {"id": p.id, "theme": tr.render(THEME_WORDS[p.theme]), "difficulty": p.difficulty} for p in shipped]},
            headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    async def puzzle(request: Request) -> Response:
        tr = _reader(request)
        found = [p for p in puzzles() if p.id == request.path_params["id"]]
        if not found:
            return _error(404, Msg("there is no such puzzle"), tr)
        try:
            body = json.loads(await request.body() or b"{}")
        except ValueError:
            body = None
        if not isinstance(body, dict) or not (body.get("move") is None or isinstance(body.get("move"), str)):
            return _error(400, Msg("the request is not a JSON object"), tr)
        p = found[0]
        actions = p.deal().legal_actions()
        moves = [str(a) for a in actions]
        out: dict[str, Any] = {
            "id": p.id, "title": tr.render(Msg("Puzzle {id} ({theme})", id=p.id, theme=THEME_WORDS[p.theme])),
            "lines": puzzle_lines(p, tr), "prompt": tr.render(Msg("Find the best move.")),
            "moves": [{"move": str(a), "label": tr.render(move_msg(a))} for a in actions],
        }
        move = body.get("move")
        if move is not None:
            if move not in moves:
                return _error(400, Msg("that is not one of the moves listed"), tr)
            right = move == p.answer
            verdict = (Msg("Right!") if right else
                       Msg("Not this time: the answer is {answer}.", answer=move_words(p.answer)))
            out["result"] = {"right": right, "answer": p.answer,
                             "text": " ".join(tr.render(m) for m in (verdict, p.explanation(), *p.reasons()))}
        return JSONResponse(out, headers={"Cache-Control": "no-store"})

    return [
        Route("/learn", page),
        Route("/api/learn", lessons),
        Route("/api/learn/{key}", play, methods=["POST"]),
        Route("/api/puzzles", puzzle_list),
        Route("/api/puzzles/{id}", puzzle, methods=["POST"]),
    ]


def learn_page(tr: Translator) -> str:
    """The Learn page, its words in the reader's language (the lessons come from ``/api/learn``)."""
    words = {
        "learn": tr.render(Msg("Learn")),
        "back": tr.render(Msg("All lessons")), "done": tr.render(Msg("done")),
        "next": tr.render(Msg("Next lesson")),
        "moves": tr.render(Msg("Your moves")), "puzzles": tr.render(Msg("Puzzles")),
        "daily": tr.render(Msg("Puzzle of the day")), "difficulty": tr.render(Msg("difficulty")),
    }
    data = html.escape(json.dumps(words, ensure_ascii=False), quote=True)
    title = html.escape(tr.render(Msg("Learn conquián: choose a lesson")))
    return f"""<!doctype html>
<html lang="{html.escape(tr.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>conquian · {html.escape(words["learn"])}</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/learn.css">
</head>
<body data-lang="{html.escape(tr.lang)}" data-words="{data}">
<header class="top"><a href="/" class="brand">conquian</a>
<a href="/learn" class="learn-home">{html.escape(words["learn"])}</a></header>
<main id="learn">
<section id="path"><h1>{title}</h1><ol id="lesson-list"></ol>
<h2>{html.escape(words["puzzles"])}</h2><ul id="puzzle-list" class="puzzles"></ul></section>
<section id="puzzle" hidden>
<h1 id="p-title"></h1><ul id="p-lines" class="board"></ul>
<p id="p-prompt" class="prompt"></p><div id="p-moves" class="moves"></div>
<p id="p-result" class="answer" role="status"></p>
<nav class="after"><button id="p-back" type="button">{html.escape(words["back"])}</button></nav>
</section>
<section id="lesson" hidden>
<h1 id="l-title"></h1><p id="l-intro"></p><p id="l-source" class="source"></p>
<ul id="l-board" class="board"></ul>
<p id="l-hand" class="hand"></p>
<p id="l-prompt" class="prompt" aria-live="polite"></p>
<p id="l-answer" class="answer" role="status"></p>
<div id="l-moves" class="moves" aria-label="{html.escape(words["moves"])}"></div>
<p id="l-summary" class="summary" hidden></p>
<nav class="after"><button id="l-back" type="button">{html.escape(words["back"])}</button>
<button id="l-next" type="button" hidden>{html.escape(words["next"])}</button></nav>
</section>
</main>
<script src="/static/learn.js"></script>
</body>
</html>
"""
