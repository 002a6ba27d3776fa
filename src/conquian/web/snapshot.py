"""What a seat or a spectator receives: the table as JSON, built from the engine's seat views.

A seat's snapshot is made from ``deal.view(seat)`` (its own hand and what is public) and the
log as that seat reads it; a spectator's from the public part of a view (no hand) and the
public log.  The deal itself is read only once it is over, when its hands are public (R3.7:
the hands are shown at the end).  The tests re-deal every card a seat cannot know and find
every snapshot unchanged.

```pycon
>>> from conquian import get_rules
>>> from conquian.web.table import Table
>>> t = Table("t1", "Friday", get_rules("conquian"), seed=5)
>>> _ = t.sit(1, "Ann"); t.set_bot(2, "foster", host=True)
>>> mine, public = table_snapshot(t, 1), table_snapshot(t, None)
>>> len(mine["deal"]["hand"]), public["deal"]["hand"], public["deal"]["hand_counts"]
(10, None, [10, 10])
>>> mine["deal"]["to_act"], mine["legal"][:1]
(1, ['pass'])

```
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from conquian.engine.actions import Action, parse_action
from conquian.engine.cards import JOKER, card_str, cards_of, parse_card
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.events import Event
from conquian.engine.conquian.melds import meld_table
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.conquian.view import ConquianView
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.cooncan.events import CooncanEvent
from conquian.engine.cooncan.view import CooncanView
from conquian.engine.errors import ConquianError
from conquian.hints import live_out_msgs
from conquian.i18n import ENGLISH, Msg, Translator
from conquian.present import order_moves, spanish_pack
from conquian.session import GameSession
from conquian.web.moves import offered_moves
from conquian.web.table import OPEN, PLAYING, Table, TableError

#: Log lines sent with a snapshot (the newest); the whole log is in the record.
LOG_LINES = 200


def _cards(cards: list[int], rules_sort: Any = None) -> list[str]:
    return [card_str(c) for c in (sorted(cards, key=rules_sort) if rules_sort else cards)]


def table_snapshot(table: Table, seat: int | None, tr: Translator = ENGLISH) -> dict[str, Any]:
    """The whole table as ``seat`` may see it (``None``: a spectator), its words (the log, the
    moves' labels, the pool, the result) in ``tr``'s language; everything else is the same in
    every language (the moves in ``legal`` are the notation a client sends back)."""
    out: dict[str, Any] = {
        "id": table.id,
        "name": table.name,
        "variant": table.rules.name,
        "options": table.rules.options_diff(),
        "players": table.rules.players,
        "status": table.status,
        "state": table.state,
        "you": seat,
        "show_buried": table.show_buried,
        "away_after": table.away_after,
        "deals_in_match": table.deals_in_match,
        "set_deal": table.set_deal,
        "public": table.public,
        "rated": table.rated,
        "aborted": table.aborted,
        "rematch": table.rematch_id,
        "seats": [
            {"seat": s.number, "name": s.name, "kind": s.kind, "open": s.kind == OPEN,
             "connected": s.connected > 0 or s.kind not in ("human", OPEN)}
            for s in table.seats
        ],
        "deal": None,
        "legal": [],
        "legal_words": [],
        "moves": [],
        "log": [],
        "scores": None,
        "last_moves": [],
        "last_event": None,
        "standings": table.standings(),
        "pace": table.pace,
        "timer": table.away_after,
        "turn_timer": table.turn_timer,
        "turn_ends": table.turn_ends(),
    }
    session = table.session
    if session is None:
        return out
    deal = session.deal
    holds = seat is not None and session.holds_cards(seat)
    view: ConquianView | CooncanView | MexicanoView
    if isinstance(deal, ConquianDeal | MexicanoDeal):
        view = deal.view(seat if holds and seat else deal.seats[0])
    else:
        view = deal.view(seat if holds and seat else 1)
    out["deal"] = deal_snapshot(view, table.show_buried, own=holds)
    out["deal"]["number"] = len(session.match.deals)
    out["deal"]["sitting_out"] = session.sitting_out
    out["last_moves"], out["last_event"] = last_moves(session, view, tr)
    if holds and seat is not None and view.to_act == seat and table.status == "playing":
        legal = order_moves(view.legal_actions(), view.phase)
        out["legal"] = [session.action_words(a) for a in legal]
        out["legal_words"] = [session.move_label(a, tr) for a in legal]
        # the seat's own moves only (its own snapshot): what the page shows and sends back
        out["moves"] = offered_moves(session, view, seat, legal, tr)
    if deal.over:
        out["deal"]["hands"] = revealed_hands(deal)
    out["log"] = session.log_tail(seat, tr, LOG_LINES)
    match = session.match
    out["scores"] = {
        "totals": match.totals,
        "deals": match.results,
        "pool": match.pool if table.rules.family == "conquian" else 0,
        "pool_text": session.pool_text(tr),
        "result": session.lines[-1].render(None, tr) if deal.over and session.lines else "",
    }
    if spanish_pack(table.rules):
        # the same words for a page that shows the Spanish pack's suits (R8.1): each page names the
        # cards by the pack it draws, never one pack's cards in the other's words
        suited = tr.shown(True)
        out["log_suits"] = session.log_tail(seat, suited, LOG_LINES)
        for move, words in zip(out["last_moves"], last_moves(session, view, suited)[0], strict=True):
            move["words_suits"] = words["words"]
        out["scores"]["result_suits"] = session.lines[-1].render(None, suited) if deal.over and session.lines else ""
    return out


#: The kinds of event that are a seat's move, shown as its last move (``bury``: a pass that buried
#: the card, R3.3).
MOVE_KINDS = frozenset({"turn", "pass", "bury", "use", "force", "discard", "draw", "take", "meld", "add", "shift",
                        "give"})


def last_moves(session: GameSession, view: ConquianView | CooncanView | MexicanoView,
               tr: Translator = ENGLISH) -> tuple[list[dict[str, Any]], int | None]:
    """Each seat's last move in the current deal, in seat order, and the index of the deal's newest
    public event.  Built from the public events only: a card drawn from the pack or given in the
    exchange is never named (``cards`` empty, the words everyone reads)."""
    events: Sequence[Event | CooncanEvent] = view.events
    n = len(session.seats)
    out: list[dict[str, Any]] = [{"seat": s, "kind": "", "cards": [], "words": "", "event": None}
                                 for s in range(1, n + 1)]
    left = set(range(1, n + 1))
    for i in range(len(events) - 1, -1, -1):  # newest first, until every seat's last move is found
        if not left:
            break
        e = events[i]
        if e.kind not in MOVE_KINDS or e.seat not in left:
            continue
        left.discard(e.seat)
        cards: list[str] = []
        if e.kind in ("draw", "give"):
            cards = []  # the card is the drawer's (the giver's) only
        elif isinstance(e, CooncanEvent):
            if e.kind in ("meld", "add", "shift"):
                cards = list(e.cards) or e.text.split()
            elif e.card is not None:
                cards = ["X" if e.card == JOKER else card_str(e.card)]
        elif e.kind == "use" and e.melds:
            cards = [card_str(c) for m in e.melds for c in cards_of(m)]
        elif e.card is not None:
            cards = [card_str(e.card)]
        line = session.describe_line(e)
        words = tr.render(line.text) if line is not None else (
            tr.render(session.describe_msg(e)) if e.kind == "bury" else "")
        out[e.seat - 1] = {"seat": e.seat, "kind": e.kind, "cards": cards, "words": words, "event": i}
    return out, (len(events) - 1 if events else None)


def deal_snapshot(view: ConquianView | CooncanView | MexicanoView, show_buried: bool, own: bool) -> dict[str, Any]:
    """A deal from a seat's view; ``own=False`` keeps only the public part (no hand)."""
    if isinstance(view, MexicanoView):
        return mexicano_snapshot(view, show_buried, own)
    if isinstance(view, ConquianView):
        tbl = meld_table(view.rules)
        key = tbl.sort_key
        sides = [
            {"seat": s, "melds": [_cards(cards_of(m), key) for m in view.side_masks[p]],
             "down": view.down_mask(p).bit_count()}
            for p, s in enumerate(view.seats)
        ]
        counts = [len(view.hand), view.adversary_hand_count] if view.player == 0 else \
            [view.adversary_hand_count, len(view.hand)]
        return {
            "family": "conquian",
            "dealer": view.dealer,
            "seats": list(view.seats),
            "hand": _cards(list(view.hand), key) if own else None,
            "sides": sides,
            "card_in_play": card_str(view.card) if view.card >= 0 else None,
            "phase": view.phase,
            "to_act": view.to_act,
            "pack": view.pack_count,
            "hand_counts": counts,
            "buried": _cards(cards_of(view.buried_mask), key) if show_buried else None,
            "winner": view.winner_seat,
            "over": view.over,
        }
    covered = view.rules.stock != "open" and not show_buried
    return {
        "family": "cooncan",
        "dealer": view.dealer,
        "seats": list(range(1, len(view.hand_counts) + 1)),
        "hand": [("X" if c == JOKER else card_str(c)) for c in view.hand] if own else None,
        "combos": [{"number": i, "owner": cb.owner, "cards": cb.display().split()}
                   for i, cb in enumerate(view.combos, 1)],
        "stock": [card_str(c) for c in (view.stock[-1:] if covered else view.stock)],
        "stock_count": len(view.stock),
        "phase": view.phase,
        "to_act": view.to_act,
        "pack": view.pack_count,
        "pack_turns": view.pack_turns,
        "hand_counts": list(view.hand_counts),
        "laid": list(view.laid),
        "taken": card_str(view.taken) if own and view.taken >= 0 else None,
        "winner": view.winner_seat,
        "void": view.void,
        "over": view.over,
    }


def mexicano_snapshot(view: MexicanoView, show_buried: bool, own: bool) -> dict[str, Any]:
    """A conquián mexicano deal (R8) from a seat's view: conquian's fields for every seat in the
    order of play, the exchange as this seat knows it (the card it gave; the card it got only once
    every seat has given, R8.2), who passed the card in play and who has the say (R8.3).
    ``own=False`` (a spectator) keeps only the public part."""
    key = meld_table(view.rules).sort_key
    seats = view.seats
    n = len(seats)
    me = view.player
    passed: list[int] = []
    if view.phase == "say" and view.actor_seat is not None:
        # the players from the first say up to the one to act have passed the card in play (R8.3)
        passed = [seats[(view.first + k) % n] for k in range((seats.index(view.actor_seat) - view.first) % n)]
    ended = None
    if view.over:
        ended = "tablas" if view.winner_seat is None else (
            "fewest" if view.events and view.events[-1].kind == "fewest" else "out")
    return {
        "family": "mexicano",
        "dealer": view.dealer,
        "seats": list(seats),
        "hand": _cards(list(view.hand), key) if own else None,
        "sides": [
            {"seat": s, "melds": [_cards(cards_of(m), key) for m in view.side_masks[p]],
             "down": view.down_mask(p).bit_count()}
            for p, s in enumerate(seats)
        ],
        "card_in_play": card_str(view.card) if view.card >= 0 else None,
        "phase": view.phase,
        "to_act": view.to_act,
        "pack": view.pack_count,
        "hand_counts": list(view.hand_counts),
        "buried": _cards(cards_of(view.buried_mask), key) if show_buried else None,
        "winner": view.winner_seat,
        "over": view.over,
        "goal": view.rules.hand_size + 1,
        "origin": seats[view.origin] if view.card >= 0 else None,
        "passed": passed,
        "ended": ended,
        "exchange": {
            "on": view.rules.exchange,
            "given": [s for s, g in zip(seats, view.given, strict=True) if g],
            "to": seats[(me + 1) % n] if own else None,
            "from": seats[(me - 1) % n] if own else None,
            "gave": card_str(view.gave) if own and view.gave is not None else None,
            "got": card_str(view.got) if own and view.got is not None else None,
        },
    }


def revealed_hands(deal: ConquianDeal | CooncanDeal | MexicanoDeal) -> dict[str, list[str]]:
    """Every hand at the end of a deal (public then), by seat number as a string."""
    if not deal.over:
        raise ValueError("hands are shown only when the deal is over")
    return all_hands(deal)


def all_hands(deal: ConquianDeal | CooncanDeal | MexicanoDeal) -> dict[str, list[str]]:
    """Every hand, by seat number as a string: only for a deal that is over, or a finished match's
    replay (the caller's duty: nothing here checks it)."""
    if isinstance(deal, ConquianDeal | MexicanoDeal):
        key = deal.tbl.sort_key
        return {str(s): _cards(cards_of(deal.hands[p]), key) for p, s in enumerate(deal.seats)}
    return {str(s): [("X" if c == JOKER else card_str(c)) for c in deal.hand(s)] for s in range(1, deal.n + 1)}


def selection_options(table: Table, seat: int | None, cards: list[str],
                      tr: Translator = ENGLISH) -> list[tuple[str, str]]:
    """The ``options`` answer: the moves the selected ``cards`` make for ``seat`` (listed moves
    holding every selected card, and forms built from the selection and checked by the engine),
    each as its notation and its words for the reader; none when it is not the seat's turn.  A
    card that is not one, or not in the seat's hand, is refused (``bad_message``)."""
    found = _selection_actions(table, seat, cards)
    if found is None:
        return []
    session, _view, actions = found
    return [(session.action_words(a), session.move_label(a, tr)) for a in actions]


def options_message(table: Table, seat: int | None, cards: list[str], tr: Translator = ENGLISH) -> dict[str, Any]:
    """The whole ``options`` answer to ``seat``: the moves the selected ``cards`` make in the
    notation (``actions``) and in words (``words``), and as the page offers them (``moves``:
    :func:`~conquian.web.moves.offered_moves`).  Refused as :func:`selection_options` is."""
    found = _selection_actions(table, seat, cards)
    if found is None or seat is None:
        return {"type": "options", "cards": cards, "actions": [], "words": [], "moves": []}
    session, view, actions = found
    moves = offered_moves(session, view, seat, actions, tr)
    return {"type": "options", "cards": cards, "actions": [m["act"] for m in moves],
            "words": [session.move_label(a, tr) for a in actions], "moves": moves}


def _selection_actions(table: Table, seat: int | None,
                       cards: list[str]) -> tuple[GameSession, Any, list[Action]] | None:
    # the moves the selection makes, each once, in the order a player thinks of them (None: not the seat's turn)
    if seat is None or table.session is None or table.status != PLAYING:
        return None
    session = table.session
    deal = session.deal
    if deal.to_act != seat:
        return None
    try:
        chosen = [parse_card(c) for c in cards]
    except ConquianError:
        raise TableError("bad_message", Msg("a selected card is not a card")) from None
    view = deal.view(seat)
    # a double pack holds two of a card: the cards held as a set (a sum of their bits would carry)
    held = set(cards_of(view.hand_mask)) if hasattr(view, "hand_mask") else set(view.hand)
    if any(c >= 0 and c not in held for c in chosen):
        raise TableError("bad_message", Msg("select only cards in your hand"))
    names = {c.replace("10", "T") for c in cards}
    listed = [a for a in order_moves(view.legal_actions(), view.phase)
              if names <= set(str(a).replace("|", " ").split()[2:])]
    built = order_moves(session.actions_from_selection(chosen), view.phase) if chosen else []
    out: list[Action] = []
    seen: set[str] = set()
    for a in [*listed, *built]:
        words = session.action_words(a)
        if words not in seen:
            seen.add(words)
            out.append(a)
    return session, view, out


def hint_message(session: GameSession, seat: int, act: str, tr: Translator) -> dict[str, Any]:
    """The ``hint`` answer to ``seat``: the review's best move ``act`` (chosen from the seat's view) in
    the notation and in words, and the live outs of its partial combinations, from its view."""
    action = parse_action(act)
    outs = live_out_msgs(session.deal, seat)
    out = {"type": "hint", "act": session.action_words(action), "move": session.move_label(action, tr),
           "outs": [tr.render(m) for m in outs]}
    if spanish_pack(session.rules):  # for a page that shows the Spanish pack's suits (R8.1)
        out["outs_suits"] = [tr.shown(True).render(m) for m in outs]
    return out
