"""The masked-PPO example runs (a smoke run: a few hundred steps), where PyTorch and sb3-contrib are installed."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")
torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_maskable_ppo.py"


def test_train_example_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    threads = torch.get_num_threads()
    try:
        module.main(["--steps", "128", "--rollout", "64", "--eval", "3", "--seeds", "0", "1", "--json"])
        assert torch.get_num_threads() == 1  # the example's own limit, so its times hold on a busy machine
    finally:
        torch.set_num_threads(threads)
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    for seed, line in enumerate(lines):
        r = json.loads(line)
        assert r["seed"] == seed and r["steps"] == 128 and r["seconds"] > 0
        for label in ("before", "after"):
            e = r[label]
            assert e["deals"] == 3 and e["wins"] + e["losses"] + e["undecided"] == 3
