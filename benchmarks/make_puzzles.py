"""Mine the shipped puzzles from the bots' self-play, reproducibly (src/conquian/learn/puzzles.json).

    nice -n 10 python -m benchmarks.make_puzzles            # the shipped file
    python -m benchmarks.make_puzzles --verify              # check every shipped puzzle again

Conquian deals from fixed seeds are played by ``foster`` for both seats; at each decision with a
choice, the review's search (:func:`conquian.learn.puzzles.search`) screens the position at
``--screen`` playouts, and a position whose best move leads by most of the margin is confirmed at
:data:`~conquian.learn.puzzles.CONFIRM_PLAYOUTS` playouts on each of the independent re-deal seeds
:data:`~conquian.learn.puzzles.CONFIRM_SEEDS`: it is kept when the same move leads by
:data:`~conquian.learn.puzzles.MARGIN` on every one.  Difficulty: the share of ``foster`` (five
seeds) and ``expert`` (two seeds) choices that miss the answer.  Prints what it found and how long it took.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from pathlib import Path

from conquian.bots import make_bot
from conquian.engine.cards import card_str
from conquian.engine.match import new_deal
from conquian.engine.rules import get_rules
from conquian.learn.puzzles import CONFIRM_PLAYOUTS, CONFIRM_SEEDS, MARGIN, Puzzle, lead, puzzles, search, theme_of

OUT = Path(__file__).resolve().parent.parent / "src" / "conquian" / "learn" / "puzzles.json"


def difficulty(p: Puzzle) -> float:
    """The share of foster's and expert's choices at the position that miss the answer."""
    view = p.deal().view(p.seat)
    picks = [str(make_bot("foster", seed).choose(view)) for seed in range(5)]
    picks += [str(make_bot("expert", seed, iterations=120).choose(view)) for seed in range(2)]
    return round(sum(x != p.answer for x in picks) / len(picks), 2)


def mine(deals: int, screen: int, most: int) -> list[Puzzle]:
    rules = get_rules("conquian")
    found: list[Puzzle] = []
    for seed in range(1, deals + 1):
        deal = new_deal(rules, seed=seed, dealer=2)
        deck = " ".join(card_str(c) for c in deal.deck) if hasattr(deal, "deck") else None
        if deck is None:
            raise SystemExit("the deal keeps no deck")
        bots = {1: make_bot("foster", seed), 2: make_bot("foster", seed + 1000)}
        actions: list[str] = []
        while not deal.over and len(found) < most:
            seat = deal.to_act
            assert seat is not None
            if len(deal.legal_actions()) > 1:
                probe = Puzzle(f"c{seed}-{len(actions)}", "conquian", 2, deck, tuple(actions), seat, "", (), "using", 0)
                key = zlib.crc32(f"{seed}/{len(actions)}".encode())
                ranked = search(probe, screen, key)
                if lead(ranked) >= MARGIN * 0.75:
                    runs = [search(probe, CONFIRM_PLAYOUTS, key + k) for k in CONFIRM_SEEDS]
                    if all(r[0][0] == ranked[0][0] and lead(r) >= MARGIN for r in runs):
                        answer = ranked[0][0]
                        est = tuple((a, round(sum(dict(r)[a] for r in runs) / len(runs), 3)) for a, _w in runs[0])
                        est = tuple(sorted(est, key=lambda e: (-e[1], e[0])))
                        p = Puzzle(probe.id, "conquian", 2, deck, tuple(actions), seat, answer, est,
                                   theme_of(deal, answer), 0.0)
                        p = Puzzle(**{**p.__dict__, "difficulty": difficulty(p)})
                        found.append(p)
                        print(f"  {p.id}: {answer} leads by {est[0][1] - est[1][1]:.2f} ({p.theme}, "
                              f"difficulty {p.difficulty})", flush=True)
            move = bots[seat].choose(deal.view(seat))
            actions.append(str(deal.play(move)))
        if len(found) >= most:
            break
    return found


def select(found: list[Puzzle], easy: int) -> list[Puzzle]:
    """Every puzzle that a bot misses, and at most ``easy`` of each theme that every bot finds;
    the hardest first."""
    kept = [p for p in found if p.difficulty > 0]
    for theme in sorted({p.theme for p in found}):
        kept += [p for p in found if p.theme == theme and p.difficulty == 0][:easy]
    return sorted(kept, key=lambda p: (-p.difficulty, p.id))


def verify(playouts: int) -> int:
    bad = 0
    for p in puzzles():
        ranked = search(p, playouts, 99)
        ok = ranked[0][0] == p.answer and lead(ranked) >= MARGIN / 2
        bad += not ok
        print(f"{p.id}: {'ok' if ok else 'FAILED'} (leads by {lead(ranked):.2f} at {playouts} playouts)")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    a = argparse.ArgumentParser(description="mine the shipped puzzles, or verify them")
    a.add_argument("--deals", type=int, default=60)
    a.add_argument("--screen", type=int, default=100)
    a.add_argument("--most", type=int, default=400)
    a.add_argument("--easy", type=int, default=2, help="puzzles every bot finds kept per theme")
    a.add_argument("--out", type=Path, default=OUT)
    a.add_argument("--verify", action="store_true")
    args = a.parse_args(argv)
    if args.verify:
        return verify(CONFIRM_PLAYOUTS)
    t0 = time.time()
    found = select(mine(args.deals, args.screen, args.most), args.easy)
    args.out.write_text(json.dumps({"format": "conquian-puzzles/1", "margin": MARGIN,
                                    "confirm_playouts": CONFIRM_PLAYOUTS,
                                    "puzzles": [p.to_json() for p in found]}, ensure_ascii=False, indent=1) + "\n",
                        encoding="utf-8")
    print(f"{len(found)} puzzles from {args.deals} deals in {time.time() - t0:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
