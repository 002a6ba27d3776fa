"""``conquian simulate`` and ``conquian stats`` on the conquián mexicano (R8): the options on the
command line, counts that balance, durations bounded by the pack, the same JSON however it runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conquian import get_rules
from conquian.analysis.collect import FEWEST, WIN_SOURCES_MEXICANO, check_bots, play_chunk
from conquian.analysis.figures import figures
from conquian.analysis.run import run


def _cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conquian", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


@pytest.mark.parametrize("options,pack", [({}, 24), ({"players": 3}, 16), ({"players": 3, "hand": 9}, 13),
                                          ({"players": 4}, 8), ({"exhausted": "fewest", "exchange": False}, 24)])
def test_counts_balance_and_durations_are_bounded_by_the_pack(options: dict[str, Any], pack: int) -> None:
    """R8.2: n x hand cards dealt, the rest the pack, one card turned a turn; R8.7: the scores balance."""
    rules = get_rules("conquian-mexicano", **options)
    n = rules.players
    t = play_chunk(rules, ["random"] * n, seed=5, start=0, stop=60)
    assert t.deals == 60 == sum(t.rounds.values()) == sum(t.turns.values())
    assert len(t.wins_by_position) == n and sum(t.wins_by_position) + t.no_winner == 60
    assert sum(t.score_by_position) == 0
    assert max(t.turns) <= pack and max(t.rounds) <= -(-pack // n)
    assert sum(t.win_kinds.values()) == sum(t.win_sources.values()) == 60 - t.no_winner
    assert set(t.win_sources) <= {*WIN_SOURCES_MEXICANO, FEWEST[1]}
    if rules.exhausted == "tablas":
        assert t.turns[pack] >= t.no_winner  # a draw turns every card of the pack (R8.6)
    else:
        assert t.no_winner < 60 // 2  # R8.6 fewest: a draw only when several tie for fewest
        assert t.win_kinds[FEWEST[0]] == t.win_sources[FEWEST[1]] > 0
    f = figures(t, rules.family, players=n)
    assert f["foster_table"]["cards_per_round"] == n  # every card turned goes round the table (R8.3)


def test_a_chunked_run_is_the_run_in_one_piece() -> None:
    rules = get_rules("conquian-mexicano", players=3)
    whole = run(rules, ["random"] * 3, 90, seed=2, workers=1)
    assert whole.to_json() == run(rules, ["random"] * 3, 90, seed=2, workers=2, chunk=13).to_json()


def test_a_bot_that_does_not_play_the_mexicano_is_named() -> None:
    """R8.1: a bot that has not learnt the game refuses its view; the run says which, before playing."""
    rules = get_rules("conquian-mexicano")
    check_bots(rules, ["random", "random"])
    try:
        check_bots(rules, ["foster", "random"])
    except RuntimeError as e:
        assert "the foster bot does not play conquian-mexicano yet" in str(e)


@pytest.mark.parametrize("players", [2, 3])
def test_stats_command(tmp_path: Path, players: int) -> None:
    p = _cli(tmp_path, "stats", "--variant", "conquian-mexicano", "--players", str(players), "--bots", "random",
             "--deals", "200", "--workers", "1", "--out", "m", "--exhausted", "fewest", "--hand", "9")
    assert p.returncode == 0, p.stderr
    data = json.loads((tmp_path / "m" / "stats.json").read_text())
    assert data["variant"] == "conquian-mexicano" and data["players"] == players
    assert data["options"] == {"exhausted": "fewest", "hand": 9}
    assert len(data["figures"]["positions"]) == players
    report = (tmp_path / "m" / "report.md").read_text()
    assert "Draws (the pack exhausted, R8.6)" in report and "The winning card was" in report


def test_stats_with_a_bot_that_does_not_play_it_says_so_in_one_line(tmp_path: Path) -> None:
    p = _cli(tmp_path, "stats", "--variant", "conquian-mexicano", "--deals", "20", "--workers", "1", "--out", "f")
    if p.returncode == 0:  # the foster bot has learnt the game: then the default run works
        return
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.strip() == "conquian stats: the foster bot does not play conquian-mexicano yet: use --bots random"


def test_simulate_command_with_the_options(tmp_path: Path) -> None:
    rec = tmp_path / "sim.toml"
    p = _cli(tmp_path, "simulate", "--variant", "conquian-mexicano", "--players", "3", "--hand", "9",
             "--no-exchange", "--exhausted", "fewest", "--deals", "40", "--seed", "3", "--json", "--record", str(rec))
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["variant"] == "conquian-mexicano" and len(out["wins"]) == 3
    assert sum(out["wins"]) + out["tableaux"] == 40 and sum(out["wins"]) > out["tableaux"]  # R8.6 fewest
    replayed = json.loads(_cli(tmp_path, "replay", str(rec), "--json").stdout)
    assert len(replayed["deals"]) == 40 and all(d["over"] for d in replayed["deals"])
    assert "give" not in rec.read_text()  # --no-exchange: no card given (R8.2)
    p = _cli(tmp_path, "simulate", "--variant", "conquian-mexicano", "--deals", "10")
    assert p.returncode == 0 and "tableaux" in p.stdout
    bad = _cli(tmp_path, "simulate", "--variant", "conquian-mexicano", "--players", "4", "--hand", "9")
    assert bad.returncode == 2 and "R8.1" in bad.stderr and "Traceback" not in bad.stderr
