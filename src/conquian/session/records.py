"""A session's records: the match written as a record with a note of who sits at the table
(docs/records.md), saved atomically; a saved record read back (its table note, whether it is
unfinished); the seats ``--bots`` names."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence

from conquian.engine.errors import ConquianError
from conquian.engine.files import atomic_write, records_dir
from conquian.engine.record import ReplayError, read_record, record_from_match, write_record
from conquian.engine.rules import CONQUIAN, Rules
from conquian.i18n import Msg
from conquian.session.state import SessionState
from conquian.words import HUMAN

#: The start of a record's comment line that says who sits at the table (:func:`table_note`):
#: the record format skips it, and the record stays exactly as docs/records.md describes it.
TABLE_NOTE = "# table = "
_KIND = re.compile(r"[a-z][a-z0-9_-]{0,30}")


class FinishedMatchError(ConquianError):
    """A record whose match is over: there is nothing to resume."""


class SessionRecords(SessionState):
    """Writing the session's match as a record and saving it."""

    def record_text(self) -> str:
        """The match so far as a record (docs/records.md), after a comment saying who plays each
        seat (a person or a bot, by name) and the deals of the match, for :func:`resume`."""
        return table_note(self.seats, self.deals_in_match or 1) + write_record(record_from_match(self.match))

    def default_record_name(self) -> str:
        """A file name for this match's record."""
        return f"conquian-{self.rules.name}-{self.started}.toml"

    def default_record_path(self) -> str:
        """Where this match's record goes when no path is given: a new file in the data folder
        (:func:`~conquian.engine.files.records_dir`, made if missing), never the current directory."""
        folder = records_dir()
        folder.mkdir(parents=True, exist_ok=True)
        return str(folder / self.default_record_name())

    def save(self, path: str | None = None) -> str:
        """Write the record atomically (a temporary file renamed over ``path``); returns the path.

        Without ``path``, to :meth:`default_record_path`.  Raises :class:`OSError` if it cannot be
        written; the file at ``path`` is then unchanged.
        """
        path = path or self.default_record_path()
        atomic_write(path, self.record_text())
        return path


def table_note(seats: Sequence[str], deals: int) -> str:
    """The comment line of a record that says who sits at the table: ``human`` or a bot's name for
    each seat, and the deals of the match.

    ```pycon
    >>> table_note(["human", "foster"], 6)
    '# table = { seats = ["human", "foster"], deals = 6 }\\n'

    ```
    """
    kinds = ", ".join(f'"{k}"' for k in seats if _KIND.fullmatch(k))
    return f"{TABLE_NOTE}{{ seats = [{kinds}], deals = {deals} }}\n"


def read_table_note(text: str, players: int) -> tuple[list[str], int] | None:
    """The seats and the number of deals a record's :func:`table_note` gives, or None if it has none
    (a record not written by ``conquian play``) or one that does not fit its ``players`` seats."""
    from conquian.bots import bot_names

    for line in text.splitlines():
        if not line.startswith(TABLE_NOTE):
            continue
        try:
            note = tomllib.loads("table = " + line[len(TABLE_NOTE):])["table"]
        except (tomllib.TOMLDecodeError, ValueError, RecursionError):
            return None
        seats, deals = note.get("seats"), note.get("deals")
        known = (HUMAN, *bot_names())
        if (isinstance(seats, list) and len(seats) == players and all(k in known for k in seats)
                and type(deals) is int and 1 <= deals <= 10_000):
            return list(seats), deals
        return None
    return None


def is_unfinished(text: str) -> bool:
    """Whether a record's text is a match ``conquian play`` could resume (read, not replayed)."""
    try:
        rec = read_record(text)
        rules = rec.rules()
    except (ReplayError, ConquianError):
        return False
    note = read_table_note(text, rules.players)
    deals = note[1] if note else (6 if rules.family == CONQUIAN else rules.players)
    return not rec.deals or rec.deals[-1].result is None or len(rec.deals) < deals


def seats_from_bots(rules: Rules, bots: Sequence[str] | None) -> list[str]:
    """Seat kinds from ``--bots``: ``human`` first, then the bots, or as listed if it names humans."""
    n = rules.players
    names = [b.strip() for b in (bots or []) if b.strip()]
    if HUMAN in names:
        if len(names) != n:
            raise ConquianError(Msg("--bots lists {listed} seats; {game} seats {n}", listed=len(names), game=rules.name,
                                    n=n))
        return names
    if not names:
        from conquian.bots.expert import strongest_quick_bot

        names = [strongest_quick_bot()]
    if len(names) == 1:
        names = names * (n - 1)
    if len(names) != n - 1:
        raise ConquianError(Msg("--bots: give {n} bots for the other seats (or one for all), not {given}", n=n - 1,
                                given=len(names)))
    return [HUMAN, *names]
