"""The benchmarks' ratios compare like with like: the engine's fast path with a peer's game, an
environment's steps with a peer's environment steps."""

from __future__ import annotations

from typing import Any

from benchmarks.__main__ import ratios


def _cell(v: float) -> dict[str, float]:
    return {"median": v, "min": v, "max": v}


def test_engine_decisions_are_compared_with_rlcards_game_not_its_env() -> None:
    report: dict[str, Any] = {
        "ours": {"conquian (2)": {"decisions_per_second": _cell(100_000.0), "copies_per_second": _cell(1e6)}},
        "peers": {"rlcard gin-rummy (game)": {"decisions_per_second": _cell(25_000.0)},
                  "rlcard gin-rummy (env)": {"decisions_per_second": _cell(5_000.0)}},
        "envs": {"ratios": {"conquian (2), batched steps/s vs rlcard gin-rummy env (target >= 12)": 12.5}},
    }
    out = ratios(report)
    # no raw engine figure stands against RLCard's environment steps
    assert not any("RLCard env" in name for name in out)
    assert out["conquian (2) fast-path decisions/s vs RLCard game decisions/s (no target)"] == 4.0
    # the environments' own ratios (env step against env step) pass through as bench_envs names them
    assert out["conquian (2), batched steps/s vs rlcard gin-rummy env (target >= 12)"] == 12.5
