"""The ``conquian`` command line: one module per command group.

:mod:`~conquian.cli.play` (``play``), :mod:`~conquian.cli.records` (``replay``, ``rules``),
:mod:`~conquian.cli.review` (``review``), :mod:`~conquian.cli.research` (``simulate``, ``tournament``,
``stats``), :mod:`~conquian.cli.serve` (``serve``),
:mod:`~conquian.cli.site` (``site``), :mod:`~conquian.cli.speedups` (``speedups``) and
:mod:`~conquian.cli.admin` (``admin``), over
:mod:`~conquian.cli.options`.

Every command speaks the language of ``--lang`` (before or after the command), else the
environment's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English
(:mod:`~conquian.cli.language`); what is written for machines (records, ``--json``) never changes
with it.

Errors are one clear line on standard error (or the JSON error object of the
replay contract with ``--json``), never a traceback: exit status 2 for bad
usage, 1 for a bad record or a file that cannot be written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from conquian.cli import admin, learn, play, puzzle, records, research, review, serve, site, speedups
from conquian.cli.language import prescan, use_language
from conquian.cli.options import Parser, rules_from_args
from conquian.i18n import N_, _, active

#: The commands as the main help lists them.
_COMMAND_LINES = (
    ("play", N_("play a match in the terminal (needs the 'play' extra)")),
    ("bots", N_("the bots and their levels, with their measured ratings")),
    ("learn", N_("learn the game by doing: short lessons on prepared deals")),
    ("puzzle", N_("solve a puzzle: a real position where one move is clearly best")),
    ("replay", N_("replay a record file through the engine; --json prints the replay contract")),
    ("review", N_("where did a seat go wrong in a deal: each decision marked by what it cost")),
    ("simulate", N_("random legal play: speed and outcome figures, optionally a record of every deal")),
    ("tournament", N_("bots against each other on duplicate deals, with {ci} intervals")),
    ("serve", N_("the web table: play in a browser with friends and bots (needs the 'web' extra)")),
    ("rules", N_("the rule book, or one rule: conquian rules R3.4")),
    ("stats", N_("how long a hand lasts and what it takes to win: a report (needs the 'analysis' extra)")),
    ("speedups", N_("compile the hot path with mypyc, or remove it (needs the 'speed' extra)")),
    ("site", N_("the offline app as static files: play the bots in the browser with no server")),
    ("admin", N_("the web server's owner: the reports of chat lines (needs the 'web' extra)")),
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``conquian`` command, its texts in the program's language
    (:func:`~conquian.cli.language.use_language` first)."""
    p = Parser(
        prog="conquian",
        description=_("Conquian, the original Rummy, and its children Cooncan: play in the terminal against the "
                      "computer or with friends, replay records, simulate, and run tournaments between bots."),
        epilog=_("commands:") + "\n"
               + "".join(f"  {name:<11} {_(text).format(ci='95%')}\n" for name, text in _COMMAND_LINES) + "\n"
               + _("'conquian COMMAND --help' describes each one.  The R-numbers in refusals are the rule book's: "
                   "'conquian rules R3.4' prints one."),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser, metavar=_("COMMAND"))
    for group in (play, learn, puzzle, records, research, review, serve, site, speedups, admin):
        group.add_parsers(sub)
    return p


#: Each command's function, by name.
COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "play": play.play_command, "bots": play.bots_command, "learn": learn.learn_command, "puzzle": puzzle.puzzle_command,
    "replay": records.replay_command,
    "rules": records.rules_command,
    "simulate": research.simulate_command, "tournament": research.tournament_command,
    "stats": research.stats_command, "review": review.review_command,
    "speedups": speedups.speedups_command, "serve": serve.serve_command, "site": site.site_command,
    "admin": admin.admin_command,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    use_language(prescan(argv))
    args = build_parser().parse_args(argv)
    if getattr(args, "lang", None) and args.lang != active().lang:  # given abbreviated: --la es
        use_language(args.lang)
    try:
        return COMMANDS[args.command](args)
    except KeyboardInterrupt:
        print(_("interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def run() -> NoReturn:
    """Console-script entry point."""
    sys.exit(main())


__all__ = ["COMMANDS", "build_parser", "main", "rules_from_args", "run"]
