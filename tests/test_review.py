"""``conquian review`` and :mod:`conquian.review` (docs/review.md): a planted blunder is found where
it was made (R3.7, eleven down), the review reads the seat's view only (a re-deal of the cards the
seat never saw changes nothing, R3.1), the command's outputs and one-line errors, and the cache."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import conquian.review as review
from conquian.cli import main
from conquian.engine.match import new_deal
from conquian.engine.record import DealRecord, Record, read_record, write_record
from conquian.engine.redeal import redeal_unseen
from conquian.present import symbols

#: Seed 22, p2 deals (R3.1), both seats played by foster until the last action: p1 discards the
#: diamond 9 with both sides at ten down, and p2, his hand empty, passes it although
#: ``p2 use 9c 9d 9h 9s`` lays his eleventh card and wins on the spot (R3.7).
ACTIONS = [
    "p1 pass", "p2 use 9c 9h 9s", "p2 discard 5d", "p1 use 5c 5d 5h", "p1 discard 7c", "p2 pass", "p2 pass",
    "p1 use 2c 2d 2s", "p1 discard 8h", "p2 use 8c 8d 8h", "p2 discard 8s", "p1 force 8s", "p2 use 8c 8d 8h 8s",
    "p2 force 2h", "p1 use 2c 2d 2h 2s", "p1 discard Td", "p2 pass", "p2 pass", "p1 use Ah 2h 3h | 2c 2d 2s",
    "p1 discard Ad", "p2 pass", "p2 pass", "p1 pass", "p1 pass", "p2 pass", "p2 pass", "p1 pass", "p1 pass",
    "p2 pass", "p2 pass", "p1 pass", "p1 pass", "p2 use 4c 4d 4h", "p2 discard 4s", "p1 pass", "p1 pass",
    "p2 pass", "p2 pass", "p1 use 5c 5d 5h 5s", "p1 discard 9d",
    "p2 pass",  # the blunder: R3.7
]
WINNING = "p2 use 9c 9d 9h 9s"
PLAYOUTS = 24


def blunder_record(deck: tuple[int, ...] | None = None) -> str:
    return write_record(Record("conquian", ["A", "B"], {}, [DealRecord(dealer=2, seed=None if deck else 22,
                                                                       deck=deck, actions=list(ACTIONS))]))


def test_the_planted_position_is_a_win_on_the_spot() -> None:
    # R3.7: the use of the card in play lays p2's eleventh card, and the deal is his at once
    deal = new_deal(read_record(blunder_record()).rules(), seed=22, dealer=2)
    for a in ACTIONS[:-1]:
        deal.play(a)
    assert deal.to_act == 2 and deal.is_legal("p2 pass") and deal.is_legal(WINNING)
    deal.play(WINNING)
    assert deal.over and deal.winner_seat == 2


def test_the_blunder_is_marked_where_it_was_made() -> None:
    rv = review.review_text(blunder_record(), seat=2, deal=1, playouts=PLAYOUTS)
    last = rv.decisions[-1]
    assert last.action_index == len(ACTIONS) and last.played == "p2 pass"
    assert last.mark == "blunder" and last.best == WINNING and last.cost >= review.MISTAKE_BELOW
    assert [d.number for d in rv.decisions if d.mark == "blunder"] == [last.number]
    assert rv.turning_points[0] is last
    assert rv.counts["blunder"] == 1 and sum(rv.counts.values()) == len(rv.decisions)
    assert rv.accuracy is not None and 0 <= rv.accuracy < 1
    best = next(e for e in last.candidates if e.action == WINNING)
    assert best.win == 1.0 and best.points is None  # conquian scores games, not pips
    made = next(e for e in last.candidates if e.action == "p2 pass")
    assert made.win == review.TABLEAU_WIN and last.cost == 0.5  # the pass leaves a tableau, half a win


def test_marks_and_accuracy_follow_the_documented_thresholds() -> None:
    assert [review.mark_of(c) for c in (0.0, 0.049, 0.05, 0.099, 0.1, 0.199, 0.2, 1.0)] == [
        "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]
    d = review.Decision(1, 1, "p1 pass", "p1 pass", "p1 pass", 0.15, "mistake")
    assert d.accuracy == pytest.approx(0.5) and not d.foster_differs


def test_fairness_the_hidden_cards_redealt_give_the_same_review() -> None:
    # R3.1: the cards p2 never saw (p1's hand not shown, the pack below the cards turned) are
    # dealt again; p2's view of every decision is the same, so must the review be, seed for seed
    deal = new_deal(read_record(blunder_record()).rules(), seed=22, dealer=2)
    for a in ACTIONS:
        deal.play(a)
    other = redeal_unseen(deal, 2, random.Random(7))
    assert other.deck != deal.deck and [str(a) for a in other.actions()] == ACTIONS
    first = review.review_text(blunder_record(), seat=2, deal=1, playouts=PLAYOUTS)
    again = review.review_text(blunder_record(other.deck), seat=2, deal=1, playouts=PLAYOUTS)
    assert again.to_json() == first.to_json()


def test_the_evaluation_takes_a_view_never_a_deal() -> None:
    deal = new_deal(read_record(blunder_record()).rules(), seed=22, dealer=2)
    with pytest.raises(TypeError, match="view"):
        review.evaluate(deal, [], 1, 0)  # type: ignore[arg-type]


def test_a_cooncan_review_estimates_points() -> None:
    from conquian import Match, get_rules
    from conquian.bots.foster import FosterBot
    from conquian.engine.record import record_from_match

    m = Match(get_rules("cooncan", players=2))
    d = m.new_deal(seed=3)
    bot = FosterBot(1)
    for _ in range(6):
        seat = d.to_act
        assert seat is not None
        d.play(bot.choose(d.view(seat)))
    rv = review.review_text(write_record(record_from_match(m)), seat=1, playouts=2)
    assert rv.decisions and all(e.points is not None for x in rv.decisions for e in x.candidates)
    assert all(len(x.candidates) <= review.MAX_CANDIDATES + 1 for x in rv.decisions)


def test_the_cache_answers_a_second_look(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.toml"
    path.write_text(blunder_record(), encoding="utf-8")
    first = review.review_file(path, seat=2, playouts=PLAYOUTS)
    assert review.cache_path(path) == tmp_path / "game.review.json" and review.cache_path(path).exists()

    def refuse(*_args: object) -> object:
        raise AssertionError("evaluated again")

    monkeypatch.setattr(review, "evaluate", refuse)
    assert review.review_file(path, seat=2, playouts=PLAYOUTS).to_json() == first.to_json()
    with pytest.raises(AssertionError, match="evaluated again"):  # another key: playouts
        review.review_file(path, seat=2, playouts=PLAYOUTS + 1)
    path.write_text(blunder_record() + "# a comment changes the text\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="evaluated again"):  # another key: the record's text
        review.review_file(path, seat=2, playouts=PLAYOUTS)


def test_a_broken_cache_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    path.write_text(blunder_record(), encoding="utf-8")
    review.cache_path(path).write_text("{ not json", encoding="utf-8")
    first = review.review_file(path, seat=2, playouts=2)
    assert json.loads(review.cache_path(path).read_text())["format"] == review.CACHE_FORMAT
    assert review.review_file(path, seat=2, playouts=2, cache=False).to_json() == first.to_json()


def test_two_workers_give_the_same_review(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    one = review.review_text(blunder_record(), seat=2, playouts=4)
    two = review.review_text(blunder_record(), seat=2, playouts=4, workers=2,
                             progress=lambda i, n: seen.append((i, n)))
    assert two.to_json() == one.to_json()
    assert seen == [(i, len(one.decisions)) for i in range(1, len(one.decisions) + 1)]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conquian", "review", *args], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


def test_the_command_text_and_json(tmp_path: Path) -> None:
    path = tmp_path / "game.toml"
    path.write_text(blunder_record(), encoding="utf-8")
    p = run(str(path), "--seat", "p2", "--playouts", str(PLAYOUTS), "--workers", "1")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    rv = review.review_file(path, seat=2, playouts=PLAYOUTS)  # the cache the command wrote
    assert len(lines) == 1 + len(rv.decisions) + 1 + len(rv.turning_points)
    assert " pass " in lines[len(rv.decisions)] and "blunder" in lines[len(rv.decisions)]
    assert symbols(WINNING.removeprefix("p2 ")) in lines[len(rv.decisions)]  # the moves in words, cards as symbols
    assert lines[-len(rv.turning_points) - 1].startswith("accuracy ")
    assert f"decision {len(rv.decisions)}/{len(rv.decisions)}" in p.stderr
    j = run(str(path), "--seat", "2", "--playouts", str(PLAYOUTS), "--json")
    assert j.returncode == 0 and json.loads(j.stdout) == rv.to_json()


@pytest.mark.parametrize(("args", "status", "expect"), [
    (["--seat", "p3"], 2, "no seat p3"),
    (["--deal", "2"], 2, "no deal 2"),
    (["--seat", "north"], 2, "is not a seat"),
    (["--playouts", "0"], 2, "--playouts"),
])
def test_bad_arguments_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                    status: int, expect: str) -> None:
    path = tmp_path / "game.toml"
    path.write_text(blunder_record(), encoding="utf-8")
    try:
        code = main(["review", str(path), "--no-cache", *args])
    except SystemExit as e:  # argparse's own refusals
        code = int(e.code or 0)
    err = capsys.readouterr().err
    assert code == status and expect in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(("text", "expect"), [
    ("not a record at all [[[", "not a TOML document"),
    (blunder_record().replace('"p2 pass",\n]', '"p2 draw",\n]'), "deal 1"),
])
def test_a_bad_record_is_one_line(tmp_path: Path, text: str, expect: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    p = run(str(path))
    assert p.returncode == 1 and p.stdout == "" and expect in p.stderr, p.stderr
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    missing = run(str(tmp_path / "none.toml"))
    assert missing.returncode == 1 and missing.stderr.count("\n") == 1
