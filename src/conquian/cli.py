"""The ``conquian`` command line: ``play``, ``replay``, ``simulate`` and ``tournament``.

Errors are one clear line on standard error (or the JSON error object of the
replay contract with ``--json``), never a traceback: exit status 2 for bad
usage, 1 for a bad record or a file that cannot be written.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, NoReturn

from conquian.engine.cards import card_str, mask_str
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.errors import ConquianError, quote
from conquian.engine.files import check_writable, records_dir
from conquian.engine.match import Deal, classic, new_deal
from conquian.engine.record import (
    Record,
    ReplayError,
    deal_record,
    deal_text,
    read_record_file,
    record_header,
    replay,
)
from conquian.engine.rules import PRESETS, Rules, get_rules
from conquian.simulate import simulate


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


#: Bounds on what one command may be asked to do: past them a typo, not a plan (stated in --help).
MAX_SIMULATE_DEALS = 10**9
MAX_TOURNAMENT_DEALS = 1_000_000
MAX_EXPERT_ITERATIONS = 100_000
MAX_DELAY = 60.0


def _integer(text: str) -> int:
    t = text.strip()
    if not (t.lstrip("+-").isascii() and t.lstrip("+-").isdigit()) or len(t) > 30:
        raise argparse.ArgumentTypeError(f"{quote(text, 30)} is not a whole number")
    return int(t)


def _bounded(low: int, high: int) -> Any:
    def parse(text: str) -> int:
        n = _integer(text)
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"must be from {low:,} to {high:,}, not {n:,}")
        return n

    return parse


_positive = _bounded(1, 10**9)


def _delay(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quote(text, 30)} is not a number of seconds") from None
    if not 0 <= x <= MAX_DELAY:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"must be from 0 to {MAX_DELAY:g} seconds, not {text}")
    return x


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``conquian`` command."""
    p = _Parser(
        prog="conquian",
        description="Conquian, the original Rummy, and its children Cooncan: play in the terminal against the "
                    "computer or with friends, replay records, simulate, and run tournaments between bots.",
        epilog="commands:\n"
               "  play        play a match in the terminal (needs the 'play' extra)\n"
               "  replay      replay a record file through the engine; --json prints the replay contract\n"
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
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")

    g = sub.add_parser(
        "play", help="play a match in the terminal against the computer, or with friends at one terminal",
        description="Play a match in the terminal (Textual).  Records are saved after every deal and on every way "
                    f"out, to FILE or else to a new file in {records_dir()}.",
    )
    g.add_argument("--variant", default="conquian", choices=list(PRESETS))
    g.add_argument("--bots", default=None,
                   help="the other seats' bots, comma-separated (default: master with the compiled hot path of "
                        "'conquian speedups build', else expert); list 'human' seats to share "
                        "the terminal, e.g. human,human,foster")
    g.add_argument("--seed", type=_integer, default=None,
                   help="seed of the deals, for a game you can play again (default: from the system's randomness)")
    g.add_argument("--name", default=None, help="your name (or names, comma-separated, one per seat)")
    g.add_argument("--delay", type=_delay, default=0.8,
                   help="seconds between the bots' moves (0: no pause; at most 60)")
    g.add_argument("--ascii", action="store_true", help="cards without suit symbols")
    g.add_argument("--show-buried", action="store_true",
                   help="memory aid: show buried and covered cards to every seat alike (R3.3; off by default)")
    g.add_argument("--record", metavar="FILE", default=None,
                   help=f"where to save the match (default: a new file in {records_dir()})")
    g.add_argument("--replay", metavar="FILE", default=None, help="step through a record instead of playing")
    _rules_options(g)

    r = sub.add_parser("replay", help="replay a record file through the engine (docs/records.md)",
                       description="Replay a conquian-record/1 file through the engine and tell it in words, or "
                                   "print the replay contract's JSON object with --json.")
    r.add_argument("file", help="a conquian-record/1 TOML file")
    r.add_argument("--json", action="store_true", help="print one JSON object (the replay contract)")

    s = sub.add_parser("simulate", help="random legal play: speed and outcome figures",
                       description="Random legal play: deals per second, decisions per second, outcomes.  Memory "
                                   "does not grow with --deals; --record streams every deal to a record.")
    s.add_argument("--variant", default="conquian", choices=list(PRESETS))
    s.add_argument("--deals", type=_bounded(1, MAX_SIMULATE_DEALS), default=1000,
                   help=f"deals to play (default 1000, at most {MAX_SIMULATE_DEALS:,})")
    s.add_argument("--seed", type=_integer, default=0, help="seed of decks and choices (default 0)")
    _rules_options(s)
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--record", metavar="FILE", help="write every deal to FILE as a record (checked before playing)")

    t = sub.add_parser("tournament", help="bots against each other on duplicate deals",
                       description="Bots against each other on duplicate deals: every deck once per rotation of "
                                   "the bots over the seats, in worker processes, with 95% intervals.")
    t.add_argument("--variant", default="conquian", choices=list(PRESETS))
    t.add_argument("--bots", required=True, help="bot names, one per seat, comma-separated (e.g. expert,foster)")
    t.add_argument("--deals", type=_bounded(1, MAX_TOURNAMENT_DEALS), default=100,
                   help=f"decks, each played once per rotation (default 100, at most {MAX_TOURNAMENT_DEALS:,})")
    t.add_argument("--seed", type=_integer, default=0)
    t.add_argument("--workers", type=_positive, default=None,
                   help=f"processes (default and at most: the machine's cores, {os.cpu_count() or 1})")
    t.add_argument("--expert-iterations", type=_bounded(1, MAX_EXPERT_ITERATIONS), default=None,
                   help=f"playouts per expert decision (at most {MAX_EXPERT_ITERATIONS:,})")
    t.add_argument("--json", action="store_true", help="print one JSON object")
    _rules_options(t)

    b = sub.add_parser("rules", help="the rule book: every rule by its number (R3.4 ...)",
                       description="Print the rule book (paged on a terminal), one rule (conquian rules R3.4: the "
                                   "numbers every refusal names), or the list of rules.")
    b.add_argument("rule", nargs="?", help="a rule's number, e.g. R3.4 or 3.4 (default: the whole book)")
    b.add_argument("--list", action="store_true", help="the rules' numbers and titles")
    b.add_argument("--no-pager", action="store_true", help="print, even on a terminal")

    st = sub.add_parser("stats", help="how long a hand lasts and what it takes to win: a report with plots",
                        description="Play many deals with the bots named per seat and write a report: the duration "
                                    "of a deal in rounds and turns, the survival curve, Foster's table (the chance "
                                    "a hand needing k cards fills in time), the seats' advantage and how winners "
                                    "win.  The same seed gives the same stats.json however it runs: one process, "
                                    "several, or Ray.")
    st.add_argument("--variant", default="conquian", choices=list(PRESETS))
    st.add_argument("--bots", default="foster",
                    help="bots by seat, comma-separated, or one name for every seat (default foster)")
    st.add_argument("--deals", type=_bounded(1, MAX_SIMULATE_DEALS), default=10_000,
                    help=f"deals to play (default 10000, at most {MAX_SIMULATE_DEALS:,})")
    st.add_argument("--seed", type=_integer, default=0, help="seed of the run (default 0)")
    st.add_argument("--workers", type=_bounded(1, 1024), default=None,
                    help=f"local processes (default: the machine's cores, {os.cpu_count() or 1})")
    st.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                    help="run on Ray: a local instance (--ray) or the cluster at ADDRESS (--ray ray://host:10001 "
                         "or auto)")
    st.add_argument("--chunk", type=_bounded(1, 1_000_000), default=None, help="deals per task (default: automatic)")
    st.add_argument("--out", metavar="DIR", default=None,
                    help="folder of the report (default ./stats-VARIANT-Np; created if needed)")
    st.add_argument("--json", action="store_true", help="also print stats.json on standard output")
    _rules_options(st)

    sp = sub.add_parser("speedups", help="compile the hot path with mypyc (about 3 times as fast), or remove it",
                        description="Compile the legal listing, the meld tables and the foster policies with mypyc "
                                    "into extension modules beside their sources (needs the 'speed' extra and a C "
                                    "compiler); 'remove' returns to pure Python; 'status' says which is in use.")
    sp.add_argument("action", choices=("build", "remove", "status"))

    w = sub.add_parser("serve", help="the web table: play in a browser with friends and bots",
                       description="Serve the web table: open the address it prints, create a table, share the "
                                   "invitation link.  Tables are kept in a database (by default SQLite in the "
                                   "user's data folder) and survive a restart.")
    w.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    w.add_argument("--port", type=_bounded(1, 65535), default=8000, help="port (default 8000)")
    w.add_argument("--db", metavar="URL", default=None,
                   help="database URL (SQLAlchemy), e.g. postgresql+psycopg://user@host/db "
                        "(default: SQLite in the user's data folder)")
    w.add_argument("--open", action="store_true", help="open the lobby in the browser")
    w.add_argument("--bot-workers", type=_bounded(0, 64), default=None,
                   help="processes that play the bots (default: the cores, at most 4; 0: in the server process)")
    w.add_argument("--bot-delay", type=_delay, default=0.9, help="seconds between the bots' moves (default 0.9)")
    w.add_argument("--origin", action="append", default=[],
                   help="another origin a browser may connect from (behind a proxy), e.g. https://cards.example")
    w.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="a name the server answers to (the Host header; repeat for several; '*': any, "
                        "'*.example.org': its subdomains); always: the --host address, localhost, 127.0.0.1, "
                        "[::1].  Needed with --host 0.0.0.0 or ::, e.g. --allowed-host cards.example")
    w.add_argument("--health-token", metavar="TOKEN", default=os.environ.get("CONQUIAN_HEALTH_TOKEN") or None,
                   help="/health answers only ok or not ok; a request with 'Authorization: Bearer TOKEN' gets "
                        "the detail (database, process, tables, connections) (default: the environment variable "
                        "CONQUIAN_HEALTH_TOKEN; none: no detail)")
    w.add_argument("--workers", type=_bounded(1, 64), default=1,
                   help="server processes sharing the port (default 1; more need a PostgreSQL --db: the processes "
                        "tell each other of every move through it)")
    w.add_argument("--max-spectators", type=_bounded(0, 100_000), default=50,
                   help="spectators a table takes in each server process (default 50)")
    w.add_argument("--connections-per-address", type=_bounded(1, 100_000), default=20,
                   help="WebSockets one client address may hold open in each server process (default 20)")
    w.add_argument("--messages-per-address", type=_bounded(1, 100_000), default=20,
                   help="messages a second one client address may send over all its connections (default 20)")
    w.add_argument("--tables-per-minute", type=_bounded(1, 100_000), default=3,
                   help="new tables one client address may make a minute, in bursts of five (default 3)")
    w.add_argument("--unjoined-after", type=_bounded(1, 10**7), default=600,
                   help="seconds after which the lobby stops listing a waiting table nobody has sat at (default 600)")
    w.add_argument("--request-timeout", type=_bounded(1, 3600), default=10,
                   help="seconds a client has to send a whole HTTP request (default 10)")
    w.add_argument("--max-connections", type=_bounded(1, 10**6), default=2000,
                   help="connections and requests each server process holds at once; more are answered 503 "
                        "(default 2000)")
    w.add_argument("--log-level", choices=("critical", "error", "warning", "info", "debug"), default="info")
    w.add_argument("--log-format", choices=("text", "json"), default="text",
                   help="log lines as text or as JSON objects (a line per request and per move; never a seat token)")
    return p


