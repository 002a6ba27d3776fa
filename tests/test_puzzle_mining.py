"""Puzzles mined from reviewed matches (issue 41): record files and a server's finished matches,
the review's flagged mistakes confirmed from the seat's view alone, a source that names no
player, only the matches anyone may see; and the search for a puzzle whose answer is a force.
Small playouts: the shipped puzzles are confirmed by ``python -m benchmarks.make_puzzles``."""

from __future__ import annotations

import json
import random
import zlib
from pathlib import Path

import pytest
from benchmarks.make_puzzles import (
    confirm,
    hunt_forcing,
    main,
    mine_db,
    mine_records,
    record_source,
    write_bot_records,
)

from conquian.bots import make_bot
from conquian.engine.redeal import redeal_unseen
from conquian.engine.rules import get_rules
from conquian.learn.puzzles import MARGIN, Puzzle, lead, search_view
from conquian.web.platform.ratings.storage import Ratings, shared_finished
from conquian.web.store import Store
from conquian.web.table import Table

REVIEW = 12  # playouts of the review that flags the candidates
CONFIRM = 40  # playouts of each confirmation run


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three one-deal records of ``beginner`` against ``beginner`` (its noise makes mistakes)."""
    folder = tmp_path_factory.mktemp("records")
    write_bot_records(folder, 3, "beginner", first_seed=1)
    (folder / "notes.toml").write_text("not a record", encoding="utf-8")  # named and skipped
    return folder


@pytest.fixture(scope="module")
def mined(records: Path) -> tuple[list[Puzzle], int, list[str]]:
    said: list[str] = []
    found, flagged = mine_records(records, REVIEW, CONFIRM, hard=False, log=said.append)
    return found, flagged, said


def test_the_reviews_mistakes_become_puzzles(records: Path, mined: tuple[list[Puzzle], int, list[str]]) -> None:
    found, flagged, said = mined
    assert flagged > len(found) >= 1, said
    assert any("notes.toml: skipped" in line for line in said)
    texts = {record_source(p.read_text(encoding="utf-8")): p for p in records.glob("bots-*.toml")}
    for p in found:
        source, deal = p.source.rsplit(" deal ", 1)
        assert source in texts and deal == "1"
        assert "beginner" not in p.source and "bots-" not in p.source  # no player's name, no file name
        position = p.deal()
        assert position.to_act == p.seat and position.is_legal(p.answer)
        assert p.estimates[0][0] == p.answer and p.estimates[0][1] - p.estimates[1][1] >= MARGIN
        again = Puzzle.from_json(json.loads(json.dumps(p.to_json())))
        assert again == p and again.source == p.source
    # each kept puzzle is a decision the review flagged: the move made there is not the answer
    for line in said:
        if ": kept (" in line:
            assert line.split(" played ")[1].split(" (")[0] != line.split("kept (")[1].split(" by ")[0]


def test_the_confirmation_reads_only_the_seats_view(mined: tuple[list[Puzzle], int, list[str]]) -> None:
    """The re-deal test: dealing again every card the seat has not seen gives the same search, so
    the same puzzle (the confirmation reads the view, never the deal)."""
    found, _flagged, _said = mined
    for p in found:
        deal = p.deal()
        key = zlib.crc32(p.id.encode())
        ranked = search_view(deal.view(p.seat), 16, key)
        for k in range(2):
            other = redeal_unseen(deal, p.seat, random.Random(k))
            assert search_view(other.view(p.seat), 16, key) == ranked


def test_confirmation_keeps_a_clear_answer_only(mined: tuple[list[Puzzle], int, list[str]]) -> None:
    """A position is kept only when its best move leads by the margin on every re-deal seed, and
    the leads are reported either way."""
    found, _flagged, _said = mined
    p = found[0]
    probe = Puzzle(p.id, p.variant, p.dealer, p.deck, p.actions, p.seat, "", (), "using", 0.0, p.options, p.source)
    leads: list[tuple[str, float]] = []
    again = confirm(probe, 7, CONFIRM, hard=False, leads=leads)
    assert len(leads) == 2
    if again is None:
        assert any(m != leads[0][0] or x < MARGIN for m, x in leads)
    else:
        assert all(m == again.answer and x >= MARGIN for m, x in leads)


def _finished(table_id: str, name: str, seed: int, public: bool, people: tuple[str, str]) -> Table:
    t = Table(table_id, name, get_rules("conquian"), seed=seed, deals_in_match=1, public=public)
    t.sit(1, people[0])
    t.sit(2, people[1])
    session = t.session
    assert session is not None
    bots = {s: make_bot("beginner", seed * 10 + s) for s in (1, 2)}
    while session.deal.to_act is not None:
        seat = session.deal.to_act
        t.act(seat, bots[seat].choose(session.deal.view(seat)), t.state)
    assert t.status == "over"
    return t


def test_a_servers_matches_mined_only_where_the_players_allow(tmp_path: Path) -> None:
    """Rated and published matches are mined; a casual private one is never read, and no puzzle
    or line of the run names a player."""
    url = "sqlite:///" + str(tmp_path / "server.db")
    store = Store(url)
    store.upgrade()
    store.create(_finished("pubAAA", "published", 1, True, ("Ann", "Bob")))
    store.create(_finished("ratBBB", "rated", 2, False, ("Cleo", "Dan")))
    Ratings(store.engine).mark_rated("ratBBB")
    store.create(_finished("prvCCC", "Zelda's table", 3, False, ("Zelda", "Yves")))
    unfinished = Table("pubDDD", "still playing", get_rules("conquian"), seed=4, public=True)
    unfinished.sit(1, "Eve")
    unfinished.sit(2, "Fay")
    store.create(unfinished)
    assert sorted(shared_finished(store)) == ["pubAAA", "ratBBB"]
    store.dispose()
    said: list[str] = []
    found, flagged = mine_db(url, REVIEW, CONFIRM, hard=False, log=said.append)
    assert flagged >= len(found)
    assert all(p.source.split(" deal ")[0] in ("match pubAAA", "match ratBBB") for p in found)
    text = "\n".join(said) + json.dumps([p.to_json() for p in found])
    for hidden in ("prvCCC", "Zelda", "Yves", "Ann", "Bob", "Cleo", "Dan"):
        assert hidden not in text


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "puzzles.json"
    out.write_text(json.dumps({"puzzles": [{"id": "old", "variant": "conquian", "dealer": 2, "deck": "", "actions": [],
                                            "seat": 1, "answer": "p1 pass", "estimates": [["p1 pass", 1.0]],
                                            "theme": "the-say", "difficulty": 0.0}]}), encoding="utf-8")
    folder = tmp_path / "recs"
    assert main(["--write-bot-records", str(folder), "--records", "1", "--from-records", str(folder),
                 "--review-playouts", str(REVIEW), "--confirm-playouts", str(CONFIRM), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "1 records in" in printed and "flagged decisions" in printed
    data = json.loads(out.read_text(encoding="utf-8"))["puzzles"]
    assert data[0]["id"] == "old" and all(p["source"].startswith("record ") for p in data[1:])
    assert main(["--from-records", str(tmp_path / "nowhere"), "--out", str(out)]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_the_forcing_hunt_counts_what_it_saw() -> None:
    """The hunt for a puzzle whose answer is the force: positions with a legal force, where
    ``expert`` forced, where the screen put the force first; only a confirmed force is kept."""
    h = hunt_forcing(5001, 4, 20, 5.0, CONFIRM, log=lambda _line: None)
    assert h.positions >= h.expert_forced >= h.force_first >= h.screened_lead
    assert h.positions > 0
    assert len(h.confirmed) + len(h.failed) == h.screened_lead
    for p in h.confirmed:
        assert p.answer.split()[1] == "force" and p.theme == "forcing" and lead(list(p.estimates)) >= MARGIN
