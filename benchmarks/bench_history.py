"""What grows with a deal's history: each figure at a short history and at a long one, and their ratio.

    python -m benchmarks.bench_history            # five-hand Cooncan, 10 and 6,000 events (3,000 moves)
    python -m benchmarks.bench_history --quick    # a smoke run
    python -m benchmarks.bench_history --json

The same position is measured twice: as dealt and a few moves in (about 10 events), and after
a long stalling line of play (every seat in turn takes the stock's top card and discards it
again, R1 ``discard_taken``: the hands, the table and the stock are the same, only the history is
longer).  At each, a game's own rhythm is timed: the previous decision's work done, one more move
played, then the new decision's
  - ``view.events`` read for the first time (the view made beforehand),
  - a re-deal of the unseen cards for the search (``determinize``), the first of the decision and
    the ones after it,
  - the web table's snapshot for a seat (``table_snapshot``), and that seat's log (its last 200
    lines) alone.
A ratio near 1 means the cost does not grow with the history.  CPU time; each figure the median of
``--repeat`` timings.  Run it with an older checkout's sources first on ``PYTHONPATH`` to measure
that one (the figures then are the cost before the change).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from conquian import get_rules
from conquian.bots.determinize import determinize
from conquian.engine.cards import card_str
from conquian.engine.cooncan.deal import DRAW, K_DISCARD, K_TAKE, CooncanDeal
from conquian.engine.rules import Rules

clock = time.process_time


def stall(deal: CooncanDeal) -> None:
    """One turn that changes nothing but the history: the seat to act takes the stock's top card and
    discards it (two actions, two events)."""
    assert deal.stage == DRAW and deal.stock
    c = deal.stock[-1]
    deal.apply_raw(K_TAKE, c)
    deal.apply_raw(K_DISCARD, c)


def positions(rules: Rules, long: int, seed: int = 3) -> tuple[CooncanDeal, CooncanDeal]:
    """A position about ten events in, and the same position after a stalling line of ``long`` events."""
    rnd = random.Random(seed).random
    while True:
        deal = CooncanDeal(rules, seed=seed, dealer=rules.players)
        while not deal.over and (deal.n_events < 10 or deal.stage != DRAW or not deal.stock):
            deal.apply_raw(*deal.random_raw(rnd))
        if not deal.over:
            break
        seed += 1
    short = deal.copy()
    while deal.n_events < long:
        stall(deal)
    return short, deal


def timed(base: CooncanDeal, prepare: Callable[[CooncanDeal], Any], measure: Callable[[Any], Any],
          repeat: int, rhythm: int = 4) -> float:
    """Microseconds of ``measure(prepare(deal))`` (only ``measure`` timed) on a copy of ``base`` after
    ``rhythm`` decisions played as a game plays them (``measure`` done, a stalling turn played);
    median of ``repeat``."""
    out = []
    for _ in range(repeat):
        d = base.copy()
        for _ in range(rhythm):
            measure(prepare(d))
            stall(d)
        prepared = prepare(d)
        t = clock()
        measure(prepared)
        out.append(clock() - t)
    return statistics.median(out) * 1e6


def view_figures(rules: Rules, long: int, repeat: int) -> dict[str, dict[str, float]]:
    short, longer = positions(rules, long)
    seat = 1
    rng = random.Random(0)
    out: dict[str, dict[str, float]] = {}

    def redeals(v: Any) -> None:
        determinize(v, rng)
        for _ in range(10):
            determinize(v, rng)

    for label, base in (("short", short), ("long", longer)):
        first = timed(base, lambda d: d.view(seat), lambda v: determinize(v, rng), repeat)
        out[label] = {
            "events": base.n_events,
            "view_events_us": timed(base, lambda d: d.view(seat), lambda v: v.events, repeat),
            "redeal_first_us": first,
            "redeal_next_us": (timed(base, lambda d: d.view(seat), redeals, repeat) - first) / 10,
        }
    return out


def web_figures(rules: Rules, long: int, moves: int) -> dict[str, dict[str, float]]:
    """``table_snapshot`` and the seat's log after each of ``moves`` moves, at about ten moves and at ``long``."""
    from conquian.web.snapshot import LOG_LINES, table_snapshot
    from conquian.web.table import Table

    table = Table("bench", "bench", rules, seed=11)
    for s in range(1, rules.players + 1):
        table.sit(s, f"P{s}")
    session = table.session
    assert session is not None

    taken = [0]

    def move() -> None:  # half a stalling turn: take the stock's top card, or discard it again
        deal = session.deal
        assert isinstance(deal, CooncanDeal) and deal.to_act is not None
        seat = deal.to_act
        if deal.stage == DRAW:
            taken[0] = deal.stock[-1]
            table.act(seat, "take", table.state)
        else:
            table.act(seat, f"discard {card_str(taken[0])}", table.state)

    def log(seat: int) -> list[str]:
        tail = getattr(session, "log_tail", None)  # an older checkout renders the whole log
        return tail(seat, None, LOG_LINES) if tail else session.log_for(seat)[-LOG_LINES:]

    out: dict[str, dict[str, float]] = {}
    for label, target in (("short", 10), ("long", long)):
        while len(session.lines) < target:
            move()
        snap, logs = [], []
        table_snapshot(table, 1)
        log(1)
        for _ in range(moves):
            move()
            t = clock()
            table_snapshot(table, 1)
            snap.append(clock() - t)
            move()
            log(1)  # the snapshot above rendered the seat's log up to the move before
            move()
            t = clock()
            log(1)
            logs.append(clock() - t)
        out[label] = {"moves": len(session.lines), "snapshot_us": statistics.median(snap) * 1e6,
                      "log_us": statistics.median(logs) * 1e6}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--events", type=int, default=6000, help="the long history, in events")
    ap.add_argument("--moves", type=int, default=3000, help="the long match log, in moves (the web table)")
    ap.add_argument("--repeat", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    repeat = args.repeat or (5 if args.quick else 41)
    rules = get_rules("cooncan-double", players=5, max_turns=10**6)
    report = {"views": view_figures(rules, args.events, repeat),
              "web": web_figures(rules, args.moves, 3 if args.quick else 15)}
    if args.json:
        print(json.dumps(report))
        return 0
    v, w = report["views"], report["web"]
    print(f"five-hand Cooncan, CPU microseconds, median of {repeat} (web: of {3 if args.quick else 15}); "
          f"Python {sys.version.split()[0]}")
    print(f"{'':44}{'at ' + str(int(v['short']['events'])) + ' events':>16}"
          f"{'at ' + str(int(v['long']['events'])) + ' events':>18}{'ratio':>10}")
    rows = (("view_events_us", "view.events, first read"), ("redeal_first_us", "re-deal, a decision's first"),
            ("redeal_next_us", "re-deal, the next ones"))
    for key, label in rows:
        print(f"  {label:42}{v['short'][key]:>16,.1f}{v['long'][key]:>18,.1f}{v['long'][key] / v['short'][key]:>9.2f}x")
    print(f"{'':44}{'at ' + str(int(w['short']['moves'])) + ' moves':>16}"
          f"{'at ' + str(int(w['long']['moves'])) + ' moves':>18}{'ratio':>10}")
    for key, label in (("snapshot_us", "web snapshot of a seat"), ("log_us", "a seat's log (last 200 lines)")):
        print(f"  {label:42}{w['short'][key]:>16,.1f}{w['long'][key]:>18,.1f}{w['long'][key] / w['short'][key]:>9.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
