"""Offline matches come home: a match played in the offline app (the page's own engine, against
the bots) kept in its player's history once the page is online again (``POST
/api/offline-matches``, docs/protocol.md).

The page sends the match's record (``conquian-record/1``, with the table note of who sat where,
as its "Export the record" writes it).  The server replays it with the engine: a record that is
not a legal, finished match of a known preset is refused (``400 bad_record`` with the reason,
its deal and action); else it is stored as a finished table of the server, the player (the
signed-in account, a name chosen) at seat 1 and the bots at the others, tied to the account, so
that its replay, record and review work as a server match's.  It is marked offline
(:data:`offline_matches`) and never rated: the cards and the bots' moves are the page's word,
not the server's.  Like a casual private match, only its player sees it (his own page, its
replay and review).  The same record sent again is stored once (its digest, per account).

```pycon
>>> from conquian import Match, get_rules
>>> from conquian.engine.record import record_from_match, write_record
>>> m = Match(get_rules("conquian"), ["Me", "Foster"])
>>> d = m.new_deal(seed=5)
>>> while not d.over:
...     _ = d.play(d.legal_actions()[-1])
>>> note = table_note(["human", "foster"], 1)
>>> t, digest = offline_table(note + write_record(record_from_match(m)), "Ann")
>>> t.status, t.names, t.seats[1].kind, len(digest)
('over', ['Ann', 'Foster'], 'foster', 64)

```
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from conquian.bots import bot_names
from conquian.engine.errors import ConquianError
from conquian.engine.match import new_deal
from conquian.engine.record import ReplayError, read_record, replay, write_record
from conquian.engine.rules import CONQUIAN
from conquian.i18n import Msg
from conquian.session import HUMAN, read_table_note, table_note
from conquian.web.table import OVER, Table, deck_text

#: The largest record accepted (bytes of the request's body): a whole match of the largest game
#: with its decks is a few tens of kilobytes.
MAX_BYTES = 256 * 1024
"""The tables that are matches played offline and sent home: whose, and the digest of the record
(the same record is kept once per account)."""


class OfflineError(ConquianError):
    """An offline match refused: its record is not a legal, finished match (``detail``: the
    replay's error object, its deal, action and rule, when it has them)."""

    def __init__(self, message: Msg, detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.detail = detail or {}


def offline_table(text: str, owner: str) -> tuple[Table, str]:
    """The finished table of an offline match's record and the record's digest; ``owner`` sits at
    seat 1 (the record's first seat), the bots its table note names (else ``foster``) at the
    others.  Refused (:class:`OfflineError`): not a record, an illegal move, a result or a deal
    that does not follow from its seed or deck, a match not over."""
    try:
        rec = read_record(text)
        replay(rec)  # every action legal, every result written the one the engine gives
    except ReplayError as e:
        raise OfflineError(Msg("this offline match cannot be kept: {error}", error=e.message), e.to_json()) from None
    n = len(rec.players)
    if n < 2 or not rec.deals:
        raise OfflineError(Msg("this offline match cannot be kept: it has no deal against a bot"))
    rules = rec.rules()
    note = read_table_note(text, n)
    kinds = note[0] if note else [HUMAN] + ["foster"] * (n - 1)
    if kinds[0] != HUMAN or any(k not in bot_names() for k in kinds[1:]):
        raise OfflineError(Msg("this offline match cannot be kept: the player sits at the first seat, bots at "
                               "the others"))
    # the match's length: the table note's (the page writes it); a Cooncan or mexicano match is one
    # round (R5.4, R8.7)
    deals = note[1] if note else (len(rec.deals) if rules.family == CONQUIAN else n)
    table = Table(id=secrets.token_urlsafe(9)[:12], name=rules.name, rules=rules, seed=None, deals_in_match=deals,
                  first_dealer=rec.deals[0].dealer)
    table.seats[0].kind, table.seats[0].name = HUMAN, owner
    for s, k in zip(table.seats[1:], kinds[1:], strict=True):
        s.kind, s.name = k, rec.players[s.number - 1]
    try:
        for i, d in enumerate(rec.deals):
            deck = d.deck if d.deck is not None else new_deal(rules, None, dealer=d.dealer, seed=d.seed).deck
            table.rebuild([f"{'start' if i == 0 else 'next'} {deck_text(deck)}"])
            table.rebuild([f"act {a}" for a in d.actions])
    except ConquianError as e:  # a name the table refuses, a deal past the match's end
        raise OfflineError(Msg("this offline match cannot be kept: {error}", error=e.message)) from None
    if table.status != OVER:
        raise OfflineError(Msg("this offline match cannot be kept: the match is not over"))
    # the digest of the record as the engine writes it (comments and layout aside), its table note with it
    canonical = table_note(kinds, table.deals_in_match or 1) + write_record(rec)
    return table, hashlib.sha256(canonical.encode()).hexdigest()
