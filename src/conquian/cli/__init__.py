"""The ``conquian`` command line: one module per command group.

:mod:`~conquian.cli.play` (``play``), :mod:`~conquian.cli.records` (``replay``, ``rules``),
:mod:`~conquian.cli.review` (``review``), :mod:`~conquian.cli.research` (``simulate``, ``tournament``,
``stats``), :mod:`~conquian.cli.serve` (``serve``) and :mod:`~conquian.cli.speedups` (``speedups``), over
:mod:`~conquian.cli.options`.

Errors are one clear line on standard error (or the JSON error object of the
replay contract with ``--json``), never a traceback: exit status 2 for bad
usage, 1 for a bad record or a file that cannot be written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from conquian.cli import play, records, research, review, serve, speedups
from conquian.cli.options import Parser, rules_from_args


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``conquian`` command."""
    p = Parser(
        prog="conquian",
        description="Conquian, the original Rummy, and its children Cooncan: play in the terminal against the "
                    "computer or with friends, replay records, simulate, and run tournaments between bots.",
        epilog="commands:\n"
               "  play        play a match in the terminal (needs the 'play' extra)\n"
               "  replay      replay a record file through the engine; --json prints the replay contract\n"
               "  review      where did a seat go wrong in a deal: each decision marked by what it cost\n"
               "  simulate    random legal play: speed and outcome figures, optionally a record of every deal\n"
               "  tournament  bots against each other on duplicate deals, with 95% intervals\n"
               "  serve       the web table: play in a browser with friends and bots (needs the 'web' extra)\n"
               "  rules       the rule book, or one rule: conquian rules R3.4\n"
               "  stats       how long a hand lasts and what it takes to win: a report (needs the 'analysis' extra)\n"
               "  speedups    compile the hot path with mypyc, or remove it (needs the 'speed' extra)\n\n"
               "'conquian COMMAND --help' describes each one.  The R-numbers in refusals are the rule book's: "
               "'conquian rules R3.4' prints one.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser, metavar="COMMAND")
    for group in (play, records, research, review, serve, speedups):
        group.add_parsers(sub)
    return p


#: Each command's function, by name.
COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "play": play.play_command, "replay": records.replay_command, "rules": records.rules_command,
    "simulate": research.simulate_command, "tournament": research.tournament_command,
    "stats": research.stats_command, "review": review.review_command,
    "speedups": speedups.speedups_command, "serve": serve.serve_command,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def run() -> NoReturn:
    """Console-script entry point."""
    sys.exit(main())


__all__ = ["COMMANDS", "build_parser", "main", "rules_from_args", "run"]
