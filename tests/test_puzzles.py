"""The shipped puzzles (issue 41): each is a legal position whose answer leads the second move by
the margin; a sample is verified again by the search; a puzzle shows only its seat's view (the
re-deal test); ``conquian puzzle`` answers in words."""

from __future__ import annotations

import datetime
import random

import pytest

from conquian.cli import main
from conquian.engine.redeal import redeal_unseen
from conquian.i18n import translator
from conquian.learn.puzzles import (
    MARGIN,
    THEMES,
    daily_puzzle,
    lead,
    puzzle_lines,
    puzzles,
    reason_keys,
    reasons_at,
    search,
    view_lines,
)


def test_shipped_puzzles_are_positions_with_a_clear_answer() -> None:
    shipped = puzzles()
    assert len(shipped) >= 5
    assert len({p.id for p in shipped}) == len(shipped)
    for p in shipped:
        deal = p.deal()
        assert not deal.over and deal.to_act == p.seat
        assert deal.is_legal(p.answer)
        assert p.estimates[0][0] == p.answer and p.estimates[0][1] - p.estimates[1][1] >= MARGIN
        assert p.theme in THEMES and 0.0 <= p.difficulty <= 1.0


def _sample() -> list[str]:
    """A sample of the shipped puzzles to verify again in every run: the first and last of each
    theme (``python -m benchmarks.make_puzzles --verify`` checks them all)."""
    out: list[str] = []
    for theme in THEMES:
        ids = [p.id for p in puzzles() if p.theme == theme]
        out += sorted({ids[0], ids[-1]}) if ids else []
    return out


@pytest.mark.parametrize("puzzle_id", _sample())
def test_sample_verified_again(puzzle_id: str) -> None:
    """The search, on re-deals other than the ones that made the puzzle, still picks the answer."""
    p = next(p for p in puzzles() if p.id == puzzle_id)
    ranked = search(p, 300, 12345)
    assert ranked[0][0] == p.answer
    assert lead(ranked) >= MARGIN / 2


def test_puzzle_shows_only_the_seats_view() -> None:
    """Re-dealing every card the seat has not seen changes nothing the puzzle shows."""
    for p in puzzles():
        deal = p.deal()
        shown = puzzle_lines(p, translator("es"))
        assert shown == view_lines(deal, p.seat, translator("es"))
        for k in range(3):
            other = redeal_unseen(deal, p.seat, random.Random(k))
            assert view_lines(other, p.seat, translator("es")) == shown


def test_the_reasons_are_in_words_and_read_nothing_hidden() -> None:
    """Each puzzle says in words what its answer and the second-best move do (the card left to the
    adversary and whether it fits his combinations, the cards laid, going out), in both
    languages, and re-dealing the cards the seat has not seen changes none of it."""
    es = translator("es")
    for p in puzzles():
        moves = (p.answer, p.second[0])
        said = [es.render(m) for m in p.reasons()]
        assert said and all(s.startswith("Al ") for s in said), said
        assert all(translator("en").render(m).startswith("If you ") for m in p.reasons())
        deal = p.deal()
        for k in range(3):
            other = redeal_unseen(deal, p.seat, random.Random(k))
            assert [es.render(m) for m in reasons_at(other, p.seat, moves)] == said


def test_the_answer_and_the_runner_up_are_told_apart() -> None:
    """For every shipped puzzle the explanation of the answer differs from the runner-up's in
    kind, not only in the cards named: what the move gives up of the seat's own combinations
    (R2.2, borrowing R3.4), how many unseen pairs make a combination with the card left to him,
    whether a pass buries the card (R3.3), the pips left in a Cooncan hand (R5.2)."""
    for p in puzzles():
        deal = p.deal()
        assert reason_keys(deal, p.seat, p.answer) != reason_keys(deal, p.seat, p.second[0]), p.id


def test_the_two_safe_discards_of_c46_6() -> None:
    """Both discards fit none of his combinations; what tells them apart is said."""
    p = next(p for p in puzzles() if p.id == "c46-6")
    en = [translator("en").render(m) for m in p.reasons()]
    assert all("fits none of his combinations" in line for line in en)
    assert "4 pairs of cards you have not seen" in en[0] and "3 pairs of cards you have not seen" in en[1], en
    es = [translator("es").render(m) for m in p.reasons()]
    assert all("pairs" not in line and "you" not in line for line in es), es


