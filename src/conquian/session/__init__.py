"""A game at one table: people and bots, a match, a log in words, records (no user interface).

The terminal application (:mod:`conquian.tui`) is a thin layer over this.  A
session knows which seats are people, lets bots play their turns one at a time
(so an interface can pace them), writes every action in words, and saves the
match as a record.

Its parts, by concern: the state and the log (:mod:`.state`), the words (:mod:`.telling`), a
person's moves typed or selected (:mod:`.moves`), the records (:mod:`.records`), and the deal's
flow with the people's and the bots' turns (:mod:`.game`), where :class:`GameSession` composes them.

```pycon
>>> from conquian import get_rules
>>> s = GameSession(get_rules("conquian"), seats=["human", "foster"], names=["Ann", "Bob"], seed=3)
>>> s.human_to_act, s.deal.to_act
(True, 1)
>>> line = s.play_human(s.legal()[0])
>>> line.startswith("Ann ")
True

```
"""

from conquian.engine.actions import Draw
from conquian.hints import current_round, live_out_msgs, live_outs
from conquian.present import Joined
from conquian.session.game import GameSession, resume
from conquian.session.moves import action_cards, seated_action
from conquian.session.records import (
    TABLE_NOTE,
    FinishedMatchError,
    is_unfinished,
    read_table_note,
    seats_from_bots,
    table_note,
)
from conquian.session.state import LogLine
from conquian.words import HUMAN, YOU

__all__ = ["HUMAN", "TABLE_NOTE", "YOU", "Draw", "FinishedMatchError", "GameSession", "Joined", "LogLine",
           "action_cards", "current_round", "is_unfinished", "live_out_msgs", "live_outs", "read_table_note",
           "resume", "seated_action", "seats_from_bots", "table_note"]
