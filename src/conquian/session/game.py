"""The session itself: the table's seats and match, the deal's flow, people's and bots' turns.

:class:`GameSession` composes the session's parts: its state and log (:mod:`.state`), its words
(:mod:`.telling`), a person's moves (:mod:`.moves`), its records (:mod:`.records`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import InitVar, dataclass, field
from typing import Any

from conquian.bots import Bot, make_bot
from conquian.engine.actions import Action, parse_action
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.deck import SplitMix64
from conquian.engine.errors import ConquianError, IllegalActionError
from conquian.engine.match import Deal, Match
from conquian.engine.record import Record, read_record, replay
from conquian.engine.rules import CONQUIAN, Rules
from conquian.i18n import Msg, Translator
from conquian.session.moves import SessionMoves
from conquian.session.records import FinishedMatchError, SessionRecords, read_table_note, seats_from_bots
from conquian.session.state import LogLine
from conquian.session.telling import SessionWords
from conquian.words import HUMAN, default_names


@dataclass
class GameSession(SessionWords, SessionMoves, SessionRecords):
    """A match at one table.  ``seats`` holds ``"human"`` or a bot name for each seat."""

    rules: Rules
    seats: list[str]
    names: list[str] | None = None
    seed: int = 0
    deals_in_match: int | None = None
    """Conquian: deals to play (default 6); Cooncan: one round (R5.4)."""
    lines: list[LogLine] = field(default_factory=list)
    bots: dict[int, Bot] = field(default_factory=dict)
    first_deck: Sequence[int] | None = None
    """The first deal's deck (None: from ``seed``)."""
    first_dealer: int | None = None
    """The first deal's dealer (None: the last seat, so that seat 1 plays first; R3.8)."""
    record: InitVar[Record | None] = None
    """A saved match to continue: its deals are played again, action by action (see :func:`resume`)."""
    _rendered: dict[tuple[int | None, int], tuple[Translator, list[str], int, LogLine | None]] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    """Each seat's log rendered so far, per language: (translator, lines, lines of ``lines`` read,
    the last of them), for :meth:`log_tail`."""

    def __post_init__(self, record: Record | None) -> None:
        n = self.rules.players
        if len(self.seats) != n:
            raise ConquianError(Msg("{game} with {n} players needs {n} seats, not {seats}", game=self.rules.name, n=n,
                                    seats=len(self.seats)))
        self.names = list(self.names) if self.names else default_names(self.seats)
        for i, kind in enumerate(self.seats):
            if kind != HUMAN:
                self.bots[i + 1] = make_bot(kind, seed=self.seed * 7 + i)
        self.match = Match(self.rules, self.names, first_dealer=self.first_dealer,
                           rounds=None if self.rules.family == CONQUIAN else 1)
        if self.deals_in_match is None:
            self.deals_in_match = 6 if self.rules.family == CONQUIAN else n
        self._seeds = SplitMix64(self.seed)
        self.started = time.strftime("%Y%m%d-%H%M%S")
        if record is not None:
            self._play_again(record)
        if not self.match.deals or (self.deal.over and not self.match_over):
            self.new_deal(None if self.match.deals else self.first_deck)

    def _play_again(self, record: Record) -> None:
        """The deals of a saved match, dealt and played again in this session (its log and scores)."""
        replay(record)  # every action and result checked first: a bad record fails here, whole
        for d in record.deals:
            self._announce(self.match.new_deal(d.deck, seed=d.seed, dealer=d.dealer))
            for text in d.actions:
                self._play(parse_action(text))

    def new_deal(self, deck: Sequence[int] | None = None) -> Deal:
        """Deal the next hand (the deal passes to the left, R3.8, R5.4): ``deck`` if given, else
        the next deck of ``seed``'s sequence."""
        d = self.match.new_deal(deck) if deck is not None else self.match.new_deal(seed=self._seeds.next64())
        self._announce(d)
        return d

    def play_human(self, action: Action | str) -> str:
        """Play a person's action (text may leave out the seat); returns the log line.

        Raises :class:`~conquian.engine.errors.ConquianError` (the state unchanged) if it is refused.
        """
        seat = self.deal.to_act
        if seat is None:
            raise IllegalActionError("R7", Msg("the deal is over"))
        return self._play(self.read_move(action, seat))

    def bot_step(self) -> str | None:
        """Let the bot to act play one action; None if a person is to act or the deal is over."""
        seat = self.deal.to_act
        if seat is None or self.seats[seat - 1] == HUMAN:
            return None
        view = self.deal.view(seat)
        bot: Any = self.bots[seat]  # a bot that does not play these rules refuses the view (TypeError)
        action = bot.choose(view)
        return self._play(action)

    def _play(self, action: Action) -> str:
        deal = self.deal
        before = deal.n_events
        deal.play(action)
        said = []
        for e in deal.recent_events(deal.n_events - before):
            line = self.describe_line(e)
            if line is not None:
                self.lines.append(line)
                said.append(str(line.text or line.private))
            if isinstance(deal, MexicanoDeal) and e.kind == "exchange":
                self.lines += self.exchange_lines(deal)  # each seat's own: never in ``said``
        if deal.over:
            self.match.settle()
            said.append(str(self.say(self.result_msg()).text))
        return "; ".join(said)


def resume(text: str, *, seed: int = 0, seats: Sequence[str] | None = None) -> GameSession:
    """A saved match, continued: the record's deals played again (the same deals, the same actions),
    the same players by name, the same bots by name (its :func:`table_note`; without one, ``seats``
    or else a person in the first seat against the default bot), the scores so far.  The deals
    still to come are shuffled from ``seed``.

    Raises :class:`~conquian.engine.record.ReplayError` for a text that is not a valid record and
    :class:`FinishedMatchError` for a match that is over.

    ```pycon
    >>> from conquian import get_rules
    >>> s = GameSession(get_rules("conquian"), seats=["human", "foster"], names=["Ann", "Bob"], seed=3)
    >>> _ = s.play_human(s.legal()[0]); _ = s.play_human(s.legal()[0])
    >>> again = resume(s.record_text(), seed=9)
    >>> again.names, again.seats, str(again.deal.actions()[-1]) == str(s.deal.actions()[-1])
    (['Ann', 'Bob'], ['human', 'foster'], True)

    ```
    """
    rec = read_record(text)
    rules = rec.rules()
    note = read_table_note(text, rules.players)
    if note is not None:
        kinds, deals = note
    else:
        kinds = list(seats) if seats else seats_from_bots(rules, None)
        deals = 6 if rules.family == CONQUIAN else rules.players
    played = replay(rec).deals  # a bad record is refused as such, before anything else is said of it
    if len(played) >= deals and played[-1].scores is not None:
        raise FinishedMatchError(Msg("the match is over ({played} deals of {deals} played): nothing to resume",
                                     played=len(rec.deals), deals=deals))
    return GameSession(rules, kinds, names=rec.players, seed=seed, deals_in_match=deals, record=rec)
