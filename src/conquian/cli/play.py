"""``conquian play``: a match in the terminal, a saved match resumed, a record stepped through.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import Any

from conquian import present
from conquian.bots.levels import LEVELS
from conquian.cli.options import (
    Subparsers,
    add_rules_options,
    delay,
    integer,
    say,
)
from conquian.engine.errors import ConquianError, quote
from conquian.engine.files import check_writable, records_dir
from conquian.engine.record import (
    ReplayError,
    read_record_file,
    replay,
)
from conquian.engine.rules import PRESETS
from conquian.i18n import Msg, _, render


def add_parsers(sub: Subparsers) -> None:
    """Add this module's commands to the ``conquian`` parser."""
    g = sub.add_parser(
        "play", help=_("play a match in the terminal against the computer, or with friends at one terminal"),
        description=_("Play a match in the terminal (Textual).  Records are saved after every deal and on every "
                      "way out, to FILE or else to a new file in {folder}.").format(folder=records_dir()),
    )
    g.add_argument("--variant", default="conquian", choices=list(PRESETS))
    g.add_argument("--bots", default=None,
                   help=_("the other seats' bots, comma-separated (default: master with the compiled hot path of "
                          "'conquian speedups build', else expert); list 'human' seats to share "
                          "the terminal, e.g. human,human,foster"))
    g.add_argument("--level", choices=[lv.bot for lv in LEVELS], default=None,
                   help=_("the other seats' bots at one level: {levels} ('conquian bots' lists their measured "
                          "ratings, which order them in each game); instead of --bots").format(
                       levels=", ".join(lv.bot for lv in LEVELS)))
    g.add_argument("--seed", type=integer, default=None,
                   help=_("seed of the deals, for a game you can play again (default: from the system's "
                          "randomness)"))
    g.add_argument("--name", default=None, help=_("your name (or names, comma-separated, one per seat)"))
    g.add_argument("--delay", type=delay, default=0.8,
                   help=_("seconds between the bots' moves (0: no pause; at most 60)"))
    g.add_argument("--ascii", action="store_true", help=_("cards without suit symbols"))
    g.add_argument("--spanish-suits", action="store_true",
                   help=_("the Spanish pack (conquian-spanish, conquian-mexicano) with its own suits: oros, copas, "
                          "espadas, bastos, and sota, caballo, rey (R8.1; the key s switches in the game)"))
    g.add_argument("--show-buried", action="store_true",
                   help=_("memory aid: show buried and covered cards to every seat alike (R3.3; off by default)"))
    g.add_argument("--record", metavar="FILE", default=None,
                   help=_("where to save the match (default: a new file in {folder}); an existing record "
                          "is never overwritten: an unfinished match of the same settings is resumed, anything "
                          "else refused").format(folder=records_dir()))
    g.add_argument("--resume", metavar="RECORD", nargs="?", const="", default=None,
                   help=_("continue a saved match where it stopped, with its players, bots and scores (no "
                          "RECORD: the latest unfinished match in the data folder); the deals to come are shuffled "
                          "anew"))
    g.add_argument("--replay", metavar="FILE", default=None, help=_("step through a record instead of playing"))
    add_rules_options(g)
    b = sub.add_parser("bots", help=_("the bots and their levels, with their measured ratings"),
                       description=_("The bots, the levels first, weakest first by their measured rating in the game, "
                                     "each with its rating on the web's scale and the rating's {ci} interval, fitted "
                                     "on duplicate deals among the bots (docs/bots.md); 'conquian play --level NAME' "
                                     "plays one.").format(ci="95%"))
    b.add_argument("--variant", default="conquian", choices=list(PRESETS))


