"""The best-response and self-play examples run (a few hundred steps), and their evaluation is on
duplicate deals, where PyTorch and sb3-contrib are installed."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from conquian.envs.vector import first_legal  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load(name: str) -> ModuleType:
    if str(EXAMPLES) not in sys.path:
        sys.path.insert(0, str(EXAMPLES))  # as running the script does: the self-play example imports the other
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def br() -> ModuleType:
    return load("best_response")


def test_each_deck_is_played_in_both_seats(br: ModuleType) -> None:
    seeds = [100 + k for k in range(6)]
    first, decks1 = br.play_seat(first_legal, "random", 1, seeds, batch=4)
    second, decks2 = br.play_seat(first_legal, "random", 2, seeds, batch=4)
    assert decks1 == decks2  # R6: the same cards dealt, the learner in p1 then in p2
    assert len(set(decks1)) == len(seeds)  # and a different deck for every seed
    assert set(first.tolist()) | set(second.tolist()) <= {-1, 0, 1}  # a two-hand deal's score (R5.1)


def test_duplicate_evaluation_of_a_bot_against_itself_is_centred(br: ModuleType) -> None:
    # the same deterministic policy at both seats of both deals of a deck: its two results cancel
    ev = br.duplicate_eval(first_legal, first_legal, 8, seed=5, batch=3)
    assert ev["decks"] == 8 and ev["deals"] == 16
    assert ev["gain"] == 0.0 and ev["decks_drawn"] == 8
    assert ev["seat1"]["won"] == ev["seat2"]["lost"] and ev["seat1"]["lost"] == ev["seat2"]["won"]


def test_interval_and_lower_bound(br: ModuleType) -> None:
    ev = br.duplicate_eval(first_legal, "random", 20, seed=0)
    assert ev["low"] <= ev["gain"] <= ev["high"]
    records = ev["seat1"], ev["seat2"]
    assert all(sum(r.values()) == 20 for r in records)
    points = sum(r["won"] - r["lost"] for r in records)
    assert ev["gain"] == pytest.approx(points / 40)
    assert br.lower_bound({"gain": -0.2, "low": -0.3, "high": 0.1}) == {"bound": 0.0, "low": 0.0, "high": 0.1}
    assert br.lower_bound({"gain": 0.2, "low": 0.1, "high": 0.3}) == {"bound": 0.2, "low": 0.1, "high": 0.3}


def test_best_response_smoke(br: ModuleType, tmp_path: Path) -> None:
    threads = torch.get_num_threads()
    try:
        result = br.main(["--opponent", "random", "--steps", "256", "--envs", "8", "--rollout", "64",
                          "--eval", "4", "--curve-decks", "3", "--eval-every", "128", "--minutes", "0",
                          "--out", str(tmp_path / "br")])
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(threads)
    assert result["steps"] >= 256 and not result["stopped_by_time"] and result["cpu_seconds"] > 0
    assert [p["steps"] for p in result["curve"]][:3] == [0, 128, 256]
    saved = json.loads((tmp_path / "br.json").read_text())
    assert saved["after"]["decks"] == 4 and saved["after"]["deals"] == 8
    assert saved["exploitability_lower_bound"]["bound"] == max(0.0, saved["after"]["gain"])
    lines = (tmp_path / "br.csv").read_text().splitlines()
    assert lines[0] == "steps,train_seconds,gain,low,high" and len(lines) == 1 + len(result["curve"])


def test_time_budget_stops_training(br: ModuleType) -> None:
    result = br.run("random", 10_000_000, 1e-6, 0, 2, 2, 0, num_envs=4, rollout=32, log=lambda _s: None)
    assert result["stopped_by_time"] and result["steps"] < 10_000_000


def test_league_selfplay_smoke(tmp_path: Path) -> None:
    sp = load("league_selfplay")
    threads = torch.get_num_threads()
    lines: list[str] = []
    try:
        # 2 generations of 128 steps, 2 decks a point, 1 deck a pair in the league, every 2nd generation in it
        result: dict[str, Any] = sp.run(2, 128, 0, 3, 2, 1, 2, num_envs=4, rollout=64, log=lines.append)
    finally:
        torch.set_num_threads(threads)
    assert [r["generation"] for r in result["curve"]] == [0, 1, 2]
    assert all(r["random_low"] <= r["random_gain"] <= r["random_high"] for r in result["curve"])
    assert result["opponents_drawn"] and set(result["opponents_drawn"]) <= {0, 1}  # gen2 never plays itself
    names = {r["name"] for r in result["league"]["ratings"]}
    assert names == {"gen0", "gen2", "random", "foster"}
    random_line = next(r for r in result["league"]["ratings"] if r["name"] == "random")
    assert random_line["elo"] == 0.0 and random_line["games"] == 3 * 1 * 2  # 3 opponents, 1 deck, 2 seats
    assert any(line.startswith("generation 2 ") for line in lines)
    sp.write(result, tmp_path / "sp")
    assert (tmp_path / "sp.csv").read_text().splitlines()[0].startswith("generation,steps,train_seconds,random_gain")


def test_snapshot_is_frozen() -> None:
    sp = load("league_selfplay")
    br = load("best_response")
    model = br.make_model("random", 0, num_envs=2, rollout=32)
    snap = sp.Snapshot(model, 0)
    before = [p.detach().clone() for p in snap.net.parameters()]
    model.learn(64)
    def same(a: Any, b: Any) -> bool:
        return bool(np.array_equal(a.numpy(), b.detach().numpy()))

    assert not all(same(a, b) for a, b in zip(before, model.policy.parameters(), strict=True))  # it learned
    assert all(same(a, b) for a, b in zip(before, snap.net.parameters(), strict=True))  # its copy did not
    obs = np.zeros((3, model.observation_space.shape[0]), dtype=np.float32)
    mask = np.zeros((3, model.action_space.n), dtype=np.int8)
    mask[:, 7] = 1
    assert snap(obs, mask).tolist() == [7, 7, 7] and snap.greedy(obs, mask).tolist() == [7, 7, 7]
