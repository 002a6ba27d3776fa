"""Friends, blocks and reports of ``conquian serve``'s accounts.

- **Friends.** A signed-in player with a name shares an "add me" link (``/f/{code}``: as a link,
  a QR code, or the phone's share sheet); whoever opens it signed in, with a name, is asked to
  confirm, and the two are friends.  A new link ends the old one.  The friends list tells who is
  online (a live connection to a table, or a request, in the last :data:`ONLINE_WINDOW` seconds,
  kept in the database so every server process agrees), and a player at a table may invite a
  friend to it: the friend finds the invitation (the table's join link, nothing of its cards)
  on the lobby and on the account page.
- **Blocks.** A player may block another (by name, or from one of his chat lines at a table).
  Neither then reads the other's chat lines and reactions, in either direction, at any table and
  in every server process; :func:`blocked_between` tells a pairing not to seat them together.
- **Reports.** Anyone at a table may report a chat line he read: the server keeps what was said,
  by whom (the seat's name, and its account if it had one), where and when, for its owner, who
  reads them with ``conquian admin reports`` and closes them with ``conquian admin resolve ID``.
  A report names the line by the id the server gave it, so its words are the server's, not the
  reporter's.

Deleting an account deletes its friendships, blocks, invitations and friend link; a report it
made or was named in keeps the words and the seat's name, without the account.
"""

from __future__ import annotations

from conquian.engine.errors import ConquianError
from conquian.i18n import Msg

#: Seconds since a player's last connection or request during which he shows as online.
ONLINE_WINDOW = 300.0
#: Seconds between two notes of "still here" for the accounts connected to this process's tables.
SEEN_EVERY = 60.0
#: Chat lines this process remembers (what a report may name).
LINES_KEPT = 5000
#: Invitations a player keeps (the newest), and how long one is shown.
NOTICES_KEPT, NOTICE_AGE = 20, 24 * 3600.0
#: Reports one connection may make.
REPORTS_PER_CONNECTION = 20
#: A report's states.
OPEN_REPORT, RESOLVED = "open", "resolved"


class FriendError(ConquianError):
    """A refused friends request (its ``code``, a sentence and the HTTP status)."""

    def __init__(self, code: str, message: Msg, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.status = code, status


NO_PLAYER = Msg("there is no player of that name")
