"""``conquian learn``: short lessons on prepared deals, in the terminal; ``--list`` prints the path."""

from __future__ import annotations

import argparse
import sys

from conquian.cli.options import Subparsers
from conquian.i18n import _


def add_parsers(sub: Subparsers) -> None:
    """Add ``learn`` to the ``conquian`` parser."""
    p = sub.add_parser("learn", help=_("learn the game by doing: short lessons on prepared deals"),
                       description=_("Short interactive lessons, each one idea on a prepared deal; the move the "
                                     "idea calls for is accepted, anything else is explained with its rule."))
    p.add_argument("lesson", nargs="?", help=_("the lesson to open (its key, as --list --keys shows)"))
    p.add_argument("--list", action="store_true", help=_("print the lessons, one a line, and whether each is done"))
    p.add_argument("--keys", action="store_true", help=_("with --list: begin each line with the lesson's key"))


def learn_command(args: argparse.Namespace) -> int:
    """Run ``conquian learn``."""
    from conquian.learn.lessons import LESSONS
    from conquian.learn.progress import done_lessons

    keys = {lesson.key for lesson in LESSONS}
    if args.lesson and args.lesson not in keys:
        print(_("conquian learn: there is no lesson {key}; 'conquian learn --list --keys' lists them").format(
            key=args.lesson), file=sys.stderr)
        return 2
    if args.list:
        from conquian.learn.tui import lesson_line

        done = done_lessons()
        for n, lesson in enumerate(LESSONS, 1):
            prefix = f"{lesson.key}\t" if args.keys else ""
            print(f"{prefix}{n:>2}. {lesson_line(lesson, lesson.key in done)}")
        return 0
    try:
        from conquian.learn.tui import LearnApp
    except ImportError:
        print(_("conquian learn: the terminal lessons need the 'play' extra: pip install 'conquian[play]'"),
              file=sys.stderr)
        return 2
    LearnApp(args.lesson).run()
    return 0