def test_sources_name_no_player() -> None:
    """A puzzle says where it was found: the bots' self-play, a record (by a digest of its text) or
    a server's rated or published match (by its table's id), never by a player's name."""
    for p in puzzles():
        assert p.source == "self-play" or p.source.split()[0] in ("record", "match"), p.source
        assert p.to_json()["source"] == p.source


def test_the_themes_and_games_shipped() -> None:
    """Every theme of the issue has puzzles: going out, forcing, safe discards, the say, borrowing,
    and Cooncan's fattening (mined by ``benchmarks.make_puzzles``'s sets)."""
    shipped = puzzles()
    themes = {p.theme for p in shipped}
    assert {"going-out", "forcing", "safe-discard", "the-say", "borrowing", "fattening"} <= themes, themes
    assert {p.variant for p in shipped} == {"conquian", "cooncan"}
    assert all(p.variant == "cooncan" for p in shipped if p.theme == "fattening")


def test_the_puzzle_of_the_day() -> None:
    """The same puzzle for everyone on the same day; every puzzle has its day before one comes back."""
    day = datetime.date(2026, 11, 29)
    assert daily_puzzle(day) == daily_puzzle(day)
    n = len(puzzles())
    days = [daily_puzzle(day + datetime.timedelta(days=k)).id for k in range(n)]
    assert sorted(days) == sorted(p.id for p in puzzles())
    assert daily_puzzle(day + datetime.timedelta(days=n)) == daily_puzzle(day)


def test_puzzle_command(capsys: pytest.CaptureFixture[str]) -> None:
    p = puzzles()[0]
    assert main(["puzzle", p.id, "--answer", p.answer.split(" ", 1)[1], "--lang", "es"]) == 0
    out = capsys.readouterr().out
    assert "¡Correcto!" in out and "%" in out
    assert main(["puzzle", "--list"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(puzzles())
    assert main(["puzzle", "nosuch"]) == 2
    assert main(["puzzle", "--daily", "--answer", daily_puzzle().answer.split(" ", 1)[1], "--lang", "es"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Problema del día") and f"Problema {daily_puzzle().id} " in out and "¡Correcto!" in out
    assert main(["puzzle", p.id, "--daily"]) == 2
    assert main(["puzzle", p.id, "--answer", "99"]) == 2


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_puzzle_names_seats_as_the_table_does_and_wraps_at_words(
        lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 54: no seat code ("You are p1; p2 has 4 cards", "Eres p1") in a puzzle's lines or reasons,
    the game's words in Spanish ("bajadas", "repartos nuevos"), and at 100 columns every line ends
    at a word (never "Th/eme")."""
    import re

    tr = translator(lang)
    for p in puzzles():
        text = "\n".join([*puzzle_lines(p, tr), tr.render(p.explanation()), *(tr.render(r) for r in p.reasons())])
        assert not re.search(r"\bp\d\b", text), (p.id, text)
        if lang == "es":
            assert "de nuevo" not in text and not re.search(r"\d abajo\b", text), (p.id, text)
    two = next(p for p in puzzles() if p.variant == "conquian")
    first = puzzle_lines(two, tr)[0]
    assert first.startswith("The adversary has " if lang == "en" else "Tu adversario tiene "), first
    monkeypatch.setenv("COLUMNS", "100")
    for p in puzzles()[:6]:
        assert main(["puzzle", p.id, "--answer", p.answer.split(" ", 1)[1], "--lang", lang]) == 0
        out = capsys.readouterr().out
        lines = out.splitlines()
        assert all(len(line) < 100 for line in lines), max(lines, key=len)
        assert not re.search(r"\bp\d\b", out), out  # the moves' list too ("force 5♥ on Player 2")
        words = set(out.split())
        explanation = tr.render(p.explanation())
        assert set(explanation.split()) <= words, set(explanation.split()) - words
