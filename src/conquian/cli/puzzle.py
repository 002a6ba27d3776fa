"""``conquian puzzle``: a real position where one choice is clearly best; find it."""

from __future__ import annotations

import argparse
import datetime
import shutil
import sys
import textwrap

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


def say(text: str, indent: str = "", hanging: str = "") -> None:
    """Print ``text`` wrapped at word boundaries to the terminal's width (``COLUMNS``, else 80), so a
    long line never breaks inside a word ("Th/eme"); ``hanging``: the indent of its next lines."""
    width = max(20, shutil.get_terminal_size((80, 24)).columns - 1)
    for paragraph in text.split("\n"):
        print(textwrap.fill(paragraph, width, initial_indent=indent, subsequent_indent=indent + hanging,
                            break_long_words=False, break_on_hyphens=False) or indent.rstrip())


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
        say(line, "  ", "  ")
    actions = puzzle.deal().legal_actions()
    moves = [str(a) for a in actions]
    print(_("Your moves:"))
    for i, a in enumerate(actions, 1):
        say(f"{i}. {render(move_msg(a))}", "  ", "   ")
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
        say(_("Not this time: the answer is {answer}.").format(answer=render(move_words(puzzle.answer))))
    say(active().render(puzzle.explanation()))
    for reason in puzzle.reasons():
        say(active().render(reason))
    return 0
