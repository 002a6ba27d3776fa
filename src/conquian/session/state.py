"""The table's state as a session sees it (the deal, who is to act, the match's end) and its log.

:class:`SessionState` is the base the session's other parts (:mod:`.telling`, :mod:`.moves`,
:mod:`.records`) read; :class:`~conquian.session.GameSession` composes them and plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from conquian.bots import Bot
from conquian.engine.actions import Action
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.deck import SplitMix64
from conquian.engine.match import Deal, Match
from conquian.engine.rules import Rules
from conquian.i18n import Msg, Translator, active
from conquian.words import HUMAN, Words


@dataclass(frozen=True)
class LogLine:
    """One line of the table's log: ``text`` as everyone sees it, and for one ``seat`` (a draw from the
    pack, a hint) the ``private`` text only that seat may read.  ``text`` empty: a line for that seat only."""

    text: str | Msg
    seat: int | None = None
    private: str | Msg = ""

    def for_seat(self, seat: int | None) -> str | Msg:
        """The line as ``seat`` sees it (``None``: a spectator), or "" if it is not for him; a
        :class:`~conquian.i18n.Msg` is rendered in the reader's language (:meth:`render`)."""
        return self.private if seat is not None and seat == self.seat else self.text

    def render(self, seat: int | None, tr: Translator | None = None) -> str:
        """The line as ``seat`` reads it, in ``tr``'s language (the program's by default)."""
        return (tr or active()).render(self.for_seat(seat))



class SessionState(Words):
    """What every part of a session reads: its seats, its match, its log (the fields are
    :class:`~conquian.session.GameSession`'s)."""

    rules: Rules
    seats: list[str]
    names: list[str] | None
    seed: int
    deals_in_match: int | None
    lines: list[LogLine]
    bots: dict[int, Bot]
    first_deck: Sequence[int] | None
    first_dealer: int | None
    match: Match
    started: str
    _seeds: SplitMix64
    _rendered: dict[tuple[int | None, int], tuple[Translator, list[str], int, LogLine | None]]

    @property
    def deal(self) -> Deal:
        """The current deal."""
        return self.match.deals[-1]

    @property
    def human_seats(self) -> list[int]:
        """The seats played by people."""
        return [i + 1 for i, kind in enumerate(self.seats) if kind == HUMAN]

    @property
    def human_to_act(self) -> bool:
        """Whether a person is to act now."""
        seat = self.deal.to_act
        return seat is not None and self.seats[seat - 1] == HUMAN

    def holds_cards(self, seat: int) -> bool:
        """Whether a seat plays this deal (R6.3: at a three-seat conquian table the dealer sits out)."""
        deal = self.deal
        return not isinstance(deal, ConquianDeal) or seat in deal.seats

    @property
    def sitting_out(self) -> int | None:
        """The seat that sits out this deal (three at a conquian table, R6.3), if any."""
        deal = self.deal
        if isinstance(deal, ConquianDeal) and deal.n_seats == 3:
            return deal.dealer
        return None

    @property
    def match_over(self) -> bool:
        """Whether every deal of the match has been played."""
        rounds = self.match.rounds
        last = self.deals_in_match or 1
        if rounds is not None:  # Cooncan, the mexicano: the match ends with its round (R5.4, R8.7)
            last = min(last, rounds * self.rules.players)
        return self.deal.over and len(self.match.deals) >= last

    @property
    def log(self) -> list[str]:
        """The log as a spectator reads it (no one's draws from the pack, no hints), in the program's language."""
        return self.log_for(None)

    def log_for(self, seat: int | None, tr: Translator | None = None) -> list[str]:
        """The log as ``seat`` reads it: his own draws from the pack and his hints, nobody else's;
        in ``tr``'s language (the program's by default)."""
        return self.log_tail(seat, tr, None)

    def log_tail(self, seat: int | None, tr: Translator | None = None, count: int | None = None) -> list[str]:
        """The last ``count`` lines of :meth:`log_for` (every line for ``None``).  Each seat's log is
        rendered once per language and kept: a call renders only the lines added since the last,
        so that it costs the same at the first move of a match and the thousandth."""
        tr = tr or active()
        lines = self.lines
        key = (seat, id(tr))
        kept = self._rendered.get(key)
        done = 0
        out: list[str] = []
        if kept is not None and kept[0] is tr and kept[2] <= len(lines) and (
                kept[2] == 0 or lines[kept[2] - 1] is kept[3]):
            _tr, out, done, _last = kept
        for line in lines[done:]:
            text = line.render(seat, tr)
            if text:
                out.append(text)
        self._rendered[key] = (tr, out, len(lines), lines[-1] if lines else None)
        return out[-count:] if count else out[:]

    def say(self, text: str | Msg, seat: int | None = None, private: str | Msg = "") -> LogLine:
        """Add a line to the log (``seat`` and ``private``: see :class:`LogLine`)."""
        line = LogLine(text, seat, private)
        self.lines.append(line)
        return line

    def legal(self) -> list[Action]:
        """The listed legal actions of the seat to act."""
        return self.deal.legal_actions()
