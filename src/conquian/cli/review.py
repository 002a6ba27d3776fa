"""``conquian review``: where did a seat go wrong in a deal? (docs/review.md)"""

from __future__ import annotations

import argparse
import json
import os
import sys

from conquian.cli.options import Subparsers, bounded, say
from conquian.engine.errors import quote
from conquian.engine.record import ReplayError
from conquian.i18n import N_, _
from conquian.review import DEFAULT_COONCAN_PLAYOUTS, DEFAULT_PLAYOUTS, Review, ReviewError, review_file

#: The most playouts per candidate one review may ask for.
MAX_PLAYOUTS = 100_000


def seat(text: str) -> int:
    """A seat from the command line: ``p1``, ``p2``, ... (or its number)."""
    t = text.strip().lower().removeprefix("p")
    if not (t.isascii() and t.isdigit()) or len(t) > 3 or int(t) < 1:
        raise argparse.ArgumentTypeError(_("{text} is not a seat (p1, p2, ...)").format(text=quote(text, 30)))
    return int(t)


def add_parsers(sub: Subparsers) -> None:
    """Add ``review`` to the ``conquian`` parser."""
    r = sub.add_parser("review", help=_("review a seat's decisions in a deal: where did it go wrong?"),
                       description=_("Evaluate every decision of one seat in one deal of a record from that seat's "
                                     "view alone (re-deals of the unseen cards, played out by foster) and mark each "
                                     "move good, inaccuracy, mistake or blunder by what it cost in win chance. The "
                                     "result is cached beside the record (RECORD.review.json)."))
    r.add_argument("file", help=_("a conquian-record/1 TOML file"))
    r.add_argument("--seat", type=seat, default=1, help=_("the seat to review: p1, p2, ... (default p1)"))
    r.add_argument("--deal", type=bounded(1, 10**6), default=1,
                   help=_("the deal's number in the record (default 1)"))
    r.add_argument("--playouts", type=bounded(1, MAX_PLAYOUTS), default=None,
                   help=_("re-deals per candidate move (default {playouts}, in Cooncan {cooncan}; at most "
                          "{most:,})").format(playouts=DEFAULT_PLAYOUTS, cooncan=DEFAULT_COONCAN_PLAYOUTS,
                                              most=MAX_PLAYOUTS))
    r.add_argument("--workers", type=bounded(1, 256), default=os.cpu_count() or 1,
                   help=_("processes to share the decisions (default: the cores)"))
    r.add_argument("--no-cache", dest="cache", action="store_false", help=_("neither read nor write the cache"))
    r.add_argument("--json", action="store_true", help=_("print one JSON object"))


def _progress(done: int, total: int) -> None:
    print(_("decision {done}/{total}").format(done=done, total=total), file=sys.stderr, flush=True)


#: The marks of a decision (:data:`conquian.review.MARKS`) in words.
MARK_WORDS = {"good": N_("good"), "inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}


def _mark(mark: str) -> str:
    return _(MARK_WORDS[mark]) if mark in MARK_WORDS else mark


def render(review: Review) -> str:
    """The review in words (the program's language): one line per decision, then the summary."""
    lines = [_("{variant}, deal {deal}, p{seat}: {n} decision(s) reviewed, {forced} forced, {playouts} playouts "
               "per candidate").format(variant=review.variant, deal=review.deal, seat=review.seat,
                                       n=len(review.decisions), forced=review.forced, playouts=review.playouts)]
    for d in review.decisions:
        made = next(e for e in d.candidates if e.action == d.played)
        best = next(e for e in d.candidates if e.action == d.best)
        line = f"{d.number:3d}. #{d.action_index:<3d} {d.played:<28s} {_mark(d.mark):<10s} " + _(
            "win {win:.2f}").format(win=made.win)
        if made.points is not None:
            line += " " + _("points {points:+.1f}").format(points=made.points)
        if d.best != d.played:
            line += "  " + _("best {action} (win {win:.2f}, cost {cost:.2f})").format(
                action=d.best, win=best.win, cost=d.cost)
        if d.foster_differs:
            line += "  " + _("foster: {action}").format(action=d.foster)
        lines.append(line)
    acc = review.accuracy
    counts = ", ".join(_("{n} {mark}").format(n=n, mark=_mark(m)) for m, n in review.counts.items())
    lines.append(_("accuracy {percent:.0f}%: {counts}").format(percent=acc * 100, counts=counts)
                 if acc is not None else _("no decision to review"))
    for d in review.turning_points:
        lines.append(_("turning point: decision {number} (action #{index}), {action}: {mark}, cost {cost:.2f}; "
                       "best {best}").format(number=d.number, index=d.action_index, action=d.played,
                                             mark=_mark(d.mark), cost=d.cost, best=d.best))
    return "\n".join(lines)


def review_command(args: argparse.Namespace) -> int:
    """Run ``conquian review``."""
    try:
        result = review_file(args.file, args.seat, args.deal, args.playouts, args.workers,
                             None if args.json else _progress, cache=args.cache)
    except ReviewError as e:
        print(f"conquian review: {say(e)}", file=sys.stderr)
        return 2
    except ReplayError as e:
        print(f"conquian review: {say(e)}" + (f" [{e.rule}]" if e.rule else ""), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(render(result))
    return 0
