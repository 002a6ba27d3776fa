"""Issue 9: hostile records and bad arguments get one clear line, never a traceback, a hang or a flood."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conquian import Match, get_rules
from conquian.engine.record import read_record, record_from_match, replay, write_record

RECORDS = Path(__file__).parent / "records"
FOSTER = RECORDS / "foster_spade7.toml"
HEAD = 'format = "conquian-record/1"\nvariant = "conquian"\nplayers = ["A", "B"]\n'


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conquian", *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def refused_everywhere(path: Path, expect: str) -> None:
    """``replay``, ``replay --json`` and ``play --replay`` each refuse the file with one short line."""
    p = run("replay", str(path))
    assert p.returncode == 1 and p.stdout == "", p.stderr[-500:]
    assert "Traceback" not in p.stderr and p.stderr.count("\n") == 1 and len(p.stderr) < 600, p.stderr[:600]
    assert expect in p.stderr, p.stderr
    j = run("replay", str(path), "--json")
    assert j.returncode == 1 and "Traceback" not in j.stderr
    err = json.loads(j.stdout)["error"]
    assert expect in err["message"] and len(j.stdout) < 2000
    g = run("play", "--replay", str(path))
    assert g.returncode in (1, 2) and "Traceback" not in g.stderr and g.stderr.count("\n") == 1, g.stderr[:600]


@pytest.mark.parametrize(("body", "expect"), [
    (HEAD + "x = " + "[" * 500 + "]" * 500 + "\n", "nested deeper"),
    (HEAD + "x = " + "{a=" * 300 + "1" + "}" * 300 + "\n", "nested deeper"),
    (HEAD + "x = " + "1" * 5000 + "\n", "not a record"),
    (HEAD + "options = { jokers = 1.0 }\n", "R1"),
    ('format = "conquian-record/1"\nvariant = "cooncan"\nplayers = ["A", "B", "C"]\noptions = { jokers = true }\n',
     "R1"),
    ('format = "conquian-record/1"\nvariant = "cooncan"\nplayers = ["A", "B", "C"]\noptions = { max_turns = true }\n',
     "R1"),
    ('format = "conquian-record/1"\nvariant = "cooncan"\nplayers = ["A", "B", "C"]\n'
     'options = { splash_bonus = 25.0 }\n', "R1"),
    (HEAD + "x" + ".x" * 20000 + " = 1\n", "dotted keys"),
    ('format = "conquian-record/1"\nvariant = "conquian"\nplayers = ["A", "B\\u001b[2J"]\n', "control character"),
    ('format = "conquian-record/1"\nvariant = "conquian"\nplayers = ["A", "B\\u0007"]\n', "control character"),
    ('format = "conquian-record/1"\nvariant = "conquian"\nplayers = ["A", "B"]\noptions = { players = 3 }\n',
     "disagrees"),
    (HEAD + '\n[[deals]]\ndealer = 2\nseed = 1\nactions = ["p² pass"]\n', "is not a seat"),
    (HEAD + '\n[[deals]]\ndealer = 2\nseed = 1\nactions = ["p' + "9" * 5000 + ' pass"]\n', "characters"),
    (HEAD + '\n[[deals]]\ndealer = 2\nseed = 1\nactions = ["p1 use ' + "7h " * 300_000 + '"]\n', "characters"),
])
def test_hostile_records(tmp_path: Path, body: str, expect: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(body, encoding="utf-8")
    refused_everywhere(path, expect)


def test_a_record_too_large_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.toml"
    with path.open("w") as f:
        f.write(HEAD + '\n[[deals]]\ndealer = 2\nseed = 1\nactions = ["p1 use ')
        f.write("7h " * 7_000_000)  # 21 MB, one action
        f.write('"]\n')
    refused_everywhere(path, "larger than a record")


def test_special_files_are_refused_without_reading_them(tmp_path: Path) -> None:
    refused_everywhere(Path("/dev/zero"), "not a regular file")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    refused_everywhere(fifo, "not a regular file")  # would block forever if opened
    refused_everywhere(tmp_path, "not a regular file")


def test_options_players_that_agree_are_accepted(tmp_path: Path) -> None:
    path = tmp_path / "ok.toml"
    text = FOSTER.read_text()
    assert "\noptions" not in text
    path.write_text(text.replace("\n[[deals]]", "options = { players = 2 }\n\n[[deals]]", 1))
    p = run("replay", str(path), "--json")
    assert p.returncode == 0, p.stdout
    assert json.loads(p.stdout)["totals"] == [1, -1]


def test_names_are_escaped_when_written_and_read_back() -> None:
    m = Match(get_rules("conquian"), ['Ann "the Quick" \\ O\'Neil', "Bö ♠"])
    d = m.new_deal(seed=1)
    while not d.over:
        d.play(d.legal_actions()[0])
    text = write_record(record_from_match(m))
    assert read_record(text).players == m.players
    assert replay(read_record(text)).totals == (m.settle() or m.totals)


def test_the_text_replay_names_the_stocks_first_card_once() -> None:
    m = Match(get_rules("cooncan", players=3))
    d = m.new_deal(seed=3)
    while not d.over:
        d.play(d.legal_actions()[0])
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(write_record(record_from_match(m)))
    try:
        out = run("replay", f.name).stdout
    finally:
        os.unlink(f.name)
    assert out.count("the discard pile starts with") == 1


def test_top_level_help_describes_every_command() -> None:
    out = run("--help").stdout
    for command in ("play", "replay", "simulate", "tournament"):
        assert f"  {command} " in out


@pytest.mark.parametrize("args", [
    ("tournament", "--bots", "foster,random", "--deals", str(10**12)),
    ("tournament", "--bots", "expert,random", "--deals", "1", "--expert-iterations", str(10**12)),
    ("simulate", "--deals", str(10**12)),
    ("simulate", "--deals", "1" * 5000),
    ("simulate", "--deals", "1", "--seed", "²"),
    ("play", "--delay", "nan"),
    ("play", "--name", "Ann\x1b[31m"),
])
def test_absurd_arguments_are_refused_with_one_line(args: tuple[str, ...]) -> None:
    p = run(*args, timeout=30)
    assert p.returncode == 2 and "Traceback" not in p.stderr and p.stderr.count("\n") == 1, p.stderr[:500]
    assert len(p.stderr) < 400


def test_workers_are_capped_at_the_cores() -> None:
    p = run("tournament", "--bots", "random,random", "--deals", "2", "--workers", str(10**9), "--json")
    assert p.returncode == 0, p.stderr
    assert "using" in p.stderr and "cores" in p.stderr
    assert json.loads(p.stdout)["games"] == 4


def test_a_win_rate_with_no_decided_deal_is_na() -> None:
    from conquian.tournament import BotResult

    r = BotResult("random", deals=3, tableaux=3)
    assert r.win_rate is None and r.to_json()["win_rate"] is None


def test_simulate_checks_its_record_path_before_playing(tmp_path: Path) -> None:
    p = run("simulate", "--deals", "5", "--record", str(tmp_path / "missing" / "x.toml"))
    assert p.returncode == 2 and "cannot write" in p.stderr and p.stdout == ""
    p = run("simulate", "--deals", "5", "--record", "")
    assert p.returncode == 2 and "cannot write" in p.stderr and p.stdout == ""
    good = tmp_path / "sim.toml"
    p = run("simulate", "--variant", "cooncan", "--deals", "7", "--record", str(good))
    assert p.returncode == 0, p.stderr
    rec = read_record(good.read_text())
    assert len(rec.deals) == 7 and replay(rec).totals is not None
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]  # no temporary file left behind


def test_simulate_keeps_memory_flat() -> None:
    from conquian.simulate import simulate

    res = simulate(get_rules("conquian"), deals=300, seed=1)
    assert res.match is None
    from conquian.engine.match import Match as M

    m = M(get_rules("conquian"), keep_history=False)
    for s in range(50):
        d = m.new_deal(seed=s)
        while not d.over:
            d.play(d.legal_actions()[0])
        m.settle()
    assert len(m.deals) == 1 and len(m.results) == 1 and len(m.washbook.rows) == 1
    assert sum(m.totals) == 0


def test_atomic_write_leaves_the_old_file_when_it_fails(tmp_path: Path) -> None:
    from conquian.engine.files import atomic_write

    path = tmp_path / "m.toml"
    path.write_text("old")

    with pytest.raises(TypeError):
        atomic_write(path, 12)  # type: ignore[arg-type]  # fails while writing
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["m.toml"]
