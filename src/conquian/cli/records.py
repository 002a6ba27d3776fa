"""``conquian replay`` and ``conquian rules``: records through the engine, and the rule book.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from conquian.cli.options import Subparsers, say
from conquian.engine.cards import card_str, mask_str
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.match import Deal, new_deal
from conquian.engine.record import (
    ReplayError,
    read_record_file,
    replay,
)
from conquian.i18n import _
from conquian.words import Words


def add_parsers(sub: Subparsers) -> None:
    """Add this module's commands to the ``conquian`` parser."""
    r = sub.add_parser("replay", help=_("replay a record file through the engine (docs/records.md)"),
                       description=_("Replay a conquian-record/1 file through the engine and tell it in words, or "
                                     "print the replay contract's JSON object with --json."))
    r.add_argument("file", help=_("a conquian-record/1 TOML file"))
    r.add_argument("--json", action="store_true", help=_("print one JSON object (the replay contract)"))

    b = sub.add_parser("rules", help=_("the rule book: every rule by its number (R3.4 ...)"),
                       description=_("Print the rule book (paged on a terminal), one rule (conquian rules R3.4: "
                                     "the numbers every refusal names), or the list of rules."))
    b.add_argument("rule", nargs="?", help=_("a rule's number, e.g. R3.4 or 3.4 (default: the whole book)"))
    b.add_argument("--list", action="store_true", help=_("the rules' numbers and titles"))
    b.add_argument("--no-pager", action="store_true", help=_("print, even on a terminal"))


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


def replay_command(args: argparse.Namespace) -> int:
    """Run ``conquian replay``: the record told in the program's language, or the replay contract's
    JSON (never translated) with ``--json``."""
    try:
        rec = read_record_file(args.file)
        result = replay(rec)
    except ReplayError as e:
        if args.json:
            print(json.dumps({"error": e.to_json()}))
        else:
            print(f"conquian replay: {say(e)}" + (f" [{e.rule}]" if e.rule else ""), file=sys.stderr)
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
            print("\n" + _("Deal {i}: p{dealer} deals; p{pone} is the pone.").format(
                i=i, dealer=deal.dealer, pone=start.seats[0]))
            for seat in start.seats:
                print("  " + _("p{seat} was dealt {cards}").format(
                    seat=seat, cards=mask_str(start.hands[start.player_of(seat)])))
        else:
            print("\n" + _("Deal {i}: p{dealer} deals.").format(i=i, dealer=deal.dealer))
            for seat in range(1, start.n + 1):
                print("  " + _("p{seat} was dealt {cards}").format(
                    seat=seat, cards=" ".join(card_str(c) for c in start.hand(seat))))
        words = Words(deal.rules, [f"p{k}" for k in range(1, deal.rules.players + 1)])
        for event in deal.history():
            print(f"  {say(words.record_msg(event))}")
        if deal.over:
            sc = ", ".join(f"p{k + 1} {s:+d}" for k, s in enumerate(d.scores or []))
            print("  " + (_("scores: {scores}  (a splash)") if getattr(deal, "splash", False)
                          else _("scores: {scores}")).format(scores=sc))
        else:
            print("  " + _("not over: p{seat} to {phase}; legal:").format(seat=deal.to_act, phase=deal.phase))
            for a in deal.legal_actions():
                print(f"    {a}")
    if result.totals is not None:
        print("\n" + _("Totals: {totals}").format(
            totals=", ".join(f"p{k + 1} {names[k]} {s:+d}" for k, s in enumerate(result.totals))))
    return 0


def rules_command(args: argparse.Namespace) -> int:
    """Run ``conquian rules``: the book of the program's language where the package has one."""
    from conquian.engine import rulebook

    try:
        if args.list:
            out = rulebook.listing() + "\n"
        elif args.rule:
            out = rulebook.rule(args.rule)
        else:
            out = rulebook.text()
    except rulebook.UnknownRuleError as e:
        print(f"conquian rules: {say(e)}", file=sys.stderr)
        return 2
    if sys.stdout.isatty() and not args.no_pager and out.count("\n") > 40:
        import pydoc

        pydoc.pager(out)
    else:
        sys.stdout.write(out)
    return 0


