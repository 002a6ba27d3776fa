"""A finished match, step by step, for the browser's replay viewer: every hand shown (the match
is over, so nothing is hidden any more), one frame per action.

```pycon
>>> from conquian import Match, get_rules
>>> m = Match(get_rules("conquian"), ["Ann", "Bob"])
>>> d = m.new_deal(seed=9)
>>> while not d.over:
...     _ = d.play(d.legal_actions()[-1])
>>> frames = replay_frames(m)
>>> frames[0]["action"], frames[-1]["deal"]["over"], len(frames) == len(d.actions()) + 1
(None, True, True)

```
"""

from __future__ import annotations

import json
from typing import Any

from conquian.engine.actions import parse_action
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.match import Match, new_deal
from conquian.engine.record import read_record
from conquian.i18n import Msg, Translator
from conquian.present import spanish_pack
from conquian.session import GameSession
from conquian.web.snapshot import all_hands, deal_snapshot


def replay_frames(match: Match) -> list[dict[str, Any]]:
    """Every position of every deal of ``match``: the deal (public part), every hand, the action
    that led to it and the scores after the deal."""
    frames: list[dict[str, Any]] = []
    for i, played in enumerate(match.deals):
        deal = new_deal(match.rules, played.deck, dealer=played.dealer)
        actions = [None, *played.actions()]
        for k, action in enumerate(actions):
            if action is not None:
                deal.play(action)
            first = deal.seats[0] if isinstance(deal, ConquianDeal | MexicanoDeal) else 1
            frames.append({
                "deal_number": i + 1,
                "step": k,
                "action": None if action is None else str(action),
                "deal": deal_snapshot(deal.view(first), show_buried=True, own=False),
                "hands": all_hands(deal),
                "scores": match.results[i] if deal.over and i < len(match.results) else None,
            })
    return frames


def replay_moves(session: GameSession, tr: Translator) -> list[dict[str, str] | None]:
    """Each frame's move (:func:`replay_frames`, in the same order) as the replay shows it, in
    ``tr``'s language: "Lupita: pay 5♣", the words of the table's own list
    (:meth:`~conquian.session.GameSession.move_msg`), ``words_suits`` too beside the Spanish pack
    (R8.1); None for a deal's first frame.  The page never reads the notation."""
    spanish = spanish_pack(session.rules)
    out: list[dict[str, str] | None] = []
    for played in session.match.deals:
        deal = new_deal(session.rules, played.deck, dealer=played.dealer)
        out.append(None)
        for action in played.actions():
            msg = Msg("{who}: {move}", who=session.person(action.seat), move=session.move_msg(action, deal))
            words = {"words": tr.shown(False).render(msg)}
            if spanish:
                words["words_suits"] = tr.shown(True).render(msg)
            out.append(words)
            deal.play(action)  # after its words: a use that goes out is told from the hand before it
    return out


def review_moves(session: GameSession, review: dict[str, Any], tr: Translator) -> dict[str, dict[str, str]]:
    """Every move a review of ``session``'s match names (``review``: its JSON; each decision's
    move played, the best, foster's, each choice), by its notation, as the replay says a move
    (:func:`replay_moves`: the seat named, the words of the table's list where the decision was
    taken), ``words_suits`` too beside the Spanish pack; a move named at several decisions is
    said as at the first."""
    spanish = spanish_pack(session.rules)
    played = session.match.deals[int(review["deal"]) - 1]
    deal = new_deal(session.rules, played.deck, dealer=played.dealer)
    decisions = {int(d["action_index"]): d for d in review["decisions"]}
    out: dict[str, dict[str, str]] = {}
    for j, action in enumerate(played.actions(), 1):
        d = decisions.get(j)
        named = [] if d is None else [d["played"], d["best"], d["foster"], *(c["action"] for c in d["candidates"])]
        for act in named:
            if act in out:
                continue
            move = parse_action(act)
            msg = Msg("{who}: {move}", who=session.person(move.seat), move=session.move_msg(move, deal))
            out[act] = {"words": tr.shown(False).render(msg)}
            if spanish:
                out[act]["words_suits"] = tr.shown(True).render(msg)
        deal.play(action)
    return out


def match_of_record(text: str) -> Match:
    """The match a record holds, every deal played again (its last deal settled if over)."""
    rec = read_record(text)
    match = Match(rec.rules(), rec.players, rounds=None)
    for d in rec.deals:
        deal = match.new_deal(d.deck, seed=d.seed, dealer=d.dealer)
        for action in d.actions:
            deal.play(action)
    if match.deals and match.deals[-1].over:
        match.settle()
    return match


def replay_json(text: str) -> bytes:
    """The replay's frames of the match in the record ``text``, as JSON (the heavy part of ``GET
    /api/tables/{id}/replay``: run in a worker process, never on the server's event loop)."""
    return json.dumps(replay_frames(match_of_record(text)), separators=(",", ":"), ensure_ascii=False).encode()