def bots_command(args: argparse.Namespace) -> int:
    """Run ``conquian bots``: the bots, their policies and their fitted ratings in a game."""
    from conquian.bots import bot_names
    from conquian.bots.levels import fitted, fixed_rating, level, levels_by_rating
    from conquian.i18n import active
    from conquian.present import bot_name, game_name

    tr = active()
    game = fitted().get("games", {}).get(args.variant)
    if game is None:
        print(tr.render(Msg("No bot has a measured rating in {game} yet.", game=game_name(args.variant))))
    else:
        print(tr.render(Msg("Ratings in {game} on the web's scale, with their {ci} intervals, from {deals} deals "
                            "on {date}: {command}", ci="95%", game=game_name(args.variant), deals=game["games"],
                            date=game["date"], command=game["command"])))
    # the levels by their measured rating in this game: none listed above one that measures higher
    names = levels_by_rating(args.variant) + [b for b in bot_names() if level(b) is None]
    for name in names:
        fit = fixed_rating(args.variant, name)
        figure = f"{fit['rating']:>5} ({fit['interval'][0]}-{fit['interval'][1]})" if fit else f"{'-':>5}" + " " * 12
        lv = level(name)
        what = tr.render(lv.policy_in(args.variant)) if lv else ""
        print(f"  {name:<11} {tr.render(bot_name(name)):<13} {figure}  {what}".rstrip())
    return 0


def play_command(args: argparse.Namespace) -> int:
    """Run ``conquian play``.  The program's language is chosen already (:func:`conquian.cli.main`):
    the terminal game reads it when it draws its words."""
    try:
        from conquian.tui import ReplayApp, make_session
    except ImportError:
        print("conquian play: " + _("the terminal game needs Textual: pip install 'conquian[play]'"),
              file=sys.stderr)
        return 2
    if args.replay:
        try:
            rec = read_record_file(args.replay)
            replay(rec)
        except ReplayError as e:
            print(f"conquian play: {say(e)}" + (f" [{e.rule}]" if e.rule else ""), file=sys.stderr)
            return 1
        ReplayApp(rec, ascii_only=args.ascii, spanish_suits=args.spanish_suits, path=args.replay,
                  review_workers=os.cpu_count() or 1).run()
        return 0
    import secrets

    # R3.1/R4.1 decks from the system's randomness: a clock seed can be recovered from one's own hand
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    bots = args.bots.split(",") if args.bots else None
    if args.level is not None:
        if bots is not None:
            print("conquian play: " + _("--level seats one level at every other seat; give --level or --bots, "
                                        "not both"), file=sys.stderr)
            return 2
        bots = [args.level]
    if args.resume is not None:
        if args.record is not None:
            print("conquian play: " + _("--resume saves the match where it was; give --resume RECORD or "
                                        "--record FILE, not both"), file=sys.stderr)
            return 2
        path = args.resume or _latest_unfinished()
        if path is None:
            print("conquian play: " + _("no unfinished match in {folder}").format(folder=records_dir()),
                  file=sys.stderr)
            return 1
        return _resume(path, args, seed, bots)
    options: dict[str, Any] = {}
    for key in ("scoring", "stock", "jokers", "splash_bonus", "max_pack_turns", "max_turns", "discard_taken",
                "hand", "exchange", "exhausted"):
        value = getattr(args, key, None)
        if value is not None:
            options[key] = value
    try:
        from conquian.bots import bot_names
        from conquian.engine.match import check_name

        for b in bots or []:
            if b.strip() not in (*bot_names(), "human"):
                raise ConquianError(Msg("unknown bot {bot} (bots: {bots}, or human)", bot=quote(b.strip(), 30),
                                        bots=", ".join(bot_names())))
        names = [check_name(n.strip()) for n in args.name.split(",")] if args.name else None
        session = make_session(args.variant, args.players, bots, seed, names, **options)
    except ConquianError as e:
        print(f"conquian play: {say(e)}", file=sys.stderr)
        return 2
    record = args.record
    if record is not None and os.path.lexists(record):
        found = _existing_record(record, session, same_seats=bots is not None)
        if found == "resume":
            return _resume(record, args, seed, bots)
        if isinstance(found, int):
            return found
    try:
        if record is None:
            folder = records_dir()
            folder.mkdir(parents=True, exist_ok=True)
            record = str(folder / session.default_record_name())
        check_writable(record)
    except OSError as e:
        print("conquian play: " + _("cannot save the match to {path}: {reason} (give another --record FILE)").format(
            path=quote(record or str(records_dir())), reason=e.strerror or e), file=sys.stderr)
        return 2
    return _run_game(session, args, record)