def _rules_options(p: argparse.ArgumentParser) -> None:
    """The options of R1, for any command that sets up a game."""
    p.add_argument("--players", type=_positive, default=None, help="players at the table (R1, R6.3)")
    p.add_argument("--scoring", choices=("games", "pips"), default=None, help="conquian scoring (R5.1, R5.2)")
    p.add_argument("--stock", choices=("closed", "open"), default=None, help="cooncan stock (R4.2)")
    p.add_argument("--jokers", type=_integer, default=None, help="cooncan jokers: 0 or 1 (R1)")
    p.add_argument("--splash-bonus", type=_integer, default=None, help="cooncan splash bonus: 0, 25 or 50 (R5.3)")
    p.add_argument("--max-pack-turns", type=_integer, default=None,
                   help="times the stock may become the pack before a deal is void (R4.5)")
    p.add_argument("--max-turns", type=_integer, default=None,
                   help="turns after which a Cooncan deal is void (default 2000)")
    p.add_argument("--no-discard-taken", dest="discard_taken", action="store_const", const=False, default=None,
                   help="cooncan house rule: the card taken from the stock may not be discarded in the same turn")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules object of ``--variant`` and the R1 options given."""
    options: dict[str, Any] = {}
    for key in ("players", "scoring", "stock", "jokers", "splash_bonus", "max_pack_turns", "max_turns",
                "discard_taken"):
        value = getattr(args, key, None)
        if value is not None:
            options[key] = value
    return get_rules(args.variant, **options)


def _deal_json(deal: Deal, n_actions: int, scores: list[int] | None) -> dict[str, Any]:
    over = deal.over
    return {
        "dealer": deal.dealer,
        "actions": n_actions,
        "over": over,
        "to_act": None if over else f"p{deal.to_act}",
        "legal_actions": [] if over else [str(a) for a in deal.legal_actions()],
        "winner": deal.winner_seat,
        "scores": scores,
        "tableau": deal.tableau,
        "splash": bool(getattr(deal, "splash", False)),
        "void": bool(getattr(deal, "void", False)),
    }


def _replay(args: argparse.Namespace) -> int:
    try:
        rec = read_record_file(args.file)
        result = replay(rec)
    except ReplayError as e:
        if args.json:
            print(json.dumps({"error": e.to_json()}))
        else:
            print(f"conquian replay: {e}" + (f" [{e.rule}]" if e.rule else ""), file=sys.stderr)
        return 1
    if args.json:
        out = {
            "deals": [
                _deal_json(d.deal, len(rd.actions), d.scores)
                for d, rd in zip(result.deals, rec.deals, strict=True)
            ],
            "totals": result.totals,
        }
        print(json.dumps(out))
        return 0
    names = rec.players
    print(f"{rec.variant}: {', '.join(f'p{i + 1} {n}' for i, n in enumerate(names))}")
    for i, d in enumerate(result.deals, 1):
        deal = d.deal
        start = new_deal(deal.rules, deal.deck, dealer=deal.dealer)
        if isinstance(start, ConquianDeal):
            print(f"\nDeal {i}: p{deal.dealer} deals; p{start.seats[0]} is the pone.")
            for seat in start.seats:
                print(f"  p{seat} was dealt {mask_str(start.hands[start.player_of(seat)])}")
        else:
            print(f"\nDeal {i}: p{deal.dealer} deals.")
            for seat in range(1, start.n + 1):
                print(f"  p{seat} was dealt {' '.join(card_str(c) for c in start.hand(seat))}")
        for event in deal.history():
            print(f"  {event}")
        if deal.over:
            sc = ", ".join(f"p{k + 1} {s:+d}" for k, s in enumerate(d.scores or []))
            print(f"  scores: {sc}" + ("  (a splash)" if getattr(deal, "splash", False) else ""))
        else:
            print(f"  not over: p{deal.to_act} to {deal.phase}; legal:")
            for a in deal.legal_actions():
                print(f"    {a}")
    if result.totals is not None:
        print("\nTotals: " + ", ".join(f"p{k + 1} {names[k]} {s:+d}" for k, s in enumerate(result.totals)))
    return 0


class _RecordStream:
    """A record written deal by deal to a temporary file beside FILE, renamed over it at the end
    (so a failure leaves FILE as it was, and memory does not grow with the deals)."""

    def __init__(self, path: str, rules: Rules) -> None:
        dest = Path(path)
        fd, self.tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent)
        self.path = path
        self.file: IO[str] = os.fdopen(fd, "w", encoding="utf-8")
        names = [f"p{i + 1}" for i in range(rules.players)]
        self.file.write(record_header(Record(rules.name, names, rules.options_diff())))

    def deal(self, deal: Deal, scores: list[int]) -> None:
        self.file.write(deal_text(deal_record(deal, scores)))

    def finish(self) -> None:
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()
        os.replace(self.tmp, self.path)

    def abandon(self) -> None:
        with contextlib.suppress(OSError):
            self.file.close()
        with contextlib.suppress(OSError):
            os.unlink(self.tmp)


def _simulate(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_args(args)
    except ConquianError as e:
        print(f"conquian simulate: {e}", file=sys.stderr)
        return 2
    stream = None
    if args.record is not None:
        try:
            check_writable(args.record)
            stream = _RecordStream(args.record, rules)
        except OSError as e:
            print(f"conquian simulate: cannot write {quote(args.record)}: {e.strerror or e}", file=sys.stderr)
            return 2
    try:
        res = simulate(rules, args.deals, args.seed, on_deal=stream.deal if stream else None)
        if stream:
            stream.finish()
    except OSError as e:
        if stream:
            stream.abandon()
        print(f"conquian simulate: cannot write {quote(args.record)}: {e.strerror or e}", file=sys.stderr)
        return 1
    except BaseException:
        if stream:
            stream.abandon()
        raise
    print(json.dumps(res.to_json()) if args.json else res.text())
    return 0


def _tournament(args: argparse.Namespace) -> int:
    from conquian.tournament import run_tournament

    got = _bots_and_rules(args, "conquian tournament", one_for_all=False)
    if isinstance(got, int):
        return got
    bots, rules = got
    from conquian.tournament import max_workers

    if args.workers is not None and args.workers > max_workers():
        print(f"conquian tournament: {args.workers} workers asked for; using {max_workers()}, the machine's cores",
              file=sys.stderr)
        args.workers = max_workers()
    params = {"expert": {"iterations": args.expert_iterations}} if args.expert_iterations else {}
    res = run_tournament(rules, bots, args.deals, args.seed, args.workers, params, progress=not args.json,
                         keep_outcomes=False)
    print(json.dumps(res.to_json()) if args.json else res.text())
    return 0


def _play(args: argparse.Namespace) -> int:
    try:
        from conquian.tui import ConquianApp, ReplayApp, make_session
    except ImportError:
        print("conquian play: the terminal game needs Textual: pip install 'conquian[play]'", file=sys.stderr)
        return 2
    if args.replay:
        try:
            rec = read_record_file(args.replay)
            replay(rec)
        except ReplayError as e:
            print(f"conquian play: {e}" + (f" [{e.rule}]" if e.rule else ""), file=sys.stderr)
            return 1
        ReplayApp(rec, ascii_only=args.ascii).run()
        return 0
    import secrets

    # R3.1/R4.1 decks from the system's randomness: a clock seed can be recovered from one's own hand
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    bots = args.bots.split(",") if args.bots else None
    options: dict[str, Any] = {}
    for key in ("scoring", "stock", "jokers", "splash_bonus", "max_pack_turns", "max_turns", "discard_taken"):
        value = getattr(args, key, None)
        if value is not None:
            options[key] = value
    try:
        from conquian.bots import bot_names
        from conquian.engine.match import check_name

        for b in bots or []:
            if b.strip() not in (*bot_names(), "human"):
                raise ConquianError(f"unknown bot {quote(b.strip(), 30)} (bots: {', '.join(bot_names())}, or human)")
        names = [check_name(n.strip()) for n in args.name.split(",")] if args.name else None
        session = make_session(args.variant, args.players, bots, seed, names, **options)
        classic(session.deal)  # the terminal's screens for the conquián mexicano (R8) come later
    except ConquianError as e:
        print(f"conquian play: {e}", file=sys.stderr)
        return 2
    record = args.record
    try:
        if record is None:
            folder = records_dir()
            folder.mkdir(parents=True, exist_ok=True)
            record = str(folder / session.default_record_name())
        check_writable(record)
    except OSError as e:
        print(f"conquian play: cannot save the match to {quote(record or str(records_dir()))}: {e.strerror or e} "
              "(give another --record FILE)", file=sys.stderr)
        return 2
    app = ConquianApp(session, delay=args.delay, ascii_only=args.ascii, record_path=record,
                      show_buried=args.show_buried)
    app.run()
    if app.save_error:
        print(f"conquian play: the match could not be saved: {app.save_error}", file=sys.stderr)
        return 1
    if app.saved_to:
        print(f"The match is saved in {app.saved_to}")
    return 0


def _rules(args: argparse.Namespace) -> int:
    from conquian.engine import rulebook

    try:
        if args.list:
            out = rulebook.listing() + "\n"
        elif args.rule:
            out = rulebook.rule(args.rule)
        else:
            out = rulebook.text()
    except rulebook.UnknownRuleError as e:
        print(f"conquian rules: {e}", file=sys.stderr)
        return 2
    if sys.stdout.isatty() and not args.no_pager and out.count("\n") > 40:
        import pydoc

        pydoc.pager(out)
    else:
        sys.stdout.write(out)
    return 0


def _bots_and_rules(args: argparse.Namespace, command: str, one_for_all: bool) -> tuple[list[str], Rules] | int:
    """``--bots`` and the rules of a command that seats bots, or the exit status after one line
    on standard error.  Cooncan's player count defaults to the bots listed; with ``one_for_all``
    a single name sits in every seat."""
    from conquian.bots import bot_names

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    unknown = [b for b in bots if b not in bot_names()]
    if not bots or unknown:
        print(f"{command}: unknown bot {(unknown or [args.bots])[0]!r} (bots: {', '.join(bot_names())})",
              file=sys.stderr)
        return 2
    if args.players is None and args.variant.startswith("cooncan") and (len(bots) > 1 or not one_for_all):
        args.players = len(bots)
    try:
        rules = rules_from_args(args)
    except ConquianError as e:
        print(f"{command}: {e}", file=sys.stderr)
        return 2
    if one_for_all and len(bots) == 1:
        bots = bots * rules.players
    if len(bots) != rules.players:
        print(f"{command}: give one bot per seat: {rules.players} for {rules.name} with {rules.players} players"
              f"{' (or one for every seat)' if one_for_all else ''}, not {len(bots)}", file=sys.stderr)
        return 2
    return bots, rules


def _stats(args: argparse.Namespace) -> int:
    import time


    err = "conquian stats:"
    got = _bots_and_rules(args, "conquian stats", one_for_all=True)
    if isinstance(got, int):
        return got
    bots, rules = got
    if args.ray is not None and args.workers is not None:
        print(f"{err} --workers and --ray exclude each other (Ray uses its cluster's CPUs)", file=sys.stderr)
        return 2
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print(f"{err} the report's plots need the analysis extra: pip install 'conquian[analysis]'", file=sys.stderr)
        return 2
    from conquian.analysis import report
    from conquian.analysis.run import progress_bar, run, run_ray

    out = Path(args.out) if args.out else Path(f"stats-{rules.name}-{rules.players}p")
    if out.exists() and not out.is_dir():
        print(f"{err} {quote(str(out), 80)} exists and is not a folder", file=sys.stderr)
        return 2
    advance, close = progress_bar(args.deals, f"{rules.name} {rules.players}p")
    start = time.perf_counter()
    try:
        if args.ray is not None:
            address = None if args.ray == "local" else args.ray
            tally = run_ray(rules, bots, args.deals, args.seed, address=address, chunk=args.chunk, progress=advance)
            how = f"on Ray ({'a local instance' if address is None else address})"
        else:
            workers = args.workers or os.cpu_count() or 1
            tally = run(rules, bots, args.deals, args.seed, workers=workers, chunk=args.chunk, progress=advance)
            how = f"on {workers} local process{'es' if workers > 1 else ''}"
    except RuntimeError as e:
        close()
        print(f"{err} {e}", file=sys.stderr)
        return 2
    close()
    seconds = time.perf_counter() - start
    data = report.stats_json(rules, bots, args.seed, tally)
    try:
        files = report.write(out, data, rules, seconds, how)
    except OSError as e:
        print(f"{err} cannot write the report in {quote(str(out), 80)}: {e.strerror or e}", file=sys.stderr)
        return 1
    f = data["figures"]
    if args.json:
        print(json.dumps(data, sort_keys=True))
    else:
        print(f"{f['deals']:,} deals of {rules.name} ({rules.players} players) {how} in {seconds:,.1f} s "
              f"({f['deals'] / max(seconds, 1e-9):,.0f} deals/s): a deal lasts {f['rounds']['mean']:.2f} rounds "
              f"on average (95% {f['rounds']['ci95'][0]:.2f} to {f['rounds']['ci95'][1]:.2f}), "
              f"median {f['rounds']['median']}")
        print(f"report: {files[-1]}")
    return 0


def _speedups(args: argparse.Namespace) -> int:
    from conquian import speedups

    if args.action == "status":
        st = speedups.status()
        for name, compiled in st.items():
            print(f"{name:32} {'compiled' if compiled else 'pure Python'}")
        return 0
    if args.action == "remove":
        gone = speedups.remove()
        print(f"removed {len(gone)} compiled file{'s' if len(gone) != 1 else ''}: pure Python from now on")
        return 0
    try:
        written = speedups.build()
    except speedups.SpeedupsError as e:
        print(f"conquian speedups: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"conquian speedups: cannot write into the package: {e.strerror or e}", file=sys.stderr)
        return 1
    print(f"compiled {len(written) - 1} modules into {speedups.package_dir()} "
          "('conquian speedups remove' returns to pure Python)")
    return 0


def _serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from conquian.web.app import SETTINGS_ENV, Settings, build_app
        from conquian.web.logs import configure
        from conquian.web.security import allowed_hosts, needs_names
        from conquian.web.store import Store
    except ImportError:
        print("conquian serve: the web table needs its extra: pip install 'conquian[web]'", file=sys.stderr)
        return 2
    if needs_names(args.host, args.allowed_host):
        print(f"conquian serve: listening on {args.host or 'every address'}, say the names people reach this server "
              "by: --allowed-host cards.example (repeat for several), or --allowed-host '*' for any name",
              file=sys.stderr)
        return 2

    from conquian.web.limits import DatabaseInUse, deadline_protocol, lock_database, sqlite_path

    try:
        store = Store(args.db)
        path = sqlite_path(store.url)
        if path is not None:
            # one server per SQLite file: a second would keep its own tables in memory and disagree
            # with the first (PostgreSQL tells every process of every move instead)
            lock = lock_database(path)  # noqa: F841 - held until this process ends
        store.upgrade()
        store.check()
        store.dispose()
    except DatabaseInUse as e:
        print(f"conquian serve: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # a bad URL, an unreachable server, a database that is not ours
        print(f"conquian serve: cannot use the database {quote(args.db or 'in the data folder', 80)}: "
              f"{str(e).splitlines()[0][:200] if str(e) else type(e).__name__}", file=sys.stderr)
        return 2
    if args.workers > 1 and not store.postgres:
        print("conquian serve: --workers above 1 needs a PostgreSQL database (--db postgresql+psycopg://...): "
              "the processes tell each other of every move through it", file=sys.stderr)
        return 2
    configure(args.log_level, args.log_format)
    settings = Settings(db_url=store.url, bot_workers=args.bot_workers, bot_delay=args.bot_delay,
                        allowed_origins=tuple(args.origin), allowed_hosts=allowed_hosts(args.host, args.allowed_host),
                        health_token=args.health_token, max_spectators=args.max_spectators,
                        connections_per_address=args.connections_per_address,
                        messages_per_address=args.messages_per_address, tables_per_minute=args.tables_per_minute,
                        unjoined_after=args.unjoined_after)
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{args.port}/"
    print(f"conquian serve: the lobby is at {url} (database {store.url.split('@')[-1]}); ctrl+c stops it",
          flush=True)
    if args.open:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    common: dict[str, Any] = dict(host=args.host, port=args.port, log_level=args.log_level, log_config=None,
                                  access_log=False, ws_max_size=64 * 1024, ws_ping_interval=20, ws_ping_timeout=20,
                                  timeout_graceful_shutdown=5,
                                  # slow clients: a request must be all there within --request-timeout
                                  # seconds, an idle connection is closed after 5, headers are at most 16 KB
                                  http=deadline_protocol(args.request_timeout), timeout_keep_alive=5,
                                  h11_max_incomplete_event_size=16 * 1024, limit_concurrency=args.max_connections)
    try:
        if args.workers > 1:
            # uvicorn's supervisor spawns the processes; each builds its application from the environment
            os.environ[SETTINGS_ENV] = json.dumps({
                "db_url": settings.db_url, "bot_workers": settings.bot_workers, "bot_delay": settings.bot_delay,
                "allowed_origins": list(settings.allowed_origins), "allowed_hosts": list(settings.allowed_hosts),
                "health_token": settings.health_token, "max_spectators": settings.max_spectators,
                "connections_per_address": settings.connections_per_address,
                "messages_per_address": settings.messages_per_address,
                "tables_per_minute": settings.tables_per_minute, "unjoined_after": settings.unjoined_after,
                "request_timeout": args.request_timeout,
                "log_level": args.log_level,
                "log_format": args.log_format})
            uvicorn.run("conquian.web.app:app_from_environment", factory=True, workers=args.workers, **common)
        else:
            uvicorn.run(build_app(settings), **common)
    except OSError as e:
        print(f"conquian serve: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "replay":
            return _replay(args)
        if args.command == "play":
            return _play(args)
        if args.command == "tournament":
            return _tournament(args)
        if args.command == "serve":
            return _serve(args)
        if args.command == "rules":
            return _rules(args)
        if args.command == "stats":
            return _stats(args)
        if args.command == "speedups":
            return _speedups(args)
        return _simulate(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def run() -> NoReturn:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    run()
