"""What the commands share: the parser that errs in one line, bounded numbers, the rules' options."""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn, TypeAlias

from conquian.cli.language import add_language_option
from conquian.engine.errors import ConquianError, quote
from conquian.engine.rules import Rules, get_rules
from conquian.i18n import _, active


def say(thing: object) -> str:
    """An error, a message or an event for people, in the program's language: what has a
    ``render(translator)`` (a :class:`~conquian.engine.errors.ConquianError`, a
    :class:`~conquian.i18n.Msg`) is rendered with :func:`~conquian.i18n.active`, anything else is ``str``."""
    render = getattr(thing, "render", None)
    return str(render(active())) if callable(render) else str(thing)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line that says where to look, with ``--lang``
    (:mod:`conquian.cli.language`) among its options."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        add_language_option(self)

    def error(self, message: str) -> NoReturn:
        self.exit(2, _("{prog}: error: {message} (see {prog} --help)").format(prog=self.prog, message=message)
                  + "\n")


#: Bounds on what one command may be asked to do: past them a typo, not a plan (stated in --help).
MAX_SIMULATE_DEALS = 10**9
MAX_TOURNAMENT_DEALS = 1_000_000
MAX_EXPERT_ITERATIONS = 100_000
MAX_DELAY = 60.0


def integer(text: str) -> int:
    """A whole number from the command line (at most 30 characters), or an argparse error."""
    t = text.strip()
    if not (t.lstrip("+-").isascii() and t.lstrip("+-").isdigit()) or len(t) > 30:
        raise argparse.ArgumentTypeError(_("{text} is not a whole number").format(text=quote(text, 30)))
    return int(t)


def bounded(low: int, high: int) -> Any:
    """A parser of whole numbers from ``low`` to ``high``."""
    def parse(text: str) -> int:
        n = integer(text)
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(
                _("must be from {low:,} to {high:,}, not {n:,}").format(low=low, high=high, n=n))
        return n

    return parse


#: A whole number from 1 to a billion.
positive = bounded(1, 10**9)


def delay(text: str) -> float:
    """Seconds from 0 to :data:`MAX_DELAY`, or an argparse error."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text} is not a number of seconds").format(text=quote(text, 30))) from None
    if not 0 <= x <= MAX_DELAY:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(_("must be from 0 to {high:g} seconds, not {text}").format(high=MAX_DELAY,
                                                                                                  text=text))
    return x



#: The sub-command parsers of ``conquian``, to which each command module adds its own.
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def add_rules_options(p: argparse.ArgumentParser) -> None:
    """The options of R1, for any command that sets up a game."""
    p.add_argument("--players", type=positive, default=None, help=_("players at the table (R1, R6.3)"))
    p.add_argument("--scoring", choices=("games", "pips"), default=None, help=_("conquian scoring (R5.1, R5.2)"))
    p.add_argument("--stock", choices=("closed", "open"), default=None, help=_("cooncan stock (R4.2)"))
    p.add_argument("--jokers", type=integer, default=None, help=_("cooncan jokers: 0 or 1 (R1)"))
    p.add_argument("--splash-bonus", type=integer, default=None,
                   help=_("cooncan splash bonus: 0, 25 or 50 (R5.3)"))
    p.add_argument("--max-pack-turns", type=integer, default=None,
                   help=_("times the stock may become the pack before a deal is void (R4.5)"))
    p.add_argument("--max-turns", type=integer, default=None,
                   help=_("turns after which a Cooncan deal is void (default 2000)"))
    p.add_argument("--no-discard-taken", dest="discard_taken", action="store_const", const=False, default=None,
                   help=_("cooncan house rule: the card taken from the stock may not be discarded in the same "
                          "turn"))
    p.add_argument("--hand", type=integer, default=None,
                   help=_("conquián mexicano: cards dealt each, 8 or 9 (R8.1)"))
    p.add_argument("--no-exchange", dest="exchange", action="store_const", const=False, default=None,
                   help=_("conquián mexicano: play without the exchange of a card before the first turn (R8.2)"))
    p.add_argument("--exhausted", choices=("tablas", "fewest"), default=None,
                   help=_("conquián mexicano, the pack exhausted: a draw, or the fewest cards in hand win (R8.6)"))


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules object of ``--variant`` and the R1 options given."""
    options: dict[str, Any] = {}
    for key in ("players", "scoring", "stock", "jokers", "splash_bonus", "max_pack_turns", "max_turns",
                "discard_taken", "hand", "exchange", "exhausted"):
        value = getattr(args, key, None)
        if value is not None:
            options[key] = value
    return get_rules(args.variant, **options)


def bots_and_rules(args: argparse.Namespace, command: str, one_for_all: bool) -> tuple[list[str], Rules] | int:
    """``--bots`` and the rules of a command that seats bots, or the exit status after one line
    on standard error.  Cooncan's and the conquián mexicano's player count defaults to the bots
    listed; with ``one_for_all`` a single name sits in every seat."""
    from conquian.bots import bot_names

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    unknown = [b for b in bots if b not in bot_names()]
    if not bots or unknown:
        print(f"{command}: " + _("unknown bot {bot!r} (bots: {bots})").format(
            bot=(unknown or [args.bots])[0], bots=", ".join(bot_names())), file=sys.stderr)
        return 2
    round_table = args.variant.startswith("cooncan") or args.variant == "conquian-mexicano"
    if args.players is None and round_table and (len(bots) > 1 or not one_for_all):
        args.players = len(bots)
    try:
        rules = rules_from_args(args)
    except ConquianError as e:
        print(f"{command}: {say(e)}", file=sys.stderr)
        return 2
    if one_for_all and len(bots) == 1:
        bots = bots * rules.players
    if len(bots) != rules.players:
        text = (_("give one bot per seat: {n} for {variant} with {n} players (or one for every seat), not {given}")
                if one_for_all else _("give one bot per seat: {n} for {variant} with {n} players, not {given}"))
        print(f"{command}: " + text.format(n=rules.players, variant=rules.name, given=len(bots)), file=sys.stderr)
        return 2
    return bots, rules


