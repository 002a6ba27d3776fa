"""The lessons (issue 41): every scripted deal replays through the engine and ``conquian replay``, each
step's move is legal and every other move is refused naming a rule; ``learn --list``; a lesson
completed in the terminal app."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from conquian.cli import main
from conquian.engine.record import read_record, replay
from conquian.i18n import translator
from conquian.learn import progress
from conquian.learn.lessons import LESSONS
from conquian.learn.model import ANY, Lesson
from conquian.learn.runner import LessonRun


def test_path_has_enough_lessons_and_foster_hands() -> None:
    assert len(LESSONS) >= 15
    assert len({lesson.key for lesson in LESSONS}) == len(LESSONS)
    sourced = [lesson for lesson in LESSONS if lesson.source is not None]
    assert len(sourced) >= 5
    assert all("Foster" in lesson.source.book and lesson.source.passage for lesson in sourced if lesson.source)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_scripted_deal_replays(lesson: Lesson, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """RULES R3.1/R4.1/R8.2: the lesson's deck deals its hands, and its moves replay (RECORDS.md)."""
    text = lesson.record()
    rep = replay(read_record(text))
    assert len(rep.deals) == 1
    f = tmp_path / f"{lesson.key}.toml"
    f.write_text(text, encoding="utf-8")
    assert main(["replay", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["deals"][0]["actions"] == len(lesson.script())


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_expected_moves_legal_and_others_refused(lesson: Lesson) -> None:
    run = LessonRun(lesson)
    es = translator("es")
    for step in lesson.steps:
        legal = run.legal()
        if step.expect != ANY:
            assert all(run.deal.is_legal(m) for m in step.expect)
            for other in legal:
                if other in step.expect:
                    continue
                before = run.deal.copy()
                answer = run.try_move(other)
                assert not answer.accepted and answer.rule == step.rule, other
                assert answer.render(es).startswith(step.rule + " ")
                assert run.deal == before  # refused: nothing changed
        answer = run.try_move("discard Zz")  # not a card: refused, nothing played
        assert not answer.accepted
        answer = run.try_move(step.sample or step.expect[0])
        assert answer.accepted, answer.render()
    assert run.done


def test_illegal_move_names_the_engine_rule() -> None:
    run = LessonRun(LESSONS[0])
    answer = run.try_move("use 4h 5h 7h")
    assert not answer.accepted and answer.rule is not None and answer.rule.startswith("R")
    assert answer.render(translator("en")).startswith(answer.rule)


def test_list_in_spanish_with_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(progress, "progress_path", lambda: tmp_path / "learn.json")
    progress.mark_done(LESSONS[0].key)
    assert main(["learn", "--list", "--lang", "es"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(LESSONS)
    assert "(hecha)" in lines[0] and "(pendiente)" in lines[1]
    assert translator("es").render(LESSONS[0].title) in lines[0]
    assert main(["learn", "nosuchlesson"]) == 2


def test_pilot_completes_first_lesson(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("textual")
    from textual.widgets import OptionList

    from conquian.learn.tui import LearnApp, LessonScreen

    monkeypatch.setattr(progress, "progress_path", lambda: tmp_path / "learn.json")

    async def go() -> None:
        app = LearnApp()
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press("enter")  # the first lesson
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, LessonScreen)
            for step in screen.run.lesson.steps:
                moves = screen.query_one("#moves", OptionList)
                want = step.sample or step.expect[0]
                ids = [moves.get_option_at_index(i).id for i in range(moves.option_count)]
                moves.highlighted = ids.index(want)
                moves.focus()
                await pilot.press("enter")
                await pilot.pause()
            assert screen.run.done
            await pilot.press("escape")
            await pilot.pause()

    asyncio.run(go())
    assert LESSONS[0].key in progress.done_lessons(tmp_path / "learn.json")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_list_has_no_stray_mark(lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 54: "1. · What a combination is (not done)": a lesson not done has no mark (its words say
    it); a lesson done keeps its ✓."""
    monkeypatch.setattr(progress, "progress_path", lambda: tmp_path / "learn.json")
    progress.mark_done(LESSONS[0].key)
    assert main(["learn", "--list", "--lang", lang]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(" 1. ✓ ")
    title = translator(lang).render(LESSONS[1].title)
    assert lines[1].startswith(f" 2. {title} ("), lines[1]
    assert not any("·" in line for line in lines), lines


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_lesson_draws_its_cards_as_its_words_name_them(lang: str, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 54: lesson 15 says "Lay the 5♥" while its hand showed "2 Es, 3 Es, ... Sota Co" and its
    adversary "p2": the lessons draw every pack with the suits' symbols and name the seats."""
    pytest.importorskip("textual")
    import re

    from textual.widgets import Static

    from conquian.i18n import set_language
    from conquian.learn.tui import LearnApp, LessonScreen

    monkeypatch.setattr(progress, "progress_path", lambda: tmp_path / "learn.json")
    set_language(lang)
    shown: list[str] = []

    async def go() -> None:
        app = LearnApp("foster-hoyle-five")
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, LessonScreen)
            for name in ("#table", "#hand", "#prompt"):
                shown.append(str(screen.query_one(name, Static).render()))

    try:
        asyncio.run(go())
    finally:
        set_language("en")
    text = "\n".join(shown)
    assert "♥" in text, text
    assert not re.search(r"\b(?:As|[2-7]|Sota|Cab|Rey) (?:Or|Co|Es|Ba)\b", text), text
    assert not re.search(r"\bp\d\b", text), text