def _run_game(session: Any, args: argparse.Namespace, record: str) -> int:
    """Play the match in the terminal; say where it was saved, and how to resume it if unfinished."""
    from conquian.tui import ConquianApp, resume_command

    app = ConquianApp(session, delay=args.delay, ascii_only=args.ascii, record_path=record,
                      show_buried=args.show_buried, spanish_suits=args.spanish_suits)
    app.run()
    if app.save_error:
        print("conquian play: " + _("the match could not be saved: {reason}").format(reason=app.save_error),
              file=sys.stderr)
        return 1
    if app.saved_to:
        if app.session.match_over:
            print(_("The match is saved in {path}").format(path=app.saved_to))
        else:
            print(_("The match is saved in {path}; resume it with: {command}").format(
                path=app.saved_to, command=resume_command(app.saved_to)))
    return 0


def _latest_unfinished() -> str | None:
    """The most recently saved unfinished match in the data folder, if any."""
    from conquian.engine.errors import RecordError
    from conquian.engine.files import read_text_limited
    from conquian.session import is_unfinished

    try:
        files = sorted(records_dir().glob("*.toml"), key=lambda f: f.stat().st_mtime, reverse=True)
    except OSError:
        return None
    for f in files:
        with contextlib.suppress(OSError, RecordError):
            if is_unfinished(read_text_limited(f)):
                return str(f)
    return None


def _resume(path: str, args: argparse.Namespace, seed: int, bots: list[str] | None) -> int:
    """``play --resume``: the saved match continued where it stopped, saved to the same file."""
    from conquian.engine.files import read_text_limited
    from conquian.engine.record import read_record
    from conquian.session import FinishedMatchError, resume, seats_from_bots

    try:
        text = read_text_limited(path)
        seats = seats_from_bots(read_record(text).rules(), bots) if bots else None
        session = resume(text, seed=seed, seats=seats)
    except FinishedMatchError as e:
        print(f"conquian play: {path}: {say(e)}", file=sys.stderr)
        return 1
    except ConquianError as e:
        rule = getattr(e, "rule", None)
        print("conquian play: " + _("cannot resume {path}: {reason}").format(path=path, reason=say(e))
              + (f" [{rule}]" if rule else ""), file=sys.stderr)
        return 1
    try:
        check_writable(path)
    except OSError as e:
        print("conquian play: " + _("cannot save the match to {path}: {reason}").format(
            path=quote(path), reason=e.strerror or e), file=sys.stderr)
        return 2
    return _run_game(session, args, path)


def _existing_record(path: str, session: Any, same_seats: bool) -> int | str | None:
    """``--record`` names a file that exists: never overwrite a record.  2 (refused, said why), or
    ``"resume"`` for an unfinished match of the same settings (the rules; the seats too when ``--bots``
    names them), or None for an empty file (nothing to lose)."""
    from conquian.engine.files import read_text_limited
    from conquian.engine.record import read_record
    from conquian.session import is_unfinished, read_table_note
    from conquian.tui import resume_command

    try:
        if os.path.isfile(path) and os.path.getsize(path) == 0:
            return None
        text = read_text_limited(path)
        rec = read_record(text)
        rules = rec.rules()
    except (ConquianError, OSError) as e:
        reason = say(e)
        print("conquian play: " + _("{path} exists and is not a record ({reason}): not overwritten (give another "
                                    "--record FILE)").format(path=path, reason=reason), file=sys.stderr)
        return 2
    if not is_unfinished(text):
        print("conquian play: " + _("{path} holds a finished match: not overwritten (give another --record "
                                    "FILE)").format(path=path), file=sys.stderr)
        return 2
    note = read_table_note(text, rules.players)
    mine = session.rules
    same = (rules.name, rules.players, rules.options_diff()) == (mine.name, mine.players, mine.options_diff())
    if same and same_seats and note is not None and note[0] != session.seats:
        same = False
    if not same:
        print("conquian play: " + _("{path} holds an unfinished match with other settings ({variant}, {n} "
                                    "players): not overwritten; continue it with: {command}").format(
            path=path, variant=render(present.game_name(rules.name)), n=rules.players, command=resume_command(path)),
            file=sys.stderr)
        return 2
    return "resume"


