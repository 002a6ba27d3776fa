"""``conquian review``: where did a seat go wrong in a deal? (docs/review.md)"""

from __future__ import annotations

import argparse
import json
import os
import sys

from conquian.cli.options import Subparsers, bounded, say
from conquian.engine.errors import quote
from conquian.engine.record import ReplayError
from conquian.i18n import _
from conquian.review import DEFAULT_COONCAN_PLAYOUTS, DEFAULT_PLAYOUTS, ReviewError, report, review_file

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
        print(report(result))
    return 0
