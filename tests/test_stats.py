"""``conquian stats`` (issue 13): figures checked by hand, the same JSON from every backend,
bad arguments refused with one line."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from conquian import get_rules
from conquian.analysis.collect import Tally, deck_seed, play_chunk
from conquian.analysis.figures import fill_chance, mean_ci, quantile, survival, wilson
from conquian.analysis.run import run
from conquian.bots.fill import hypergeom_at_least
from conquian.engine.deck import SplitMix64


def test_deck_seeds_are_the_generator_s_outputs_in_order() -> None:
    g = SplitMix64(42)
    assert [deck_seed(42, i) for i in range(5)] == [g.next64() for _ in range(5)]


def test_duration_figures_worked_by_hand() -> None:
    # deals lasting 1, 2, 2, 3 rounds: mean 2, sample variance 2/3, median 2
    h = Counter({1: 1, 2: 2, 3: 1})
    m, _, hi = mean_ci(h)
    assert m == 2.0
    assert hi - m == pytest.approx(1.96 * math.sqrt((2 / 3) / 4))
    assert quantile(h, 0.5) == 2 and quantile(h, 0.25) == 1 and quantile(h, 0.76) == 3
    assert survival(h) == [1.0, 0.75, 0.25, 0.0]


def test_hypergeometric_worked_by_hand() -> None:
    # 5 unseen, 2 of them live, 2 cards drawn: P(none) = C(3,2)/C(5,2) = 3/10
    assert hypergeom_at_least(5, 2, 2, 1) == pytest.approx(0.7)
    # both: C(2,2)/C(5,2) = 1/10
    assert hypergeom_at_least(5, 2, 2, 2) == pytest.approx(0.1)
    assert hypergeom_at_least(5, 2, 9, 2) == 1.0  # every card drawn
    assert hypergeom_at_least(5, 0, 3, 1) == 0.0


def test_foster_chance_on_a_tiny_known_distribution() -> None:
    # A two-hand deal known to last 1 or 2 rounds, half the time each; at round 1 the hand has 4
    # unseen cards, 1 of them live.  Two cards a round (conquian): lasting 1 round it sees 2 of
    # the 4 (P = 1/2), lasting 2 rounds all 4 (P = 1).  Foster's chance: 1/2*1/2 + 1/2*1 = 3/4.
    t = Tally(rounds=Counter({1: 1, 2: 1}), unseen_sum=Counter({1: 8}), unseen_n=Counter({1: 2}))
    assert fill_chance(t, "conquian", 1, 1, 1) == pytest.approx(0.75)
    # known at round 2, it lasts exactly that round: 2 of the 4 cards, so 1/2
    t.unseen_sum[2], t.unseen_n[2] = 4, 1
    assert fill_chance(t, "conquian", 1, 1, 2) == pytest.approx(0.5)
    # Cooncan: one card a round, 1 round -> 1/4, 2 rounds -> 1/2: 3/8
    assert fill_chance(t, "cooncan", 1, 1, 1) == pytest.approx(0.375)


def test_wilson_interval() -> None:
    p, lo, hi = wilson(50, 100)
    assert p == 0.5 and lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)


@pytest.mark.parametrize("name,players", [("conquian", 2), ("conquian", 3), ("cooncan", 3),
                                          ("cooncan-double", 5)])
def test_counts_balance(name: str, players: int) -> None:
    rules = get_rules(name, players=players)
    t = play_chunk(rules, ["foster"] * players, seed=5, start=0, stop=30)
    assert t.deals == 30 == sum(t.rounds.values()) == sum(t.turns.values())
    assert sum(t.wins_by_position) + t.no_winner == 30
    assert sum(t.win_kinds.values()) == 30 - t.no_winner
    assert sum(t.score_by_position) == 0  # the scores of a deal balance (R5)
    if name == "conquian":
        assert max(t.rounds) <= 10  # 20 cards in the pack, one turned a turn, two turns a round
        assert sum(t.win_sources.values()) == 30 - t.no_winner


def test_a_chunked_run_is_the_run_in_one_piece() -> None:
    rules = get_rules("cooncan")
    whole = play_chunk(rules, ["foster", "random", "foster"], 9, 0, 40)
    parts = play_chunk(rules, ["foster", "random", "foster"], 9, 0, 13) + \
        play_chunk(rules, ["foster", "random", "foster"], 9, 13, 40)
    assert whole.to_json() == parts.to_json()
    assert Tally.from_json(whole.to_json()).to_json() == whole.to_json()


def test_other_bots_play_through_their_views() -> None:
    t = play_chunk(get_rules("conquian"), ["expert", "foster"], 1, 0, 2)
    assert t.deals == 2


def _stats(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conquian", "stats", *args], capture_output=True, text=True,
                          cwd=tmp, timeout=600)


def test_same_seed_same_json_one_process_two_processes_and_ray(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    common = ("--variant", "cooncan", "--deals", "300", "--seed", "4", "--bots", "foster,random,foster")
    one = _stats(tmp_path, *common, "--workers", "1", "--out", "one")
    two = _stats(tmp_path, *common, "--workers", "2", "--chunk", "37", "--out", "two")
    ray = _stats(tmp_path, *common, "--ray", "--chunk", "50", "--out", "ray")
    for p in (one, two, ray):
        assert p.returncode == 0, p.stderr
    texts = [(tmp_path / d / "stats.json").read_text() for d in ("one", "two", "ray")]
    assert texts[0] == texts[1] == texts[2]
    data = json.loads(texts[0])
    assert data["figures"]["deals"] == 300 and data["bots"] == ["foster", "random", "foster"]
    for f in ("report.md", "duration.png", "duration.svg", "survival.png", "survival.svg"):
        assert (tmp_path / "one" / f).stat().st_size > 0
    report = (tmp_path / "one" / "report.md").read_text()
    assert "Foster's table" in report and "![survival](survival.png)" in report
    assert "on Ray (a local instance)" in (tmp_path / "ray" / "report.md").read_text()


@pytest.mark.parametrize("args,says", [
    (("--bots", "nobody"), "unknown bot 'nobody'"),
    (("--bots", "foster,foster,foster"), "give one bot per seat"),
    (("--deals", "0"), "must be from 1"),
    (("--deals", "many"), "is not a whole number"),
    (("--variant", "cooncan", "--players", "9"), "R1"),
    (("--workers", "2", "--ray"), "exclude each other"),
    (("--ray", "ray://127.0.0.1:1"), "cannot start or reach Ray"),
])
def test_bad_arguments_get_one_line(tmp_path: Path, args: tuple[str, ...], says: str) -> None:
    p = _stats(tmp_path, "--deals", "5", *args) if "--deals" not in args else _stats(tmp_path, *args)
    assert p.returncode == 2, p.stderr
    assert says in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr


def test_three_at_conquian_report_two_positions(tmp_path: Path) -> None:
    # R6.3: with three at the table one sits out; the deal has a pone and another hand
    p = _stats(tmp_path, "--variant", "conquian", "--players", "3", "--deals", "30", "--workers", "1", "--out", "c3")
    assert p.returncode == 0, p.stderr
    data = json.loads((tmp_path / "c3" / "stats.json").read_text())
    assert len(data["figures"]["positions"]) == 2 and data["bots"] == ["foster"] * 3


def test_a_file_in_the_way_of_the_report(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("x")
    p = _stats(tmp_path, "--deals", "5", "--out", "taken")
    assert p.returncode == 2 and "is not a folder" in p.stderr


def test_run_with_workers_equals_one_process() -> None:
    rules = get_rules("conquian")
    assert run(rules, ["foster", "random"], 80, 2, workers=2, chunk=9).to_json() == \
        run(rules, ["foster", "random"], 80, 2, workers=1).to_json()
