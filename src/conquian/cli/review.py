"""``conquian review``: where did a seat go wrong in a deal? (docs/review.md)"""

from __future__ import annotations

import argparse
import json
import os
import sys

from conquian.cli.options import Subparsers, bounded
from conquian.engine.errors import quote
from conquian.engine.record import ReplayError
from conquian.review import DEFAULT_COONCAN_PLAYOUTS, DEFAULT_PLAYOUTS, Review, ReviewError, review_file

#: The most playouts per candidate one review may ask for.
MAX_PLAYOUTS = 100_000


def seat(text: str) -> int:
    """A seat from the command line: ``p1``, ``p2``, ... (or its number)."""
    t = text.strip().lower().removeprefix("p")
    if not (t.isascii() and t.isdigit()) or len(t) > 3 or int(t) < 1:
        raise argparse.ArgumentTypeError(f"{quote(text, 30)} is not a seat (p1, p2, ...)")
    return int(t)


def add_parsers(sub: Subparsers) -> None:
    """Add ``review`` to the ``conquian`` parser."""
    r = sub.add_parser("review", help="review a seat's decisions in a deal: where did it go wrong?",
                       description="Evaluate every decision of one seat in one deal of a record from that seat's "
                                   "view alone (re-deals of the unseen cards, played out by foster) and mark each "
                                   "move good, inaccuracy, mistake or blunder by what it cost in win chance. The "
                                   "result is cached beside the record (RECORD.review.json).")
    r.add_argument("file", help="a conquian-record/1 TOML file")
    r.add_argument("--seat", type=seat, default=1, help="the seat to review: p1, p2, ... (default p1)")
    r.add_argument("--deal", type=bounded(1, 10**6), default=1, help="the deal's number in the record (default 1)")
    r.add_argument("--playouts", type=bounded(1, MAX_PLAYOUTS), default=None,
                   help=f"re-deals per candidate move (default {DEFAULT_PLAYOUTS}, in Cooncan "
                        f"{DEFAULT_COONCAN_PLAYOUTS}; at most {MAX_PLAYOUTS:,})")
    r.add_argument("--workers", type=bounded(1, 256), default=os.cpu_count() or 1,
                   help="processes to share the decisions (default: the cores)")
    r.add_argument("--no-cache", dest="cache", action="store_false", help="neither read nor write the cache")
    r.add_argument("--json", action="store_true", help="print one JSON object")


def _progress(done: int, total: int) -> None:
    print(f"decision {done}/{total}", file=sys.stderr, flush=True)


def render(review: Review) -> str:
    """The review in words: one line per decision, then the summary."""
    lines = [f"{review.variant}, deal {review.deal}, p{review.seat}: {len(review.decisions)} decision(s) reviewed, "
             f"{review.forced} forced, {review.playouts} playouts per candidate"]
    for d in review.decisions:
        made = next(e for e in d.candidates if e.action == d.played)
        best = next(e for e in d.candidates if e.action == d.best)
        line = f"{d.number:3d}. #{d.action_index:<3d} {d.played:<28s} {d.mark:<10s} win {made.win:.2f}"
        if made.points is not None:
            line += f" points {made.points:+.1f}"
        if d.best != d.played:
            line += f"  best {d.best} (win {best.win:.2f}, cost {d.cost:.2f})"
        if d.foster_differs:
            line += f"  foster: {d.foster}"
        lines.append(line)
    acc = review.accuracy
    counts = ", ".join(f"{n} {m}" for m, n in review.counts.items())
    lines.append(f"accuracy {acc * 100:.0f}%: {counts}" if acc is not None else "no decision to review")
    for d in review.turning_points:
        lines.append(f"turning point: decision {d.number} (action #{d.action_index}), {d.played}: "
                     f"{d.mark}, cost {d.cost:.2f}; best {d.best}")
    return "\n".join(lines)


def review_command(args: argparse.Namespace) -> int:
    """Run ``conquian review``."""
    try:
        result = review_file(args.file, args.seat, args.deal, args.playouts, args.workers,
                             None if args.json else _progress, cache=args.cache)
    except ReviewError as e:
        print(f"conquian review: {e}", file=sys.stderr)
        return 2
    except ReplayError as e:
        print(f"conquian review: {e}" + (f" [{e.rule}]" if e.rule else ""), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(render(result))
    return 0
