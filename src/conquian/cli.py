"""The ``conquian`` command line: ``replay`` and ``simulate``.

Errors are one clear line on standard error (or the JSON error object of the
replay contract with ``--json``), never a traceback: exit status 2 for bad
usage, 1 for a bad record.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from conquian.cards import card_str, mask_str
from conquian.errors import ConquianError
from conquian.match import Deal, new_deal
from conquian.record import ReplayError, read_record_file, record_from_match, replay, write_record
from conquian.rules import PRESETS, Rules, get_rules
from conquian.simulate import simulate
from conquian.twohand import ConquianDeal


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``conquian`` command."""
    p = _Parser(prog="conquian", description="Conquian and Cooncan, the original Rummy: replay records, simulate play.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    r = sub.add_parser("replay", help="replay a record file through the engine (RECORDS.md)")
    r.add_argument("file", help="a conquian-record/1 TOML file")
    r.add_argument("--json", action="store_true", help="print one JSON object (the replay contract)")

    s = sub.add_parser("simulate", help="random legal play: speed and outcome figures")
    s.add_argument("--variant", default="conquian", choices=list(PRESETS))
    s.add_argument("--deals", type=_positive, default=1000, help="deals to play (default 1000)")
    s.add_argument("--seed", type=_integer, default=0, help="seed of decks and choices (default 0)")
    _rules_options(s)
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--record", metavar="FILE", help="write every deal to FILE as a record")

    g = sub.add_parser("play", help="play in the terminal against the computer (Textual)")
    g.add_argument("--variant", default="conquian", choices=list(PRESETS))
    g.add_argument("--bots", default=None,
                   help="the other seats' bots, comma-separated (default expert); list 'human' seats to share "
                        "the terminal, e.g. human,human,foster")
    g.add_argument("--seed", type=_integer, default=None, help="seed of the deals (default: from the clock)")
    g.add_argument("--name", default=None, help="your name (or names, comma-separated, one per seat)")
    g.add_argument("--delay", type=float, default=0.8, help="seconds between the bots' moves (0: no pause)")
    g.add_argument("--ascii", action="store_true", help="cards without suit symbols")
    g.add_argument("--record", metavar="FILE", default=None, help="where to save the match (default: a new file)")
    g.add_argument("--replay", metavar="FILE", default=None, help="step through a record instead of playing")
    _rules_options(g)

    t = sub.add_parser("tournament", help="bots against each other on duplicate deals")
    t.add_argument("--variant", default="conquian", choices=list(PRESETS))
    t.add_argument("--bots", required=True, help="bot names, one per seat, comma-separated (e.g. expert,foster)")
    t.add_argument("--deals", type=_positive, default=100, help="decks, each played once per rotation (default 100)")
    t.add_argument("--seed", type=_integer, default=0)
    t.add_argument("--workers", type=_positive, default=None, help="processes (default: every core)")
    t.add_argument("--expert-iterations", type=_positive, default=None, help="playouts per expert decision")
    t.add_argument("--json", action="store_true", help="print one JSON object")
    _rules_options(t)
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


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules object of ``--variant`` and the R1 options given."""
    options: dict[str, Any] = {}
    for key in ("players", "scoring", "stock", "jokers", "splash_bonus", "max_pack_turns", "max_turns"):
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
            print(f"  the stock starts with {card_str(start.stock[0])}")
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


def _simulate(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_args(args)
    except ConquianError as e:
        print(f"conquian simulate: {e}", file=sys.stderr)
        return 2
    res = simulate(rules, args.deals, args.seed, keep=bool(args.record))
    if args.record:
        assert res.match is not None
        try:
            with open(args.record, "w", encoding="utf-8") as f:
                f.write(write_record(record_from_match(res.match)))
        except OSError as e:
            print(f"conquian simulate: cannot write {args.record}: {e.strerror}", file=sys.stderr)
            return 1
    print(json.dumps(res.to_json()) if args.json else res.text())
    return 0


def _tournament(args: argparse.Namespace) -> int:
    from conquian.bots import bot_names
    from conquian.tournament import run_tournament

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    unknown = [b for b in bots if b not in bot_names()]
    if unknown:
        print(f"conquian tournament: unknown bot {unknown[0]!r} (bots: {', '.join(bot_names())})", file=sys.stderr)
        return 2
    if args.players is None and args.variant.startswith("cooncan"):
        args.players = len(bots)
    try:
        rules = rules_from_args(args)
    except ConquianError as e:
        print(f"conquian tournament: {e}", file=sys.stderr)
        return 2
    if len(bots) != rules.players:
        print(f"conquian tournament: give one bot per seat: {rules.players} for {rules.name} "
              f"with {rules.players} players, not {len(bots)}", file=sys.stderr)
        return 2
    params = {"expert": {"iterations": args.expert_iterations}} if args.expert_iterations else {}
    res = run_tournament(rules, bots, args.deals, args.seed, args.workers, params, progress=not args.json)
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
    import time as _time

    seed = args.seed if args.seed is not None else int(_time.time())
    bots = args.bots.split(",") if args.bots else None
    options: dict[str, Any] = {}
    for key in ("scoring", "stock", "jokers", "splash_bonus", "max_pack_turns", "max_turns"):
        value = getattr(args, key, None)
        if value is not None:
            options[key] = value
    try:
        from conquian.bots import bot_names

        for b in bots or []:
            if b.strip() not in (*bot_names(), "human"):
                raise ConquianError(f"unknown bot {b.strip()!r} (bots: {', '.join(bot_names())}, or human)")
        names = [n.strip() for n in args.name.split(",")] if args.name else None
        session = make_session(args.variant, args.players, bots, seed, names, **options)
    except ConquianError as e:
        print(f"conquian play: {e}", file=sys.stderr)
        return 2
    ConquianApp(session, delay=max(0.0, args.delay), ascii_only=args.ascii, record_path=args.record).run()
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
