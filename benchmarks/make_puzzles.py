"""Mine the shipped puzzles from the bots' self-play, reproducibly (src/conquian/learn/puzzles.json).

    nice -n 10 python -m benchmarks.make_puzzles            # the shipped file: every set below
    nice -n 10 python -m benchmarks.make_puzzles --only forcing   # one set again, the others kept
    python -m benchmarks.make_puzzles --verify              # check every shipped puzzle again

The puzzles come in sets (:data:`SETS`), each mined from its own fixed seeds: ``open``, conquian
positions of every theme; ``forcing``, conquian positions where a force is among the moves and the
question is whether to force: the force is the answer, or the runner-up the answer beats;
``fattening``, Cooncan (three hands) positions where adding to a combination on the table (R4.3)
is the answer or the runner-up it beats.  Deals from fixed seeds are played by ``foster`` for
every seat; at each decision with a choice (of the set's kind), the review's search
(:func:`conquian.learn.puzzles.search`) screens the position at
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
from dataclasses import dataclass
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


@dataclass(frozen=True)
class PuzzleSet:
    """One set of puzzles: its game, its deals' seeds and dealer, the id prefix of its puzzles, the
    verbs a decision must offer to be screened and the theme its answers must have (None: any)."""

    name: str
    variant: str
    prefix: str
    first_seed: int
    deals: int
    dealer: int
    verbs: tuple[str, ...] = ()
    theme: str | None = None
    easy: int = 2


#: The shipped sets, each reproducible from its seeds.
SETS = (
    PuzzleSet("open", "conquian", "c", 1, 60, 2),
    PuzzleSet("forcing", "conquian", "f", 1001, 1000, 2, verbs=("force",), theme="forcing", easy=6),
    PuzzleSet("fattening", "cooncan", "k", 2001, 120, 1, verbs=("add", "shift"), theme="fattening", easy=6),
)


def mine(which: PuzzleSet, screen: int, most: int) -> list[Puzzle]:
    """The set's puzzles: each decision of the set's kind screened, then confirmed."""
    rules = get_rules(which.variant)
    found: list[Puzzle] = []
    for seed in range(which.first_seed, which.first_seed + which.deals):
        deal = new_deal(rules, seed=seed, dealer=which.dealer)
        deck = " ".join(card_str(c) for c in deal.deck) if hasattr(deal, "deck") else None
        if deck is None:
            raise SystemExit("the deal keeps no deck")
        bots = {s: make_bot("foster", seed + 1000 * (s - 1)) for s in range(1, rules.players + 1)}
        actions: list[str] = []
        while not deal.over and len(found) < most and len(actions) < 400:
            seat = deal.to_act
            assert seat is not None
            legal = [str(a) for a in deal.legal_actions()]
            wanted = not which.verbs or any(m.split()[1] in which.verbs for m in legal)
            if len(legal) > 1 and wanted:
                probe = Puzzle(f"{which.prefix}{seed}-{len(actions)}", which.variant, which.dealer, deck,
                               tuple(actions), seat, "", (), "using", 0)
                key = zlib.crc32(f"{seed}/{len(actions)}".encode())
                ranked = search(probe, screen, key)
                theme = theme_of(deal, ranked[0][0])
                if which.theme is not None:
                    # the set's question: its kind of move is the answer, or the runner-up it beats
                    top = [m.split()[1] for m, _w in ranked[:2]]
                    theme = which.theme if any(v in which.verbs for v in top) else ""
                if lead(ranked) >= MARGIN * 0.75 and theme:
                    runs = [search(probe, CONFIRM_PLAYOUTS, key + k) for k in CONFIRM_SEEDS]
                    if all(r[0][0] == ranked[0][0] and lead(r) >= MARGIN for r in runs):
                        answer = ranked[0][0]
                        est = tuple((a, round(sum(dict(r)[a] for r in runs) / len(runs), 3)) for a, _w in runs[0])
                        est = tuple(sorted(est, key=lambda e: (-e[1], e[0])))
                        p = Puzzle(probe.id, which.variant, which.dealer, deck, tuple(actions), seat, answer, est,
                                   theme, 0.0)
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
    a.add_argument("--only", choices=[s.name for s in SETS], action="append",
                   help="mine this set again and keep the others' puzzles from the file (repeatable)")
    a.add_argument("--screen", type=int, default=100)
    a.add_argument("--most", type=int, default=400, help="the most puzzles found in one set")
    a.add_argument("--out", type=Path, default=OUT)
    a.add_argument("--verify", action="store_true")
    args = a.parse_args(argv)
    if args.verify:
        return verify(CONFIRM_PLAYOUTS)
    t0 = time.time()
    chosen = [s for s in SETS if not args.only or s.name in args.only]
    kept: list[Puzzle] = []
    if args.only and args.out.exists():
        old = json.loads(args.out.read_text(encoding="utf-8"))["puzzles"]
        redo = tuple(s.prefix for s in chosen)
        kept = [Puzzle.from_json(p) for p in old if not p["id"].startswith(redo)]
    found = list(kept)
    for which in SETS:
        if which in chosen:
            t1 = time.time()
            mined = select(mine(which, args.screen, args.most), which.easy)
            print(f"{which.name}: {len(mined)} puzzles from {which.deals} deals in {time.time() - t1:.0f} s",
                  flush=True)
            found += mined
    args.out.write_text(json.dumps({"format": "conquian-puzzles/1", "margin": MARGIN,
                                    "confirm_playouts": CONFIRM_PLAYOUTS,
                                    "puzzles": [p.to_json() for p in found]}, ensure_ascii=False, indent=1) + "\n",
                        encoding="utf-8")
    print(f"{len(found)} puzzles in {time.time() - t0:.0f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
