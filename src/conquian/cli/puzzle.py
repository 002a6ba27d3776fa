"""``conquian puzzle``: a real position where one choice is clearly best; find it."""

from __future__ import annotations

import argparse
import datetime
import sys

from conquian.cli.options import Subparsers
from conquian.i18n import _, active, render


def add_parsers(sub: Subparsers) -> None:
    """Add ``puzzle`` to the ``conquian`` parser."""
    p = sub.add_parser("puzzle", help=_("solve a puzzle: a real position where one move is clearly best"),
                       description=_("A position from the bots' self-play, shown from one seat's view, where the "
                                     "search finds one move clearly best. Choose the move by its number."))
    p.add_argument("id", nargs="?", help=_("the puzzle to show (default: the daily puzzle)"))
    p.add_argument("--daily", action="store_true",
                   help=_("the puzzle of the day (the same for everyone on the same day, in UTC)"))
    p.add_argument("--list", action="store_true", help=_("list the puzzles: id, theme, difficulty"))
    p.add_argument("--answer", help=_("answer at once with this move's number or notation (no question asked)"))


def puzzle_command(args: argparse.Namespace) -> int:
    """Run ``conquian puzzle``."""
    from conquian.learn.puzzles import THEME_WORDS, daily_puzzle, move_words, puzzle_lines, puzzles
    from conquian.present import move_msg

    shipped = puzzles()
    if not shipped:
        print(_("conquian puzzle: no puzzles are shipped"), file=sys.stderr)
        return 1
    if args.list:
        for p in shipped:
            print(_("{id}  {theme}, difficulty {difficulty:.0%}").format(
                id=p.id, theme=render(THEME_WORDS[p.theme]), difficulty=p.difficulty))
        return 0
    if args.id and args.daily:
        print(_("conquian puzzle: give a puzzle's id or --daily, not both"), file=sys.stderr)
        return 2
    if args.id:
        found = [p for p in shipped if p.id == args.id]
        if not found:
            print(_("conquian puzzle: there is no puzzle {id}; 'conquian puzzle --list' lists them").format(
                id=args.id), file=sys.stderr)
            return 2
        puzzle = found[0]
    else:
        puzzle = daily_puzzle()
        print(_("Puzzle of the day, {date} (UTC)").format(date=datetime.datetime.now(datetime.UTC).date().isoformat()))
    print(_("Puzzle {id} ({theme})").format(id=puzzle.id, theme=render(THEME_WORDS[puzzle.theme])))
    for line in puzzle_lines(puzzle):
        print("  " + line)
    actions = puzzle.deal().legal_actions()
    moves = [str(a) for a in actions]
    print(_("Your moves:"))
    for i, a in enumerate(actions, 1):
        print(f"  {i}. {render(move_msg(a))}")
    choice = args.answer
    if choice is None:
        try:
            choice = input(_("Your move (its number): "))
        except EOFError:
            return 0
    choice = choice.strip()
    picked = moves[int(choice) - 1] if choice.isdigit() and 0 < int(choice) <= len(moves) else None
    if picked is None:
        text = " ".join(choice.split())
        seat = f"p{puzzle.seat}"
        text = text if text.startswith(seat + " ") else f"{seat} {text}"
        picked = text if text in moves else None
    if picked is None:
        print(_("conquian puzzle: {choice} is not one of the moves listed").format(choice=choice), file=sys.stderr)
        return 2
    if picked == puzzle.answer:
        print(_("Right!"))
    else:
        print(_("Not this time: the answer is {answer}.").format(answer=render(move_words(puzzle.answer))))
    print(active().render(puzzle.explanation()))
    for reason in puzzle.reasons():
        print(active().render(reason))
    return 0
