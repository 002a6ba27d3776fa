"""Records (docs/records.md) and the command line: replay contract, simulate, clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conquian.cli import main
from conquian.engine.record import ReplayError, read_record, replay

RECORDS = Path(__file__).parent / "records"
FOSTER = RECORDS / "foster_spade7.toml"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conquian", *args], capture_output=True, text=True, timeout=120)


def test_foster_record_replays_to_its_result() -> None:
    result = replay(read_record(FOSTER.read_text()))
    assert result.totals == [1, -1]
    deal = result.deals[0].deal
    assert deal.winner_seat == 1 and deal.downs[0].bit_count() == 11


def test_replay_json_contract_for_a_finished_deal() -> None:
    p = run("replay", str(FOSTER), "--json")
    assert p.returncode == 0 and p.stderr == ""
    out = json.loads(p.stdout)
    assert out == {"deals": [{"dealer": 2, "actions": 26, "over": True, "to_act": None, "legal_actions": [],
                              "winner": 1, "scores": [1, -1], "tableau": False, "splash": False,
                              "void": False}],
                   "totals": [1, -1]}


def cut_record(tmp_path: Path, n_actions: int, extra: str = "") -> Path:
    """The Foster record cut after ``n_actions`` actions, without its result."""
    text = FOSTER.read_text()
    lines = text.splitlines()
    start = lines.index("actions = [")
    body = [ln for ln in lines[start + 1:] if ln.startswith("  \"")][:n_actions]
    new = "\n".join([*lines[:start], "actions = [", *body, "]"]) + "\n" + extra
    path = tmp_path / "cut.toml"
    path.write_text(new)
    return path


def test_replay_json_lists_legal_actions_of_an_unfinished_deal(tmp_path: Path) -> None:
    out = json.loads(run("replay", str(cut_record(tmp_path, 20)), "--json").stdout)
    deal = out["deals"][0]
    assert deal["over"] is False and deal["to_act"] == "p2" and deal["actions"] == 20
    assert deal["legal_actions"] == ["p2 force 7s", "p2 pass"]
    assert deal["winner"] is None and deal["scores"] is None and out["totals"] is None


def test_replay_json_error_for_an_illegal_action(tmp_path: Path) -> None:
    path = cut_record(tmp_path, 0)
    path.write_text(path.read_text().replace("actions = [\n]", 'actions = ["p1 use 3s 4s 5s", "p1 pass"]'))
    p = run("replay", str(path), "--json")
    assert p.returncode == 1
    err = json.loads(p.stdout)["error"]
    assert err["deal"] == 1 and err["action"] == 2 and err["text"] == "p1 pass" and err["rule"] == "R3.5"
    assert "discard" in err["message"]
    assert p.stdout.count("\n") == 1


def test_replay_json_error_for_an_unparsable_action(tmp_path: Path) -> None:
    path = cut_record(tmp_path, 0)
    path.write_text(path.read_text().replace("actions = [\n]", 'actions = ["p1 use 3s 4s Zz"]'))
    p = run("replay", str(path), "--json")
    err = json.loads(p.stdout)["error"]
    assert p.returncode == 1 and err["action"] == 1 and err["rule"] is None and "Zz" in err["message"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("this is not toml = = =", "not a TOML document"),
        ('format = "conquian-record/9"', "format must be"),
        ('format = "conquian-record/1"\nvariant = "poker"\nplayers = ["A", "B"]', "variant must be"),
        ('format = "conquian-record/1"\nvariant = "conquian"\nplayers = ["A", "B"]\n[[deals]]\ndealer = 7\nseed = 1',
         "dealer must be"),
        ('format = "conquian-record/1"\nvariant = "conquian"\nplayers = ["A", "B"]\n[[deals]]\ndealer = 1',
         "needs a deck or a seed"),
        ('format = "conquian-record/1"\nvariant = "conquian"\nplayers = ["A", "B"]\n[[deals]]\ndealer = 1\n'
         'deck = "Ac 2c"', "40 cards"),
        ('format = "conquian-record/1"\nvariant = "conquian"\nplayers = ["A", "B", "C", "D"]', "2 to 3 players"),
        ('format = "conquian-record/1"\nvariant = "conquian"\nplayers = ["A", "B"]\noptions = { jokers = 2 }',
         "not an option"),
    ],
)
def test_invalid_records_exit_1_with_rule_null(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    p = run("replay", str(path), "--json")
    assert p.returncode == 1, p.stderr
    err = json.loads(p.stdout)["error"]
    assert err["rule"] is None and message in err["message"]
    q = run("replay", str(path))
    assert q.returncode == 1 and q.stdout == "" and message in q.stderr and "Traceback" not in q.stderr


def test_a_result_that_disagrees_with_the_replay_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "wrong.toml"
    path.write_text(FOSTER.read_text().replace("scores = [1, -1]", "scores = [-1, 1]"))
    with pytest.raises(ReplayError, match="scores"):
        replay(read_record(path.read_text()))
    path.write_text(FOSTER.read_text().replace("winner = 1", "winner = 2"))
    assert run("replay", str(path), "--json").returncode == 1


def test_missing_file_is_a_clear_error() -> None:
    p = run("replay", "/nonexistent/record.toml")
    assert p.returncode == 1 and "cannot read" in p.stderr and "Traceback" not in p.stderr


def test_replay_text_output_tells_the_deal() -> None:
    p = run("replay", str(FOSTER))
    assert p.returncode == 0
    assert "p2 forced the 7 of spades on p1" in p.stdout
    assert "p1 is eleven down and wins" in p.stdout
    assert "Totals: p1 A +1, p2 B -1" in p.stdout


def test_simulate_json(tmp_path: Path) -> None:
    rec = tmp_path / "sim.toml"
    p = run("simulate", "--variant", "conquian", "--deals", "30", "--seed", "3", "--json", "--record", str(rec))
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    for key in ("deals", "seconds", "deals_per_second", "decisions_per_second", "mean_decisions_per_deal",
                "wins", "tableaux"):
        assert key in out
    assert out["deals"] == 30 and len(out["wins"]) == 2 and sum(out["wins"]) + out["tableaux"] == 30
    again = json.loads(run("simulate", "--deals", "30", "--seed", "3", "--json").stdout)
    assert again["wins"] == out["wins"] and again["tableaux"] == out["tableaux"]  # reproducible
    replayed = json.loads(run("replay", str(rec), "--json").stdout)
    assert len(replayed["deals"]) == 30 and all(d["over"] for d in replayed["deals"])
    assert sum(1 for d in replayed["deals"] if d["tableau"]) == out["tableaux"]


def test_simulate_text_and_variants() -> None:
    p = run("simulate", "--variant", "conquian-spanish", "--deals", "5", "--players", "3")
    assert p.returncode == 0 and "deals/s" in p.stdout and "p3" in p.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--deals", "-3"],
        ["simulate", "--deals", "many"],
        ["simulate", "--variant", "bridge"],
        ["simulate", "--players", "5"],
        ["replay"],
        ["frobnicate"],
        [],
    ],
)
def test_bad_arguments_exit_2_with_one_clear_line(args: list[str]) -> None:
    p = run(*args)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr and p.stderr.strip()
    assert p.stderr.strip().splitlines()[-1].startswith("conquian")


def test_main_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(FOSTER), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["totals"] == [1, -1]


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["play", "--bots", "nobody"], 2, "unknown bot"),
        (["play", "--replay", "/nonexistent/record.toml"], 1, "cannot read"),
        (["play", "--variant", "cooncan-double", "--players", "5", "--bots", "foster,foster"], 2, "give 4 bots"),
        (["play", "--variant", "cooncan", "--jokers", "4"], 2, "R1"),
    ],
)
def test_play_refuses_bad_arguments_with_one_line(args: list[str], status: int, message: str) -> None:
    p = run(*args)
    assert p.returncode == status and message in p.stderr and "Traceback" not in p.stderr
