"""Measurements of the peers: OpenSpiel's ``gin_rummy`` and RLCard's ``gin-rummy``.

Each function returns a dict of figures, or raises :class:`Missing` when the peer
is not installed (``pip install -e '.[bench]'``).  Random play everywhere: a
uniform choice among the legal actions, chance outcomes sampled uniformly.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any


class Missing(Exception):
    """A peer that is not installed."""


def rss_bytes() -> int:
    """The process's resident memory (Linux /proc), to weigh states held by C++ code too."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
    except OSError:
        return 0
    import os

    return pages * os.sysconf("SC_PAGE_SIZE")


def openspiel_playout(state: Any, rng: random.Random, keep: list[Any] | None = None) -> int:
    """Play an OpenSpiel state to its end at random (chance outcomes sampled uniformly, a uniform
    choice among the legal actions); the player decisions made.  ``keep`` gets a clone of the state
    at its 20th decision (the stored states whose copies and memory are measured)."""
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
            if decisions == 20 and keep is not None:
                keep.append(state.clone())
    return decisions


def openspiel(seconds: float) -> dict[str, float]:
    """Random playouts from a new initial state, clones per second, memory per stored state."""
    try:
        import pyspiel
    except ImportError:
        raise Missing("open_spiel is not installed (pip install open-spiel)") from None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(0)
    games = decisions = 0
    start = time.perf_counter()
    states = []
    while time.perf_counter() - start < seconds:
        decisions += openspiel_playout(game.new_initial_state(), rng, states if len(states) < 200 else None)
        games += 1
    el = time.perf_counter() - start
    clones = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for st in states:
            st.clone()
        clones += len(states)
    clone_el = time.perf_counter() - start
    return {"games_per_second": games / el, "decisions_per_second": decisions / el,
            "copies_per_second": clones / clone_el, "bytes_per_state": memory_probe("openspiel")}


def rlcard_game(seconds: float) -> dict[str, float]:
    """Random playouts of RLCard's GinRummyGame (the game level, no observation encoding)."""
    try:
        from rlcard.games.gin_rummy.game import GinRummyGame
    except ImportError:
        raise Missing("rlcard is not installed (pip install rlcard)") from None
    g = GinRummyGame()
    rng = random.Random(0)
    games = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g.init_game()
        while not g.is_over():
            legal = g.judge.get_legal_actions()
            g.step(legal[rng.randrange(len(legal))])
            steps += 1
        games += 1
    el = time.perf_counter() - start
    return {"games_per_second": games / el, "decisions_per_second": steps / el}


def rlcard_env(seconds: float, clock: Callable[[], float] = time.perf_counter) -> dict[str, float]:
    """Random playouts through ``rlcard.make('gin-rummy')`` (the environment RL agents use);
    ``clock`` times them (the wall clock, or ``time.process_time`` for the process's CPU time)."""
    try:
        import rlcard
    except ImportError:
        raise Missing("rlcard is not installed (pip install rlcard)") from None
    env = rlcard.make("gin-rummy", config={"seed": 0})
    rng = random.Random(0)
    games = steps = 0
    start = clock()
    while clock() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"].keys())
            state, _ = env.step(legal[rng.randrange(len(legal))])
            steps += 1
        games += 1
    el = clock() - start
    return {"games_per_second": games / el, "decisions_per_second": steps / el}


_PROBE = r"""
import gc, json, random, sys
sys.path.insert(0, ".")
from benchmarks.peers import rss_bytes
kind, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(0)
if kind == "openspiel":
    import pyspiel
    game = pyspiel.load_game("gin_rummy")
    s = game.new_initial_state()
    k = 0
    while k < 20:
        if s.is_chance_node():
            o = s.chance_outcomes(); s.apply_action(o[rng.randrange(len(o))][0])
        else:
            la = s.legal_actions(); s.apply_action(la[rng.randrange(len(la))]); k += 1
    make = s.clone
else:
    from conquian import get_rules
    from benchmarks.bench_engine import positions
    variant, players = kind.rsplit(":", 1)
    pos = positions(get_rules(variant, players=int(players)), 200)
    it = iter(range(10**9))
    make = lambda: pos[next(it) % len(pos)].copy()
gc.collect()
before = rss_bytes()
kept = [make() for _ in range(n)]
print(json.dumps((rss_bytes() - before) / n))
"""


def memory_probe(kind: str, n: int = 5000) -> float:
    """Resident bytes per stored state, measured in a fresh process (``kind``: ``openspiel`` or
    ``variant:players``), so that memory freed earlier in this run cannot hide the cost."""
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _PROBE, kind, str(n)], capture_output=True, text=True,
                         timeout=600, check=True)
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


PEERS: dict[str, Any] = {
    "openspiel gin_rummy": openspiel,
    "rlcard gin-rummy (game)": rlcard_game,
    "rlcard gin-rummy (env)": rlcard_env,
}
