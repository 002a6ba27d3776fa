"""The page's expert measured inside Pyodide under Node.js (``python -m benchmarks.page_strength``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from benchmarks.page_strength import main

from conquian.web.site import RUNTIME_ENV, runtime_ready


def test_a_missing_runtime_or_node_is_said_and_nothing_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(RUNTIME_ENV, str(tmp_path))
    assert main(["--quick"]) == 2
    assert "conquian site fetch" in capsys.readouterr().err
    assert main(["--quick", "--node", str(tmp_path / "no-node")]) == 2
    assert "Node.js" in capsys.readouterr().err


def test_one_deck_in_pyodide_plays_both_seats_and_counts_the_expert_s_playouts(
        capfd: pytest.CaptureFixture[str]) -> None:
    if shutil.which("node") is None:
        pytest.skip("no Node.js here")
    if not runtime_ready():
        pytest.skip("the Pyodide runtime is not fetched here (conquian site fetch)")
    assert main(["--quick"]) == 0
    out = capfd.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("game 1/2: expert ") and lines[1].startswith("game 2/2: expert ")
    assert lines[2].startswith("expert (page, 300 ms) against foster, conquian, 1 decks x 2 seats, seed 7: ")
    report = json.loads("\n".join(lines[3:]))
    assert report["params"] == {"expert": {"ms": 300.0}}
    assert report["games"] == 2
    expert, foster = report["expert"], report["foster"]
    assert expert["deals"] == foster["deals"] == 2
    assert expert["wins"] + expert["losses"] + expert["tableaux"] == 2
    assert (expert["wins"], expert["losses"], expert["tableaux"]) == (foster["losses"], foster["wins"],
                                                                       foster["tableaux"])
    # the expert searched some moves (a forced move plays none), each within its budget of 240
    assert report["searched_moves"] > 0
    assert 0 < report["searched_playouts_mean"] <= 240
    assert report["playouts_mean"] <= report["searched_playouts_mean"]
