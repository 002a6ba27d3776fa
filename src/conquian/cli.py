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
from conquian.record import ReplayError, read_record_file, record_from_match, replay, write_record
from conquian.rules import PRESETS, get_rules
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
    p = _Parser(prog="conquian", description="Conquian, the original Rummy: replay records, simulate play.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    r = sub.add_parser("replay", help="replay a record file through the engine (RECORDS.md)")
    r.add_argument("file", help="a conquian-record/1 TOML file")
    r.add_argument("--json", action="store_true", help="print one JSON object (the replay contract)")

    s = sub.add_parser("simulate", help="random legal play: speed and outcome figures")
    conquian_variants = [n for n, r_ in PRESETS.items() if r_.family == "conquian"]
    s.add_argument("--variant", default="conquian", choices=conquian_variants)
    s.add_argument("--deals", type=_positive, default=1000, help="deals to play (default 1000)")
    s.add_argument("--seed", type=_integer, default=0, help="seed of decks and choices (default 0)")
    s.add_argument("--players", type=_positive, default=None, help="players at the table (R1, R6.3)")
    s.add_argument("--scoring", choices=("games", "pips"), default=None, help="conquian scoring (R5)")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--record", metavar="FILE", help="write every deal to FILE as a record")
    return p


def _deal_json(deal: ConquianDeal, n_actions: int, scores: list[int] | None) -> dict[str, Any]:
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
        "splash": False,
        "void": False,
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
        print(f"\nDeal {i}: p{deal.dealer} deals; p{deal.seats[0]} is the pone.")
        for seat in deal.seats:
            start = ConquianDeal(deal.rules, deal.deck, dealer=deal.dealer)
            print(f"  p{seat} was dealt {mask_str(start.hands[start.player_of(seat)])}")
        for event in deal.history():
            print(f"  {event}")
        if deal.over:
            sc = ", ".join(f"p{k + 1} {s:+d}" for k, s in enumerate(d.scores or []))
            print(f"  scores: {sc}")
        else:
            card = card_str(deal.card) if deal.card >= 0 else "-"
            print(f"  not over: p{deal.to_act} to {deal.phase} (card in play {card}); legal:")
            for a in deal.legal_actions():
                print(f"    {a}")
    if result.totals is not None:
        print("\nTotals: " + ", ".join(f"p{k + 1} {names[k]} {s:+d}" for k, s in enumerate(result.totals)))
    return 0


def _simulate(args: argparse.Namespace) -> int:
    options: dict[str, Any] = {}
    if args.players is not None:
        options["players"] = args.players
    if args.scoring is not None:
        options["scoring"] = args.scoring
    try:
        rules = get_rules(args.variant, **options)
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "replay":
            return _replay(args)
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
